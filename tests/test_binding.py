"""The binder, row by row of the contract's Types table ("The binder accepts" column) and its
Annotations table, through both entrances: the raw JSON document and the parsed mapping.

Every expected value and message was written by hand from CONTRACT.md (Types, Annotations,
Decisions: Binding) and the message table in ``onellm_runtime/binding/__init__.py``'s docstring.
"""

from __future__ import annotations

import datetime as dt
import enum
import ipaddress
import json
import typing
import uuid
from collections.abc import Iterable, Mapping, MutableMapping, MutableSequence, Sequence
from decimal import Decimal
from typing import Annotated, Any, Literal, NewType, Optional

import pytest

from onellm_runtime import (
    ArgumentError,
    Char,
    Email,
    Int8,
    Int64,
    JsonArray,
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
    UInt64,
    Url,
)

_NO = object()


def one(tp: object, default: object = _NO) -> Tool[..., Any]:
    """A tool with the single parameter ``x: tp`` (and ``default``, if given)."""

    def x_tool(x):  # type: ignore[no-untyped-def]
        return ""

    x_tool.__annotations__ = {"x": tp, "return": str}
    if default is not _NO:
        x_tool.__defaults__ = (default,)
    return Tool.create(x_tool, name="t")


def outcome(t: Tool[..., Any], arguments: object, provider: str | None = None) -> tuple[str, object]:
    try:
        return ("ok", t.bind(arguments, provider))  # type: ignore[arg-type]
    except ArgumentError as e:
        return ("error", str(e))


def both(t: Tool[..., Any], text: str) -> tuple[str, object]:
    """Bind the raw document and its parsed mapping: the two entrances must agree exactly."""
    raw = outcome(t, text)
    assert raw == outcome(t, text.encode("utf-8")), "str and bytes documents differ"
    mapped = outcome(t, json.loads(text))
    assert raw == mapped, "raw JSON and parsed mapping differ"
    if raw[0] == "ok":
        bound = raw[1]
        assert isinstance(bound, dict) and isinstance(mapped[1], dict)
        for k in bound:
            assert type(bound[k]) is type(mapped[1][k])
    return raw


def doc(text: str) -> str:
    return '{"x": ' + text + "}"


def bound_x(tp: object, text: str) -> object:
    kind, value = both(one(tp), doc(text))
    assert kind == "ok", value
    assert isinstance(value, dict)
    return value["x"]


def refused(tp: object, text: str) -> str:
    kind, value = both(one(tp), doc(text))
    assert kind == "error", value
    assert isinstance(value, str)
    return value


class Mode(enum.Enum):
    """Int-valued: bound by member name (string-valued enums are in test_enum_values.py)."""

    Files = 1
    Content = 2
    Count = 3
    Everything = 1  # an alias: not a member name on the wire


class Priority(enum.Enum):
    LOW = 1
    HIGH = 3


UserId = NewType("UserId", int)
UTC = dt.timezone.utc

