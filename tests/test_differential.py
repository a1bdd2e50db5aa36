"""Differential: ``bind`` accepts a JSON value exactly when jsonschema's Draft 2020-12 validator,
with format checking, accepts it against ``tool.input_schema``.

For every tool here (one per row of the contract's Types table, and the corpus in
``test-data/valid_*.py``), hypothesis draws arguments *near* the tool's schema: mostly the
right shape, with wrong kinds, missing and unknown properties, near-miss formats, duplicate
set items and out-of-range numbers mixed in. Each value is bound through both entrances (the
raw JSON text and the parsed mapping), which must give the same outcome and the same
message; ``bind`` must never raise anything but ``ArgumentError``; and its verdict must be
the validator's, except for these principled differences, each checked narrowly below:

1. Set items are unique *after binding* (contract, Types: "no two equal items after
   binding"); JSON Schema's ``uniqueItems`` compares JSON. ``{"name": "a"}`` and
   ``{"name": "a", "weight": 1}`` differ as JSON but bind to equal records.
2. ``contentEncoding: base64`` is an annotation in 2020-12 (validators do not check it);
   the binder enforces standard base64 with padding (contract, Types: bytes).
3. ``format: email``: jsonschema only checks for an ``@``; the binder wants exactly one
   ``@`` between non-empty parts, without white space or control characters (documented in
   ``onellm_runtime/core/formats.py``).
4. ``pattern`` is read as ECMA-262 reads it (contract, Decisions: Binding): ``\\d``, ``\\w``
   are ASCII, ``$`` is the very end, ``.`` stops at every line terminator. jsonschema uses
   Python's ``re``, which differs exactly on non-ASCII and control characters.
5. ``format: uuid``: jsonschema accepts what ``uuid.UUID()`` parses with hyphens at the four
   places (so extra hyphens and braces slip through); the contract wants 8-4-4-4-12.
6. ``format: date-time`` and ``uri``: jsonschema's checkers end their patterns with ``$``,
   which also matches before a final newline; the binder does not accept one.
7. ``format: time``: the contract's ``datetime.time`` is ``HH:MM:SS[.ffffff]`` without an
   offset, while JSON Schema's ``time`` is RFC 3339 ``full-time``, which requires one. The
   two never agree on a time string, in either direction.
8. ``timedelta``: the binder cannot build a span beyond Python's ``timedelta`` range
   (999,999,999 days), although the pattern allows any number of day digits.
9. An integer written with an exponent or a fraction binds only below 10^20 (contract, "Errors
   become results"): ``1e+20`` (what ``json.dumps`` writes for the float) is an integer to the
   validator and refused by the binder, which wants such an integer in plain digits.

An integral float beyond 2**53 (``1e23``) is an integer in both (``5.0`` is too); the raw
entrance reads its exact text while the mapping entrance has only the float, so only there
are the two bound values allowed to differ.
"""

from __future__ import annotations

import base64
import datetime as dt
import enum
import functools
import json
import math
import os
import re
import sys
import uuid
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Annotated, Any, Literal, NamedTuple, Optional, Union

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator
from typing_extensions import NotRequired, TypedDict

from onellm_runtime import (
    ArgumentError,
    Char,
    Discriminator,
    Email,
    Int8,
    Int16,
    Int32,
    Int64,
    JsonArray,
    JsonName,
    JsonObject,
    JsonValue,
    Length,
    MaxLength,
    MinLength,
    Pattern,
    Range,
    StringLength,
    Tool,
    UInt8,
    UInt16,
    UInt32,
    UInt64,
    Url,
    tool,
)
from onellm_runtime.binding import compile_binder
from onellm_runtime.binding.state import Call

# --- our own tools: every row of the Types table ---------------------------------------------


class Mode(enum.Enum):
    Files = 1
    Content = 2
    Count = 3


@dataclass(frozen=True)
class Tag:
    name: str
    weight: int = 1


