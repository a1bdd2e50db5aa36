"""A tool's return value -> the parts of its result (the contract's Results table).

The value is written in the JSON form its schema describes, by the same rules as the
binder reads it: enum members in their wire form (a string-valued enum's by value, others
by name), bytes as base64, dates and times in RFC 3339 / ISO form, ``timedelta`` as
``[-][d.]hh:mm:ss[.ffffff]``, records by their wire names (``JsonName``,
``naming="camelCase"``), sets as arrays. A ``Decimal`` is written as a JSON
number: an ``int`` when it is integral, else the nearest ``float``.

Every JSON part a converter returns (its own, or one passed through in a part or a
``ToolResult``) has been checked to be writable as JSON (``jsoncheck``); one that is not
raises ``Unwritable``, which the invoker turns into the tool's error result.

The writer for a tool's return type is compiled once (``compile_converter``). A value that
does not have the declared type (a tool that returns something else than it says) is
written by its own type instead, as for a function without a return annotation.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import enum
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, cast

from ..binding import format_path
from ..core import formats, rules
from ..core.enums import enum_wire
from ..core.model import (
    ArrayType,
    EnumType,
    JsonType,
    LiteralType,
    MapType,
    Nullable,
    Record,
    Scalar,
    ScalarKind,
    ToolModel,
    TypeNode,
    UnionType,
)
from ..core.scalars import Unwritable
from ..core.scalars import write_same as _SAME
from ..errortext import cut
from ..results import FilePart, ImagePart, JsonPart, Part, TextPart, ToolResult
from .jsoncheck import SAFE_INT_BITS, problem, problem_at

__all__ = ["Converter", "Misfit", "Unwritable", "compile_converter", "json_form", "own_json", "plain_json"]

#: A return value -> a ``ToolResult`` passed through, or the parts of a new result.
Converter = Callable[[object], "ToolResult | list[Part]"]
_Writer = Callable[[Any], Any]


class Misfit(ValueError):
    """The returned value does not fit the declared return type: its message names the path and
    what was expected (``items[2].qty: expected integer, got str``)."""


class _Fault(Exception):
    """Raised by a writer where a value stops; each container it leaves adds its segment to
    ``path`` (innermost first). ``fits``: the value has the type but no JSON form (``NaN``)."""

    def __init__(self, what: str, fits: bool) -> None:
        super().__init__(what)
        self.what = what
        self.fits = fits
        self.path: list[object] = []


#: The rows whose values are not JSON values already (a ``Decimal``, a ``UUID``, dates, bytes ...),
#: for writing a value by its own type; a ``datetime`` is caught before them.
_OWN_TYPE_ROWS = tuple(k.row for k in ScalarKind if k.row.python not in (bool, int, float, str))


def plain_json(value: object) -> object:
    """A value written by its own type (for unannotated returns and mismatches).

    Raises ``Unwritable`` for a value that contains itself (a reference cycle).
    """
    return _plain(value, set())


def own_json(value: object) -> object:
    """A value returned under ``Any`` written by its own type, as ``plain_json`` writes it, except
    that an object of no JSON form is kept as it is, for the JSON check to refuse (never its ``str``)."""
    return _plain(value, set(), keep_unknown=True)


def _plain(value: object, open_ids: set[int], keep_unknown: bool = False) -> object:
    """``plain_json``; ``open_ids`` holds the containers being written, to find cycles."""
    if value is None or isinstance(value, (bool, int, float, str)):
        if isinstance(value, enum.Enum):
            return enum_wire(value)
        return value
    if isinstance(value, enum.Enum):
        return enum_wire(value)
    if isinstance(value, dt.datetime):
        return value.isoformat()  # by its own type, an offset is not required
    for row in _OWN_TYPE_ROWS:
        if isinstance(value, row.python):
            return row.write(value)
    if isinstance(value, (bytearray, memoryview)):
        return formats.write_base64(bytes(cast(Any, value)))
    key = id(value)
    if key in open_ids:
        raise Unwritable("a reference cycle")
    open_ids.add(key)
    try:
        return _plain_container(value, open_ids, keep_unknown)
    finally:
        open_ids.discard(key)


def _plain_container(value: object, open_ids: set[int], keep_unknown: bool) -> object:
    if _is_model(value):  # a pydantic model written as pydantic writes it
        dumped: object = cast(Any, value).model_dump(mode="json", by_alias=True)
        return _plain(dumped, open_ids, keep_unknown)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name), open_ids, keep_unknown) for f in dataclasses.fields(value)}
    if hasattr(value, "_asdict") and isinstance(value, tuple):
        fields: dict[str, Any] = cast(Any, value)._asdict()
        return {k: _plain(v, open_ids, keep_unknown) for k, v in fields.items()}
    if isinstance(value, Mapping):
        mapping: Mapping[Any, Any] = cast(Any, value)
        if keep_unknown and not all(type(k) is str for k in mapping):
            return cast(object, mapping)  # keys JSON cannot hold: the check names them
        return {str(k): _plain(v, open_ids, keep_unknown) for k, v in mapping.items()}
    if isinstance(value, (set, frozenset)):
        return _ordered([_plain(v, open_ids, keep_unknown) for v in cast("Iterable[Any]", value)])
    if isinstance(value, (list, tuple)):
        return [_plain(v, open_ids, keep_unknown) for v in cast("Iterable[Any]", value)]
    return value if keep_unknown else str(value)


_BASEMODEL = "pydantic.main.BaseModel"


def _is_model(value: object) -> bool:
    """A pydantic model instance, told by its class's MRO (pydantic is not imported)."""
    return any(f"{c.__module__}.{c.__qualname__}" == _BASEMODEL for c in type(value).__mro__[1:])