ACCEPTED: list[tuple[str, object, str, object]] = [
    # bool
    ("bool true", bool, "true", True),
    ("bool false", bool, "false", False),
    # int: 5 and 5.0 bind as 5, 1e2 as 100
    ("int", int, "5", 5),
    ("int written 5.0", int, "5.0", 5),
    ("int written 1e2", int, "1e2", 100),
    ("int written -0.0", int, "-0.0", 0),
    ("int beyond 64 bits", int, "123456789012345678901234567890", 123456789012345678901234567890),
    ("Int8 low", Int8, "-128", -128),
    ("Int8 high", Int8, "127", 127),
    ("UInt8 high", UInt8, "255", 255),
    ("UInt64 high", UInt64, "18446744073709551615", 18446744073709551615),
    ("Int64 low", Int64, "-9223372036854775808", -9223372036854775808),
    ("NewType of int", UserId, "7", 7),
    # float: any finite number
    ("float", float, "2.5", 2.5),
    ("float from an integer", float, "2", 2.0),
    ("float exponent", float, "-1.5e-3", -0.0015),
    # Decimal: from the number's text
    ("Decimal keeps its digits", Decimal, "1.10", Decimal("1.10")),
    ("Decimal 0.1 is 0.1", Decimal, "0.1", Decimal("0.1")),
    ("Decimal from an integer", Decimal, "12", Decimal(12)),
    # str and Char
    ("str", str, '"hello"', "hello"),
    ("str empty", str, '""', ""),
    ("str unicode", str, '"caf\\u00e9 \\ud83d\\ude00"', "café 😀"),
    ("Char", Char, '"é"', "é"),
    ("Char astral code point", Char, '"\\ud83d\\ude00"', "😀"),
    # UUID: upper- and lower-case hex
    (
        "uuid lower",
        uuid.UUID,
        '"12345678-9abc-def0-1234-56789abcdef0"',
        uuid.UUID("12345678-9abc-def0-1234-56789abcdef0"),
    ),
    (
        "uuid upper",
        uuid.UUID,
        '"12345678-9ABC-DEF0-1234-56789ABCDEF0"',
        uuid.UUID("12345678-9abc-def0-1234-56789abcdef0"),
    ),
    # IPv4: four decimal octets; IPv6: the RFC 4291 text forms (hex in either case, an IPv4 tail)
    ("ipv4", ipaddress.IPv4Address, '"192.0.2.1"', ipaddress.IPv4Address("192.0.2.1")),
    ("ipv4 zero and top octets", ipaddress.IPv4Address, '"0.255.0.255"', ipaddress.IPv4Address("0.255.0.255")),
    ("ipv6 compressed", ipaddress.IPv6Address, '"2001:db8::1"', ipaddress.IPv6Address("2001:db8::1")),
    (
        "ipv6 full, upper case",
        ipaddress.IPv6Address,
        '"2001:0DB8:0000:0000:0000:0000:0000:0001"',
        ipaddress.IPv6Address("2001:db8::1"),
    ),
    ("ipv6 unspecified", ipaddress.IPv6Address, '"::"', ipaddress.IPv6Address(0)),
    ("ipv6 IPv4 tail", ipaddress.IPv6Address, '"::ffff:192.0.2.1"', ipaddress.IPv6Address("::ffff:c000:201")),
    # datetime: RFC 3339 with an offset, aware
    ("datetime Z", dt.datetime, '"2026-07-01T12:30:00Z"', dt.datetime(2026, 7, 1, 12, 30, tzinfo=UTC)),
    (
        "datetime offset and fraction",
        dt.datetime,
        '"2026-07-01T12:30:00.123+02:00"',
        dt.datetime(2026, 7, 1, 12, 30, 0, 123000, tzinfo=dt.timezone(dt.timedelta(hours=2))),
    ),
    (
        "datetime negative offset",
        dt.datetime,
        '"2026-07-01T12:30:00-05:30"',
        dt.datetime(2026, 7, 1, 12, 30, tzinfo=dt.timezone(-dt.timedelta(hours=5, minutes=30))),
    ),
    ("datetime lower-case t and z", dt.datetime, '"2026-07-01t12:30:00z"', dt.datetime(2026, 7, 1, 12, 30, tzinfo=UTC)),
    (
        "datetime fraction beyond microseconds is truncated",
        dt.datetime,
        '"2026-07-01T12:30:00.123456789Z"',
        dt.datetime(2026, 7, 1, 12, 30, 0, 123456, tzinfo=UTC),
    ),
    ("datetime leap day", dt.datetime, '"2024-02-29T00:00:00Z"', dt.datetime(2024, 2, 29, tzinfo=UTC)),
    # date, time, timedelta
    ("date", dt.date, '"2026-07-01"', dt.date(2026, 7, 1)),
    ("time", dt.time, '"12:30:05"', dt.time(12, 30, 5)),
    ("time one fraction digit", dt.time, '"12:30:05.5"', dt.time(12, 30, 5, 500000)),
    ("time six fraction digits", dt.time, '"23:59:59.999999"', dt.time(23, 59, 59, 999999)),
    ("timedelta", dt.timedelta, '"01:02:03"', dt.timedelta(hours=1, minutes=2, seconds=3)),
    (
        "timedelta days and fraction",
        dt.timedelta,
        '"3.04:05:06.25"',
        dt.timedelta(days=3, hours=4, minutes=5, seconds=6.25),
    ),
    ("timedelta negative", dt.timedelta, '"-1.00:00:01"', -dt.timedelta(days=1, seconds=1)),
    ("timedelta hours as written", dt.timedelta, '"25:00:00"', dt.timedelta(hours=25)),
    ("timedelta at the minimum", dt.timedelta, '"-999999999.00:00:00"', dt.timedelta.min),
    # bytes: standard base64 with padding
    ("bytes", bytes, '"aGVsbG8="', b"hello"),
    ("bytes two pads", bytes, '"aGk="', b"hi"),
    ("bytes empty", bytes, '""', b""),
    ("bytes + and /", bytes, '"+/+/"', b"\xfb\xff\xbf"),
    # Enum: a member name, exactly
    ("enum", Mode, '"Content"', Mode.Content),
    # Literal
    ("Literal str", Literal["a", "b"], '"b"', "b"),
    ("Literal int", Literal[1, 2], "2", 2),
    ("Literal[1] accepts 1.0", Literal[1, 2], "1.0", 1),
    ("Literal bool", Literal[True], "true", True),
    ("Literal union merged", typing.Union[Literal["a"], Literal["b"]], '"b"', "b"),
    # X | None
    ("Optional null", Optional[int], "null", None),
    ("Optional value", Optional[int], "3", 3),
    ("Optional enum null", Optional[Mode], "null", None),
    # collections
    ("list", list[int], "[1, 2.0, 3]", [1, 2, 3]),
    ("Sequence", Sequence[str], '["a", "b"]', ["a", "b"]),
    ("MutableSequence", MutableSequence[str], '["a"]', ["a"]),
    ("Iterable", Iterable[bool], "[true]", [True]),
    ("tuple", tuple[int, ...], "[1, 2]", (1, 2)),
    ("set", set[str], '["a", "b"]', {"a", "b"}),
    ("frozenset", frozenset[int], "[3, 1]", frozenset({1, 3})),
    ("long list of ints", list[int], json.dumps(list(range(50))), list(range(50))),
    ("long list of floats", list[float], json.dumps([0.5] * 20 + [1]), [0.5] * 20 + [1.0]),
    ("long list of str", list[str], json.dumps(["a"] * 20 + ["é"]), ["a"] * 20 + ["é"]),
    ("long list of ints with an integral float", list[int], json.dumps([*range(20), 2.0]), [*range(20), 2]),
    ("long list of bools", list[bool], json.dumps([True, False] * 10), [True, False] * 10),
    ("long tuple of ints", tuple[int, ...], json.dumps(list(range(20))), tuple(range(20))),
    ("long bounded list of ints", list[Annotated[int, Range(0, 19)]], json.dumps(list(range(20))), list(range(20))),
    ("dict", dict[str, int], '{"a": 1, "b.c": 2}', {"a": 1, "b.c": 2}),
    ("Mapping", Mapping[str, list[str]], '{"k": ["v"]}', {"k": ["v"]}),
    ("MutableMapping", MutableMapping[str, float], '{"k": 1}', {"k": 1.0}),
    # JSON types
    ("JsonValue object", JsonValue, '{"a": [1, null, "x", {"b": false}]}', {"a": [1, None, "x", {"b": False}]}),
    ("JsonValue scalar", JsonValue, "2.5", 2.5),
    ("JsonValue null", JsonValue, "null", None),
    ("JsonObject", JsonObject, '{"a": {"b": [1]}}', {"a": {"b": [1]}}),
    ("JsonArray", JsonArray, '[1, {"a": 2}]', [1, {"a": 2}]),
    # annotations
    ("Range int inside", Annotated[int, Range(1, 10)], "10", 10),
    ("Range float bounds", Annotated[float, Range(0.5, 1.5)], "0.5", 0.5),
    ("Range replaces a sized range", Annotated[Int8, Range(0, 1000)], "1000", 1000),
    ("Range on Decimal reads the bound's text", Annotated[Decimal, Range(0.1, None)], "0.1", Decimal("0.1")),
    ("StringLength", Annotated[str, StringLength(3, min_length=2)], '"abc"', "abc"),
    ("MinLength str counts code points", Annotated[str, MinLength(2)], '"\\ud83d\\ude00\\ud83d\\ude00"', "😀😀"),
    ("MaxLength list", Annotated[list[int], MaxLength(2)], "[1, 2]", [1, 2]),
    ("Length list", Annotated[list[int], Length(1, 2)], "[1]", [1]),
    ("Length on JsonArray", Annotated[JsonArray, Length(1, 1)], "[{}]", [{}]),
    ("Pattern is searched, not anchored", Annotated[str, Pattern("[0-9]{3}")], '"ab123cd"', "ab123cd"),
    ("Pattern anchored", Annotated[str, Pattern("^[a-z]+$")], '"abc"', "abc"),
    ("Email", Annotated[str, Email()], '"ada@example.com"', "ada@example.com"),
    ("Url", Annotated[str, Url()], '"https://example.com/a?b=c#d"', "https://example.com/a?b=c#d"),
    ("Url other scheme", Annotated[str, Url()], '"urn:isbn:0451450523"', "urn:isbn:0451450523"),
    ("Url IPv6 host", Annotated[str, Url()], '"http://[2001:db8::1]:8080/"', "http://[2001:db8::1]:8080/"),
    ("annotations inside Optional", Optional[Annotated[int, Range(1, 2)]], "null", None),
    ("annotations outside Optional", Annotated[Optional[int], Range(1, 2)], "2", 2),
]


