"""A hypothesis strategy for the JSON values that a schema onellm writes accepts.

onellm writes a closed vocabulary (contract, "Types": only the keywords of its order list),
and the provider adapters stay inside it, except Gemini's OpenAPI form (upper-case type
names, ``nullable``, objects closed by their ``properties``). ``from_schema`` reads exactly
that: every keyword has a row in its dialect's table, and a schema with any other keyword,
format, encoding or type name raises ``UnsupportedSchema`` when the strategy is built, so a
keyword the writer starts to emit cannot go ungenerated.

Values are drawn valid under the contract's readings, which the payload referee
(``tests/gen/harness.Reference``) shares: a pattern matches both as ECMA-262 reads it and as
Python's ``re`` does, ``format: time`` has no offset, the timedelta pattern gives durations a
``timedelta`` holds, and ``uniqueItems`` holds for the values the items bind to.
"""

from __future__ import annotations

import base64
import datetime as dt
import ipaddress
import json
import math
import re
from dataclasses import dataclass
from typing import Any, Callable, Mapping

from hypothesis import strategies as st

from onellm_runtime.core.schema import TIMEDELTA_PATTERN

__all__ = ["from_schema", "bound_key", "ecma_regex", "UnsupportedSchema", "JSON_SCHEMA", "OPENAPI"]

Schema = Mapping[str, Any]
Strategy = st.SearchStrategy[Any]

ALL_TYPES = frozenset({"null", "boolean", "integer", "number", "string", "array", "object"})
NUMBERS = frozenset({"integer", "number"})


class UnsupportedSchema(ValueError):
    """The schema uses something outside the vocabulary this strategy reads."""


@dataclass(frozen=True)
class Dialect:
    """The keywords a schema form may use, each with the JSON types whose values it shapes
    (``ALL_TYPES`` for the keywords a node reads whatever its type), and how it spells types."""

    name: str
    keywords: Mapping[str, frozenset[str]]
    type_names: Mapping[str, str]
    #: ``properties`` alone closes an object (OpenAPI has no ``additionalProperties``)
    closed_by_properties: bool


_SHARED: dict[str, frozenset[str]] = {
    "type": ALL_TYPES,
    "format": frozenset({"string"}),
    "description": ALL_TYPES,
    "anyOf": ALL_TYPES,
    "enum": ALL_TYPES,
    "minimum": NUMBERS,
    "maximum": NUMBERS,
    "minLength": frozenset({"string"}),
    "maxLength": frozenset({"string"}),
    "pattern": frozenset({"string"}),
    "items": frozenset({"array"}),
    "minItems": frozenset({"array"}),
    "maxItems": frozenset({"array"}),
    "properties": frozenset({"object"}),
    "required": frozenset({"object"}),
    "default": ALL_TYPES,
}

#: The contract's keyword order list: canonical schemas and every JSON Schema adapter output.
JSON_SCHEMA = Dialect(
    "json_schema",
    {
        **_SHARED,
        "contentEncoding": frozenset({"string"}),
        "uniqueItems": frozenset({"array"}),
        "additionalProperties": frozenset({"object"}),
    },
    {t: t for t in ALL_TYPES},
    closed_by_properties=False,
)

#: Gemini's ``parameters`` (OpenAPI 3.0 ``Schema``), as ``gemini_tool(..., form="openapi")`` writes it.
OPENAPI = Dialect(
    "openapi",
    {**_SHARED, "nullable": ALL_TYPES},
    {t.upper(): t for t in ALL_TYPES - {"null"}},
    closed_by_properties=True,
)

_DIALECTS = {d.name: d for d in (JSON_SCHEMA, OPENAPI)}

# --- strings ---------------------------------------------------------------------------

# ECMA-262 white space and line terminators (``\s`` there), and what ``.`` excludes.
_ECMA_SPACE = "\\t\\n\\x0b\\x0c\\r \\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff"
_ECMA_ESCAPES = {
    "d": ("[0-9]", "0-9"),
    "D": ("[^0-9]", None),
    "w": ("[A-Za-z0-9_]", "A-Za-z0-9_"),
    "W": ("[^A-Za-z0-9_]", None),
    "s": (f"[{_ECMA_SPACE}]", _ECMA_SPACE),
    "S": (f"[^{_ECMA_SPACE}]", None),
}


