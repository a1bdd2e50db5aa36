"""The runtime front end: Python functions and ``typing`` objects -> the neutral model.

An annotation is *evaluated* into a ``core.forms`` form (``_Evaluation``: what was written,
a Literal's order read back from the source where typing's caches lose it), and
``core.lowering`` turns the form into model nodes, asking ``_Classes`` what only the
runtime knows of a class. It reports what was written and never judges: an ``Any``
becomes ``Unsupported("any")`` and the shared core decides it is OLT002. Caches stay in
front of the lowering: lowered annotations by identity, records per class (and type
arguments), enums and class forms per class, one node per scalar type.
"""

from __future__ import annotations

import dataclasses
import enum
import sys
import types
import typing
from collections import abc
from collections.abc import Callable, Mapping
from typing import Any, cast

import typing_extensions

from ..aliases import CharMarker, JsonMarker, SizedInt
from ..context import CancellationToken, ToolContext
from ..core import fields as field_args
from ..core import foreign
from ..core.caches import BoundedCache
from ..core.enums import enum_node, enum_wire, kept_enum
from ..core.fielddefaults import annotated_default, field_default, stored_field, with_markers
from ..core.forms import (
    FAnnotated,
    FAny,
    FBare,
    FCallable,
    FClass,
    FEllipsis,
    FGeneric,
    FLiteral,
    FNewType,
    FNone,
    Form,
    FOther,
    FTypeVar,
    FUnion,
    LitValue,
    Meta,
    NodeMeta,
)
from ..core.lowering import Lowering, Subst, returned
from ..core.metadata import read_metadata, without_placeholders
from ..core.model import (
    NO_DEFAULT,
    NONE_DEFAULT,
    OPAQUE_DEFAULT,
    Annotated,
    Default,
    EnumType,
    JsonType,
    Marker,
    Param,
    ParamKind,
    Record,
    RecordField,
    RecordKind,
    Returns,
    Scalar,
    ScalarKind,
    ToolModel,
    TypeNode,
    Unsupported,
    writable_number,
)
from ..core.options import ToolOptions
from ..core.scalars import BY_TYPE
from ..results import FilePart, ImagePart, JsonPart, TextPart, ToolResult
from . import models

if typing.TYPE_CHECKING:
    from .sourcetext import Origin

__all__ = ["lower_type", "lower_function", "InvalidAnnotation", "Unresolved"]

_SAME: Any = object()  # lower_type's default root: the annotation itself
#: Where an annotation was written: (function, parameter name or "return") or (record class, field name).
Site = tuple[object, str]

#: One node per scalar type (the rows of ``core.scalars``), shared: nodes are immutable, and
#: the commonest annotations (``str``, ``int``) then cost a dictionary look-up.
_SCALAR_NODES: dict[object, Scalar] = {tp: Scalar(kind) for tp, kind in BY_TYPE.items()}

_LISTS: set[object] = {list, abc.Sequence, abc.MutableSequence, abc.Iterable, abc.Collection}
_UNIONS: set[object] = {typing.Union, types.UnionType}
_ANNOTATED: set[object] = {typing.Annotated, typing_extensions.Annotated}
_LITERALS: set[object] = {typing.Literal, typing_extensions.Literal}
_TD_WRAPPERS: set[object] = {
    getattr(m, n) for m in (typing, typing_extensions) for n in ("Required", "NotRequired", "ReadOnly") if hasattr(m, n)
}
_REQUIRED: set[object] = {getattr(m, "Required") for m in (typing, typing_extensions) if hasattr(m, "Required")}
_NOT_REQUIRED: set[object] = {
    getattr(m, "NotRequired") for m in (typing, typing_extensions) if hasattr(m, "NotRequired")
}
_PARTS: set[object] = {TextPart, JsonPart, ImagePart, FilePart, ToolResult}
_CALLABLE: object = abc.Callable


class Unresolved(Exception):
    """An annotation names something that does not exist (yet): lowering is retried later."""


class InvalidAnnotation(Exception):
    """A string annotation that is not a Python expression (``"list[int"``); never retried.

    ``args``: the annotated name (``""`` when not known) and the annotation's text."""

    def __init__(self, name: str, text: str) -> None:
        super().__init__(name, text)
        self.name = name
        self.text = text


def _check_strings(annotations: Mapping[str, object]) -> None:
    """Raise ``InvalidAnnotation`` for the first string annotation that does not compile."""
    for name, value in annotations.items():
        if isinstance(value, str) and _compiled(value) is None:
            raise InvalidAnnotation(name, value)


def _markers(meta: object) -> tuple[Marker, ...]:
    """The neutral form of one ``Annotated`` metadata object (one look-up of its class in
    the marker table): its markers, or its refusal."""
    return read_metadata(meta)


