"""Return values -> results (contract: Results; ``typed_result`` for ``ends_loop`` tools).

Each expected JSON form is written by hand from the schema's rules: enum names, base64,
RFC 3339 / ISO text, ``[-][d.]hh:mm:ss[.ffffff]``, record wire names, sets as arrays.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import enum
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from decimal import Decimal
from typing import Annotated, Any, Literal, NamedTuple, Optional, Union

import pytest
from typing_extensions import TypedDict

from onellm_runtime import (
    Char,
    JsonName,
    JsonObject,
    JsonPart,
    JsonValue,
    Part,
    TextPart,
    Tool,
    ToolInvoker,
    ToolResult,
    tool,
)


def invoke(t: Tool[..., Any], arguments: object = "{}") -> ToolResult:
    return asyncio.run(ToolInvoker().invoke(t, arguments))  # type: ignore[arg-type]


class Mode(enum.Enum):
    Files = 1
    Content = 2


@dataclass
class Replacement:
    old_text: str
    new_text: Annotated[str, JsonName("replacement")]
    mode: Mode = Mode.Files


class Span(NamedTuple):
    start: dt.date
    length: dt.timedelta


class Movie(TypedDict, total=False):
    title: str
    year: int


@dataclass
class Cat:
    kind: Literal["cat"]
    lives: int


@dataclass
class Dog:
    kind: Literal["dog"]
    good: bool


def test_none_is_no_content() -> None:
    @tool
    def nothing() -> None:
        return None

    @tool
    async def nothing_async() -> None:
        return None

    for t in (nothing, nothing_async):
        result = invoke(t)
        assert result.parts == [] and not result.is_error and result.text == ""


def test_text() -> None:
    @tool
    def hello() -> str:
        return "hi"

    @tool
    def maybe_text() -> Optional[str]:
        return None

    @tool
    def initial() -> Char:
        return "h"

    assert invoke(hello).parts == [TextPart("hi")]
    assert invoke(maybe_text).parts == [TextPart("null")]
    assert invoke(initial).parts == [TextPart("h")]  # a Char is a str: text, not the JSON '"h"'


def test_parts_and_results_pass_through() -> None:
    @tool
    def one_part() -> TextPart:
        return TextPart("p")

    @tool
    def many() -> list[Part]:
        return [TextPart("a"), JsonPart({"b": 1})]

    @tool
    def whole() -> ToolResult:
        return ToolResult([TextPart("custom")], is_error=True, error="custom")

    @tool
    def no_parts() -> list[Part]:
        return []

    assert invoke(no_parts).parts == []
    assert invoke(one_part).parts == [TextPart("p")]
    assert invoke(many).parts == [TextPart("a"), JsonPart({"b": 1})]
    assert invoke(many).text == 'a{"b":1}'
    passed = invoke(whole)
    assert passed.parts == [TextPart("custom")] and passed.is_error and passed.error == "custom"


def test_json_types_are_one_json_part() -> None:
    @tool
    def value() -> JsonValue:
        return [1, {"a": None}]

    @tool
    def obj() -> JsonObject:
        return {"k": "v"}

    assert invoke(value).parts == [JsonPart([1, {"a": None}])]
    assert invoke(obj).parts == [JsonPart({"k": "v"})]


def _returning(value: object, annotation: object) -> Tool[..., Any]:
    def give():  # type: ignore[no-untyped-def]
        return value

    give.__annotations__ = {"return": annotation}
    return Tool.create(give, name="give")


def test_values_in_the_schemas_json_form() -> None:
    cases: list[tuple[object, object, object]] = [
        (3, int, 3),
        (2.5, float, 2.5),
        (True, bool, True),
        (Decimal("1.10"), Decimal, 1.1),
        (Decimal("3"), Decimal, 3),
        (uuid.UUID("12345678-9abc-def0-1234-56789abcdef0"), uuid.UUID, "12345678-9abc-def0-1234-56789abcdef0"),
        (dt.datetime(2026, 7, 1, 12, 30, tzinfo=dt.timezone.utc), dt.datetime, "2026-07-01T12:30:00+00:00"),
        (dt.date(2026, 7, 1), dt.date, "2026-07-01"),
        (dt.time(12, 30, 5), dt.time, "12:30:05"),
        (dt.time(12, 30, 5, 500000), dt.time, "12:30:05.500000"),
        (dt.timedelta(days=1, hours=2, minutes=3, seconds=4), dt.timedelta, "1.02:03:04"),
        (-dt.timedelta(seconds=1, microseconds=5), dt.timedelta, "-00:00:01.000005"),
        (b"hi", bytes, "aGk="),
        (Mode.Content, Mode, "Content"),
        ("b", Literal["a", "b"], "b"),
        ({"x": [Mode.Files]}, dict[str, list[Mode]], {"x": ["Files"]}),
        ({"b", "a", "c"}, set[str], ["a", "b", "c"]),
        ((1, 2), tuple[int, ...], [1, 2]),
        (
            Replacement("a", "b"),
            Replacement,
            {"old_text": "a", "replacement": "b", "mode": "Files"},
        ),
        (Span(dt.date(2026, 1, 2), dt.timedelta(hours=1)), Span, {"start": "2026-01-02", "length": "01:00:00"}),
        (Movie(title="Up"), Movie, {"title": "Up"}),
        (Dog("dog", True), Union[Cat, Dog], {"kind": "dog", "good": True}),
        ([Cat("cat", 9)], list[Union[Cat, Dog]], [{"kind": "cat", "lives": 9}]),
    ]
    for value, annotation, expected in cases:
        result = invoke(_returning(value, annotation))
        assert result.parts == [JsonPart(expected)], (value, annotation)
        assert result.typed_result is None


def test_camel_case_names_in_results() -> None:
    @tool(naming="camelCase")
    def replace() -> list[Replacement]:
        return [Replacement("a", "b", Mode.Content)]

    assert invoke(replace).parts == [JsonPart([{"oldText": "a", "replacement": "b", "mode": "Content"}])]


def test_optional_value_that_is_none_is_the_text_null() -> None:
    assert invoke(_returning(None, Optional[int])).parts == [TextPart("null")]
    assert invoke(_returning(None, Optional[Replacement])).parts == [TextPart("null")]
    assert invoke(_returning(4, Optional[int])).parts == [JsonPart(4)]


def test_unannotated_results_go_by_the_values_own_type() -> None:
    cases: list[tuple[object, list[Part]]] = [
        (None, []),
        ("text", [TextPart("text")]),
        (TextPart("p"), [TextPart("p")]),
        ({"a": Mode.Content}, [JsonPart({"a": "Content"})]),
        (Replacement("a", "b"), [JsonPart({"old_text": "a", "new_text": "b", "mode": "Files"})]),
        (dt.date(2026, 7, 1), [JsonPart("2026-07-01")]),
        (7, [JsonPart(7)]),
    ]
    for value, parts in cases:

        def give():  # type: ignore[no-untyped-def]
            return value

        assert invoke(Tool.create(give, name="give")).parts == parts


def _numbers() -> Iterator[int]:
    yield 1


@dataclass
class Order:
    id: int
    lines: list[Replacement]


#: (return annotation, the value returned, what the error result says after "does not fit its return type: ").
MISFITS: list[tuple[object, object, str]] = [
    (int, object(), "expected integer, got object"),
    (int, "abc", "expected integer, got str"),
    (int, 2.5, "expected integer, got float"),
    (int, True, "expected integer, got bool"),
    (int, None, "expected integer, got None"),
    (float, "1.5", "expected number, got str"),
    (bool, 1, "expected boolean, got int"),
    (uuid.UUID, "12345678-9abc-def0-1234-56789abcdef0", "expected UUID, got str"),
    (dt.date, dt.datetime(2026, 7, 1, tzinfo=dt.timezone.utc), "expected date, got datetime"),
    (list[int], _numbers(), "expected array, got generator"),
    (list[int], "12", "expected array, got str"),
    (list[int], [1, 2, "3"], "[2]: expected integer, got str"),
    (dict[str, int], [("a", 1)], "expected object, got list"),
    (dict[str, int], {"a": 1, "b": None}, "b: expected integer, got None"),
    (dict[str, int], {1: 1}, "expected a string key, got int"),
    (Order, {"id": 1, "lines": []}, "expected Order, got dict"),
    (Order, Order(1, [Replacement("a", "b"), "c"]), "lines[1]: expected Replacement, got str"),  # type: ignore[list-item]
    (Order, Order("1", []), "id: expected integer, got str"),  # type: ignore[arg-type]
    (Movie, {"title": 3}, "title: expected string, got int"),
    (Mode, "Files", "expected Mode, got str"),
    (Literal["a", "b"], "c", 'expected one of "a", "b", got str'),
    (Union[Cat, Dog], {"kind": "cow"}, "expected one of Cat, Dog, got dict"),
    (JsonObject, [1], "expected object, got list"),
    (str, 5, "expected string, got int"),
    (str, None, "expected string, got None"),
    (None, 5, "expected None, got int"),
    (list[Part], 5, "expected a part or a list of parts, got int"),
]


@pytest.mark.parametrize(("annotation", "value", "what"), MISFITS, ids=[m[2] for m in MISFITS])
def test_a_value_that_does_not_fit_the_return_type_is_an_error_result(
    annotation: object, value: object, what: str
) -> None:
    text = f"Tool 'give' returned a value that does not fit its return type: {what}."
    result = invoke(_returning(value, annotation))
    assert result == ToolResult([TextPart(text)], True, text, None, [])


def test_what_fits_is_written_as_before() -> None:
    """The kinds of values a declared type takes besides its own: ints and integral floats for
    ``float`` and ``int``, an ``int`` for ``Decimal``, a tuple for a list, an ``IntEnum`` member for ``int``."""

    class Level(enum.IntEnum):
        LOW = 1

    assert invoke(_returning(3, float)).parts == [JsonPart(3)]
    assert invoke(_returning(5.0, int)).parts == [JsonPart(5.0)]
    assert invoke(_returning(Level.LOW, int)).text == "1"
    assert invoke(_returning((2, 1), list[int])).parts == [JsonPart([2, 1])]
    assert invoke(_returning(2, Decimal)).parts == [JsonPart(2)]


def test_typed_result_only_for_tools_that_end_the_loop() -> None:
    @tool(ends_loop=True)
    def finish(summary: str) -> Replacement:
        return Replacement(summary, summary.upper())

    @tool
    def not_final() -> Replacement:
        return Replacement("a", "b")

    result = invoke(finish, '{"summary": "ok"}')
    assert result.typed_result == Replacement("ok", "OK")
    assert result.parts == [JsonPart({"old_text": "ok", "replacement": "OK", "mode": "Files"})]
    assert invoke(not_final).typed_result is None
    failed = invoke(finish, "{}")
    assert failed.is_error and failed.typed_result is None


def test_error_result_has_one_text_part_equal_to_its_error() -> None:
    @tool
    def broken() -> int:
        raise ZeroDivisionError("division by zero")

    result = invoke(broken)
    assert result.is_error
    assert result.parts == [TextPart("Tool 'broken' failed: ZeroDivisionError: division by zero")]
    assert result.error == result.text == "Tool 'broken' failed: ZeroDivisionError: division by zero"