def ecma_regex(pattern: str) -> re.Pattern[str]:
    """``pattern`` as ECMA-262 reads it (ASCII ``\\d``/``\\w``, Unicode ``\\s``, ``.`` stops at
    line terminators, ``$`` only at the very end), written for Python's ``re``."""
    out: list[str] = []
    i, in_class = 0, False
    while i < len(pattern):
        c = pattern[i]
        if c == "\\" and i + 1 < len(pattern):
            outside, inside = _ECMA_ESCAPES.get(pattern[i + 1], (None, None))
            written = inside if in_class else outside
            if written is None and pattern[i + 1] in _ECMA_ESCAPES:
                raise UnsupportedSchema(f"pattern {pattern!r}: '\\{pattern[i + 1]}' inside a character class")
            out.append(written if written is not None else pattern[i : i + 2])
            i += 2
            continue
        if in_class:
            in_class = c != "]"
            out.append(c)
        elif c == "[":
            in_class = True
            out.append(c)
            if pattern.startswith("^", i + 1):
                out.append("^")
                i += 1
            if pattern.startswith("]", i + 1):
                out.append("\\]")  # a literal ']' first in a class
                i += 1
        elif c == ".":
            out.append("[^\\n\\r\\u2028\\u2029]")
        elif c == "$":
            out.append("\\Z")
        else:
            out.append(c)
        i += 1
    try:
        return re.compile("".join(out), re.ASCII)
    except re.error as e:
        raise UnsupportedSchema(f"pattern {pattern!r} is not a regular expression ({e})") from None


@st.composite
def _timedelta_text(draw: st.DrawFn) -> str:
    """``[-][d.]hh:mm:ss[.ffffff]`` for a duration a ``timedelta`` holds (hh, mm, ss read as written)."""
    days = draw(st.none() | st.integers(0, 999_999_999))
    h, m, s = (draw(st.integers(0, 99)) for _ in range(3))
    fraction = draw(st.none() | st.text("0123456789", min_size=1, max_size=6))
    try:
        dt.timedelta(days=days or 0, hours=h, minutes=m, seconds=s)
    except OverflowError:
        days = 0
    text = f"{h:02d}:{m:02d}:{s:02d}"
    if days is not None:
        text = f"{'0' * draw(st.integers(0, 1))}{days}.{text}"
    if fraction is not None:
        text += f".{fraction}"
    return "-" + text if draw(st.booleans()) else text


#: Patterns the project writes itself, drawn from what they mean rather than their text.
_KNOWN_PATTERNS: dict[str, Strategy] = {TIMEDELTA_PATTERN: _timedelta_text()}


def _pattern(pattern: str) -> Strategy:
    if pattern in _KNOWN_PATTERNS:
        return _KNOWN_PATTERNS[pattern]
    ecma = ecma_regex(pattern)
    return st.from_regex(ecma, fullmatch=True) | st.from_regex(ecma, fullmatch=False)


def _offset(minutes: int) -> str:
    if minutes == 0:
        return "Z"
    sign = "-" if minutes < 0 else "+"
    return f"{sign}{abs(minutes) // 60:02d}:{abs(minutes) % 60:02d}"


def _time_text(t: dt.time, digits: int) -> str:
    text = t.strftime("%H:%M:%S")
    return f"{text}.{t.microsecond:06d}"[: len(text) + 1 + digits] if digits else text


_TIME = st.builds(_time_text, st.times(), st.integers(0, 6))
_DATETIME = st.builds(
    lambda d, t, offset: f"{d.isoformat()}T{t}{offset}",
    st.dates(),
    _TIME,
    st.integers(-(23 * 60 + 59), 23 * 60 + 59).map(_offset) | st.just("+00:00"),
)
_LABEL = st.text("abcdefghijklmnopqrstuvwxyz0123456789", min_size=1, max_size=8)
_DOMAIN = st.lists(_LABEL, min_size=1, max_size=3).map(".".join)
#: ``local@domain``, down to ``a@b``, so that short length limits can be met
_EMAIL = st.builds(
    lambda local, domain: f"{local}@{domain}",
    st.text(
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#$%&'*+/=?^_`{|}~.-", min_size=1, max_size=10
    ),
    _DOMAIN,
)
_SEGMENT = st.lists(st.sampled_from([*"AZaz09-._~!$&'()*+,;=:@", "%20", "%C3%A9"]), max_size=6).map("".join)
_URI = st.builds(
    lambda scheme, host, port, segments, query, fragment: (
        f"{scheme}://{host}{port}{''.join('/' + s for s in segments)}{query}{fragment}"
    ),
    st.sampled_from(["https", "http", "ftp", "urn+x", "a.b-c"]),
    _DOMAIN,
    st.sampled_from(["", ":8080", ":1"]),
    st.lists(_SEGMENT, max_size=3),
    st.sampled_from(["", "?", "?q=1&r=a%2Fb"]),
    st.sampled_from(["", "#", "#top"]),
) | st.sampled_from(["mailto:a@example.com", "urn:isbn:0451450523", "tel:+1-816-555-1212", "news:comp.lang.python"])