class _Evaluation:
    """Evaluating one annotation into a form (``core.forms``), where it was written.

    ``site`` and ``root`` are where the annotation was written and its own object: a
    Literal's or a union's order may have to be read from the source there (``_written``).
    """

    def __init__(self, origins: dict[tuple[int, str], Origin], site: Site | None, root: object, in_field: bool) -> None:
        self.origins = origins
        self.site = site
        self.root = root
        self.in_field = in_field
        #: A Literal's order was read at an origin the caches do not key on (the root's, or a
        #: type argument's): the result is not to be cached by the annotation object.
        self.contextual = False

    def evaluate(self, tp: object) -> Form:
        if type(tp) is type:  # a plain class: the usual annotation
            return _NONE_FORM if tp is _NONE_TYPE else _class_form(tp)
        if isinstance(tp, (str, typing.ForwardRef)):
            text = tp if isinstance(tp, str) else tp.__forward_arg__
            if _compiled(text) is None:  # never resolvable: no retry
                raise InvalidAnnotation("", text)
            raise Unresolved(text)
        if tp is None:
            return _NONE_FORM
        if tp is Any or tp is typing_extensions.Any:
            return _ANY_FORM
        if tp is Ellipsis:
            return _ELLIPSIS_FORM
        if isinstance(tp, typing.TypeVar):
            return FTypeVar(tp.__name__, f"{tp.__module__}.{tp.__name__}")
        origin = typing.get_origin(tp)
        if origin is not None:
            return self._generic(tp, origin, typing.get_args(tp))
        # A NewType has no origin. Asked only now because a generic alias answers a missing
        # dunder attribute slowly (its __getattr__ raises), and a NewType is no generic.
        supertype = getattr(tp, "__supertype__", None)
        if supertype is not None:  # evaluated here, where it is written into the annotation
            return self.evaluate(supertype)
        if isinstance(tp, type):
            return _class_form(tp)
        if callable(tp):
            made_by = f"{getattr(tp, '__module__', '')}.{getattr(tp, '__qualname__', '')}"
            if made_by in foreign.FULLNAMES:  # threading.Lock: a class to typeshed, a function here
                return FClass(made_by, made_by.rpartition(".")[0], made_by.rpartition(".")[2], None)
            return _CALLABLE_FORM
        return FOther(repr(tp))

    def _generic(self, tp: object, origin: object, args: tuple[Any, ...]) -> Form:
        if origin in _ANNOTATED:
            metadata = cast("tuple[object, ...]", getattr(tp, "__metadata__"))
            base = self.evaluate(args[0])
            return FAnnotated(base, without_placeholders(tuple(m for meta in metadata for m in _meta(meta))))
        if origin in _UNIONS:
            return FUnion(tuple(self.evaluate(a) for a in self._written_members(tp, args)))
        if origin in _LITERALS:
            return FLiteral(_literal_values(self._written(tp, args)))
        if origin in _TD_WRAPPERS:
            return self.evaluate(args[0])
        if not args:
            return FBare(getattr(origin, "__name__", repr(origin)))
        if origin is _CALLABLE:  # what get_origin gives for typing.Callable too
            return _CALLABLE_FORM
        if origin is type or not isinstance(origin, type):  # type[X]: a class object, named as typing does
            return FOther(repr(tp))
        return FGeneric(_class_form(origin), tuple(self.evaluate(a) for a in args))

    def _written(self, tp: object, args: tuple[Any, ...]) -> tuple[Any, ...]:
        """A Literal's values in the order the source wrote them.

        Behind a cached typing construct (``Optional``, ``Union``, ``Annotated``, ``List``,
        a generic record's arguments) an equal Literal written in another order may stand in
        for this one (CPython #103749, see ``sourcetext``). The annotation's own object is
        the user's, and two values need an order.
        """
        if tp is self.root or sum(1 for a in args if a is not None) < 2:
            return args
        origin = self._origin()
        return args if origin is None else origin.written_order(args)

    def _written_members(self, tp: object, args: tuple[Any, ...]) -> tuple[Any, ...]:
        """A union's members in the order the source wrote them.

        Union equality ignores order too, so ``Optional[A | B]`` may be the cached
        ``Optional[B | A]``; only an ``A | B`` written as the annotation itself is never cached.
        """
        if sum(1 for a in args if a is not type(None)) < 2 or (tp is self.root and isinstance(tp, types.UnionType)):
            return args
        origin = self._origin()
        return args if origin is None else origin.written_members(args)

    def _origin(self) -> Origin | None:
        """Where the annotation being evaluated was written, read from now on (see _written)."""
        if not self.in_field:
            self.contextual = True
        if self.site is None:
            return None
        key = (id(self.site[0]), self.site[1])
        origin = self.origins.get(key)
        if origin is None:
            from .sourcetext import Origin  # only now: the common path reads no source

            origin = self.origins[key] = Origin(*self.site)
        return origin


_NONE_FORM = FNone()
_ANY_FORM = FAny()
_ELLIPSIS_FORM = FEllipsis()
_CALLABLE_FORM = FCallable()


def _class_form(tp: type) -> FClass:
    """A class's form, made once per class (classes are taken as fixed once seen)."""
    form = _CLASS_FORMS.get(tp)
    if form is None:
        module: str = tp.__module__
        fullname = f"{module}.{tp.__qualname__}"
        if "<locals>" in fullname:  # one class statement runs again: each class is its own
            fullname = f"{fullname}@{id(tp):x}"
        form = FClass(fullname, module, tp.__name__, tp)
        _CLASS_FORMS.put(tp, form)
    return form


#: Classes' forms (bounded); each holds its class, so no id is reused while it is kept.
_CLASS_FORMS: BoundedCache[type, FClass] = BoundedCache()