@pytest.mark.parametrize(("tp", "text", "expected"), [c[1:] for c in ACCEPTED], ids=[c[0] for c in ACCEPTED])
def test_accepted(tp: object, text: str, expected: object) -> None:
    got = bound_x(tp, text)
    assert got == expected
    assert type(got) is type(expected)
    if isinstance(expected, (list, dict)):  # the items' types too (5.0 is an int, 1 a float)
        assert json.dumps(got) == json.dumps(expected)


def test_enum_member_identity_and_alias_refused() -> None:
    assert bound_x(Mode, '"Files"') is Mode.Files
    assert refused(Mode, '"Everything"') == (
        'Argument \'x\' must be one of: Files, Content, Count; got "Everything" (did you mean "Files"?).'
    )


def test_decimal_reads_text_exactly_from_raw_json() -> None:
    """Raw JSON: from the number's text, never through a float (the mapping path has a float already)."""
    t = one(Decimal)
    assert t.bind('{"x": 0.30000000000000000001}') == {"x": Decimal("0.30000000000000000001")}
    assert t.bind('{"x": 1e400}') == {"x": Decimal("1E+400")}
    digits = "9" * 5000
    assert t.bind('{"x": ' + digits + "}") == {"x": Decimal(digits)}
    # From an already-parsed float, the shortest text that reads back as it.
    assert t.bind({"x": 0.1}) == {"x": Decimal("0.1")}


def test_integer_text_beyond_float_precision_is_exact_from_raw_json() -> None:
    t = one(int)
    assert t.bind('{"x": 1e19}') == {"x": 10**19}
    assert t.bind('{"x": 12345678901234567891.0}') == {"x": 12345678901234567891}
    assert t.bind('{"x": 9.9999999999999999999e19}') == {"x": 10**20 - 1}
    assert one(Literal[10**19]).bind('{"x": 1e19}') == {"x": 10**19}
    # from a mapping, an integral float is read as the float it is
    assert t.bind({"x": 1e19}) == {"x": int(1e19)}
    # 10^20 and beyond must be written in plain digits (see test_reliability_bind.py)
    assert t.bind('{"x": 100000000000000000000000}') == {"x": 10**23}