#: ``format`` values onellm writes, each with the strings it accepts.
FORMATS: dict[str, Strategy] = {
    "uuid": st.uuids().map(str),
    "date-time": _DATETIME,
    "date": st.dates().map(dt.date.isoformat),
    "time": _TIME,
    "email": _EMAIL,
    "uri": _URI,
    "ipv4": st.ip_addresses(v=4).map(str),
    "ipv6": st.ip_addresses(v=6).map(str),
}

#: ``contentEncoding`` values onellm writes.
ENCODINGS: dict[str, Strategy] = {"base64": st.binary(max_size=24).map(lambda b: base64.b64encode(b).decode("ascii"))}


def _string_fits(node: Schema) -> Callable[[str], bool]:
    """Lengths, and the pattern both as ECMA-262 and as Python's ``re`` (which ``jsonschema`` uses) read it."""
    lo, hi, pattern = node.get("minLength", 0), node.get("maxLength"), node.get("pattern")
    readings = [] if pattern is None else [ecma_regex(pattern), re.compile(pattern)]

    def fits(s: str) -> bool:
        if len(s) < lo or (hi is not None and len(s) > hi):
            return False
        return all(r.search(s) is not None for r in readings)

    return fits


def _string(r: _Reader, node: Schema, path: str) -> Strategy:
    if "contentEncoding" in node:
        base = _entry(ENCODINGS, "contentEncoding", node["contentEncoding"], path)
    elif "format" in node:
        base = _entry(FORMATS, "format", node["format"], path)
    elif "pattern" in node:
        base = _pattern(node["pattern"])
    else:
        return st.text(min_size=node.get("minLength", 0), max_size=node.get("maxLength"))
    return base.filter(_string_fits(node))


def _entry(table: Mapping[str, Strategy], keyword: str, value: object, path: str) -> Strategy:
    if not isinstance(value, str) or value not in table:
        raise UnsupportedSchema(f"{_where(path)}: {keyword} {value!r} is not one onellm writes ({', '.join(table)})")
    return table[value]


# --- numbers, arrays, objects ------------------------------------------------------------


def _integer(r: _Reader, node: Schema, path: str) -> Strategy:
    lo, hi = node.get("minimum"), node.get("maximum")
    lo, hi = None if lo is None else math.ceil(lo), None if hi is None else math.floor(hi)
    if lo is not None and hi is not None and lo > hi:  # an empty range: only the other types (null) fit
        return st.nothing()
    return st.integers(lo, hi)


def _number(r: _Reader, node: Schema, path: str) -> Strategy:
    lo, hi = node.get("minimum"), node.get("maximum")
    if lo is not None and hi is not None and lo > hi:
        return st.nothing()
    floats = st.floats(lo, hi, allow_nan=False, allow_infinity=False)
    if lo is not None and hi is not None and math.ceil(lo) > math.floor(hi):
        return floats
    return _integer(r, node, path) | floats


def _array(r: _Reader, node: Schema, path: str) -> Strategy:
    items = node.get("items", {})
    lo, hi = node.get("minItems", 0), node.get("maxItems")
    hi = lo + 4 if hi is None else min(hi, lo + 4)
    element = r.node(items, f"{path}[]")
    if node.get("uniqueItems"):
        return st.lists(element, min_size=lo, max_size=hi, unique_by=lambda v: bound_key(v, items))
    return st.lists(element, min_size=lo, max_size=hi)