def _ordered(items: list[Any]) -> list[Any]:
    """Set items in a stable order where they can be ordered (set order varies per process)."""
    try:
        return sorted(items)
    except TypeError:
        return items


def _got(value: object) -> str:
    """The Python type of a value that does not fit, for ``got <it>``."""
    return "None" if value is None else type(value).__qualname__


def _misfit(expected: str, value: object) -> _Fault:
    return _Fault(f"expected {expected}, got {_got(value)}", fits=False)


def _json_number(v: Any, expect: str) -> Any:
    """An ``int`` or ``float`` the encoder writes as a JSON number (small enough, finite), else a fault."""
    if type(v) is float or isinstance(v, float):
        if v - v != 0.0:  # NaN and the infinities give NaN
            raise _Fault("NaN" if v != v else ("Infinity" if v > 0 else "-Infinity"), fits=True)
        if expect == "integer" and not v.is_integer():
            raise _misfit(expect, v)
        return v
    if v.bit_length() >= SAFE_INT_BITS:
        found = problem(v)
        if found is not None:
            raise _Fault(found, fits=True)
    return v


def _scalar(node: Scalar) -> _Writer:
    """The writer of the kind's row, for values of the types it writes (its ``writes``, not its ``refuses``)."""
    made = node.make
    if isinstance(made, type):  # a pydantic URL type: written as its text
        label = node.kind.row.label

        def text_of(v: Any) -> Any:
            if isinstance(v, made):
                return str(v)
            if isinstance(v, str):
                return v
            raise _misfit(label, v)

        return text_of
    row = node.kind.row
    writes, refuses, write = row.writes, row.refuses, row.write
    expect = row.json_type if row.form is None else row.label
    if expect in ("integer", "number"):

        def number(v: Any) -> Any:
            if not isinstance(v, writes) or isinstance(v, refuses):
                raise _misfit(expect, v)
            written = v if write is _SAME else write(v)
            return _json_number(written, expect)

        return number
    if write is _SAME:

        def same(v: Any) -> Any:
            if not isinstance(v, writes) or isinstance(v, refuses):
                raise _misfit(expect, v)
            return v

        return same

    def formatted(v: Any) -> Any:
        if not isinstance(v, writes) or isinstance(v, refuses):
            raise _misfit(expect, v)
        try:
            return write(v)
        except Unwritable as e:
            raise _Fault(str(e), fits=True) from None

    return formatted


def _record(node: Record, naming: str | None) -> _Writer:
    fields = [(f.name, rules.wire_name(f, naming), f.required, writer(f.type, naming)) for f in node.fields]
    origin = node.origin
    name = node.name
    if node.kind == "typeddict":

        def typeddict(v: Any) -> Any:
            if not isinstance(v, Mapping):
                raise _misfit(name, v)
            out: dict[str, Any] = {}
            wire = ""
            try:
                for field_name, wire, required, w in fields:
                    if field_name in v:
                        out[wire] = w(v[field_name])
                    elif required:
                        raise _Fault("missing", fits=False)
            except _Fault as e:
                e.path.append(wire)
                raise
            return out

        return typeddict

    def instance(v: Any) -> Any:
        if isinstance(origin, type) and not isinstance(v, origin):
            raise _misfit(name, v)
        out: dict[str, Any] = {}
        wire = ""
        try:
            for field_name, wire, _required, w in fields:
                out[wire] = w(getattr(v, field_name))
        except _Fault as e:
            e.path.append(wire)
            raise
        return out

    return instance