REFUSED: list[tuple[str, object, str, str]] = [
    # bool: true and false only
    ("bool from 1", bool, "1", "Argument 'x' must be a boolean, got integer 1."),
    ("bool from string", bool, '"true"', "Argument 'x' must be a boolean, got string \"true\"."),
    ("bool from null", bool, "null", "Argument 'x' must be a boolean, got null."),
    # int: never a boolean, no fraction
    ("int from true", int, "true", "Argument 'x' must be an integer, got boolean true."),
    ("int from string", int, '"5"', "Argument 'x' must be an integer, got string \"5\"."),
    ("int with a fraction", int, "2.5", "Argument 'x' must be an integer, got 2.5."),
    ("int from array", int, "[1]", "Argument 'x' must be an integer, got array."),
    ("int from object", int, '{"a": 1}', "Argument 'x' must be an integer, got object."),
    ("int from null", int, "null", "Argument 'x' must be an integer, got null."),
    ("Int8 above", Int8, "128", "Argument 'x' must be between -128 and 127, got 128."),
    ("Int8 below", Int8, "-129", "Argument 'x' must be between -128 and 127, got -129."),
    ("UInt8 negative", UInt8, "-1", "Argument 'x' must be between 0 and 255, got -1."),
    (
        "UInt64 above",
        UInt64,
        "18446744073709551616",
        "Argument 'x' must be between 0 and 18446744073709551615, got 18446744073709551616.",
    ),
    ("Range", Annotated[int, Range(1, 10)], "11", "Argument 'x' must be between 1 and 10, got 11."),
    ("Range min only", Annotated[int, Range(1, None)], "0", "Argument 'x' must be at least 1, got 0."),
    ("Range max only", Annotated[float, Range(None, 1.5)], "1.75", "Argument 'x' must be at most 1.5, got 1.75."),
    ("Range on Decimal", Annotated[Decimal, Range(0, 1)], "1.5", "Argument 'x' must be between 0 and 1, got 1.5."),
    # float
    ("float from true", float, "false", "Argument 'x' must be a number, got boolean false."),
    ("float from string", float, '"1.5"', "Argument 'x' must be a number, got string \"1.5\"."),
    ("Decimal from true", Decimal, "true", "Argument 'x' must be a number, got boolean true."),
    ("Decimal from string", Decimal, '"1.5"', "Argument 'x' must be a number, got string \"1.5\"."),
    # strings
    ("str from number", str, "1", "Argument 'x' must be a string, got integer 1."),
    ("str from null", str, "null", "Argument 'x' must be a string, got null."),
    ("Char two", Char, '"ab"', "Argument 'x' must be exactly 1 character long, got 2."),
    ("Char empty", Char, '""', "Argument 'x' must be exactly 1 character long, got 0."),
    (
        "uuid braces",
        uuid.UUID,
        '"{12345678-9abc-def0-1234-56789abcdef0}"',
        "Argument 'x' must be a UUID in the 8-4-4-4-12 hex form, got \"{12345678-9abc-def0-1234-56789abcdef0}\".",
    ),
    (
        "uuid no hyphens",
        uuid.UUID,
        '"123456789abcdef0123456789abcdef0"',
        "Argument 'x' must be a UUID in the 8-4-4-4-12 hex form, got \"123456789abcdef0123456789abcdef0\".",
    ),
    (
        "uuid urn",
        uuid.UUID,
        '"urn:uuid:12345678-9abc-def0-1234-56789abcdef0"',
        "Argument 'x' must be a UUID in the 8-4-4-4-12 hex form, got \"urn:uuid:12345678-9abc-def0-1234-56789ab...\".",
    ),
    ("uuid from number", uuid.UUID, "1", "Argument 'x' must be a string, got integer 1."),
    (
        "ipv4 leading zero",
        ipaddress.IPv4Address,
        '"192.0.2.01"',
        "Argument 'x' must be an IPv4 address of four decimal octets without leading zeros, like 192.0.2.1, got \"192.0.2.01\".",
    ),
    (
        "ipv4 three octets",
        ipaddress.IPv4Address,
        '"192.0.2"',
        "Argument 'x' must be an IPv4 address of four decimal octets without leading zeros, like 192.0.2.1, got \"192.0.2\".",
    ),
    (
        "ipv4 octet over 255",
        ipaddress.IPv4Address,
        '"192.0.2.256"',
        "Argument 'x' must be an IPv4 address of four decimal octets without leading zeros, like 192.0.2.1, got \"192.0.2.256\".",
    ),
    (
        "ipv4 with a port",
        ipaddress.IPv4Address,
        '"192.0.2.1:80"',
        "Argument 'x' must be an IPv4 address of four decimal octets without leading zeros, like 192.0.2.1, got \"192.0.2.1:80\".",
    ),
    (
        "ipv4 given an IPv6 address",
        ipaddress.IPv4Address,
        '"::1"',
        "Argument 'x' must be an IPv4 address of four decimal octets without leading zeros, like 192.0.2.1, got \"::1\".",
    ),
    (
        "ipv6 zone index",
        ipaddress.IPv6Address,
        '"fe80::1%eth0"',
        "Argument 'x' must be an IPv6 address in an RFC 4291 text form without a zone index, like 2001:db8::1, got \"fe80::1%eth0\".",
    ),
    (
        "ipv6 two gaps",
        ipaddress.IPv6Address,
        '"1::2::3"',
        "Argument 'x' must be an IPv6 address in an RFC 4291 text form without a zone index, like 2001:db8::1, got \"1::2::3\".",
    ),
    (
        "ipv6 in brackets",
        ipaddress.IPv6Address,
        '"[::1]"',
        "Argument 'x' must be an IPv6 address in an RFC 4291 text form without a zone index, like 2001:db8::1, got \"[::1]\".",
    ),
    (
        "ipv6 given an IPv4 address",
        ipaddress.IPv6Address,
        '"192.0.2.1"',
        "Argument 'x' must be an IPv6 address in an RFC 4291 text form without a zone index, like 2001:db8::1, got \"192.0.2.1\".",
    ),
    (
        "ipv6 tail with a leading zero",
        ipaddress.IPv6Address,
        '"::ffff:192.0.2.01"',
        "Argument 'x' must be an IPv6 address in an RFC 4291 text form without a zone index, like 2001:db8::1, got \"::ffff:192.0.2.01\".",
    ),
    ("ipv4 from number", ipaddress.IPv4Address, "3221225985", "Argument 'x' must be a string, got integer 3221225985."),
    (
        "datetime without offset",
        dt.datetime,
        '"2026-07-01T12:30:00"',
        "Argument 'x' must be an RFC 3339 date-time with an offset, like 2026-07-01T12:30:00Z, got \"2026-07-01T12:30:00\".",
    ),
    (
        "datetime with a space",
        dt.datetime,
        '"2026-07-01 12:30:00Z"',
        "Argument 'x' must be an RFC 3339 date-time with an offset, like 2026-07-01T12:30:00Z, got \"2026-07-01 12:30:00Z\".",
    ),
    (
        "datetime day 30 of February",
        dt.datetime,
        '"2026-02-30T00:00:00Z"',
        "Argument 'x' must be an RFC 3339 date-time with an offset, like 2026-07-01T12:30:00Z, got \"2026-02-30T00:00:00Z\".",
    ),
    (
        "datetime leap second",
        dt.datetime,
        '"2026-06-30T23:59:60Z"',
        "Argument 'x' must be an RFC 3339 date-time with an offset, like 2026-07-01T12:30:00Z, got \"2026-06-30T23:59:60Z\".",
    ),
    (
        "datetime offset hour 24",
        dt.datetime,
        '"2026-06-30T23:59:59+24:00"',
        "Argument 'x' must be an RFC 3339 date-time with an offset, like 2026-07-01T12:30:00Z, got \"2026-06-30T23:59:59+24:00\".",
    ),
    (
        "datetime trailing newline",
        dt.datetime,
        '"2026-07-01T12:30:00Z\\n"',
        "Argument 'x' must be an RFC 3339 date-time with an offset, like 2026-07-01T12:30:00Z, got \"2026-07-01T12:30:00Z\\n\".",
    ),
    ("date short fields", dt.date, '"2026-7-1"', "Argument 'x' must be a date YYYY-MM-DD, got \"2026-7-1\"."),
    ("date basic form", dt.date, '"20260701"', "Argument 'x' must be a date YYYY-MM-DD, got \"20260701\"."),
    ("date not in a leap year", dt.date, '"2026-02-29"', "Argument 'x' must be a date YYYY-MM-DD, got \"2026-02-29\"."),
    (
        "date with time",
        dt.date,
        '"2026-07-01T00:00:00Z"',
        "Argument 'x' must be a date YYYY-MM-DD, got \"2026-07-01T00:00:00Z\".",
    ),
    (
        "time without seconds",
        dt.time,
        '"12:30"',
        "Argument 'x' must be a time HH:MM:SS with an optional fraction of 1-6 digits, got \"12:30\".",
    ),
    (
        "time with offset",
        dt.time,
        '"12:30:00Z"',
        "Argument 'x' must be a time HH:MM:SS with an optional fraction of 1-6 digits, got \"12:30:00Z\".",
    ),
    (
        "time hour 24",
        dt.time,
        '"24:00:00"',
        "Argument 'x' must be a time HH:MM:SS with an optional fraction of 1-6 digits, got \"24:00:00\".",
    ),
    (
        "time seven fraction digits",
        dt.time,
        '"12:30:00.1234567"',
        "Argument 'x' must be a time HH:MM:SS with an optional fraction of 1-6 digits, got \"12:30:00.1234567\".",
    ),
    (
        "timedelta one-digit hour",
        dt.timedelta,
        '"1:02:03"',
        "Argument 'x' must be a duration [-][d.]hh:mm:ss[.ffffff], like 1.02:30:00, got \"1:02:03\".",
    ),
    (
        "timedelta ISO 8601",
        dt.timedelta,
        '"P1D"',
        "Argument 'x' must be a duration [-][d.]hh:mm:ss[.ffffff], like 1.02:30:00, got \"P1D\".",
    ),
    (
        "timedelta too many days",
        dt.timedelta,
        '"1000000000.00:00:00"',
        "Argument 'x' must be a duration [-][d.]hh:mm:ss[.ffffff], like 1.02:30:00, got \"1000000000.00:00:00\".",
    ),
    # timedelta.min is -999999999 days exactly; the maximum is 999999999 days 23:59:59.999999
    (
        "timedelta below the minimum",
        dt.timedelta,
        '"-999999999.00:00:01"',
        "Argument 'x' must be a duration [-][d.]hh:mm:ss[.ffffff], like 1.02:30:00, got \"-999999999.00:00:01\".",
    ),
    (
        "timedelta above the maximum",
        dt.timedelta,
        '"999999999.23:59:60"',
        "Argument 'x' must be a duration [-][d.]hh:mm:ss[.ffffff], like 1.02:30:00, got \"999999999.23:59:60\".",
    ),
    (
        "base64 without padding",
        bytes,
        '"aGVsbG8"',
        "Argument 'x' must be standard base64 with padding, got \"aGVsbG8\".",
    ),
    (
        "base64 with a space",
        bytes,
        '"aGVs bG8="',
        "Argument 'x' must be standard base64 with padding, got \"aGVs bG8=\".",
    ),
    ("base64 url alphabet", bytes, '"-_-_"', "Argument 'x' must be standard base64 with padding, got \"-_-_\"."),
    ("base64 from number", bytes, "5", "Argument 'x' must be a string, got integer 5."),
    # Enum: exact member name, never a value or a number
    (
        "enum wrong case",
        Mode,
        '"content"',
        'Argument \'x\' must be one of: Files, Content, Count; got "content" (did you mean "Content"?).',
    ),
    (
        "enum value for its name",
        Mode,
        '"2"',
        'Argument \'x\' must be one of: Files, Content, Count; got "2" (did you mean "Content"?).',
    ),
    (
        "enum alias name",
        Mode,
        '"everything"',
        'Argument \'x\' must be one of: Files, Content, Count; got "everything" (did you mean "Files"?).',
    ),
    ("enum unrelated string", Mode, '"q"', "Argument 'x' must be one of: Files, Content, Count; got \"q\"."),
    ("enum number", Mode, "1", "Argument 'x' must be one of: Files, Content, Count; got 1 (did you mean \"Files\"?)."),
    ("int enum value", Priority, "3", "Argument 'x' must be one of: LOW, HIGH; got 3 (did you mean \"HIGH\"?)."),
    (
        "int enum value as text",
        Priority,
        '"1"',
        'Argument \'x\' must be one of: LOW, HIGH; got "1" (did you mean "LOW"?).',
    ),
    ("int enum other number", Priority, "2", "Argument 'x' must be one of: LOW, HIGH; got 2."),
    ("int enum true", Priority, "true", "Argument 'x' must be one of: LOW, HIGH; got true."),
    ("enum null", Mode, "null", "Argument 'x' must be one of: Files, Content, Count; got null."),
    (
        "enum typo",
        Mode,
        '"Contnet"',
        'Argument \'x\' must be one of: Files, Content, Count; got "Contnet" (did you mean "Content"?).',
    ),
    ("Optional enum", Optional[Mode], '"x"', "Argument 'x' must be one of: Files, Content, Count, null; got \"x\"."),
    # Literal
    ("Literal str", Literal["a", "b"], '"c"', "Argument 'x' must be one of: a, b; got \"c\"."),
    (
        "Literal str case",
        Literal["read", "write"],
        '"Read"',
        'Argument \'x\' must be one of: read, write; got "Read" (did you mean "read"?).',
    ),
    ("Literal int", Literal[1, 2], "3", "Argument 'x' must be one of: 1, 2; got 3."),
    ("Literal int from true", Literal[1, 2], "true", "Argument 'x' must be one of: 1, 2; got true."),
    ("Literal int fraction", Literal[1, 2], "1.5", "Argument 'x' must be one of: 1, 2; got 1.5."),
    ("Literal bool", Literal[True], "false", "Argument 'x' must be one of: true; got false."),
    ("Literal bool from 1", Literal[True], "1", "Argument 'x' must be one of: true; got 1."),
    # X | None
    ("Optional wrong kind", Optional[int], '"a"', "Argument 'x' must be an integer or null, got string \"a\"."),
    ("Optional list wrong kind", Optional[list[int]], "{}", "Argument 'x' must be an array or null, got object."),
    # collections
    ("list from object", list[int], '{"a": 1}', "Argument 'x' must be an array, got object."),
    ("list item", list[int], '[1, 2, "3"]', "Argument 'x[2]' must be an integer, got string \"3\"."),
    (
        "long list item",
        list[int],
        json.dumps([*range(20), True]),
        "Argument 'x[20]' must be an integer, got boolean true.",
    ),
    (
        "long bounded list item",
        list[Annotated[int, Range(0, 19)]],
        json.dumps([*range(20), 20]),
        "Argument 'x[20]' must be between 0 and 19, got 20.",
    ),
    (
        "long bool list item",
        list[bool],
        json.dumps([True] * 20 + [1]),
        "Argument 'x[20]' must be a boolean, got integer 1.",
    ),
    (
        "long float list item",
        list[float],
        json.dumps([0.5] * 20 + [None]),
        "Argument 'x[20]' must be a number, got null.",
    ),
    ("list null item", list[str], '["a", null]', "Argument 'x[1]' must be a string, got null."),
    ("nested list item", list[list[int]], "[[1], [2, 2.5]]", "Argument 'x[1][1]' must be an integer, got 2.5."),
    ("set duplicate", set[str], '["a", "b", "a"]', "Argument 'x[2]' repeats x[0]; the items must be unique."),
    (
        "set duplicate after binding",
        frozenset[int],
        "[1, 1.0]",
        "Argument 'x[1]' repeats x[0]; the items must be unique.",
    ),
    (
        "set of IPv6 addresses duplicate by form",
        set[ipaddress.IPv6Address],
        '["::1", "0:0:0:0:0:0:0:1"]',
        "Argument 'x[1]' repeats x[0]; the items must be unique.",
    ),
    (
        "set of uuids duplicate by case",
        set[uuid.UUID],
        '["12345678-9abc-def0-1234-56789abcdef0", "12345678-9ABC-DEF0-1234-56789ABCDEF0"]',
        "Argument 'x[1]' repeats x[0]; the items must be unique.",
    ),
    ("dict from array", dict[str, int], "[1]", "Argument 'x' must be an object, got array."),
    ("dict value", dict[str, str], '{"CI": 1}', "Argument 'x.CI' must be a string, got integer 1."),
    ("dict value odd key", dict[str, str], '{"a.b": 1}', "Argument 'x[\"a.b\"]' must be a string, got integer 1."),
    ("dict value digit key", dict[str, str], '{"1": 1}', "Argument 'x[\"1\"]' must be a string, got integer 1."),
    ("JsonObject from array", JsonObject, "[]", "Argument 'x' must be an object, got array."),
    ("JsonArray from object", JsonArray, "{}", "Argument 'x' must be an array, got object."),
    ("JsonObject null", JsonObject, "null", "Argument 'x' must be an object, got null."),
    # annotations
    (
        "StringLength max",
        Annotated[str, StringLength(3)],
        '"abcd"',
        "Argument 'x' must be at most 3 characters long, got 4.",
    ),
    (
        "StringLength min",
        Annotated[str, StringLength(3, min_length=2)],
        '"a"',
        "Argument 'x' must be at least 2 characters long, got 1.",
    ),
    ("MinLength str", Annotated[str, MinLength(1)], '""', "Argument 'x' must be at least 1 character long, got 0."),
    (
        "MaxLength list",
        Annotated[list[int], MaxLength(2)],
        "[1, 2, 3]",
        "Argument 'x' must have at most 2 items, got 3.",
    ),
    ("MinLength list", Annotated[list[int], MinLength(1)], "[]", "Argument 'x' must have at least 1 item, got 0."),
    ("Length list", Annotated[set[int], Length(2, 2)], "[1]", "Argument 'x' must have exactly 2 items, got 1."),
    ("Length JsonArray", Annotated[JsonArray, Length(1, 3)], "[]", "Argument 'x' must have at least 1 item, got 0."),
    (
        "Pattern",
        Annotated[str, Pattern("^[a-z]+$")],
        '"A1"',
        "Argument 'x' must match the pattern ^[a-z]+$, got \"A1\".",
    ),
    (
        "Pattern $ is the very end",
        Annotated[str, Pattern("^[a-z]+$")],
        '"abc\\n"',
        "Argument 'x' must match the pattern ^[a-z]+$, got \"abc\\n\".",
    ),
    (
        "Pattern \\d is ASCII",
        Annotated[str, Pattern("^\\d+$")],
        '"\\u0663"',
        "Argument 'x' must match the pattern ^\\d+$, got \"\u0663\".",
    ),
    (
        "Email without @",
        Annotated[str, Email()],
        '"ada.example.com"',
        "Argument 'x' must be an email address like name@example.com, got \"ada.example.com\".",
    ),
    (
        "Email with a space",
        Annotated[str, Email()],
        '"ada lovelace@example.com"',
        "Argument 'x' must be an email address like name@example.com, got \"ada lovelace@example.com\".",
    ),
    (
        "Email two @",
        Annotated[str, Email()],
        '"a@b@c"',
        "Argument 'x' must be an email address like name@example.com, got \"a@b@c\".",
    ),
    (
        "Url relative",
        Annotated[str, Url()],
        '"/just/a/path"',
        "Argument 'x' must be an absolute URI with a scheme, like https://example.com/path, got \"/just/a/path\".",
    ),
    (
        "Url with a space",
        Annotated[str, Url()],
        '"https://example.com/a b"',
        "Argument 'x' must be an absolute URI with a scheme, like https://example.com/path, got \"https://example.com/a b\".",
    ),
    (
        "Url bad escape",
        Annotated[str, Url()],
        '"https://example.com/%zz"',
        "Argument 'x' must be an absolute URI with a scheme, like https://example.com/path, got \"https://example.com/%zz\".",
    ),
    (
        "Url bad IPv6",
        Annotated[str, Url()],
        '"http://[2001:db8::1::2]/"',
        "Argument 'x' must be an absolute URI with a scheme, like https://example.com/path, got \"http://[2001:db8::1::2]/\".",
    ),
    (
        "annotations inside Optional",
        Optional[Annotated[int, Range(1, 2)]],
        "3",
        "Argument 'x' must be between 1 and 2, got 3.",
    ),
    (
        "several string faults at once",
        Annotated[str, MaxLength(2), Pattern("^[a-z]+$")],
        '"ABC"',
        "Argument 'x' must be at most 2 characters long, got 3.\nArgument 'x' must match the pattern ^[a-z]+$, got \"ABC\".",
    ),
]