def _object(r: _Reader, node: Schema, path: str) -> Strategy:
    props: Mapping[str, Schema] = node.get("properties", {})
    required = list(node.get("required", ()))
    missing = [k for k in required if k not in props]
    if missing:
        raise UnsupportedSchema(f"{_where(path)}: required {missing} are not in properties")
    extra = node.get("additionalProperties", not (r.dialect.closed_by_properties and "properties" in node))
    fields = {k: r.node(s, f"{path}.{k}" if path else k) for k, s in props.items()}
    known = st.fixed_dictionaries(
        {k: fields[k] for k in required}, optional={k: v for k, v in fields.items() if k not in required}
    )
    if extra is False:
        return known
    values = _ANY_JSON if extra is True else r.node(extra, f"{path}{{}}")
    others = st.dictionaries(st.text(max_size=8).filter(lambda k: k not in props), values, max_size=4)
    return st.tuples(known, others).map(lambda pair: {**pair[1], **pair[0]})


_ANY_JSON: Strategy = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=8,
)

_BUILDERS: dict[str, Callable[[_Reader, Schema, str], Strategy]] = {
    "null": lambda r, node, path: st.none(),
    "boolean": lambda r, node, path: st.booleans(),
    "integer": _integer,
    "number": _number,
    "string": _string,
    "array": _array,
    "object": _object,
}


def _where(path: str) -> str:
    return f"at '{path}'" if path else "at the root"


@dataclass(frozen=True)
class _Reader:
    dialect: Dialect

    def types(self, node: Schema, path: str) -> list[str]:
        t = node.get("type")
        names = [] if t is None else (t if isinstance(t, list) else [t])
        unknown = [n for n in names if n not in self.dialect.type_names]
        if unknown:
            raise UnsupportedSchema(f"{_where(path)}: type {unknown[0]!r} is not a {self.dialect.name} type")
        types = [self.dialect.type_names[n] for n in names]
        if node.get("nullable") is True and "null" not in types:
            types.append("null")
        return types

    def node(self, node: object, path: str) -> Strategy:
        if not isinstance(node, Mapping):
            raise UnsupportedSchema(f"{_where(path)}: a schema is an object, not {json.dumps(node)}")
        for k in node:
            if k not in self.dialect.keywords:
                raise UnsupportedSchema(
                    f"{_where(path)}: keyword {k!r} is not in the {self.dialect.name} vocabulary onellm writes"
                )
        types = self.types(node, path)
        shaped = set(types) or ALL_TYPES
        for k in node:
            if not self.dialect.keywords[k] & shaped:
                raise UnsupportedSchema(f"{_where(path)}: keyword {k!r} on a node of type {types}")
        nullable = st.none() if "null" in types else st.nothing()
        if "anyOf" in node:
            if set(types) - {"null"}:
                raise UnsupportedSchema(f"{_where(path)}: 'type' beside 'anyOf'")
            branches = [self.node(b, path) for b in node["anyOf"]]
            return st.one_of(*branches, nullable)
        if "enum" in node:
            constraints = [k for k in node if self.dialect.keywords[k] != ALL_TYPES and k != "type"]
            if constraints:
                raise UnsupportedSchema(f"{_where(path)}: {constraints} beside 'enum'")
            return st.sampled_from(list(node["enum"])) | nullable
        if not types:
            return _ANY_JSON
        return st.one_of([_BUILDERS[t](self, node, path) for t in types])


def from_schema(schema: Schema, *, dialect: str = "json_schema") -> Strategy:
    """Values valid under ``schema``; ``dialect="openapi"`` reads Gemini's OpenAPI ``Schema`` form.

    Raises ``UnsupportedSchema`` for anything outside the vocabulary onellm writes.
    """
    if dialect not in _DIALECTS:
        raise ValueError(f"dialect must be one of {sorted(_DIALECTS)}, not {dialect!r}")
    return _Reader(_DIALECTS[dialect]).node(schema, "")


# --- uniqueItems ------------------------------------------------------------------------


def _instant(text: str) -> object:
    """A date-time text as (seconds since 0001-01-01 UTC, microseconds): no overflow at the range's ends."""
    m = re.fullmatch(r"(\d{4}-\d{2}-\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:[Zz]|([+-])(\d{2}):(\d{2}))", text)
    if m is None:
        return text
    day = dt.date.fromisoformat(m[1]).toordinal()
    offset = 0 if m[6] is None else (1 if m[6] == "+" else -1) * (int(m[7]) * 3600 + int(m[8]) * 60)
    seconds = day * 86400 + int(m[2]) * 3600 + int(m[3]) * 60 + int(m[4]) - offset
    return (seconds, int((m[5] or "0")[:6].ljust(6, "0")))