def _union(node: UnionType, naming: str | None, explicit: str | None) -> _Writer:
    literal = rules.merged_literal(node)
    if literal is not None:
        return writer(literal, naming)
    found = rules.find_discriminator(node, explicit)
    if isinstance(found, str):
        raise TypeError(f"union {node!r} has no discriminator; check the tool first")
    members = [(m.origin, _record(m, naming)) for m in found.members]
    expect = "one of " + ", ".join(m.name for m in found.members)

    def union(v: Any) -> Any:
        for origin, w in members:
            if isinstance(origin, type) and isinstance(v, origin):
                return w(v)
        if isinstance(v, Mapping):  # TypedDict members: the tag tells them apart
            tag = cast("Mapping[str, Any]", v).get(found.field)
            for (_origin, w), t in zip(members, found.tags, strict=True):
                if t == tag:
                    return w(v)
        raise _misfit(expect, cast(object, v))

    return union


def _literal(node: LiteralType) -> _Writer:
    allowed = {(type(value), value) for value in node.values}  # by type too: True is not 1
    expect = "one of " + ", ".join(json.dumps(value) for value in node.values)

    def literal(v: Any) -> Any:
        try:
            if (type(v), v) in allowed:
                return v
        except TypeError:  # unhashable: not one of the values
            pass
        raise _Fault(cut(f"expected {expect}, got {_got(v)}"), fits=False)

    return literal


def _enum(node: EnumType) -> _Writer:
    cls: Any = node.origin
    table = dict(zip(node.members, node.wire, strict=True))
    name = node.name

    def member(v: Any) -> Any:
        if type(v) is not cls:
            raise _misfit(name, v)
        return table[v.name]

    return member


def _array(node: ArrayType, naming: str | None) -> _Writer:
    item = writer(node.item, naming)
    unique = node.unique

    def array(v: Any) -> Any:
        if isinstance(v, (str, bytes, Mapping)) or not isinstance(v, (Sequence, set, frozenset)):
            raise _misfit("array", cast(object, v))
        out: list[Any] = []
        append = out.append
        index = 0
        try:
            for x in cast("Iterable[Any]", v):
                append(item(x))
                index += 1
        except _Fault as e:
            e.path.append(index)
            raise
        return _ordered(out) if unique else out

    return array


def _map(node: MapType, naming: str | None) -> _Writer:
    value = writer(node.value, naming)

    def mapping(v: Any) -> Any:
        if not isinstance(v, Mapping):
            raise _misfit("object", v)
        items: Mapping[Any, Any] = cast(Any, v)
        out: dict[str, Any] = {}
        key: object = None
        try:
            for key, x in items.items():
                if not isinstance(key, str):
                    raise _Fault(f"expected a string key, got {_got(key)}", fits=False)
                out[key] = value(x)
        except _Fault as e:
            if isinstance(key, str):
                e.path.append(key)
            raise
        return out

    return mapping


def _instance(value: object, kinds: tuple[type, ...]) -> bool:
    """``isinstance``, without narrowing ``value`` (it stays ``object``)."""
    return isinstance(value, kinds)


def _json(node: JsonType) -> _Writer:
    """``JsonValue``, ``JsonObject``, ``JsonArray``: written as they are, once checked to be JSON."""
    kind = node.kind
    kinds: tuple[type, ...] | None = {"object": (dict,), "array": (list, tuple)}.get(kind)
    own = node.own_type  # ``Any`` in a return annotation: the value written by its own type first

    def json_value(v: object) -> object:
        if own:
            v = own_json(v)
        if kinds is not None and not _instance(v, kinds):
            raise _misfit(kind, v)
        found = problem_at(v)
        if found is not None:
            fault = _Fault(found[0], fits=True)
            fault.path.extend(reversed(found[1]))
            raise fault
        return v

    return json_value


def writer(node: TypeNode, naming: str | None) -> _Writer:
    """The JSON writer of a (checked) type: raises ``_Fault`` where a value does not fit it,
    or fits it but cannot be written as JSON."""
    from ..core.model import Annotated

    if isinstance(node, Annotated):
        disc = rules.discriminator(node)
        inner = node.inner
        nullable = isinstance(inner, Nullable)
        base = inner.inner if isinstance(inner, Nullable) else inner
        if isinstance(base, UnionType):
            w = _union(base, naming, disc)
        else:
            w = writer(base, naming)
        return _or_null(w) if nullable else w
    if isinstance(node, Nullable):
        return _or_null(writer(node.inner, naming))
    if isinstance(node, Scalar):
        return _scalar(node)
    if isinstance(node, EnumType):
        return _enum(node)
    if isinstance(node, LiteralType):
        return _literal(node)
    if isinstance(node, ArrayType):
        return _array(node, naming)
    if isinstance(node, MapType):
        return _map(node, naming)
    if isinstance(node, JsonType):
        return _json(node)
    if isinstance(node, Record):
        return _record(node, naming)
    if isinstance(node, UnionType):
        return _union(node, naming, None)
    raise TypeError(f"no writer for {node!r}; check the tool first")