@pytest.mark.parametrize(("tp", "text", "message"), [c[1:] for c in REFUSED], ids=[c[0] for c in REFUSED])
def test_refused(tp: object, text: str, message: str) -> None:
    assert refused(tp, text) == message


def test_float_overflow_and_non_finite() -> None:
    t = one(float)
    # 1e400 is valid JSON, but no float holds it.
    assert outcome(t, '{"x": 1e400}') == (
        "error",
        "Argument 'x' must be a finite number, got a number beyond the float range.",
    )
    assert outcome(t, {"x": float("nan")}) == ("error", "Argument 'x' must be a finite number, got NaN.")
    assert outcome(t, {"x": float("-inf")}) == (
        "error",
        "Argument 'x' must be a finite number, got a number beyond the float range.",
    )
    assert outcome(t, {"x": 10**400}) == (
        "error",
        "Argument 'x' must be a finite number, got an integer of about 401 digits.",
    )


def test_too_many_digits_for_an_int() -> None:
    """More digits than the interpreter converts (4,300 by default): refused for int, at its path."""
    digits = "7" * 5000
    assert outcome(one(int), '{"x": ' + digits + "}") == (
        "error",
        "Argument 'x' has more than 4300 digits, more than an integer may have.",
    )
    assert outcome(one(list[Int8]), '{"x": [1, ' + digits + "]}") == (
        "error",
        "Argument 'x[1]' has more than 4300 digits, more than an integer may have.",
    )