def _microseconds(text: str) -> object:
    """A duration text ``[-][d.]hh:mm:ss[.ffffff]`` as its signed length in microseconds."""
    m = re.fullmatch(r"(-)?(?:(\d+)\.)?(\d+):(\d+):(\d+)(?:\.(\d+))?", text)
    if m is None:
        return text
    seconds = ((int(m[2] or 0) * 24 + int(m[3])) * 60 + int(m[4])) * 60 + int(m[5])
    total = seconds * 1_000_000 + int((m[6] or "0").ljust(6, "0"))
    return -total if m[1] else total


#: How a string of each form compares after binding.
_STRING_KEYS: dict[str, Callable[[str], object]] = {
    "uuid": str.lower,
    "date-time": _instant,
    "time": lambda s: (s[:8], int(s[9:15].ljust(6, "0"))),
    "ipv4": ipaddress.ip_address,
    "ipv6": ipaddress.ip_address,
}


def _branch(node: Schema, value: Mapping[str, Any]) -> Schema:
    """The ``anyOf`` branch a record value belongs to (by its single-value enum properties)."""
    branch: Schema
    for branch in node["anyOf"]:
        props = branch.get("properties", {})
        tags = {k: p["enum"][0] for k, p in props.items() if len(p.get("enum", ())) == 1}
        if set(value) <= set(props) and all(value.get(k) == v for k, v in tags.items()):
            return branch
    return {}


def bound_key(value: Any, node: Schema) -> object:
    """A hashable stand-in for what ``value`` binds to under ``node``: equal exactly when two
    values could bind equal (equal instants, equal numbers, a missing property and its default
    or a null), so ``uniqueItems`` lists drawn by it are unique after binding too."""
    if "anyOf" in node and isinstance(value, dict):
        node = _branch(node, value)
    if isinstance(value, bool) or value is None:
        return ("const", value)
    if isinstance(value, (int, float)):
        return ("number", value)
    if isinstance(value, str):
        if "contentEncoding" in node:
            return ("bytes", base64.b64decode(value))
        if node.get("pattern") == TIMEDELTA_PATTERN:
            return ("duration", _microseconds(value))
        return ("text", _STRING_KEYS.get(node.get("format", ""), str)(value))
    if isinstance(value, list):
        items = node.get("items", {})
        keys = [bound_key(v, items) for v in value]
        return ("set", frozenset(keys)) if node.get("uniqueItems") else ("list", tuple(keys))
    props: Mapping[str, Schema] = node.get("properties", {})
    extra = node.get("additionalProperties")
    filled = {k: bound_key(v, props.get(k, extra if isinstance(extra, dict) else {})) for k, v in value.items()}
    for k, p in props.items():
        if k not in filled or filled[k] == ("const", None):
            filled[k] = bound_key(p["default"], p) if "default" in p else ("const", None)
    return ("object", frozenset(filled.items()))


# --- pairs of fragments, for the lock differ -------------------------------------------------

#: Patterns whose changes always have a witness the differ can show (no two are equivalent).
DIFF_PATTERNS = ("^[a-z]+$", "^[0-9]+$", "^x", "y$")
DIFF_FORMATS = ("uuid", "date", "email", "ipv4")


@st.composite
def _bounds(draw: st.DrawFn, low: str, high: str, floor: int, ceiling: int) -> dict[str, int]:
    """Optional ``low``/``high`` keywords with ``low <= high``, each between ``floor`` and ``ceiling``."""
    out: dict[str, int] = {}
    lo = draw(st.none() | st.integers(floor, ceiling))
    hi = draw(st.none() | st.integers(lo if lo is not None else floor, ceiling))
    if lo is not None:
        out[low] = lo
    if hi is not None:
        out[high] = hi
    return out


def _nullable(draw: st.DrawFn, node: dict[str, Any]) -> dict[str, Any]:
    if draw(st.booleans()):
        node["type"] = [node["type"], "null"]
        if "enum" in node:
            node["enum"] = [*node["enum"], None]
    return node


