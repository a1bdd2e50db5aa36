"""Return values -> results (contract: Results; ``typed_result`` for ``ends_loop`` tools).

Each expected JSON form is written by hand from the schema's rules: enum names, base64,
RFC 3339 / ISO text, ``[-][d.]hh:mm:ss[.ffffff]``, record wire names, sets as arrays.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import enum
import uuid
from dataclasses import dataclass
from decimal import Decimal
from typing import Annotated, Any, Literal, NamedTuple, Optional, Union

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


def test_a_value_of_another_type_than_declared_is_written_by_its_own_type() -> None:
    assert invoke(_returning("oops", int)).parts == [TextPart("oops")]
    assert invoke(_returning(5, str)).parts == [JsonPart(5)]


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
