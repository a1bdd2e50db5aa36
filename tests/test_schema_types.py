"""The contract's Types table, one case per row (and per spelling), as exact ``json.dumps`` strings.

Every expected string is written from CONTRACT.md ("Types"), keyword order included:
type, format, description, anyOf, enum, minimum, maximum, minLength, maxLength, pattern,
contentEncoding, items, minItems, maxItems, uniqueItems, properties, required,
additionalProperties, default.
"""

from __future__ import annotations

import collections.abc as abc
import datetime
import decimal
import enum
import sys
import typing
import uuid
from typing import Annotated, Literal, NewType, Optional, Union

import pytest
from schema_support import fragment, output

from onellm_runtime import (
    Char,
    Description,
    Int8,
    Int16,
    Int32,
    Int64,
    JsonArray,
    JsonObject,
    JsonValue,
    UInt8,
    UInt16,
    UInt32,
    UInt64,
)
from onellm_runtime.core.schema import KEYWORD_ORDER


class Color(enum.Enum):
    RED = 1
    GREEN = 2
    CRIMSON = 1  # alias of RED: left out
    BLUE = 3


class Size(str, enum.Enum):
    SMALL = "s"
    LARGE = "l"


class Level(enum.IntEnum):
    LOW = 10
    HIGH = 20


class Unit(enum.Enum):
    CELSIUS = "celsius"
    FAHRENHEIT = "fahrenheit"
    C = "celsius"  # alias of CELSIUS: left out


class Mixed(enum.Enum):
    TEXT = "text"
    COUNT = 2


class Words(str, enum.Enum):
    ONE = 1  # the str mixin makes it "1": every value is a string
    TWO = "two"


if sys.version_info >= (3, 11):

    class Tone(enum.StrEnum):
        LOUD = enum.auto()
        Quiet = enum.auto()

    STR_ENUM_ROWS = [("StrEnum auto()", Tone, '{"type": "string", "enum": ["loud", "quiet"]}')]
else:
    STR_ENUM_ROWS = []


UserId = NewType("UserId", str)
Score = NewType("Score", float)
TD = r'"^-?(\\d+\\.)?\\d{2}:\\d{2}:\\d{2}(\\.\\d{1,6})?$"'

