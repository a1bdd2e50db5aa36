"""Evaluating one resolved annotation (a ``typing`` object) into the core's forms.

What was written is reported, never judged: ``Annotated`` metadata becomes the aliases' nodes
or the markers the table reads (refusals too), a Literal's or a union's order is read back
from the source where typing's caches lose it (``sourcetext``), a class is its ``FClass``.
"""

from __future__ import annotations

import types
import typing
from typing import Any, cast

import typing_extensions

from ..aliases import CharMarker, JsonMarker, SizedInt
from ..core import foreign
from ..core.caches import BoundedCache
from ..core.forms import (
    FAnnotated,
    FAny,
    FBare,
    FCallable,
    FClass,
    FEllipsis,
    FGeneric,
    FLiteral,
    FNone,
    Form,
    FOther,
    FTypeVar,
    FUnion,
    LitValue,
    Meta,
    NodeMeta,
)
from ..core.metadata import read_metadata, without_placeholders
from ..core.model import (
    JsonType,
    Marker,
    Scalar,
    ScalarKind,
)
from .hints import NONE_TYPE, InvalidAnnotation, Unresolved, compiled
from .specials import ANNOTATED, CALLABLE, LITERALS, TD_WRAPPERS, UNIONS

if typing.TYPE_CHECKING:
    from .sourcetext import Origin

#: Where an annotation was written: (function, parameter name or "return") or (record class, field name).
Site = tuple[object, str]


def _markers(meta: object) -> tuple[Marker, ...]:
    """The neutral form of one ``Annotated`` metadata object (one look-up of its class in
    the marker table): its markers, or its refusal."""
    return read_metadata(meta)


class Evaluation:
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
        self.contextual: bool = False

    def evaluate(self, tp: object) -> Form:
        if type(tp) is type:  # a plain class: the usual annotation
            return _NONE_FORM if tp is NONE_TYPE else _class_form(tp)
        if isinstance(tp, (str, typing.ForwardRef)):
            text = tp if isinstance(tp, str) else tp.__forward_arg__
            if compiled(text) is None:  # never resolvable: no retry
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
        if origin in ANNOTATED:
            metadata = cast("tuple[object, ...]", getattr(tp, "__metadata__"))
            base = self.evaluate(args[0])
            return FAnnotated(base, without_placeholders(tuple(m for meta in metadata for m in _meta(meta))))
        if origin in UNIONS:
            return FUnion(tuple(self.evaluate(a) for a in self._written_members(tp, args)))
        if origin in LITERALS:
            return FLiteral(_literal_values(self._written(tp, args)))
        if origin in TD_WRAPPERS:
            return self.evaluate(args[0])
        if not args:
            return FBare(getattr(origin, "__name__", repr(origin)))
        if origin is CALLABLE:  # what get_origin gives for typing.Callable too
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