def test_optional_parameter_omitted_is_absent() -> None:
    t = one(int, 20)
    assert t.bind("{}") == {}
    assert t.bind({}) == {}
    assert t.bind('{"x": 3}') == {"x": 3}


def test_optional_without_default_is_required_and_accepts_null() -> None:
    t = one(Optional[str])
    assert outcome(t, "{}") == ("error", "Argument 'x' is required (send null for none).")
    assert t.bind('{"x": null}') == {"x": None}


def test_null_default_parameter_may_be_omitted_or_null() -> None:
    t = one(Optional[str], None)
    assert t.bind("{}") == {}
    assert t.bind('{"x": null}') == {"x": None}
    assert outcome(t, '{"x": 1}') == ("error", "Argument 'x' must be a string or null, got integer 1.")


def test_lone_surrogates_refused_on_both_paths() -> None:
    t = one(str)
    message = "Argument 'x' contains a lone surrogate (\\ud800), which is not valid Unicode."
    assert outcome(t, '{"x": "a\\ud800b"}') == ("error", message)
    assert outcome(t, {"x": "a\ud800b"}) == ("error", message)
    assert outcome(one(Char), {"x": "\udc00"}) == (
        "error",
        "Argument 'x' contains a lone surrogate (\\udc00), which is not valid Unicode.",
    )
    assert outcome(one(dict[str, int]), '{"x": {"\\udfff": 1}}') == (
        "error",
        "Argument 'x' has a key that contains a lone surrogate (\\udfff), which is not valid Unicode.",
    )
    assert outcome(one(JsonValue), '{"x": [{"k": "\\udbff"}]}') == (
        "error",
        "Argument 'x[0].k' contains a lone surrogate (\\udbff), which is not valid Unicode.",
    )
    # A well-formed pair is one character.
    assert one(Char).bind('{"x": "\\ud83d\\ude00"}') == {"x": "😀"}