TYPES_TABLE = [
    # | bool | {"type":"boolean"} |
    ("bool", bool, '{"type": "boolean"}'),
    # | int | {"type":"integer"} |
    ("int", int, '{"type": "integer"}'),
    # | Int8 ... UInt64 | {"type":"integer","minimum":MIN,"maximum":MAX} with the C# type's range |
    ("Int8", Int8, '{"type": "integer", "minimum": -128, "maximum": 127}'),
    ("UInt8", UInt8, '{"type": "integer", "minimum": 0, "maximum": 255}'),
    ("Int16", Int16, '{"type": "integer", "minimum": -32768, "maximum": 32767}'),
    ("UInt16", UInt16, '{"type": "integer", "minimum": 0, "maximum": 65535}'),
    ("Int32", Int32, '{"type": "integer", "minimum": -2147483648, "maximum": 2147483647}'),
    ("UInt32", UInt32, '{"type": "integer", "minimum": 0, "maximum": 4294967295}'),
    ("Int64", Int64, '{"type": "integer", "minimum": -9223372036854775808, "maximum": 9223372036854775807}'),
    ("UInt64", UInt64, '{"type": "integer", "minimum": 0, "maximum": 18446744073709551615}'),
    # | float | {"type":"number"} |
    ("float", float, '{"type": "number"}'),
    # | decimal.Decimal | {"type":"number"} |
    ("Decimal", decimal.Decimal, '{"type": "number"}'),
    # | str | {"type":"string"} |
    ("str", str, '{"type": "string"}'),
    # | Char | {"type":"string","minLength":1,"maxLength":1} |
    ("Char", Char, '{"type": "string", "minLength": 1, "maxLength": 1}'),
    # | uuid.UUID | {"type":"string","format":"uuid"} |
    ("UUID", uuid.UUID, '{"type": "string", "format": "uuid"}'),
    # | datetime.datetime | {"type":"string","format":"date-time"} |
    ("datetime", datetime.datetime, '{"type": "string", "format": "date-time"}'),
    # | datetime.date | {"type":"string","format":"date"} |
    ("date", datetime.date, '{"type": "string", "format": "date"}'),
    # | datetime.time | {"type":"string","format":"time"} |
    ("time", datetime.time, '{"type": "string", "format": "time"}'),
    # | datetime.timedelta | {"type":"string","pattern":"^-?(\\d+\\.)?\\d{2}:\\d{2}:\\d{2}(\\.\\d{1,6})?$"} |
    ("timedelta", datetime.timedelta, '{"type": "string", "pattern": ' + TD + "}"),
    # | bytes | {"type":"string","contentEncoding":"base64"} |
    ("bytes", bytes, '{"type": "string", "contentEncoding": "base64"}'),
    # | Enum whose members' values are all strings | {"type":"string","enum":[member values, aliases left out]} |
    ("Enum of str values", Unit, '{"type": "string", "enum": ["celsius", "fahrenheit"]}'),
    ("str mixin Enum", Size, '{"type": "string", "enum": ["s", "l"]}'),
    ("str mixin Enum, an int written", Words, '{"type": "string", "enum": ["1", "two"]}'),
    *STR_ENUM_ROWS,
    # | any other Enum subclass | {"type":"string","enum":[member names in definition order, aliases left out]} |
    ("Enum", Color, '{"type": "string", "enum": ["RED", "GREEN", "BLUE"]}'),
    ("IntEnum", Level, '{"type": "string", "enum": ["LOW", "HIGH"]}'),
    ("Enum of mixed values", Mixed, '{"type": "string", "enum": ["TEXT", "COUNT"]}'),
    # | Literal["a","b"], Literal[1,2], Literal[True] | {"type":T,"enum":[values]} |
    ("Literal str", Literal["a", "b"], '{"type": "string", "enum": ["a", "b"]}'),
    ("Literal int", Literal[1, 2], '{"type": "integer", "enum": [1, 2]}'),
    ("Literal bool", Literal[True], '{"type": "boolean", "enum": [true]}'),
    ("Literal union", Union[Literal["a"], Literal["b", "a"]], '{"type": "string", "enum": ["a", "b"]}'),
    # | X | None | "null" added to type; enum gains null; anyOf gains a branch; no type: unchanged |
    ("int | None", int | None, '{"type": ["integer", "null"]}'),
    ("Optional[int]", Optional[int], '{"type": ["integer", "null"]}'),
    ("Union[int, None]", Union[int, None], '{"type": ["integer", "null"]}'),
    ("Union[None, str]", Union[None, str], '{"type": ["string", "null"]}'),
    ("Enum | None", Optional[Color], '{"type": ["string", "null"], "enum": ["RED", "GREEN", "BLUE", null]}'),
    ("str Enum | None", Optional[Unit], '{"type": ["string", "null"], "enum": ["celsius", "fahrenheit", null]}'),
    ("Literal | None", Optional[Literal[1, 2]], '{"type": ["integer", "null"], "enum": [1, 2, null]}'),
    ("Literal with None", Literal["a", None], '{"type": ["string", "null"], "enum": ["a", null]}'),
    ("JsonValue | None", Optional[JsonValue], "{}"),
    ("Char | None", Optional[Char], '{"type": ["string", "null"], "minLength": 1, "maxLength": 1}'),
    ("list | None", Optional[list[int]], '{"type": ["array", "null"], "items": {"type": "integer"}}'),
    # | list[T], Sequence[T], MutableSequence[T], Iterable[T], Collection[T], tuple[T, ...] | array |
    ("list", list[int], '{"type": "array", "items": {"type": "integer"}}'),
    ("Sequence", abc.Sequence[int], '{"type": "array", "items": {"type": "integer"}}'),
    ("MutableSequence", abc.MutableSequence[int], '{"type": "array", "items": {"type": "integer"}}'),
    ("Iterable", abc.Iterable[int], '{"type": "array", "items": {"type": "integer"}}'),
    ("Collection", abc.Collection[int], '{"type": "array", "items": {"type": "integer"}}'),
    ("tuple[T, ...]", tuple[int, ...], '{"type": "array", "items": {"type": "integer"}}'),
    ("typing.List", typing.List[int], '{"type": "array", "items": {"type": "integer"}}'),
    ("typing.Sequence", typing.Sequence[int], '{"type": "array", "items": {"type": "integer"}}'),
    ("typing.Tuple[T, ...]", typing.Tuple[int, ...], '{"type": "array", "items": {"type": "integer"}}'),
    # | set[T], frozenset[T], AbstractSet[T], MutableSet[T] | as above plus "uniqueItems":true |
    ("set", set[str], '{"type": "array", "items": {"type": "string"}, "uniqueItems": true}'),
    ("frozenset", frozenset[str], '{"type": "array", "items": {"type": "string"}, "uniqueItems": true}'),
    ("AbstractSet", abc.Set[str], '{"type": "array", "items": {"type": "string"}, "uniqueItems": true}'),
    ("MutableSet", abc.MutableSet[str], '{"type": "array", "items": {"type": "string"}, "uniqueItems": true}'),
    (
        "typing.AbstractSet",
        typing.AbstractSet[str],
        '{"type": "array", "items": {"type": "string"}, "uniqueItems": true}',
    ),
    ("typing.FrozenSet", typing.FrozenSet[str], '{"type": "array", "items": {"type": "string"}, "uniqueItems": true}'),
    # | dict[str, T], Mapping[str, T], MutableMapping[str, T] | {"type":"object","additionalProperties":FRAGMENT(T)} |
    ("dict", dict[str, int], '{"type": "object", "additionalProperties": {"type": "integer"}}'),
    ("Mapping", abc.Mapping[str, int], '{"type": "object", "additionalProperties": {"type": "integer"}}'),
    ("MutableMapping", abc.MutableMapping[str, int], '{"type": "object", "additionalProperties": {"type": "integer"}}'),
    ("typing.Dict", typing.Dict[str, bool], '{"type": "object", "additionalProperties": {"type": "boolean"}}'),
    ("NewType key", dict[UserId, int], '{"type": "object", "additionalProperties": {"type": "integer"}}'),
    # | JsonValue | {} |  | JsonObject | {"type":"object"} |  | JsonArray | {"type":"array"} |
    ("JsonValue", JsonValue, "{}"),
    ("JsonObject", JsonObject, '{"type": "object"}'),
    ("JsonArray", JsonArray, '{"type": "array"}'),
    # | NewType("N", T) | the fragment of T |
    ("NewType str", UserId, '{"type": "string"}'),
    ("NewType float", Score, '{"type": "number"}'),
    # | Annotated[T, ...] | the fragment of T with the annotations applied |
    ("Annotated", Annotated[int, Description("Count.")], '{"type": "integer", "description": "Count."}'),
    (
        "Annotated list item",
        list[Annotated[str, Description("One.")]],
        '{"type": "array", "items": {"type": "string", "description": "One."}}',
    ),
    # nesting
    (
        "nested",
        dict[str, list[Optional[int]]],
        '{"type": "object", "additionalProperties": {"type": "array", "items": {"type": ["integer", "null"]}}}',
    ),
]