@st.composite
def diff_scalars(draw: st.DrawFn) -> dict[str, Any]:
    """A scalar fragment of the vocabulary: one string constraint kind at a time, so its
    language is never empty and every change of it has a witness."""
    kind = draw(st.sampled_from(["string", "pattern", "format", "enum", "integer", "number", "boolean", "base64"]))
    node: dict[str, Any]
    if kind == "string":
        node = {"type": "string", **draw(_bounds("minLength", "maxLength", 0, 4))}
    elif kind == "pattern":
        node = {"type": "string", "pattern": draw(st.sampled_from(DIFF_PATTERNS))}
    elif kind == "format":
        node = {"type": "string", "format": draw(st.sampled_from(DIFF_FORMATS))}
    elif kind == "base64":
        node = {"type": "string", "contentEncoding": "base64"}
    elif kind == "enum":
        node = {"type": "string", "enum": draw(st.lists(st.sampled_from("abcd"), min_size=1, max_size=3, unique=True))}
    elif kind in ("integer", "number"):
        node = {"type": kind, **draw(_bounds("minimum", "maximum", -3, 3))}
    else:
        node = {"type": "boolean"}
    if draw(st.booleans()):
        node["description"] = draw(st.sampled_from(["a", "b"]))
    return _nullable(draw, node)


def diff_fragments(depth: int = 2) -> st.SearchStrategy[dict[str, Any]]:
    """Fragments for the differ: scalars, arrays, records, maps and tagged unions of them."""
    if depth == 0:
        return diff_scalars()
    inner = diff_fragments(depth - 1)

    @st.composite
    def containers(draw: st.DrawFn) -> dict[str, Any]:
        kind = draw(st.sampled_from(["array", "record", "map", "union"]))
        if kind == "array":
            return {"type": "array", "items": draw(inner), **draw(_bounds("minItems", "maxItems", 0, 3))}
        if kind == "map":
            return {"type": "object", "additionalProperties": draw(inner)}
        if kind == "record":
            names = draw(st.lists(st.sampled_from("abcd"), max_size=3, unique=True))
            props = {n: draw(inner) for n in names}
            required = [n for n in names if draw(st.booleans())]
            node: dict[str, Any] = {"type": "object", "properties": props}
            if required:
                node["required"] = required
            return {**node, "additionalProperties": False}
        tags = draw(st.lists(st.sampled_from(["read", "stop", "move"]), min_size=1, max_size=3, unique=True))
        branches: list[dict[str, Any]] = []
        for tag in tags:
            fields = {"kind": {"type": "string", "enum": [tag]}, "x": draw(inner)}
            branches.append(
                {"type": "object", "properties": fields, "required": ["kind", "x"], "additionalProperties": False}
            )
        return {"anyOf": branches}

    return diff_scalars() | containers()


