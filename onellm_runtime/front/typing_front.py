"""The runtime front end: Python functions and ``typing`` objects -> the neutral model.

A function's annotations are resolved (``hints``: strings and forward references evaluated
where they were written), each is *evaluated* into a ``core.forms`` form (``evaluation``), and
``core.lowering`` turns the form into model nodes, asking ``records.Classes`` what only the
runtime knows of a class. This module reads the function itself: its parameters, defaults
and return. It reports what was written and never judges: an ``Any`` becomes
``Unsupported("any")`` and the shared core decides it is OLT002. Caches stay in front of the
lowering: lowered annotations by identity, records per class (and type arguments), enums and
class forms per class, one node per scalar type.
"""

from __future__ import annotations

import types
import typing
from collections import abc
from collections.abc import Callable, Mapping
from typing import Any

from ..context import CancellationToken, ToolContext
from ..core import fields as field_args
from ..core.caches import BoundedCache
from ..core.fielddefaults import annotated_default, field_default, with_markers
from ..core.lowering import Lowering, returned
from ..core.model import (
    NO_DEFAULT,
    OPAQUE_DEFAULT,
    Annotated,
    Default,
    Param,
    ParamKind,
    Returns,
    ToolModel,
    TypeNode,
    Unsupported,
)
from ..core.options import ToolOptions
from ..results import FilePart, ImagePart, JsonPart, TextPart, ToolResult
from .evaluation import Evaluation, Site
from .hints import InvalidAnnotation, Unresolved, function_hints, unevaluated_once
from .records import NO_VALUE, Classes, default_of, value_default
from .specials import UNIONS

__all__ = ["lower_type", "lower_function", "InvalidAnnotation", "Unresolved"]

_SAME: Any = object()  # lower_type's default root: the annotation itself
_LISTS: set[object] = {list, abc.Sequence, abc.MutableSequence, abc.Iterable, abc.Collection}
_PARTS: set[object] = {TextPart, JsonPart, ImagePart, FilePart, ToolResult}


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
    classes = Classes()
    evaluation = Evaluation(classes.origins, site, tp if root is _SAME else root, False)
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
    if origin in UNIONS and all(a in _PARTS for a in typing.get_args(tp)):
        return Returns("parts")
    if origin in _LISTS or origin is tuple:
        args = typing.get_args(tp)
        item = args[0] if args else None
        if item in _PARTS or (typing.get_origin(item) in UNIONS and all(a in _PARTS for a in typing.get_args(item))):
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
        value: object = NO_VALUE
        if index >= first_default and index < pos:
            value = pos_defaults[index - first_default]
        elif name in kw_defaults:
            value = kw_defaults[name]
        params.append(_param_with(fn, name, hints, value))
    return params


def _param_with(fn: Any, name: str, hints: Mapping[str, Any], value: object) -> Param:
    """A normal parameter and its default value as the function holds it (``NO_VALUE``: none;
    a pydantic ``Field(...)``: read as the ``Field`` says)."""
    if value is NO_VALUE:
        return _param(fn, name, hints, NO_DEFAULT)
    if type(value).__name__ == "FieldInfo" and field_args.is_field_info(value):
        return _field_param(_param(fn, name, hints, OPAQUE_DEFAULT), value)
    return _param(fn, name, hints, default_of(value))


def _field_param(param: Param, info: object) -> Param:
    """A parameter whose default is a pydantic ``Field(...)``: its markers around the type, its
    default (or none: then required), and what the binder supplies when it is left out."""
    if param.kind != "normal":
        return param
    reading = field_args.read_field(field_args.field_arguments(info))
    found = reading.default
    fill = None if found.kind == "none" else (found.kind, found.value)
    node = with_markers(param.type, reading.markers)
    return Param(param.name, node, param.kind, field_default(reading, value_default), fill=fill)


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
            params.append(_param_with(fn, name, hints, defaults.get(name, NO_VALUE)))
    return params


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
        node, found, fill = annotated_default(node, default is not NO_DEFAULT, default_of)
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
        if type(annotation) is not type and unevaluated_once(annotation):
            hints = function_hints(fn, raw, localns)
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