def _meta(meta: object) -> tuple[Meta, ...]:
    """One ``Annotated`` metadata object: the aliases' nodes, else its markers (refusals too)."""
    if isinstance(meta, SizedInt):
        return (NodeMeta(Scalar(ScalarKind.INT, meta.minimum, meta.maximum, meta.name)),)
    if isinstance(meta, CharMarker):
        return (NodeMeta(Scalar(ScalarKind.CHAR)),)
    if isinstance(meta, JsonMarker):
        return (NodeMeta(JsonType(meta.kind)),)  # type: ignore[arg-type]
    return _markers(meta)


def _literal_values(args: tuple[Any, ...]) -> tuple[LitValue, ...]:
    values: list[LitValue] = []
    seen: set[tuple[str, object]] = set()
    for v in args:
        kind = type(v).__name__
        if type(v) in (str, int, bool):
            key = (kind, v)  # by kind too: True == 1, but they are different values here
            if key in seen:
                continue
            seen.add(key)
        values.append(LitValue(kind, v, repr(v)))
    return tuple(values)


class _Classes:
    """``core.lowering.FrontEnd`` over classes: what the runtime knows of them."""

    def __init__(self) -> None:
        self.origins: dict[tuple[int, str], Origin] = {}

    def known(self, cls: FClass) -> TypeNode | None:
        handle = cls.handle
        return _SCALAR_NODES.get(handle) or _RECORDS.get(handle) or kept_enum(handle)

    def enum(self, cls: FClass) -> EnumType | None:
        tp = cast(type, cls.handle)
        return enum_node(tp) if issubclass(tp, enum.Enum) else None

    def record_kind(self, cls: FClass) -> RecordKind | None:
        return _record_kind(cast(type, cls.handle))

    def model_feature(self, cls: FClass) -> str:
        return models.model_feature(cast(type, cls.handle))

    def record_params(self, cls: FClass) -> tuple[str, ...]:
        params: tuple[typing.TypeVar, ...] = getattr(cls.handle, "__parameters__", ())
        return tuple(f"{p.__module__}.{p.__name__}" for p in params)

    def is_protocol(self, cls: FClass) -> bool:
        return bool(getattr(cls.handle, "_is_protocol", False)) or _is_abstract(cast(type, cls.handle))

    def is_metaclass(self, cls: FClass) -> bool:
        return issubclass(cast(type, cls.handle), type)

    def supertype(self, newtype: FNewType) -> Form:
        return _Evaluation(self.origins, None, None, True).evaluate(getattr(newtype.handle, "__supertype__"))

    def cached_record(self, cls: FClass, subst: Subst) -> Record | None:
        return _RECORDS.get((cls.handle, tuple(subst.items())) if subst else cls.handle)

    def read_record(self, lowering: Lowering, cls: FClass) -> tuple[Record, object]:
        return _lower_record(self, lowering, cast(type, cls.handle)), None

    def cache_record(self, cls: FClass, subst: Subst, record: Record, read: object) -> None:
        try:
            _RECORDS.put((cls.handle, tuple(subst.items())) if subst else cls.handle, record)
        except TypeError:  # unhashable type arguments
            pass

    def field(self, lowering: Lowering, cls: type, name: str, tp: object) -> TypeNode:
        """Lower the annotation of field ``name`` of record ``cls`` (written there)."""
        return lowering.lower(_Evaluation(self.origins, (cls, name), tp, True).evaluate(tp))


_RECORDS: BoundedCache[object, Record] = BoundedCache()


def _is_abstract(tp: type) -> bool:
    return bool(getattr(tp, "__abstractmethods__", None))


def _record_kind(tp: type[Any]) -> RecordKind | None:
    if dataclasses.is_dataclass(tp):
        return "dataclass"
    if typing_extensions.is_typeddict(tp) or typing.is_typeddict(tp):
        return "typeddict"
    if issubclass(tp, tuple) and all(hasattr(cast(Any, tp), a) for a in ("_fields", "__annotations__")):
        return "namedtuple"
    if models.is_basemodel(cast(type, tp)):
        return "basemodel"
    return None


def _default(value: object) -> Default:
    if value is None:
        return NONE_DEFAULT
    if isinstance(value, enum.Enum):
        return Default.of(enum_wire(value))
    if type(value) in (str, bool):
        return Default.of(value)  # type: ignore[arg-type]
    if type(value) in (int, float):
        return Default.of(value) if writable_number(value) else OPAQUE_DEFAULT  # type: ignore[arg-type]
    return OPAQUE_DEFAULT


def _hints(obj: object, localns: Mapping[str, object] | None = None) -> dict[str, Any]:
    """``typing.get_type_hints`` with extras, plus what it misses (see ``_strings_resolved``).

    A function's annotations are read through a stand-in holding only its annotations and
    globals: Python 3.10 would otherwise make ``x: "int" = None`` an ``Optional[int]`` (it
    drops that in 3.11), which an unquoted ``x: int = None`` never is.
    """
    scope = dict(localns) if localns else {}
    target = obj
    if not isinstance(obj, type):
        # PEP 695 'def f[T]': get_type_hints sees T only from 3.13 on
        for param in getattr(obj, "__type_params__", ()):
            scope.setdefault(param.__name__, param)
        target = _Annotations(getattr(obj, "__annotations__", None) or {}, _function_globals(obj))
    own: object = (
        getattr(target, "__annotations__", None) if not isinstance(obj, type) else obj.__dict__.get("__annotations__")
    )
    if isinstance(own, dict):
        _check_strings(cast("dict[str, object]", own))
    try:
        try:
            hints = typing.get_type_hints(target, localns=scope or None, include_extras=True)
        except TypeError:
            if not isinstance(obj, type):
                raise
            hints = _class_hints_unchecked(obj, scope)
        if sys.version_info < (3, 11):
            module = sys.modules.get(getattr(obj, "__module__", None) or "")
            globalns: dict[str, Any] = getattr(target, "__globals__", None) or (vars(module) if module else {})
            local = dict(vars(obj)) if isinstance(obj, type) else scope
            hints = {name: _strings_resolved(hint, globalns, local) for name, hint in hints.items()}
        return hints
    except NameError as e:
        raise Unresolved(getattr(e, "name", None) or str(e)) from None
    except SyntaxError as e:  # a string nested inside an annotation (list["int["]), or a base class's
        raise InvalidAnnotation("", _forward_text(e)) from None