def test_excerpts_are_short() -> None:
    long_value = "é" * 1000
    message = refused(Annotated[str, Pattern("^[a-z]+$")], json.dumps(long_value))
    assert message == "Argument 'x' must match the pattern ^[a-z]+$, got \"" + "é" * 40 + '...".'


def test_constraints_follow_the_written_schema() -> None:
    """The binder enforces exactly the keywords the schema writes (here: an outer Range wins)."""
    tp = Annotated[Annotated[int, Range(0, 5)] | None, Range(0, 9)]
    t = one(tp)
    assert t.input_schema["properties"]["x"]["maximum"] == 9
    assert t.bind('{"x": 9}') == {"x": 9}
    assert outcome(t, '{"x": 10}') == ("error", "Argument 'x' must be between 0 and 9, got 10.")


def test_mapping_values_must_be_json() -> None:
    assert outcome(one(JsonValue), {"x": {1, 2}}) == ("error", "Argument 'x' must be a JSON value, got set.")
    assert outcome(one(JsonValue), {"x": (1, 2)}) == ("error", "Argument 'x' must be a JSON value, got tuple.")
    assert outcome(one(JsonValue), {"x": {1: "a"}}) == ("error", "Argument 'x' has a key that is not a string: 1.")
    assert outcome(one(JsonValue), {"x": [float("inf")]}) == (
        "error",
        "Argument 'x[0]' must be a finite number, got a number beyond the float range.",
    )
    assert outcome(one(list[int]), {"x": (1, 2)}) == ("error", "Argument 'x' must be an array, got tuple.")
    assert outcome(one(dict[str, int]), {"x": {2: 1}}) == ("error", "Argument 'x' has a key that is not a string: 2.")
    assert outcome(one(int), {"x": Decimal("1.5")}) == ("error", "Argument 'x' must be an integer, got 1.5.")


def test_other_mapping_types_in_a_parsed_document() -> None:
    from collections import OrderedDict
    from types import MappingProxyType

    assert one(dict[str, int]).bind({"x": OrderedDict(a=1)}) == {"x": {"a": 1}}
    assert one(JsonValue).bind(MappingProxyType({"x": MappingProxyType({"a": [1]})})) == {"x": {"a": [1]}}


def test_non_mapping_arguments() -> None:
    t = one(int)
    assert outcome(t, [1]) == ("error", "Arguments must be a JSON object, got array.")
    assert outcome(t, None) == ("error", "Arguments must be a JSON object, got null.")
    assert outcome(t, {1, 2}) == ("error", "Arguments must be a JSON object, got set.")
    assert outcome(t, "[1]") == ("error", "Arguments must be a JSON object, got array.")
    assert outcome(t, '"x"') == ("error", 'Arguments must be a JSON object, got string "x".')
    assert outcome(t, "null") == ("error", "Arguments must be a JSON object, got null.")
