"""Resolving a function's or a class's annotations at run time: strings and forward references
evaluated in the namespaces where they were written, as ``typing.get_type_hints`` does.

A name not defined yet raises ``Unresolved`` (the tool is lowered again later); a string that
is no Python expression raises ``InvalidAnnotation``. Each string is compiled once, and the
annotations found to hold no string are remembered (both memos bounded).
"""

from __future__ import annotations

import sys
import types
import typing
from collections.abc import Callable, Mapping
from typing import Any, cast

import typing_extensions

from ..core.caches import BoundedCache
from .specials import ANNOTATED, LITERALS


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
        if isinstance(value, str) and compiled(value) is None:
            raise InvalidAnnotation(name, value)


def resolved_hints(obj: object, localns: Mapping[str, object] | None = None) -> dict[str, Any]:
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
            hints[name] = NONE_TYPE if value is None else value
    return hints


class _Annotations:
    """A function's annotations and globals, for ``get_type_hints`` (see ``resolved_hints``)."""

    def __init__(self, annotations: dict[str, Any], globalns: dict[str, Any]) -> None:
        self.__annotations__ = annotations
        self.__globals__ = globalns


def _function_globals(fn: object) -> dict[str, Any]:
    """The globals a function's names resolve in (``fn`` is the ``def`` itself: ``Tool`` has
    already looked under any decorators, ``tool._described``)."""
    found: dict[str, Any] = getattr(fn, "__globals__", {})
    return found


def function_hints(fn: Callable[..., Any], raw: dict[str, Any], localns: Mapping[str, object] | None) -> dict[str, Any]:
    """``resolved_hints(fn, localns)``, without ``get_type_hints`` for the usual string annotations.

    ``get_type_hints`` compiles every string anew on every call (a ``ForwardRef`` each), the
    bulk of describing a tool written under ``from __future__ import annotations``. Here
    each string is compiled once (``compiled``: the code is a pure function of the text)
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
            code = compiled(value)
            if code is None:
                return resolved_hints(fn, localns)
            try:
                value = eval(code, globalns, namespace)  # what ForwardRef._evaluate runs
            except NameError as e:
                raise Unresolved(getattr(e, "name", None) or str(e)) from None
            except Exception:
                return resolved_hints(fn, localns)  # the exact path raises what get_type_hints raises
            if not _plain_value(value):
                return resolved_hints(fn, localns)
        elif not _plain_value(value):
            return resolved_hints(fn, localns)
        hints[name] = NONE_TYPE if value is None else value
    return hints


NONE_TYPE = type(None)

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
    return origin is not None and origin not in _REFUSED_FORMS and not unevaluated(value)


#: Compiled string annotations by their text, bounded. The code depends on the text alone;
#: evaluating it, which depends on the namespaces, is done for every function.
_CODE: BoundedCache[str, types.CodeType | None] = BoundedCache()


def compiled(text: str) -> types.CodeType | None:
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


def unevaluated_once(annotation: object) -> bool:
    """``unevaluated``, remembered for the annotations that turn out fully evaluated."""
    if _EVALUATED.get(id(annotation)) is annotation:
        return False
    if unevaluated(annotation):
        return True
    _EVALUATED.put(id(annotation), annotation)
    return False


def unevaluated(annotation: object) -> bool:
    """A string annotation, or one with a string or ForwardRef inside (``list["Item"]``)."""
    if isinstance(annotation, (str, typing.ForwardRef)):
        return True
    if type(annotation) is type:  # a plain class (asked first: a class answers a missing attribute slowly)
        return False
    args: object = getattr(annotation, "__args__", None)
    if not isinstance(args, tuple) or typing.get_origin(annotation) in LITERALS:
        return False
    return any(unevaluated(a) for a in cast("tuple[object, ...]", args))


def _strings_resolved(tp: Any, globalns: dict[str, Any], localns: dict[str, Any]) -> Any:
    """Python 3.10 leaves the string arguments of builtin generics (``list["Node"]``) unevaluated."""
    if isinstance(tp, str):
        return _strings_resolved(eval(tp, globalns, localns), globalns, localns)  # as get_type_hints does
    origin = typing.get_origin(tp)
    if origin is None or origin in LITERALS:
        return tp
    if origin in ANNOTATED:
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