def _forward_text(error: SyntaxError) -> str:
    """The text of the forward reference ``typing`` refused (its message quotes it)."""
    message = str(error.args[0]) if error.args else ""
    head = "Forward reference must be an expression -- got "
    if message.startswith(head):
        quoted = message[len(head) :]
        try:
            import ast

            found = ast.literal_eval(quoted)
            if isinstance(found, str):
                return found
        except (ValueError, SyntaxError):
            pass
    return error.text.strip() if error.text else message


def _class_hints_unchecked(cls: type, localns: Mapping[str, object]) -> dict[str, Any]:
    """A class's annotations evaluated as ``get_type_hints`` does, without its check that each
    is a type: Python 3.10 refuses a string that names ``dataclasses.KW_ONLY`` or an
    ``InitVar[...]`` (``from __future__ import annotations``), which are no fields anyway."""
    hints: dict[str, Any] = {}
    for base in reversed(cls.__mro__):
        module = sys.modules.get(base.__module__)
        globalns: dict[str, Any] = dict(vars(module)) if module else {}
        local: dict[str, Any] = {**vars(base), **localns}
        for name, value in base.__dict__.get("__annotations__", {}).items():
            if isinstance(value, str):
                try:
                    value = eval(value, globalns, local)
                except NameError as e:
                    raise Unresolved(getattr(e, "name", None) or str(e)) from None
            hints[name] = _NONE_TYPE if value is None else value
    return hints


class _Annotations:
    """A function's annotations and globals, for ``get_type_hints`` (see ``_hints``)."""

    def __init__(self, annotations: dict[str, Any], globalns: dict[str, Any]) -> None:
        self.__annotations__ = annotations
        self.__globals__ = globalns


def _function_globals(fn: object) -> dict[str, Any]:
    """The globals a function's names resolve in (``fn`` is the ``def`` itself: ``Tool`` has
    already looked under any decorators, ``tool._described``)."""
    found: dict[str, Any] = getattr(fn, "__globals__", {})
    return found


def _function_hints(
    fn: Callable[..., Any], raw: dict[str, Any], localns: Mapping[str, object] | None
) -> dict[str, Any]:
    """``_hints(fn, localns)``, without ``get_type_hints`` for the usual string annotations.

    ``get_type_hints`` compiles every string anew on every call (a ``ForwardRef`` each), the
    bulk of describing a tool written under ``from __future__ import annotations``. Here
    each string is compiled once (``_compiled``: the code is a pure function of the text)
    and evaluated in the same namespaces. Any annotation whose value would need more of
    ``get_type_hints``'s work (a forward reference inside it, a special form it refuses, a
    string that fails to compile) sends the whole function down the exact path instead.
    """
    globalns = _function_globals(fn)
    scope: dict[str, Any] = dict(localns) if localns else {}
    for param in getattr(fn, "__type_params__", ()):
        scope.setdefault(param.__name__, param)
    namespace = scope or globalns  # get_type_hints: no local namespace means the globals
    hints: dict[str, Any] = {}
    for name, value in raw.items():
        if isinstance(value, str):
            code = _compiled(value)
            if code is None:
                return _hints(fn, localns)
            try:
                value = eval(code, globalns, namespace)  # what ForwardRef._evaluate runs
            except NameError as e:
                raise Unresolved(getattr(e, "name", None) or str(e)) from None
            except Exception:
                return _hints(fn, localns)  # the exact path raises what get_type_hints raises
            if not _plain_value(value):
                return _hints(fn, localns)
        elif not _plain_value(value):
            return _hints(fn, localns)
        hints[name] = _NONE_TYPE if value is None else value
    return hints


_NONE_TYPE = type(None)

#: What ``get_type_hints`` refuses as a parameter's annotation (``typing._type_check``).
_REFUSED_FORMS: set[object] = {
    getattr(m, n)
    for m in (typing, typing_extensions)
    for n in ("ClassVar", "Final", "Generic", "Protocol")
    if hasattr(m, n)
}


def _plain_value(value: object) -> bool:
    """An evaluated annotation that ``get_type_hints`` would return as it is: a class, None,
    a NewType, a TypeVar, or a subscripted form with no string inside and none it refuses."""
    if type(value) is type:  # the usual: a plain class
        return value not in _REFUSED_FORMS  # of these, only Generic is a plain class
    if value is None or isinstance(value, (typing.TypeVar, typing.NewType)):
        return True
    if isinstance(value, type):
        return value not in _REFUSED_FORMS
    origin = typing.get_origin(value)
    return origin is not None and origin not in _REFUSED_FORMS and not _unevaluated(value)


