"""The binder's messages a model retries on (docs/binding.md, "Every message"): what was sent,
quoted; a null where leaving the member out is meant; a missing member that may be null; an
enum's value or alias sent where its name is expected. Each row: the value sent, the exact text."""

from __future__ import annotations

import enum
import json
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Literal, Optional

import pytest
from typing_extensions import NotRequired, TypedDict

from onellm_runtime import ArgumentError, Tool, tool
from onellm_runtime.binding.texts import did_you_mean, one_of

_NO = object()


def one(tp: object, default: object = _NO) -> Tool[..., Any]:
    """A tool with the single parameter ``x: tp`` (and ``default``, if given)."""

    def x_tool(x):  # type: ignore[no-untyped-def]
        return ""

    x_tool.__annotations__ = {"x": tp, "return": str}
    if default is not _NO:
        x_tool.__defaults__ = (default,)
    return Tool.create(x_tool, name="t")


def error(t: Tool[..., Any], arguments: object, provider: str | None = None) -> str:
    with pytest.raises(ArgumentError) as info:
        t.bind(arguments, provider)  # type: ignore[arg-type]
    return str(info.value)


def error_both(t: Tool[..., Any], text: str, provider: str | None = None) -> str:
    """The raw document's message, which the parsed mapping must repeat exactly."""
    raw = error(t, text, provider)
    assert error(t, json.loads(text), provider) == raw, "raw JSON and parsed mapping differ"
    return raw


# --- what was sent, after "got" ---------------------------------------------------------------

SENT: list[tuple[str, object, str, str]] = [
    ("string", int, '"5"', "Argument 'x' must be an integer, got string \"5\"."),
    ("empty string", int, '""', "Argument 'x' must be an integer, got string \"\"."),
    ("string with a quote", int, '"a\\"b"', 'Argument \'x\' must be an integer, got string "a\\"b".'),
    ("string with a newline", bool, '"yes\\n"', "Argument 'x' must be a boolean, got string \"yes\\n\"."),
    ("non-ASCII string", float, '"½"', "Argument 'x' must be a number, got string \"½\"."),
    (
        "long string, cut at 40 characters",
        int,
        json.dumps("0123456789" * 10),
        "Argument 'x' must be an integer, got string \"" + "0123456789" * 4 + '...".',
    ),
    ("integer", str, "5", "Argument 'x' must be a string, got integer 5."),
    ("negative integer", bool, "-12", "Argument 'x' must be a boolean, got integer -12."),
    ("number", str, "2.5", "Argument 'x' must be a string, got number 2.5."),
    ("number with exponent", str, "1e-07", "Argument 'x' must be a string, got number 1e-07."),
    ("integer of 38 digits", str, "9" * 38, "Argument 'x' must be a string, got integer " + "9" * 38 + "."),
    ("integer of 60 digits", str, "1" + "0" * 59, "Argument 'x' must be a string, got an integer of about 60 digits."),
    ("true", int, "true", "Argument 'x' must be an integer, got boolean true."),
    ("false", str, "false", "Argument 'x' must be a string, got boolean false."),
    ("null", int, "null", "Argument 'x' must be an integer, got null."),
    ("array", int, '["5"]', "Argument 'x' must be an integer, got array."),
    ("object", str, '{"a": 1}', "Argument 'x' must be a string, got object."),
    ("nullable", Optional[int], '"5"', "Argument 'x' must be an integer or null, got string \"5\"."),
    ("array expected", list[int], '"1, 2"', "Argument 'x' must be an array, got string \"1, 2\"."),
    ("object expected", dict[str, int], "3", "Argument 'x' must be an object, got integer 3."),
    ("item", list[int], '[1, "2"]', "Argument 'x[1]' must be an integer, got string \"2\"."),
]


@pytest.mark.parametrize(("tp", "text", "message"), [r[1:] for r in SENT], ids=[r[0] for r in SENT])
def test_a_wrong_kind_quotes_a_scalar(tp: object, text: str, message: str) -> None:
    assert error_both(one(tp), '{"x": ' + text + "}") == message