def _or_null(w: _Writer) -> _Writer:
    def nullable(v: Any) -> Any:
        return None if v is None else w(v)

    return nullable


def _written(write: _Writer, value: object) -> object:
    """``write(value)``, its fault raised as ``Misfit`` or ``Unwritable`` with the whole path."""
    try:
        return write(value)
    except _Fault as e:
        if not e.path:
            what = e.what
        elif e.fits:  # as ``jsoncheck`` words it: ``NaN at items[2].score``
            what = f"{e.what} at {format_path(reversed(e.path))}"
        else:
            what = f"{format_path(reversed(e.path))}: {e.what}"
        raise (Unwritable(what) if e.fits else Misfit(what)) from None


def json_form(value: object, node: TypeNode | None, naming: str | None = None) -> object:
    """``value`` in the JSON form of ``node`` (by its own type when it does not fit, or ``node`` is None)."""
    if node is None:
        return plain_json(value)
    try:
        return _written(writer(node, naming), value)
    except Misfit:
        return plain_json(value)


_PART_TYPES = (TextPart, JsonPart, ImagePart, FilePart)


def _json_part(value: object) -> JsonPart:
    """A JSON part, once ``value`` is known to be writable as JSON (else ``Unwritable``, saying why)."""
    found = problem(value)
    if found is not None:
        raise Unwritable(found)
    return JsonPart(value)


def _checked(parts: Sequence[Part]) -> None:
    for part in parts:
        if type(part) is JsonPart:
            _json_part(part.value)


def _parts(value: object) -> ToolResult | list[Part] | None:
    """Parts and results passed through as they are (their JSON checked); None when ``value`` is neither."""
    if isinstance(value, ToolResult):
        _checked(value.parts)
        return value
    if isinstance(value, _PART_TYPES):
        _checked([value])
        return [value]
    if isinstance(value, (list, tuple)):
        items = cast("Sequence[Any]", value)
        if items and all(isinstance(p, _PART_TYPES) for p in items):
            _checked(items)
            return list(items)
    return None


def _by_own_type(value: object) -> ToolResult | list[Part]:
    if value is None:
        return []
    if isinstance(value, str):
        return [TextPart(value)]
    passed = _parts(value)
    if passed is not None:
        return passed
    return [_json_part(plain_json(value))]


def _misfit_parts(value: object) -> ToolResult | list[Part]:
    raise Misfit(f"expected a part or a list of parts, got {_got(value)}")


def compile_converter(tool: ToolModel) -> Converter:
    """The converter of a tool's return value, by its return category (``rules.return_category``).

    A value that does not fit the declared type raises ``Misfit``; one that fits but has no
    JSON form raises ``Unwritable``. Both are found while the value is written (one walk).
    """
    category = rules.return_category(tool)
    node = tool.returns.type
    if category == "parts":

        def parts(value: object) -> ToolResult | list[Part]:
            if value is None or value == [] or value == ():
                return []
            passed = _parts(value)
            return passed if passed is not None else _misfit_parts(value)

        return parts
    if category == "none":

        def nothing(value: object) -> ToolResult | list[Part]:
            if value is not None:
                raise Misfit(f"expected None, got {_got(value)}")
            return []

        return nothing
    if category == "unannotated" or node is None:
        return _by_own_type
    nullable = isinstance(node, Nullable) or isinstance(getattr(node, "inner", None), Nullable)
    if category == "text":
        base = rules.strip(node)
        made = base.make if isinstance(base, Scalar) and isinstance(base.make, type) else str

        def text(value: object) -> ToolResult | list[Part]:
            if isinstance(value, str):
                return [TextPart(value)]
            if value is None and nullable:
                return [TextPart("null")]
            if made is not str and isinstance(value, made):
                return [TextPart(str(value))]
            raise Misfit(f"expected string, got {_got(value)}")

        return text
    write = writer(node, tool.options.naming)

    def typed(value: object) -> ToolResult | list[Part]:
        if value is None and nullable:
            return [TextPart("null")]
        return [JsonPart(_written(write, value))]

    return typed