#: Compiled string annotations by their text, bounded. The code depends on the text alone;
#: evaluating it, which depends on the namespaces, is done for every function.
_CODE: BoundedCache[str, types.CodeType | None] = BoundedCache()


def _compiled(text: str) -> types.CodeType | None:
    try:
        return _CODE[text]
    except KeyError:
        pass
    try:
        code: types.CodeType | None = compile(text, "<annotation>", "eval", dont_inherit=True)
    except SyntaxError:  # get_type_hints words this error its own way
        code = None
    return _CODE.put(text, code)


#: Annotation objects found to hold no string, by identity (each kept, so its id cannot be
#: reused; bounded): the same objects recur across tools (see ``_ANNOTATIONS``), and
#: walking one again for strings cost more than lowering it from that cache.
_EVALUATED: BoundedCache[int, object] = BoundedCache()


def _unevaluated_once(annotation: object) -> bool:
    """``_unevaluated``, remembered for the annotations that turn out fully evaluated."""
    if _EVALUATED.get(id(annotation)) is annotation:
        return False
    if _unevaluated(annotation):
        return True
    _EVALUATED.put(id(annotation), annotation)
    return False


def _unevaluated(annotation: object) -> bool:
    """A string annotation, or one with a string or ForwardRef inside (``list["Item"]``)."""
    if isinstance(annotation, (str, typing.ForwardRef)):
        return True
    if type(annotation) is type:  # a plain class (asked first: a class answers a missing attribute slowly)
        return False
    args: object = getattr(annotation, "__args__", None)
    if not isinstance(args, tuple) or typing.get_origin(annotation) in _LITERALS:
        return False
    return any(_unevaluated(a) for a in cast("tuple[object, ...]", args))


def _strings_resolved(tp: Any, globalns: dict[str, Any], localns: dict[str, Any]) -> Any:
    """Python 3.10 leaves the string arguments of builtin generics (``list["Node"]``) unevaluated."""
    if isinstance(tp, str):
        return _strings_resolved(eval(tp, globalns, localns), globalns, localns)  # as get_type_hints does
    origin = typing.get_origin(tp)
    if origin is None or origin in _LITERALS:
        return tp
    if origin in _ANNOTATED:
        inner = _strings_resolved(tp.__origin__, globalns, localns)
        return tp if inner is tp.__origin__ else tp.copy_with((inner,))
    raw: object = getattr(tp, "__args__", ())
    if not isinstance(raw, tuple):
        return tp
    args = cast("tuple[object, ...]", raw)
    new = tuple(_strings_resolved(a, globalns, localns) for a in args)
    if all(a is b for a, b in zip(new, args)):
        return tp
    if isinstance(tp, types.GenericAlias):
        return types.GenericAlias(origin, new)  # get_origin read its __origin__
    if isinstance(tp, types.UnionType):
        return typing.Union[new]  # the same union, spelled with typing
    copy_with = getattr(tp, "copy_with", None)
    return copy_with(new) if copy_with is not None else tp


def _generated_doc(cls: type, doc: str) -> bool:
    """The signature line ``dataclass``/``namedtuple`` write on a class without a docstring.

    No user wrote it and the static side cannot see it, so it is not read as a docstring
    (it never holds a field entry; leaving it out keeps both front ends' models equal).
    """
    name = cls.__name__
    if not doc.startswith(name + "("):
        return False
    fields: object = getattr(cls, "_fields", None)
    if isinstance(fields, tuple):
        return doc == f"{name}({', '.join(str(f) for f in cast(tuple[object, ...], fields))})"
    if dataclasses.is_dataclass(cls):
        import inspect

        try:
            text_sig = str(inspect.signature(cls)).replace(" -> None", "")
        except (TypeError, ValueError):
            text_sig = ""
        return doc == name + text_sig
    return False


def _written_bases(cls: type) -> tuple[object, ...]:
    """A record's bases; read from its source for a ``typing.TypedDict`` subclass on Python
    3.10/3.11, which keeps no trace of them (no ``__orig_bases__``, ``__bases__`` is ``(dict,)``)."""
    bases: object = getattr(cls, "__orig_bases__", None)
    if isinstance(bases, tuple):
        return cast("tuple[object, ...]", bases)
    if sys.version_info < (3, 12) and typing.is_typeddict(cls):
        from .sourcetext import class_bases

        return class_bases(cls) or ()
    return cls.__bases__


def _record_docstrings(cls: type) -> tuple[str, ...]:
    docs: list[str] = []
    seen: set[type] = set()

    def visit(c: type) -> None:
        if c in seen or c in (object, tuple, dict):
            return
        seen.add(c)
        doc = c.__dict__.get("__doc__")
        if isinstance(doc, str) and not _generated_doc(c, doc):
            docs.append(doc)
        for base in _written_bases(c):
            base = typing.get_origin(base) or base
            if isinstance(base, type) and _record_kind(base) is not None:
                visit(base)

    visit(cls)
    return tuple(docs)


class _OwnAnnotations:
    """One class's own annotations of some fields, with its module's globals, for ``_hints``
    (a model's hints are read class by class: pydantic's own classes are not evaluated)."""

    def __init__(self, annotations: dict[str, Any], globalns: dict[str, Any]) -> None:
        self.__annotations__ = annotations
        self.__globals__ = globalns