@dataclass
class Replacement:
    old_text: str
    new_text: Annotated[str, JsonName("replacement"), MaxLength(5)]
    when: Optional[dt.date] = None


class Point(NamedTuple):
    x: float
    y: float = 0.0


class Movie(TypedDict):
    title: str
    year: NotRequired[Annotated[int, Range(1900, 2100)]]


@dataclass
class StartJob:
    action: Literal["start"]
    command: str
    environment: Optional[dict[str, str]] = None


@dataclass
class ReadJob:
    action: Literal["read"]
    handle_id: str
    tail_lines: Annotated[int, Range(0, 500)] = 200


@dataclass
class Cat:
    kind: Literal["cat"]
    lives: UInt8


@dataclass
class Dog:
    kind: Literal["dog"]
    tags: frozenset[Tag] = frozenset()


@tool
def d_scalars(
    flag: bool,
    count: int,
    ratio: float,
    amount: Decimal,
    text: str,
    letter: Char,
    ident: uuid.UUID,
    at: dt.datetime,
    day: dt.date,
    clock: dt.time,
    span: dt.timedelta,
    blob: bytes,
) -> str:
    return ""


@tool
def d_scalars_but_time(
    flag: bool, count: int, ratio: float, amount: Decimal, text: str, letter: Char, ident: uuid.UUID, at: dt.datetime
) -> str:
    """The scalar rows whose strings both readings share (see 7 for ``time``)."""
    return ""


@tool
def d_sized(i8: Int8, u8: UInt8, i16: Int16, u16: UInt16, i32: Int32, u32: UInt32, i64: Int64, u64: UInt64) -> str:
    return ""


@tool
def d_choices(
    mode: Mode,
    word: Literal["read", "write"],
    number: Literal[1, 2, 3],
    yes: Literal[True],
    maybe: Optional[Mode] = None,
    merged: Union[Literal["a"], Literal["b"]] = "a",
) -> str:
    return ""


@tool
def d_annotated(
    small: Annotated[int, Range(-5, 5)],
    share: Annotated[float, Range(0.0, 1.0)],
    price: Annotated[Decimal, Range(0.1, 9.5)],
    code: Annotated[str, Pattern("^[A-Z]{3}-\\d{2}$")],
    word: Annotated[str, Pattern("\\w+"), StringLength(8, min_length=2)],
    email: Annotated[str, Email()],
    site: Annotated[Optional[str], Url()] = None,
    few: Annotated[list[int], Length(1, 3)] = [1],  # noqa: B006 - never mutated
    short: Annotated[str, MinLength(1), MaxLength(4)] = "x",
    loose: Annotated[JsonArray, MaxLength(2)] = [],  # noqa: B006
) -> str:
    return ""


@tool
def d_collections(
    numbers: list[int],
    floats: tuple[float, ...],
    names: set[str],
    days: frozenset[dt.date],
    grid: list[list[bool]],
    env: dict[str, str],
    scores: dict[str, Optional[float]],
    anything: JsonValue,
    obj: JsonObject,
    arr: JsonArray,
) -> str:
    return ""


@tool(naming="camelCase")
def d_records(
    replacements: list[Replacement],
    tags: set[Tag],
    where: Point,
    movie: Movie,
    maybe: Optional[Movie] = None,
) -> str:
    return ""


@tool(naming="camelCase")
def d_unions(
    request: Union[StartJob, ReadJob],
    pet: Annotated[Optional[Union[Cat, Dog]], Discriminator("kind")] = None,
) -> str:
    return ""


OWN_TOOLS: list[tuple[str, Tool[..., Any]]] = [
    (t.name, t)
    for t in (d_scalars, d_scalars_but_time, d_sized, d_choices, d_annotated, d_collections, d_records, d_unions)
]


# --- the corpus: every valid tool in test-data/ ---------------------------------------------------