@pytest.mark.parametrize(("annotation", "expected"), [pytest.param(a, e, id=i) for i, a, e in TYPES_TABLE])
def test_types_table_row(annotation: object, expected: str) -> None:
    assert fragment(annotation) == expected


#: Rows whose return is text or a JSON part: no output schema (contract, "A tool": Output schema;
#: Char is an annotated str, text like the others).
NO_OUTPUT = {
    "str",
    "Union[None, str]",
    "NewType str",
    "Char",
    "Char | None",
    "JsonValue",
    "JsonObject",
    "JsonArray",
    "JsonValue | None",
}


@pytest.mark.parametrize(
    ("annotation", "expected"), [pytest.param(a, e, id=i) for i, a, e in TYPES_TABLE if i not in NO_OUTPUT]
)
def test_types_table_row_as_an_output_schema(annotation: object, expected: str) -> None:
    """A value return type's output schema is the same fragment."""
    assert output(annotation) == expected


@pytest.mark.parametrize("annotation", [pytest.param(a, id=i) for i, a, _ in TYPES_TABLE if i in NO_OUTPUT])
def test_text_and_json_returns_have_no_output_schema(annotation: object) -> None:
    assert output(annotation) == "null"


def test_keyword_order_is_the_contract_order() -> None:
    assert KEYWORD_ORDER == (
        "type",
        "format",
        "description",
        "anyOf",
        "enum",
        "minimum",
        "maximum",
        "minLength",
        "maxLength",
        "pattern",
        "contentEncoding",
        "items",
        "minItems",
        "maxItems",
        "uniqueItems",
        "properties",
        "required",
        "additionalProperties",
        "default",
    )


def test_only_contract_keywords_are_ever_written() -> None:
    def keys(node: object) -> set[str]:
        found: set[str] = set()
        if isinstance(node, dict):
            for k, v in node.items():
                found.add(k)
                if k == "properties":
                    for prop in v.values():
                        found |= keys(prop)
                else:
                    found |= keys(v)
        elif isinstance(node, list):
            for item in node:
                found |= keys(item)
        return found

    import json

    for _, annotation, _ in TYPES_TABLE:
        assert keys(json.loads(fragment(annotation))) <= set(KEYWORD_ORDER)