def _model_hints(cls: type, model_fields: Mapping[str, Any]) -> dict[str, tuple[type, Any]]:
    """Each field's owner (the class that annotates it) and its evaluated annotation.

    pydantic has evaluated each annotation already (``_original_annotation``), in the
    namespaces it saw when the class was made (a function's locals too); one it could not
    finish is evaluated here, as any record field's, so that a missing name is retried."""
    by_owner: dict[type, dict[str, Any]] = {}
    found: dict[str, tuple[type, Any]] = {}
    for name, info in model_fields.items():
        owner = models.owner_of(cls, name)
        evaluated: object = getattr(info, "_original_annotation", _NO_VALUE)
        if evaluated is not _NO_VALUE and not _unevaluated(evaluated):
            found[name] = (owner, _NONE_TYPE if evaluated is None else evaluated)
            continue
        by_owner.setdefault(owner, {})[name] = owner.__dict__["__annotations__"][name]
    for owner, own in by_owner.items():
        module = sys.modules.get(owner.__module__)
        stand_in = _OwnAnnotations(own, dict(vars(module)) if module else {})
        for name, hint in _hints(stand_in, dict(vars(owner))).items():
            found[name] = (owner, hint)
    return found


def _lower_model(classes: _Classes, lowering: Lowering, cls: type) -> Record:
    """A pydantic model's ``model_fields``, each lowered where it is annotated; a ``= Field(...)``
    adds its markers to the field's type and gives its default."""
    model_fields: Mapping[str, Any] = getattr(cls, "model_fields", {})
    hints = _model_hints(cls, model_fields)
    fields: list[RecordField] = []
    for name, info in model_fields.items():
        owner, hint = hints[name]
        node = classes.field(lowering, owner, name, hint)
        value = models.assigned(info)
        if value is models.UNASSIGNED:
            default = NO_DEFAULT
        elif field_args.is_field_info(value):
            reading = field_args.read_field(field_args.field_arguments(value))
            node = with_markers(node, reading.markers)
            default = field_default(reading, _default)
        else:
            default = _default(value)
        node, found, _ = annotated_default(node, value is not models.UNASSIGNED, _default_of)
        if found is not None:
            default = found
        fields.append(RecordField(name, node, not default.present, default))
    config: Any = getattr(cls, "model_config", {})
    hashable = config.get("frozen") is True  # a frozen model's instances hash by value
    return Record(cls.__name__, "basemodel", tuple(fields), _record_docstrings(cls), hashable, origin=cls)


def _lower_record(classes: _Classes, lowering: Lowering, cls: type) -> Record:
    kind = _record_kind(cls)
    assert kind is not None
    if kind == "basemodel":
        return _lower_model(classes, lowering, cls)
    hints = _hints(cls)
    fields: list[RecordField] = []
    if kind == "dataclass":
        for f in dataclasses.fields(cls):
            if not f.init:
                continue
            has_default = f.default is not dataclasses.MISSING
            has_factory = f.default_factory is not dataclasses.MISSING
            default = _default(f.default) if has_default else (OPAQUE_DEFAULT if has_factory else NO_DEFAULT)
            node = classes.field(lowering, cls, f.name, hints[f.name])
            if has_default and field_args.is_field_info(f.default) and not hasattr(cls, "__pydantic_fields__"):
                node = with_markers(node, (stored_field("dataclass"),))
            fields.append(RecordField(f.name, node, not (has_default or has_factory), default))
        # eq=False: instances equal only themselves, so a set of them could not refuse two
        # equal JSON items (the schema's uniqueItems); such a record is no set item
        hashable = getattr(cls, "__hash__", None) is not None and _declared_eq(cls)
    elif kind == "namedtuple":
        defaults: dict[str, object] = getattr(cls, "_field_defaults", {})
        names: tuple[str, ...] = getattr(cls, "_fields")
        for name in names:
            default = _default(defaults[name]) if name in defaults else NO_DEFAULT
            node = classes.field(lowering, cls, name, hints[name])
            if name in defaults and field_args.is_field_info(defaults[name]):
                node = with_markers(node, (stored_field("NamedTuple"),))
            fields.append(RecordField(name, node, name not in defaults, default))
        hashable = True
    else:
        required_keys = getattr(cls, "__required_keys__", frozenset(hints))
        for name in cls.__annotations__:
            required = _typeddict_qualifier(hints[name])
            if required is None:
                required = name in required_keys
            fields.append(RecordField(name, classes.field(lowering, cls, name, hints[name]), required, NO_DEFAULT))
        hashable = False
    return Record(cls.__name__, kind, tuple(fields), _record_docstrings(cls), hashable, origin=cls)


def _declared_eq(cls: type) -> bool:
    """The ``eq`` its own ``@dataclass(...)`` gave ``cls`` (True when not written)."""
    params = cls.__dict__.get("__dataclass_params__")
    return bool(getattr(params, "eq", True))


def _typeddict_qualifier(hint: object) -> bool | None:
    """``Required``/``NotRequired`` read from a resolved key type, else None.

    Under ``from __future__ import annotations`` the class sees only strings, so its
    ``__required_keys__`` ignores these qualifiers (on every Python version); the
    resolved hints still carry them.
    """
    while True:
        origin = typing.get_origin(hint)
        if origin in _REQUIRED:
            return True
        if origin in _NOT_REQUIRED:
            return False
        if origin in _ANNOTATED or origin in _TD_WRAPPERS:
            hint = typing.get_args(hint)[0]
            continue
        return None