def _corpus_tools() -> list[tuple[str, Tool[..., Any]]]:
    here = Path(__file__).resolve().parent.parent / "test-data"
    if str(here) not in sys.path:  # corpus modules import their sibling helpers (test-data/README.md)
        sys.path.insert(0, str(here))
    import _corpus

    found: list[tuple[str, Tool[..., Any]]] = []
    for path in _corpus.valid_modules():
        module = _corpus.load_module(path)
        for attr, value in vars(module).items():
            if isinstance(value, Tool):
                found.append((f"{path.stem}.{attr}", value))
            elif isinstance(value, type) and value.__module__ == module.__name__:
                for method, member in vars(value).items():
                    if isinstance(member, Tool):
                        found.append((f"{path.stem}.{attr}.{method}", member))
    return found


TOOLS = OWN_TOOLS + _corpus_tools()


# --- values near a schema ------------------------------------------------------------------------

_LEAF = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**6), 10**6),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=6),
)
ANY_JSON = st.recursive(
    _LEAF,
    lambda kids: st.lists(kids, max_size=3) | st.dictionaries(st.text(max_size=4), kids, max_size=3),
    max_leaves=6,
)
JUNK = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 3),
    st.floats(-2, 2),
    st.text(max_size=3),
    st.just([]),
    st.just({}),
    st.just([1, "a"]),
)

UUIDS = [
    "12345678-9abc-def0-1234-56789abcdef0",
    "12345678-9ABC-DEF0-1234-56789ABCDEF0",
    "{12345678-9abc-def0-1234-56789abcdef0}",
    "12345678-9abc-def0-1234-56789abcdef0}",
    "123456789abcdef0123456789abcdef0",
    "urn:uuid:12345678-9abc-def0-1234-56789abcdef0",
    "12345678-9abc-def0-1234-56789abc-def0",
    "12345678-9abc-def0-1234-56789abcdef0\n",
    "12345678-9abc-def0-1234-56789abcdefg",
]
DATETIMES = [
    "2026-07-01T12:30:00Z",
    "2026-07-01t12:30:00.123456789z",
    "2026-07-01T12:30:00+02:00",
    "2026-07-01T12:30:00-23:59",
    "2026-07-01T12:30:00",
    "2026-07-01 12:30:00Z",
    "2026-06-30T23:59:60Z",
    "2026-02-30T00:00:00Z",
    "2024-02-29T00:00:00Z",
    "0000-01-01T00:00:00Z",
    "2026-07-01T12:30:00+24:00",
    "2026-07-01T24:00:00Z",
    "2026-07-01T12:30:00Z\n",
    "2026-07-01T12:30Z",
]
DATES = ["2026-07-01", "2026-7-1", "20260701", "2026-02-29", "2024-02-29", "0000-01-01", "2026-07-01\n", "2026-13-01"]
TIMES = [
    "12:30:05",
    "12:30:05.5",
    "23:59:59.999999",
    "12:30:05Z",
    "12:30:05+02:00",
    "24:00:00",
    "12:30",
    "12:30:05.1234567",
]
EMAILS = ["ada@example.com", "a@b", "ada.example.com", "ada lovelace@example.com", "a@b@c", "@b", "a@", "a\n@b", "é@ü"]
URIS = [
    "https://example.com/a?b=c#d",
    "urn:isbn:0451450523",
    "mailto:ada@example.com",
    "a:",
    "http://[2001:db8::1]:8080/",
    "http://[2001:db8::1::2]/",
    "/relative/path",
    "https://example.com/a b",
    "https://example.com/%zz",
    "https://example.com/%41",
    "http://example.com\n",
    "http://ex%61mple.com/",
    "h\u00e9://x",
]


def _bounds(schema: dict[str, Any]) -> tuple[Any, Any]:
    return schema.get("minimum"), schema.get("maximum")


# Valid values: what the schema allows (time strings in the contract's form, see 7).

VALID_URIS = ["https://example.com/a?b=c#d", "urn:isbn:0451450523", "mailto:ada@example.com", "http://[::1]:80/", "a:"]
ASCII = st.characters(min_codepoint=0x20, max_codepoint=0x7E)


