"""What a schema fragment of the contract's vocabulary accepts, and values it accepts.

``accepts`` is a small validator for exactly the keywords onellm writes (contract, "Types"):
formats and ``contentEncoding`` are held to the binder's readings (``core/formats.py``).
``examples`` lists a bounded set of values a fragment accepts, boundaries first (the least and
greatest number, the shortest and longest string, the fewest items); the differ takes its
witnesses from them. Every cost is bounded by the fragment's size.
"""

from __future__ import annotations

import ipaddress
import json
import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, cast

from ..core import formats
from .patterns import pattern_examples, pattern_search

__all__ = ["Schema", "accepts", "examples", "json_type", "types_of", "tag_of", "same_value", "FORMAT_CHECKS"]

Schema = Mapping[str, Any]

#: The JSON types, in the order examples are drawn.
TYPES = ("null", "boolean", "integer", "number", "string", "array", "object")

#: How many examples one fragment yields at most (each container draws from its parts' lists).
LIMIT = 24

_ipv4 = formats.reader(formats.IPV4_GRAMMAR, ipaddress.IPv4Address)
_ipv6 = formats.reader(formats.IPV6_GRAMMAR, ipaddress.IPv6Address)

#: ``format`` value -> the binder's reading of it, and texts of that form (short ones too, for
#: a format beside a length limit or a pattern).
FORMAT_CHECKS: dict[str, tuple[Callable[[str], bool], tuple[str, ...]]] = {
    "uuid": (lambda s: formats.read_uuid(s) is not None, ("123e4567-e89b-12d3-a456-426614174000",)),
    "date-time": (lambda s: formats.read_datetime(s) is not None, ("2024-01-02T03:04:05Z",)),
    "date": (lambda s: formats.read_date(s) is not None, ("2024-01-02",)),
    "time": (lambda s: formats.read_time(s) is not None, ("03:04:05",)),
    "email": (formats.is_email, ("a@b.example", "x@x", "a@b")),
    "uri": (formats.is_uri, ("https://example.com/", "x:x", "a:b")),
    "ipv4": (lambda s: _ipv4(s) is not None, ("192.0.2.1",)),
    "ipv6": (lambda s: _ipv6(s) is not None, ("2001:db8::1", "::")),
}

#: ``contentEncoding`` value -> its reading, and texts of it.
ENCODING_CHECKS: dict[str, tuple[Callable[[str], bool], tuple[str, ...]]] = {
    "base64": (lambda s: formats.read_base64(s) is not None, ("YWI=", "")),
}


def json_type(value: object) -> str:
    """The JSON type of a parsed value (a float with no fraction is an integer, as in JSON Schema)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "integer" if value.is_integer() else "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object"


def types_of(node: Schema) -> frozenset[str] | None:
    """The JSON types a fragment's ``type`` names (None: no ``type``, any); ``anyOf`` nodes
    name ``null`` when they hold a null branch."""
    if "anyOf" in node:
        branches: Sequence[Schema] = node["anyOf"]
        found: set[str] = set()
        for b in branches:
            t = types_of(b)
            found |= set(TYPES) if t is None else t
        return frozenset(found)
    t = node.get("type")
    if t is None:
        return None
    return frozenset([t] if isinstance(t, str) else t)


def same_value(a: object, b: object) -> bool:
    """JSON equality: ``1 == 1.0``, but ``true`` is not ``1``."""
    return _key(a) == _key(b)


def _key(value: object) -> str:
    def norm(v: object) -> object:
        if isinstance(v, float) and v.is_integer():
            return int(v)
        if isinstance(v, list):
            return [norm(x) for x in cast("list[object]", v)]
        if isinstance(v, dict):
            return {k: norm(x) for k, x in cast("dict[str, object]", v).items()}
        return v

    return json.dumps(norm(value), sort_keys=True)


def _type_fits(value: object, types: frozenset[str] | None) -> bool:
    if types is None:
        return True
    t = json_type(value)
    return t in types or (t == "integer" and "number" in types)


def accepts(node: Schema, value: object) -> bool:
    """Whether ``value`` (parsed JSON) is valid under ``node``."""
    if "anyOf" in node:
        branches: Sequence[Schema] = node["anyOf"]
        return any(accepts(b, value) for b in branches)
    if "enum" in node and not any(same_value(value, m) for m in node["enum"]):
        return False
    if not _type_fits(value, types_of(node)):
        return False
    kind = json_type(value)
    if kind in ("integer", "number"):
        number: float = value  # type: ignore[assignment]
        return not (
            ("minimum" in node and number < node["minimum"]) or ("maximum" in node and number > node["maximum"])
        )
    if kind == "string":
        return _string_fits(node, value)  # type: ignore[arg-type]
    if kind == "array":
        return _array_fits(node, value)  # type: ignore[arg-type]
    if kind == "object":
        return _object_fits(node, value)  # type: ignore[arg-type]
    return True


def _string_fits(node: Schema, text: str) -> bool:
    if len(text) < node.get("minLength", 0) or ("maxLength" in node and len(text) > node["maxLength"]):
        return False
    if "pattern" in node and not pattern_search(node["pattern"], text):
        return False
    if "format" in node and node["format"] in FORMAT_CHECKS and not FORMAT_CHECKS[node["format"]][0](text):
        return False
    encoding = node.get("contentEncoding")
    return not (encoding in ENCODING_CHECKS and not ENCODING_CHECKS[encoding][0](text))


def _array_fits(node: Schema, items: list[object]) -> bool:
    if len(items) < node.get("minItems", 0) or ("maxItems" in node and len(items) > node["maxItems"]):
        return False
    if node.get("uniqueItems") and len({_key(v) for v in items}) != len(items):
        return False
    item: Schema | None = node.get("items")
    return item is None or all(accepts(item, v) for v in items)


def _object_fits(node: Schema, value: dict[str, object]) -> bool:
    props: Mapping[str, Schema] = node.get("properties", {})
    if any(name not in value for name in node.get("required", ())):
        return False
    extra = node.get("additionalProperties", True)
    for name, v in value.items():
        if name in props:
            if not accepts(props[name], v):
                return False
        elif extra is False or (isinstance(extra, Mapping) and not accepts(extra, v)):  # pyright: ignore[reportUnknownArgumentType]
            return False
    return True


def tag_of(branch: Schema) -> tuple[str, object] | None:
    """A union branch's discriminator: its first required property with a single ``enum`` member."""
    props: Mapping[str, Schema] = branch.get("properties", {})
    for name in branch.get("required", ()):
        members: object = props.get(name, {}).get("enum")
        if isinstance(members, list) and len(cast("list[object]", members)) == 1:
            return name, cast("list[object]", members)[0]
    return None