@dataclass
class Item:
    qty: int


def test_the_contracts_example() -> None:
    @tool
    def order(items: list[Item]) -> str:
        return ""

    doc = '{"items": [{"qty": 1}, {"qty": 2}, {"qty": "5"}]}'
    assert error_both(order, doc) == "Argument 'items[2].qty' must be an integer, got string \"5\"."


def test_numbers_read_exactly_are_worded_alike() -> None:
    """A tool with a Decimal parameter reads every number of the raw document exactly."""

    @tool
    def price(x: str, y: Decimal = Decimal(0)) -> str:
        return ""

    assert error_both(price, '{"x": 15}') == "Argument 'x' must be a string, got integer 15."
    assert error_both(price, '{"x": 1.50}') == "Argument 'x' must be a string, got number 1.5."
    assert error_both(price, '{"x": 1e-07}') == "Argument 'x' must be a string, got number 1e-07."


def test_a_document_that_is_not_an_object() -> None:
    assert error(one(int), '"{\\"x\\": 1}"') == 'Arguments must be a JSON object, got string "{\\"x\\": 1}".'
    assert error(one(int), "7") == "Arguments must be a JSON object, got integer 7."


MAPPING_ONLY: list[tuple[str, object, object, str]] = [
    ("huge int", str, 10**400, "Argument 'x' must be a string, got an integer of about 401 digits."),
    ("NaN", str, float("nan"), "Argument 'x' must be a string, got NaN."),
    ("Decimal", str, Decimal("1.5"), "Argument 'x' must be a string, got number 1.5."),
    ("Decimal integer", str, Decimal("15"), "Argument 'x' must be a string, got integer 15."),
    ("signalling NaN", str, Decimal("sNaN"), "Argument 'x' must be a string, got sNaN."),
    ("tuple", str, (1, 2), "Argument 'x' must be a string, got tuple."),
    ("lone surrogate", int, "a\ud800", "Argument 'x' must be an integer, got string \"a\\ud800\"."),
]


@pytest.mark.parametrize(("tp", "value", "message"), [r[1:] for r in MAPPING_ONLY], ids=[r[0] for r in MAPPING_ONLY])
def test_a_wrong_kind_from_a_mapping(tp: object, value: object, message: str) -> None:
    assert error(one(tp), {"x": value}) == message


# --- null where the member may be left out; a missing member that may be null ----------------


class Color(enum.Enum):
    RED = "r"
    BLUE = "b"


@dataclass
class Query:
    text: str
    limit: int = 10
    note: Optional[str] = None


@dataclass
class Due:
    day: Optional[str]


class Options(TypedDict):
    depth: NotRequired[int]


@tool
def search(
    q: Query,
    due: Due,
    when: Optional[str],
    page: int = 1,
    color: Color = Color.RED,
    tags: list[str] = [],  # noqa: B006 (never mutated)
    options: Optional[Options] = None,
    mode: Literal["fast", "full"] = "fast",
) -> str:
    return ""


_BASE = {"q": {"text": "a"}, "due": {"day": None}, "when": None}