def _valid_integers(schema: dict[str, Any]) -> st.SearchStrategy[Any]:
    lo, hi = _bounds(schema)
    lo = math.ceil(lo) if lo is not None else -(2**64)
    hi = math.floor(hi) if hi is not None else 2**64
    return st.one_of(st.integers(lo, hi), st.integers(max(lo, -(2**40)), min(hi, 2**40)).map(float))


def _valid_numbers(schema: dict[str, Any]) -> st.SearchStrategy[Any]:
    lo, hi = _bounds(schema)
    floats = st.floats(lo, hi, allow_nan=False, allow_infinity=False)
    ints = st.integers(math.ceil(lo) if lo is not None else -(2**60), math.floor(hi) if hi is not None else 2**60)
    return st.one_of(floats, ints)


def _fits(schema: dict[str, Any], s: str) -> bool:
    """Whether a generated string meets every string keyword (ASCII strings: both readings agree)."""
    lo, hi = schema.get("minLength", 0), schema.get("maxLength")
    if len(s) < lo or (hi is not None and len(s) > hi):
        return False
    if "pattern" in schema and re.search(schema["pattern"], s, re.ASCII) is None:
        return False
    return "format" not in schema or CHECKER.conforms(s, schema["format"])


def _valid_strings(schema: dict[str, Any]) -> st.SearchStrategy[Any]:
    fmt = schema.get("format")
    lo, hi = schema.get("minLength", 0), schema.get("maxLength")
    if fmt == "uuid":
        return st.one_of(st.uuids().map(str), st.uuids().map(lambda u: str(u).upper()))
    if fmt == "date-time":
        return st.datetimes(timezones=st.sampled_from([dt.timezone.utc, dt.timezone(dt.timedelta(hours=-3))])).map(
            dt.datetime.isoformat
        )
    if fmt == "date":
        return st.dates().map(dt.date.isoformat)
    if fmt == "time":
        return st.times().map(dt.time.isoformat)
    if schema.get("contentEncoding") == "base64":
        return st.binary(max_size=8).map(lambda b: base64.b64encode(b).decode())
    # Several candidates, the first that meets every keyword (never a rejection: a draw that
    # finds none keeps its first candidate, and is then simply a near miss).
    candidates: list[st.SearchStrategy[str]] = [st.text(ASCII, min_size=lo, max_size=hi if hi is not None else 10)]
    if fmt == "email":
        candidates.append(st.from_regex(r"[a-z0-9x]{1,3}@[a-z]{1,3}(\.[a-z]{2})?", fullmatch=True))
        if "pattern" in schema:  # a local part the pattern matches
            local = st.from_regex(
                schema["pattern"], alphabet=st.characters(whitelist_categories=["Ll", "Nd"]), fullmatch=True
            )
            candidates.append(st.builds(lambda a, b: f"{a}@{b}", local, st.from_regex("[a-z]{1,2}", fullmatch=True)))
    if fmt == "uri":
        candidates.append(st.sampled_from(VALID_URIS))
    if "pattern" in schema:
        candidates.append(st.from_regex(schema["pattern"], alphabet=ASCII, fullmatch=True))
    pool = st.lists(st.one_of(candidates[::-1]), min_size=6, max_size=6)
    return pool.map(lambda cs: next((c for c in cs if _fits(schema, c)), cs[0]))