def lower_type(tp: object, site: Site | None = None, root: object = _SAME) -> TypeNode:
    """Lower one annotation (already evaluated) into the model.

    ``site`` is where it was written, (function, parameter name or ``"return"``): a Literal's
    order may be read there. ``root`` is the object written there when ``tp`` is only part of
    it (a return's ``Awaitable[tp]``).
    """
    if root is _SAME:  # a part of what was written (a return's Literal inside a cached
        # Awaitable[...]) may be an equal object in another order: never served from here
        hit = _ANNOTATIONS.get(id(tp))
        if hit is not None and hit[0] is tp:
            return hit[1]
    plain = type(tp) is types.GenericAlias and _plain_alias(tp)
    if plain:
        known = _PLAIN_ALIASES.get(tp)
        if known is not None:
            return known
    classes = _Classes()
    evaluation = _Evaluation(classes.origins, site, tp if root is _SAME else root, False)
    lowering = Lowering(classes)
    node = lowering.lower(evaluation.evaluate(tp))  # Unresolved propagates: nothing is remembered, it is retried
    if evaluation.contextual or lowering.cut:  # the same object may stand for another order elsewhere
        return node
    _ANNOTATIONS.put(id(tp), (tp, node))
    if plain:
        _PLAIN_ALIASES.put(tp, node)
    return node


def _plain_alias(tp: Any) -> bool:
    """A builtin generic alias of plain classes only (``list[Leg]``, ``dict[str, int]``).

    Such an alias is equal to another exactly when it names the same classes (a class is equal
    only to itself), and nothing in it has an order ``typing`` forgets (no Literal, no union):
    it may be looked up by equality. A string annotation is a new alias object per function, so
    the identity memo never serves one.
    """
    for arg in tp.__args__:
        if type(arg) is not type and not (type(arg) is types.GenericAlias and _plain_alias(arg)):
            return False
    return True


#: Lowered parameter and return annotations, by identity (each is kept here, so its id
#: cannot be reused). The same annotation object recurs across tools: a class is itself,
#: and typing hands out one object per spelled-out form (``Optional[int]``,
#: ``Literal["a", "b"]``, ``Annotated[int, ...]``). Lowering a whole annotation depends on
#: nothing else (no enclosing record, no type arguments), and classes are taken as fixed
#: once seen, as the record cache takes them. Bounded.
_ANNOTATIONS: BoundedCache[int, tuple[object, TypeNode]] = BoundedCache()
#: Lowered builtin generic aliases of plain classes, by equality (see ``_plain_alias``). Bounded.
_PLAIN_ALIASES: BoundedCache[object, TypeNode] = BoundedCache()


def _context_kind(tp: object) -> ParamKind | None:
    if tp is ToolContext:
        return "context"
    if tp is CancellationToken:
        return "cancellation"
    return None


def _unwrap_awaitable(tp: object) -> object:
    origin = typing.get_origin(tp)
    if origin in (abc.Awaitable, abc.Coroutine):
        return typing.get_args(tp)[-1]
    return tp


def _returns(tp: object, has_annotation: bool, site: Site | None = None) -> Returns:
    if not has_annotation:
        return Returns("unannotated")
    if type(tp) is type:  # a plain class (no metaclass, not a generic alias): the usual '-> str'
        found = _CLASS_RETURNS.get(tp)
        if found is None:
            found = _returns_of(tp)  # a class's own fields carry their sites (records)
            _CLASS_RETURNS.put(tp, found)
        return found
    return _returns_of(tp, site)


#: ``Returns`` per plain class (bounded): nodes are immutable, and most tools return one
#: of a few classes.
_CLASS_RETURNS: BoundedCache[object, Returns] = BoundedCache()


def _returns_of(tp: object, site: Site | None = None) -> Returns:
    written = tp
    tp = _unwrap_awaitable(tp)
    if tp is None or tp is type(None):
        return Returns("none")
    if tp in _PARTS:
        return Returns("parts")
    origin = typing.get_origin(tp)
    if origin in _UNIONS and all(a in _PARTS for a in typing.get_args(tp)):
        return Returns("parts")
    if origin in _LISTS or origin is tuple:
        args = typing.get_args(tp)
        item = args[0] if args else None
        if item in _PARTS or (typing.get_origin(item) in _UNIONS and all(a in _PARTS for a in typing.get_args(item))):
            return Returns("parts")
    return Returns("type", returned(lower_type(tp, site, written)))


_NO_PARAMS: tuple[str, ...] = ()


def _params(fn: Any, hints: Mapping[str, Any], skip_first: bool) -> list[Param]:
    """The parameters, read straight from the code object (what ``inspect.signature``
    would say, much faster): ``*args``/``**kwargs`` in their places, ``self`` dropped."""
    code = fn.__code__
    pos = code.co_argcount
    total = pos + code.co_kwonlyargcount
    varnames = code.co_varnames
    if code.co_flags & 0x0C:  # CO_VARARGS, CO_VARKEYWORDS: their names go in their places
        return _params_with_varargs(fn, hints, skip_first)
    pos_defaults = fn.__defaults__ or ()
    first_default = pos - len(pos_defaults)
    kw_defaults: dict[str, object] = fn.__kwdefaults__ or {}
    params: list[Param] = []
    for index in range(1 if skip_first and total else 0, total):
        name = varnames[index]
        value: object = _NO_VALUE
        if index >= first_default and index < pos:
            value = pos_defaults[index - first_default]
        elif name in kw_defaults:
            value = kw_defaults[name]
        params.append(_param_with(fn, name, hints, value))
    return params