# ---------------------------------------------------------------------------- examples


def examples(node: Schema) -> list[object]:
    """Values ``node`` accepts, boundaries first, at most ``LIMIT`` (none when it accepts nothing found)."""
    found: list[object] = []
    seen: set[str] = set()
    for value in _candidates(node):
        key = _key(value)
        if key not in seen and accepts(node, value):
            seen.add(key)
            found.append(value)
            if len(found) >= LIMIT:
                break
    return found


def _candidates(node: Schema) -> Iterator[object]:
    if "anyOf" in node:
        branches: Sequence[Schema] = node["anyOf"]
        for b in branches:
            yield from examples(b)
        return
    if "enum" in node:
        yield from node["enum"]
        return
    types = types_of(node)
    for t in TYPES:
        if types is None or t in types:
            yield from _BY_TYPE[t](node)


def _integers(node: Schema) -> Iterator[object]:
    lo, hi = node.get("minimum"), node.get("maximum")
    if lo is not None:
        yield math.ceil(lo)
        yield math.ceil(lo) + 1
    if hi is not None:
        yield math.floor(hi)
        yield math.floor(hi) - 1
    yield from (0, 1, -1)


def _numbers(node: Schema) -> Iterator[object]:
    yield from _integers(node)
    lo, hi = node.get("minimum"), node.get("maximum")
    if lo is not None:
        yield float(lo)
        yield lo + 0.5
    if hi is not None:
        yield float(hi)
        yield hi - 0.5
    yield 0.5


def _strings(node: Schema) -> Iterator[object]:
    lo, hi = node.get("minLength", 0), node.get("maxLength")
    lengths = sorted({n for n in (lo, lo + 1, 1, 3, hi) if n is not None and n >= lo and (hi is None or n <= hi)})
    if "format" in node and node["format"] in FORMAT_CHECKS:
        yield from FORMAT_CHECKS[node["format"]][1]
    encoding = node.get("contentEncoding")
    if encoding in ENCODING_CHECKS:
        yield from ENCODING_CHECKS[encoding][1]
    if "pattern" in node:
        yield from pattern_examples(node["pattern"], lengths)
    for n in lengths:
        yield "a" * n


def _arrays(node: Schema) -> Iterator[object]:
    item: Schema = node.get("items", {})
    lo, hi = node.get("minItems", 0), node.get("maxItems")
    values = examples(item)[:6] if item else [0, "a", None, True, 1, 2]
    counts: set[int] = {lo, lo + 1, 1, 2} | ({hi} if hi is not None else set())
    for n in sorted(counts):
        if hi is not None and n > hi:
            continue
        if n == 0:
            yield []
        elif values:
            yield [values[i % len(values)] for i in range(n)]  # distinct while there are enough
            yield [values[0]] * n


def _objects(node: Schema) -> Iterator[object]:
    props: Mapping[str, Schema] = node.get("properties", {})
    required: Sequence[str] = node.get("required", ())
    chosen = {name: examples(schema) for name, schema in props.items()}
    minimal = {name: chosen[name][0] for name in required if chosen.get(name)}
    yield minimal
    yield {**minimal, **{name: values[0] for name, values in chosen.items() if values}}
    for name, values in chosen.items():
        for v in values[1:3]:
            yield {**minimal, name: v}
    extra = node.get("additionalProperties", True)
    key = next(k for k in ("key", "key_0", "key_1", "key__") if k not in props)
    if extra is True:
        yield {**minimal, key: 1}
    elif isinstance(extra, Mapping):
        for v in examples(extra)[:3]:  # pyright: ignore[reportUnknownArgumentType]
            yield {**minimal, key: v}


_BY_TYPE: dict[str, Callable[[Schema], Iterator[object]]] = {
    "null": lambda node: iter([None]),
    "boolean": lambda node: iter([False, True]),
    "integer": _integers,
    "number": _numbers,
    "string": _strings,
    "array": _arrays,
    "object": _objects,
}