def valid(schema: dict[str, Any]) -> st.SearchStrategy[Any]:
    if "anyOf" in schema:
        return st.one_of([valid(branch) for branch in schema["anyOf"]])
    if "enum" in schema:
        return st.sampled_from(list(schema["enum"]))
    types = schema.get("type")
    if types is None:
        return ANY_JSON
    options: list[st.SearchStrategy[Any]] = []
    for t in types if isinstance(types, list) else [types]:
        if t == "null":
            options.append(st.none())
        elif t == "boolean":
            options.append(st.booleans())
        elif t == "integer":
            options.append(_valid_integers(schema))
        elif t == "number":
            options.append(_valid_numbers(schema))
        elif t == "string":
            options.append(_valid_strings(schema))
        elif t == "array":
            lo, hi = schema.get("minItems", 0), schema.get("maxItems")
            items = valid(schema["items"]) if "items" in schema else ANY_JSON
            unique = (lambda x: json.dumps(x, sort_keys=True)) if schema.get("uniqueItems") else None
            options.append(st.lists(items, min_size=lo, max_size=hi if hi is not None else 3, unique_by=unique))
        elif "properties" in schema:
            required = set(schema.get("required", ()))
            props = schema["properties"]
            options.append(
                st.fixed_dictionaries(
                    {k: valid(v) for k, v in props.items() if k in required},
                    optional={k: valid(v) for k, v in props.items() if k not in required},
                )
            )
        elif isinstance(schema.get("additionalProperties"), dict):
            options.append(st.dictionaries(st.text(max_size=5), valid(schema["additionalProperties"]), max_size=3))
        else:
            options.append(st.dictionaries(st.text(max_size=4), ANY_JSON, max_size=3))
    return st.one_of(options)


# Near misses: the right shape with faults mixed in (children are drawn with ``near`` again).


def _integers(schema: dict[str, Any]) -> st.SearchStrategy[Any]:
    lo, hi = _bounds(schema)
    near_lo = math.floor(lo) - 2 if lo is not None else -(2**70)
    near_hi = math.ceil(hi) + 2 if hi is not None else 2**70
    ranged = st.integers(max(near_lo, -(2**70)), min(near_hi, 2**70))
    edges = st.sampled_from([v for v in (lo, hi) if v is not None] or [0])
    return st.one_of(
        ranged,
        edges.map(lambda v: v + 1),
        edges.map(lambda v: v - 1),
        st.integers(-1000, 1000).map(float),
        st.floats(-1000, 1000),
        st.floats(allow_nan=False, allow_infinity=False),
    )


def _numbers(schema: dict[str, Any]) -> st.SearchStrategy[Any]:
    lo, hi = _bounds(schema)
    options = [st.floats(allow_nan=False, allow_infinity=False), st.integers(-(10**9), 10**9)]
    if lo is not None or hi is not None:
        a = (lo if lo is not None else hi) - 1
        b = (hi if hi is not None else lo) + 1
        options += [st.floats(a, b), st.sampled_from([v for v in (lo, hi) if v is not None])]
    return st.one_of(options)


def _strings(schema: dict[str, Any]) -> st.SearchStrategy[Any]:
    fmt = schema.get("format")
    lo, hi = schema.get("minLength", 0), schema.get("maxLength")
    sized = st.text(min_size=max(0, lo - 1), max_size=(hi if hi is not None else 10) + 1)
    options: list[st.SearchStrategy[Any]] = [sized]
    if fmt == "uuid":
        options += [st.sampled_from(UUIDS)]
    elif fmt == "date-time":
        options += [st.sampled_from(DATETIMES), st.datetimes().map(dt.datetime.isoformat)]
    elif fmt == "date":
        options += [st.sampled_from(DATES)]
    elif fmt == "time":
        options += [st.sampled_from(TIMES)]
    elif fmt == "email":
        options += [st.sampled_from(EMAILS), st.emails()]
    elif fmt == "uri":
        options += [st.sampled_from(URIS)]
    if "pattern" in schema:
        options += [st.from_regex(schema["pattern"]), st.from_regex(schema["pattern"], fullmatch=True)]
    if schema.get("contentEncoding") == "base64":
        encoded = st.binary(max_size=8).map(lambda b: base64.b64encode(b).decode())
        options += [
            encoded.map(lambda s: s.rstrip("=")),
            encoded.map(lambda s: s[:1] + " " + s[1:]),
            st.binary(max_size=8).map(lambda b: base64.urlsafe_b64encode(b).decode()),
        ]
    return st.one_of(options)