def _tweak(draw: st.DrawFn, node: dict[str, Any]) -> dict[str, Any]:
    """One change at this node, of a keyword it has or may have."""
    out = dict(node)
    t = node.get("type")
    base = t[0] if isinstance(t, list) else t
    moves = ["description", "nullable"]
    if base in ("integer", "number"):
        moves += ["minimum", "maximum", "number_type"]
    if base == "string" and "enum" in node:
        moves += ["enum"]
    elif base == "string" and not ({"pattern", "format", "contentEncoding"} & set(node)):
        moves += ["minLength", "maxLength", "pattern", "format"]
    elif base == "string":
        moves += ["pattern" if "pattern" in node else "format" if "format" in node else "contentEncoding"]
    if base == "array":
        moves += ["minItems", "maxItems", "uniqueItems"]
    if base == "object" and "properties" in node:
        moves += ["add", "remove", "required"]
    if base == "object" and "properties" not in node:
        moves += ["closed"]
    move = draw(st.sampled_from(moves))
    if move == "description":
        out["description"] = draw(st.sampled_from(["a", "b", "c"]))
    elif move == "nullable" and t is not None:
        if isinstance(t, list):
            out["type"] = base
            if "enum" in out:
                out["enum"] = [m for m in out["enum"] if m is not None]
        else:
            out["type"] = [t, "null"]
            if "enum" in out:
                out["enum"] = [*out["enum"], None]
    elif move in ("minimum", "maximum", "minLength", "maxLength", "minItems", "maxItems"):
        value = draw(st.none() | st.integers(-3 if "imum" in move else 0, 4))
        if value is None:
            out.pop(move, None)
        else:
            out[move] = value
    elif move == "number_type":
        out["type"] = ["integer" if base == "number" else "number", *([] if not isinstance(t, list) else ["null"])]
        if not isinstance(t, list):
            out["type"] = out["type"][0]
    elif move == "enum":
        members = [m for m in node["enum"] if m is not None]
        extra = [m for m in "abcd" if m not in members]
        if extra and (len(members) == 1 or draw(st.booleans())):
            members.append(draw(st.sampled_from(extra)))
        else:
            members.remove(draw(st.sampled_from(members)))
        out["enum"] = members + ([None] if None in node["enum"] else [])
    elif move in ("pattern", "format"):
        choices = DIFF_PATTERNS if move == "pattern" else DIFF_FORMATS
        value = draw(st.none() | st.sampled_from(choices))
        out.pop("minLength", None)
        out.pop("maxLength", None)
        if value is None:
            out.pop(move, None)
        else:
            out[move] = value
    elif move == "contentEncoding":
        out.pop("contentEncoding")
    elif move == "uniqueItems":
        if out.pop("uniqueItems", False) is False:
            out["uniqueItems"] = True
    elif move == "add":
        name = draw(st.sampled_from([n for n in "abcdef" if n not in node["properties"]]))
        out["properties"] = {**node["properties"], name: draw(diff_scalars())}
        if draw(st.booleans()):
            out["required"] = [*node.get("required", []), name]
    elif move == "remove" and node["properties"]:
        name = draw(st.sampled_from(sorted(node["properties"])))
        out["properties"] = {k: v for k, v in node["properties"].items() if k != name}
        required = [n for n in node.get("required", []) if n != name]
        out.pop("required", None)
        if required:
            out["required"] = required
    elif move == "required" and node["properties"]:
        name = draw(st.sampled_from(sorted(node["properties"])))
        required = list(node.get("required", []))
        required = [n for n in required if n != name] if name in required else [*required, name]
        out.pop("required", None)
        if required:
            out = {k: v for k, v in out.items() if k != "additionalProperties"}
            out["required"] = [n for n in out["properties"] if n in required]
            out["additionalProperties"] = False
    elif move == "closed":
        out["additionalProperties"] = False
    return out


def _mutated(draw: st.DrawFn, node: dict[str, Any]) -> dict[str, Any]:
    out = _tweak(draw, node) if "anyOf" not in node and draw(st.integers(0, 2)) == 0 else dict(node)
    if "items" in out:
        out["items"] = _mutated(draw, out["items"])
    if isinstance(out.get("additionalProperties"), dict):
        out["additionalProperties"] = _mutated(draw, out["additionalProperties"])
    if "properties" in out:  # a discriminator (a one-member enum) stays as it is, as onellm writes it
        out["properties"] = {
            k: v if len(v.get("enum", ())) == 1 else _mutated(draw, v) for k, v in out["properties"].items()
        }
    if "anyOf" in out:  # a branch keeps its discriminator: only its other field changes
        branches = [
            {**b, "properties": {**b["properties"], "x": _mutated(draw, b["properties"]["x"])}} for b in out["anyOf"]
        ]
        if len(branches) > 1 and draw(st.integers(0, 4)) == 0:
            branches.pop(draw(st.integers(0, len(branches) - 1)))
        out["anyOf"] = branches
    return out


def _consistent(node: Any) -> bool:
    """Bounds in order and an enum left non-empty, all the way down."""
    if not isinstance(node, dict):
        return True
    for lo, hi in (("minimum", "maximum"), ("minLength", "maxLength"), ("minItems", "maxItems")):
        if lo in node and hi in node and node[lo] > node[hi]:
            return False
    if "enum" in node and not [m for m in node["enum"] if m is not None]:
        return False
    children = [
        node.get("items"),
        node.get("additionalProperties"),
        *node.get("properties", {}).values(),
        *node.get("anyOf", []),
    ]
    return all(_consistent(c) for c in children if isinstance(c, dict))


@st.composite
def fragment_pairs(draw: st.DrawFn) -> tuple[dict[str, Any], dict[str, Any]]:
    """An old fragment and a new one: the old with a few keywords changed somewhere inside."""
    old = draw(diff_fragments())
    new = _mutated(draw, old)
    if new == old:
        new = _tweak(draw, old) if "anyOf" not in old else {**old, "description": "changed"}
    if not _consistent(new):
        new = old
    return old, new