NULLS: list[tuple[str, dict[str, object], str | None, str]] = [
    (
        "parameter",
        {"page": None},
        None,
        "Argument 'page' must be an integer, got null; leave it out to use the default.",
    ),
    (
        "enum parameter",
        {"color": None},
        None,
        "Argument 'color' must be one of: r, b; got null; leave it out to use the default.",
    ),
    (
        "array parameter",
        {"tags": None},
        None,
        "Argument 'tags' must be an array, got null; leave it out to use the default.",
    ),
    (
        "Literal parameter",
        {"mode": None},
        None,
        "Argument 'mode' must be one of: fast, full; got null; leave it out to use the default.",
    ),
    (
        "record field",
        {"q": {"text": "a", "limit": None}},
        None,
        "Argument 'q.limit' must be an integer, got null; leave it out to use the default.",
    ),
    (
        "TypedDict key",
        {"options": {"depth": None}},
        None,
        "Argument 'options.depth' must be an integer, got null; leave it out to use the default.",
    ),
    ("required, non-nullable", {"q": None}, None, "Argument 'q' must be an object, got null."),
    ("required field", {"q": {"text": None}}, None, "Argument 'q.text' must be a string, got null."),
    ("required, openai", {"q": {"text": None}}, "openai", "Argument 'q.text' must be a string, got null."),
    ("missing, nullable", {"when": _NO}, None, "Argument 'when' is required (send null for none)."),
    ("missing field, nullable", {"due": {}}, None, "Argument 'due.day' is required (send null for none)."),
    ("missing, nullable, openai", {"when": _NO}, "openai", "Argument 'when' is required (send null for none)."),
    ("missing, non-nullable", {"q": _NO}, None, "Argument 'q' is required."),
]


@pytest.mark.parametrize(("change", "provider", "message"), [r[1:] for r in NULLS], ids=[r[0] for r in NULLS])
def test_null_and_missing(change: dict[str, object], provider: str | None, message: str) -> None:
    doc = {k: v for k, v in {**_BASE, **change}.items() if v is not _NO}
    assert error_both(search, json.dumps(doc), provider) == message


def test_openai_null_for_an_optional_member_is_left_out() -> None:
    doc = {**_BASE, "page": None, "color": None, "q": {"text": "a", "limit": None}, "options": {"depth": None}}
    got = search.bind(json.dumps(doc), "openai")
    assert got == {"q": Query("a"), "due": Due(None), "when": None, "options": {}}


def test_every_null_is_reported_with_its_advice() -> None:
    doc = {**_BASE, "page": None, "q": {"text": None, "limit": None}}
    assert error_both(search, json.dumps(doc)) == (
        "Argument 'q.text' must be a string, got null.\n"
        "Argument 'q.limit' must be an integer, got null; leave it out to use the default.\n"
        "Argument 'page' must be an integer, got null; leave it out to use the default."
    )


# --- did you mean ----------------------------------------------------------------------------


class Mode(enum.Enum):
    Files = "files_with_matches"
    Content = "content"
    Count = "n"
    Everything = "files_with_matches"  # an alias of Files


class Level(enum.Enum):
    LOW = 1
    HIGH = 3


class Twins(enum.Enum):
    A = "same"
    B = "Same"


DID_YOU_MEAN: list[tuple[str, object, str, str]] = [
    # Mode's values are strings: bound by value, so names and aliases' names are the other spellings
    ("a name for its value", Mode, '"Files"', 'got "Files" (did you mean "files_with_matches"?)'),
    ("a name in another case", Mode, '"COUNT"', 'got "COUNT" (did you mean "n"?)'),
    ("an alias's name", Mode, '"Everything"', 'got "Everything" (did you mean "files_with_matches"?)'),
    ("an alias's name in another case", Mode, '"EVERYTHING"', 'got "EVERYTHING" (did you mean "files_with_matches"?)'),
    ("a value in another case", Mode, '"CONTENT"', 'got "CONTENT" (did you mean "content"?)'),
    ("a close spelling of a value", Mode, '"contnet"', 'got "contnet" (did you mean "content"?)'),
    ("nothing close", Mode, '"lines"', 'got "lines"'),
    # Level's values are integers: bound by name, so its values are the other spellings
    ("an integer value for its name", Level, "3", 'got 3 (did you mean "HIGH"?)'),
    ("an integer value as text", Level, '"1"', 'got "1" (did you mean "LOW"?)'),
    ("no member has the value", Level, "2", "got 2"),
    ("a boolean is no integer value", Level, "true", "got true"),
    ("a value two members share up to case", Twins, '"SAME"', 'got "SAME"'),
    ("a name sent exactly", Twins, '"B"', 'got "B" (did you mean "Same"?)'),
]