def _enum(values: list[Any]) -> st.SearchStrategy[Any]:
    misses: list[Any] = []
    for v in values:
        if isinstance(v, str):
            misses += [v.lower(), v.upper(), v + "x", "", " "]
        elif isinstance(v, bool):
            misses += [not v, int(v)]
        elif isinstance(v, int):
            misses += [v + 1, float(v), v + 0.5]
    return st.one_of(st.sampled_from(values), st.sampled_from(misses or [None]))


def _objects(schema: dict[str, Any]) -> st.SearchStrategy[Any]:
    props: dict[str, Any] = schema["properties"]
    required = set(schema.get("required", ()))
    base = st.fixed_dictionaries(
        {k: near(v) for k, v in props.items() if k in required},
        optional={k: near(v) for k, v in props.items() if k not in required},
    )
    names = list(props) or ["x"]

    def mutate(value: dict[str, Any], how: str, key: str) -> dict[str, Any]:
        out = dict(value)
        if how == "drop" and key in out:
            del out[key]
        elif how == "extra":
            out[key + "_extra"] = 1
        elif how == "recase" and key in out:
            out[key.upper() if key != key.upper() else key.lower()] = out.pop(key)
        elif how == "null" and key in out:
            out[key] = None
        return out

    how = st.sampled_from(["keep", "drop", "extra", "recase", "null"])
    return st.builds(mutate, base, how, st.sampled_from(names))


def _arrays(schema: dict[str, Any]) -> st.SearchStrategy[Any]:
    items = near(schema["items"]) if "items" in schema else ANY_JSON
    lo, hi = schema.get("minItems", 0), schema.get("maxItems")
    lists = st.lists(items, min_size=max(0, lo - 1), max_size=(hi if hi is not None else 3) + 1)
    if schema.get("uniqueItems"):
        return st.one_of(lists, lists.filter(bool).map(lambda xs: xs + xs[:1]))
    return lists


def _shaped(schema: dict[str, Any]) -> st.SearchStrategy[Any]:
    if "anyOf" in schema:
        return st.one_of([near(branch) for branch in schema["anyOf"]])
    if "enum" in schema:
        return _enum(list(schema["enum"]))
    types = schema.get("type")
    if types is None:
        return ANY_JSON
    options: list[st.SearchStrategy[Any]] = []
    for t in types if isinstance(types, list) else [types]:
        if t == "null":
            options.append(st.none())
        elif t == "boolean":
            options.append(st.booleans())
        elif t == "integer":
            options.append(_integers(schema))
        elif t == "number":
            options.append(_numbers(schema))
        elif t == "string":
            options.append(_strings(schema))
        elif t == "array":
            options.append(_arrays(schema))
        elif "properties" in schema:
            options.append(_objects(schema))
        elif isinstance(schema.get("additionalProperties"), dict):
            options.append(st.dictionaries(st.text(max_size=5), near(schema["additionalProperties"]), max_size=3))
        else:
            options.append(st.dictionaries(st.text(max_size=4), ANY_JSON, max_size=3))
    return st.one_of(options)


def near(schema: dict[str, Any]) -> st.SearchStrategy[Any]:
    """Usually a valid value; now and then a near miss or junk (hypothesis favours the first choice)."""
    key = json.dumps(schema, sort_keys=True)
    cached = _NEAR.get(key)
    if cached is None:
        good, shaped = valid(schema), st.deferred(lambda: _shaped(schema))
        choice = st.sampled_from(["valid"] * 12 + ["shaped", "shaped", "junk"])
        cached = _NEAR[key] = choice.flatmap(lambda c: good if c == "valid" else shaped if c == "shaped" else JUNK)
    return cached


_NEAR: dict[str, st.SearchStrategy[Any]] = {}


# --- the comparison --------------------------------------------------------------------------------