_NO_VALUE: Any = object()


def _param_with(fn: Any, name: str, hints: Mapping[str, Any], value: object) -> Param:
    """A normal parameter and its default value as the function holds it (``_NO_VALUE``: none;
    a pydantic ``Field(...)``: read as the ``Field`` says)."""
    if value is _NO_VALUE:
        return _param(fn, name, hints, NO_DEFAULT)
    if type(value).__name__ == "FieldInfo" and field_args.is_field_info(value):
        return _field_param(_param(fn, name, hints, OPAQUE_DEFAULT), value)
    return _param(fn, name, hints, _default_of(value))


def _field_param(param: Param, info: object) -> Param:
    """A parameter whose default is a pydantic ``Field(...)``: its markers around the type, its
    default (or none: then required), and what the binder supplies when it is left out."""
    if param.kind != "normal":
        return param
    reading = field_args.read_field(field_args.field_arguments(info))
    found = reading.default
    fill = None if found.kind == "none" else (found.kind, found.value)
    node = with_markers(param.type, reading.markers)
    return Param(param.name, node, param.kind, field_default(reading, _default), fill=fill)


def _params_with_varargs(fn: Any, hints: Mapping[str, Any], skip_first: bool) -> list[Param]:
    code = fn.__code__
    pos = code.co_argcount
    total = pos + code.co_kwonlyargcount
    names = list(code.co_varnames[:total])
    kinds: list[ParamKind] = ["normal"] * total
    index = total
    if code.co_flags & 0x04:  # CO_VARARGS
        names.insert(pos, code.co_varnames[index])
        kinds.insert(pos, "var_positional")
        index += 1
    if code.co_flags & 0x08:  # CO_VARKEYWORDS
        names.append(code.co_varnames[index])
        kinds.append("var_keyword")
    defaults: dict[str, object] = dict(zip(code.co_varnames[:pos][::-1], (fn.__defaults__ or ())[::-1]))
    defaults.update(fn.__kwdefaults__ or {})
    first = 1 if skip_first and names and kinds[0] == "normal" else 0
    params: list[Param] = []
    for name, kind in zip(names[first:], kinds[first:]):
        if kind != "normal":
            params.append(Param(name, Unsupported("other"), kind))
        else:
            params.append(_param_with(fn, name, hints, defaults.get(name, _NO_VALUE)))
    return params


def _default_of(value: object) -> Default:
    return NONE_DEFAULT if value is None else _default(value)


def _param(fn: Any, name: str, hints: Mapping[str, Any], default: Default) -> Param:
    """One normal parameter: lowered, or reported as missing, a context or a token."""
    if name not in hints:
        return Param(name, Unsupported("missing"), "normal", default)
    tp = hints[name]
    if typing.get_origin(tp) is ToolContext:  # ToolContext[Deps]: the services' type is the caller's
        tp = ToolContext
    if tp is ToolContext or tp is CancellationToken:
        return Param(name, Unsupported("other"), _context_kind(tp) or "normal", default)
    hit = _ANNOTATIONS.get(id(tp))  # lower_type's cache, looked up here: most parameters hit it
    node = hit[1] if hit is not None and hit[0] is tp else lower_type(tp, (fn, name))
    if isinstance(node, Annotated):  # a Field(default=) inside Annotated is the default
        node, found, fill = annotated_default(node, default is not NO_DEFAULT, _default_of)
        if found is not None:
            return Param(name, node, "normal", found, fill=fill)
    return Param(name, node, "normal", default)


def lower_function(
    fn: Callable[..., Any],
    *,
    skip_first: bool,
    options: ToolOptions,
    class_type_params: tuple[str, ...] = (),
    localns: Mapping[str, object] | None = None,
) -> ToolModel:
    """Lower a plain function (``skip_first`` drops ``self``/``cls``): the ``def`` as written,
    under any decorators (``Tool`` unwraps them once, ``tool._described``), with the
    ``options`` the tool was given.

    Raises ``Unresolved`` when an annotation names something not defined yet; the caller
    retries later (a method's class, or a record defined further down the module).
    """
    raw: dict[str, Any] = getattr(fn, "__annotations__", None) or {}
    hints = raw  # only read from
    for annotation in raw.values():
        # a plain class is never unevaluated; anything else is asked (and remembered)
        if type(annotation) is not type and _unevaluated_once(annotation):
            hints = _function_hints(fn, raw, localns)
            break
    params = _params(fn, hints, skip_first)
    returns = _returns(hints.get("return"), "return" in hints, (fn, "return"))
    type_params = _NO_PARAMS
    found: tuple[object, ...] = getattr(fn, "__type_params__", ())
    if found:
        type_params = tuple(getattr(t, "__name__", str(t)) for t in found)
    name: str = fn.__name__
    return ToolModel(
        function_name=name,
        docstring=fn.__doc__,
        params=tuple(params),
        returns=returns,
        options=options,
        type_params=type_params,
        class_type_params=class_type_params,
        is_lambda=name == "<lambda>",
    )