def _wire_list(tp: type[enum.Enum]) -> str:
    """The contract's two Enum rows: the values when every member's value is a string, else the names."""
    members = list(tp)
    if all(type(m.value) is str for m in members):
        return ", ".join(m.value for m in members)
    return ", ".join(m.name for m in members)


@pytest.mark.parametrize(("tp", "text", "tail"), [r[1:] for r in DID_YOU_MEAN], ids=[r[0] for r in DID_YOU_MEAN])
def test_an_enum_miss_suggests_the_wire_form(tp: type[enum.Enum], text: str, tail: str) -> None:
    assert error_both(one(tp), '{"x": ' + text + "}") == f"Argument 'x' must be one of: {_wire_list(tp)}; {tail}."


SUGGEST: list[tuple[str, object, list[str], dict[str, str] | None, str | None]] = [
    ("exact spelling", "celsius", ["CELSIUS", "KELVIN"], {"celsius": "CELSIUS"}, "CELSIUS"),
    ("spelling up to case", "Kelvin", ["celsius", "kelvin"], {"CELSIUS": "celsius", "KELVIN": "kelvin"}, "kelvin"),
    ("wire form up to case", "KELVIN", ["celsius", "kelvin"], None, "kelvin"),
    ("close wire form", "kelvn", ["celsius", "kelvin"], None, "kelvin"),
    ("close spelling is not guessed", "CELSIU", ["c", "k"], {"CELSIUS": "c"}, None),
    ("an integer's digits", 7, ["SEVEN"], {"7": "SEVEN"}, "SEVEN"),
    ("a boolean", True, ["ON"], {"True": "ON", "true": "ON"}, None),
    ("an array", ["a"], ["a"], None, None),
    ("a long value", "x" * 10_000, ["x"], None, None),
]


@pytest.mark.parametrize(
    ("value", "wire", "spellings", "expected"), [r[1:] for r in SUGGEST], ids=[r[0] for r in SUGGEST]
)
def test_did_you_mean(value: object, wire: list[str], spellings: dict[str, str] | None, expected: str | None) -> None:
    assert did_you_mean(value, wire, spellings) == expected


def test_one_of_takes_the_other_spellings() -> None:
    """The shape a by-value enum's check gives it: its values on the wire, its names as spellings."""
    assert one_of("CELSIUS", ["celsius", "kelvin"], False, {"CELSIUS": "celsius", "KELVIN": "kelvin"}) == (
        'must be one of: celsius, kelvin; got "CELSIUS" (did you mean "celsius"?).'
    )
    assert one_of("x", ["celsius"], True, {}) == 'must be one of: celsius, null; got "x".'


class Unit(enum.Enum):
    CELSIUS = "celsius"
    KELVIN = "kelvin"
    K = "kelvin"  # an alias of KELVIN


class Clash(enum.Enum):
    A = "B"
    B = "x"


SPELLINGS: list[tuple[str, type[enum.Enum], bool, dict[str, str]]] = [
    ("by name", Unit, False, {"celsius": "CELSIUS", "kelvin": "KELVIN", "K": "KELVIN"}),
    ("by value", Unit, True, {"CELSIUS": "celsius", "KELVIN": "kelvin", "K": "kelvin"}),
    ("a value that is another member's name is no spelling", Clash, False, {"x": "B"}),
    ("integer values, by name", Level, False, {"1": "LOW", "3": "HIGH"}),
]


@pytest.mark.parametrize(("cls", "by_value", "expected"), [r[1:] for r in SPELLINGS], ids=[r[0] for r in SPELLINGS])
def test_enum_spellings(cls: type[enum.Enum], by_value: bool, expected: dict[str, str]) -> None:
    """The other spellings an enum's check hands ``one_of``, for either wire form."""
    from onellm_runtime.binding.checks import enum_spellings

    assert enum_spellings(cls, (lambda m: m.value) if by_value else (lambda m: m.name)) == expected