CHECKER = Draft202012Validator.FORMAT_CHECKER
_OFFSET = re.compile(r"(?:[Zz]|[+-]\d\d:\d\d)$")


@functools.cache
def _validator(name: str) -> Draft202012Validator:
    t = dict(TOOLS)[name]
    return Draft202012Validator(t.input_schema, format_checker=CHECKER)


def _outcome(t: Tool[..., Any], arguments: object) -> tuple[str, Any]:
    try:
        return ("ok", t.bind(arguments))  # type: ignore[arg-type]
    except ArgumentError as e:  # anything else fails the test
        return ("error", e)


def _at(instance: Any, path: str) -> Any:
    """The value at a binder path (``a.b[2]["c d"]``) in the instance."""
    value = instance
    for m in re.finditer(r'\.?([A-Za-z_][A-Za-z0-9_]*)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]', path):
        name, index, quoted = m.groups()
        key: Any = int(index) if index is not None else (json.loads(quoted) if quoted is not None else name)
        value = value[key]
    return value


def _tricky(s: str) -> bool:
    """Characters on which ECMA-262 and Python's ``re`` read a pattern differently."""
    return any(ord(ch) > 0x7E or ord(ch) < 0x20 for ch in s)


def _binder_stricter(message: str, value: Any) -> bool:
    """Whether a fault the validator let pass is one of the documented differences (1-9)."""
    if "the items must be unique" in message:  # 1
        return True
    if "must be standard base64 with padding" in message:  # 2
        return True
    if "must be an email address" in message:  # 3
        return True
    if "must match the pattern" in message or "must be a duration" in message:  # 4, 8
        if isinstance(value, str) and _tricky(value):
            return True
        m = re.fullmatch(r"-?(\d+)\.\d\d:\d\d:\d\d(\.\d{1,6})?", value) if isinstance(value, str) else None
        return m is not None and int(m.group(1)) > 999_999_999
    if "must be a UUID" in message:  # 5
        return isinstance(value, str) and (value.count("-") > 4 or "{" in value or "}" in value)
    if "must be an RFC 3339 date-time" in message or "must be an absolute URI" in message:  # 6
        return isinstance(value, str) and value.endswith("\n")
    if "must be a time HH:MM:SS" in message:  # 7
        return isinstance(value, str) and _OFFSET.search(value) is not None
    if "must be written in plain digits to be an integer of 10^20 or more" in message:  # 9
        return isinstance(value, float) and abs(value) >= 1e20
    return False


def _has_big_float(value: Any) -> bool:
    if isinstance(value, float):
        return abs(value) >= 2.0**53
    if isinstance(value, list):
        return any(_has_big_float(v) for v in value)
    if isinstance(value, dict):
        return any(_has_big_float(v) for v in value.values())
    return False


def compare(name: str, instance: Any) -> None:
    t = dict(TOOLS)[name]
    raw = _outcome(t, json.dumps(instance))
    # The mapping entrance takes a mapping (a str or bytes argument is the raw document).
    mapped = _outcome(t, instance) if isinstance(instance, dict) else raw
    assert raw[0] == mapped[0], (instance, raw, mapped)
    if not _has_big_float(instance):  # else the raw entrance read more digits than the float has
        if raw[0] == "error":
            assert str(raw[1]) == str(mapped[1]), (instance, str(raw[1]), str(mapped[1]))
        else:
            assert raw[1] == mapped[1], (instance, raw[1], mapped[1])
    if raw[0] == "ok" and isinstance(instance, dict) and not _has_big_float(instance):
        # The generated fast path and the generic (collecting) path bind alike.
        generic = Call(False, compile_binder(t.model)._exact, False, True)
        assert compile_binder(t.model)._top.bind(dict(instance), generic) == raw[1]
        assert generic.errors == []
    validator = _validator(name)
    valid = validator.is_valid(instance)
    if raw[0] == "ok" and not valid:
        errors = list(validator.iter_errors(instance))
        assert all(e.validator == "format" and e.validator_value == "time" for e in errors), (  # 7
            instance,
            [e.message for e in errors],
        )
    elif raw[0] == "error" and valid:
        err = raw[1]
        assert isinstance(err, ArgumentError)
        for path, message in err.errors:
            assert _binder_stricter(message, _at(instance, path)), (instance, message)


@pytest.mark.parametrize("name", [n for n, _ in TOOLS])
@settings(
    max_examples=int(os.environ.get("ONELLM_DIFFERENTIAL_EXAMPLES", "25")),
    deadline=None,
    suppress_health_check=list(HealthCheck),
)
@given(data=st.data())
def test_bind_agrees_with_the_validator(name: str, data: st.DataObject) -> None:
    t = dict(TOOLS)[name]
    compare(name, data.draw(_arguments(name, id(t)), label="arguments"))


@functools.cache
def _arguments(name: str, _key: int) -> st.SearchStrategy[Any]:
    """Half valid calls, half calls with a fault or two somewhere (or junk)."""
    schema = dict(TOOLS)[name].input_schema
    return st.booleans().flatmap(lambda good: valid(schema) if good else _shaped(schema) | JUNK)


def test_the_corpus_is_in_the_comparison() -> None:
    """The loop over test-data/ found the corpus (so its tools are not silently left out)."""
    corpus = [n for n, _ in TOOLS if n.startswith("valid_")]
    here = Path(__file__).resolve().parent.parent / "test-data"
    if any(here.glob("valid_*.py")):
        assert corpus


# --- the documented differences, pinned one by one ------------------------------------------------


def _agrees(name: str, instance: Any) -> bool:
    return _validator(name).is_valid(instance) == (_outcome(dict(TOOLS)[name], instance)[0] == "ok")


EXAMPLE = {
    "flag": True,
    "count": 1,
    "ratio": 0.5,
    "amount": 1,
    "text": "t",
    "letter": "a",
    "ident": "12345678-9abc-def0-1234-56789abcdef0",
    "at": "2026-07-01T12:30:00Z",
    "day": "2026-07-01",
    "clock": "12:30:05",
    "span": "01:00:00",
    "blob": "aGk=",
}


def test_principled_differences_are_real_and_narrow() -> None:
    name = "d_scalars"
    # 7: a contract time is no RFC 3339 full-time, and the other way round
    assert not _agrees(name, EXAMPLE)
    assert not _agrees(name, {**EXAMPLE, "clock": "12:30:05Z"})
    # 2: base64 is only an annotation for the validator
    assert _outcome(d_scalars, {**EXAMPLE, "blob": "a"})[0] == "error"
    assert _validator(name).is_valid({**EXAMPLE, "blob": "a", "clock": "12:30:05Z"})
    # everything else in the row agrees: a valid call minus the time field's difference
    assert _outcome(d_scalars, EXAMPLE)[0] == "ok"
    assert [e.validator_value for e in _validator(name).iter_errors(EXAMPLE)] == ["time"]
    # 9: a float of 10^20 or more is an integer to the validator, refused by the binder
    assert _validator(name).is_valid({**EXAMPLE, "count": 1e20, "clock": "12:30:05Z"})
    err = _outcome(d_scalars, {**EXAMPLE, "count": 1e20})[1]
    assert isinstance(err, ArgumentError) and str(err) == (
        "Argument 'count' must be written in plain digits to be an integer of 10^20 or more, got 1e+20."
    )
    assert _outcome(d_scalars, {**EXAMPLE, "count": 1e19})[0] == "ok"
    # 1: unique after binding
    records = {
        "replacements": [],
        "tags": [{"name": "a"}, {"name": "a", "weight": 1}],
        "where": {"x": 1},
        "movie": {"title": "Up"},
    }
    assert _validator("d_records").is_valid(records)
    err = _outcome(d_records, records)[1]
    assert (
        isinstance(err, ArgumentError) and str(err) == "Argument 'tags[1]' repeats tags[0]; the items must be unique."
    )
