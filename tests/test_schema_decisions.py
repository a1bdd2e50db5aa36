"""Every item of the contract's "Decisions on the finer points" -> Schemas, pinned.

Each test quotes the decision it pins.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Annotated, Generic, Literal, NewType, Optional, Protocol, TypeVar, Union

import pytest
from schema_support import fragment, output, refusal, schema, tool_with

from onellm_runtime import (
    CancellationToken,
    Char,
    Description,
    Discriminator,
    JsonName,
    Length,
    MaxLength,
    MinLength,
    StringLength,
    Tool,
    ToolContext,
    ToolDefinitionError,
    tool,
    tools_of,
)

T = TypeVar("T")


@dataclass
class Cat:
    """A cat (this sentence is never written).

    Attributes:
        lives: How many are left.
    """

    kind: Literal["cat"]
    lives: int = 9


@dataclass
class Dog:
    kind: Literal["dog"] = "dog"


class Named(Protocol):
    name: str


class Plain:
    pass


def test_a_tool_with_no_model_visible_parameters() -> None:
    """`{"type":"object","properties":{},"additionalProperties":false}`."""

    def none() -> str:
        return ""

    def injected_only(ctx: ToolContext, token: CancellationToken) -> str:
        return ""

    empty = '{"type": "object", "properties": {}, "additionalProperties": false}'
    assert schema(none) == empty
    assert schema(injected_only) == empty


def test_required_lists_names_in_parameter_order_and_fields_in_field_order() -> None:
    def f(z: int, a: int = 0, *, m: int, b: int) -> str:
        return ""

    assert json.loads(schema(f))["required"] == ["z", "m", "b"]

    @dataclass
    class R:
        z: int
        a: int = 0
        m: int = 0
        b: int = 0

    @dataclass
    class S(R):
        y: int = 0

    assert list(json.loads(fragment(S))["properties"]) == ["z", "a", "m", "b", "y"]


def test_a_records_own_class_docstring_is_not_written() -> None:
    """Only its per-field entries are read."""
    assert fragment(Cat) == (
        '{"type": "object", "properties": {"kind": {"type": "string", "enum": ["cat"]}, '
        '"lives": {"type": "integer", "description": "How many are left.", "default": 9}}, '
        '"required": ["kind"], "additionalProperties": false}'
    )


def test_a_nullable_discriminated_union_appends_null_as_the_last_branch() -> None:
    for spelling in (
        Optional[Union[Cat, Dog]],
        Union[Cat, Dog, None],
        Union[None, Cat, Dog],
        Annotated[Union[Cat, Dog, None], Discriminator("kind")],
        Optional[Annotated[Union[Cat, Dog], Discriminator("kind")]],
    ):
        branches = json.loads(fragment(spelling))["anyOf"]
        assert [json.dumps(b) for b in branches][-1] == '{"type": "null"}'
        assert len(branches) == 3


def test_a_discriminator_is_always_required_and_its_default_never_written() -> None:
    dog = json.loads(fragment(Union[Cat, Dog]))["anyOf"][1]
    assert json.dumps(dog) == (
        '{"type": "object", "properties": {"kind": {"type": "string", "enum": ["dog"]}}, '
        '"required": ["kind"], "additionalProperties": false}'
    )


def test_length_markers_write_what_they_are_given_zero_included_but_string_length_minimum_zero() -> None:
    assert fragment(Annotated[str, MinLength(0)]) == '{"type": "string", "minLength": 0}'
    assert fragment(Annotated[str, MaxLength(0)]) == '{"type": "string", "maxLength": 0}'
    assert fragment(Annotated[str, Length(0, 0)]) == '{"type": "string", "minLength": 0, "maxLength": 0}'
    assert fragment(Annotated[list[int], Length(0, 2)]) == (
        '{"type": "array", "items": {"type": "integer"}, "minItems": 0, "maxItems": 2}'
    )
    assert fragment(Annotated[str, StringLength(5, min_length=0)]) == '{"type": "string", "maxLength": 5}'
    assert (
        fragment(Annotated[str, StringLength(5, min_length=1)]) == '{"type": "string", "minLength": 1, "maxLength": 5}'
    )


def test_annotations_inside_annotated_optional_apply_to_x() -> None:
    assert fragment(Annotated[Optional[str], MaxLength(3), Description("Maybe.")]) == (
        '{"type": ["string", "null"], "description": "Maybe.", "maxLength": 3}'
    )
    assert fragment(Annotated[Optional[list[int]], MinLength(1)]) == (
        '{"type": ["array", "null"], "items": {"type": "integer"}, "minItems": 1}'
    )


def test_metadata_onellm_does_not_know_is_refused_naming_its_type() -> None:
    class OtherLibraryMarker:
        pass

    codes, message = refusal(lambda: tool_with(Annotated[int, "text", 3, OtherLibraryMarker(), None]))
    assert codes == ["OLT013", "OLT013", "OLT013"]
    assert message == (
        "Tool 'f': Parameter 'x': Annotated metadata of type 'int' is not read by onellm; remove it  [OLT013]\n"
        "Tool 'f': Parameter 'x': Annotated metadata of type 'OtherLibraryMarker' is not read by onellm; "
        "remove it  [OLT013]\n"
        "Tool 'f': Parameter 'x': Annotated metadata of type 'NoneType' is not read by onellm; remove it  [OLT013]"
    )


def test_json_name_on_a_tool_parameter_is_olt013() -> None:
    codes, message = refusal(lambda: tool_with(Annotated[str, JsonName("y")]))
    assert codes == ["OLT013"]
    assert message == (
        "Tool 'f': Parameter 'x': JsonName cannot be used here (tool parameters are never renamed); remove it  [OLT013]"
    )


def test_discriminator_on_anything_but_a_union_of_records_is_olt012() -> None:
    codes, message = refusal(lambda: tool_with(Annotated[Cat, Discriminator("kind")]))
    assert codes == ["OLT012"]
    assert message == (
        "Tool 'f': Parameter 'x': Discriminator('kind') applies only to a union of records, not to 'Cat'  [OLT012]"
    )
    codes, _ = refusal(lambda: tool_with(Annotated[Union[Cat, Dog], Discriminator("lives")]))
    assert codes == ["OLT012"]


def test_str_or_none_and_newtype_str_returns_are_text() -> None:
    assert output(Optional[str]) == "null"
    assert output(NewType("Slug", str)) == "null"
    # annotated strings too, Char (Annotated[str, ...]) included: text, as their results are
    assert output(Annotated[str, MaxLength(3)]) == "null"
    assert output(Char) == "null"


def test_no_return_annotation_no_output_schema() -> None:
    def f(x: int):  # type: ignore[no-untyped-def]
        return x

    assert Tool.create(f).output_schema is None


def test_tool_names_are_ascii_only() -> None:
    def f() -> str:
        return ""

    codes, message = refusal(lambda: tool(name="größe")(f))
    assert codes == ["OLT008"]
    assert message == (
        "Tool 'größe': the tool name 'größe' is not 1-64 ASCII letters, digits, '_' or '-'; "
        "pass name=... with a valid name  [OLT008]"
    )


def test_typevars_are_olt004_not_olt002() -> None:
    codes, _ = refusal(lambda: tool_with(T))
    assert codes == ["OLT004"]
    codes, _ = refusal(lambda: tool_with(list[T]))  # type: ignore[valid-type]
    assert codes == ["OLT004"]


def test_protocols_are_olt002_plain_classes_olt005_record_or_non_record_unions_olt002() -> None:
    assert refusal(lambda: tool_with(Named))[0] == ["OLT002"]
    assert refusal(lambda: tool_with(Plain))[0] == ["OLT005"]
    assert refusal(lambda: tool_with(Union[Cat, str]))[0] == ["OLT002"]


def test_tool_may_wrap_staticmethod_and_classmethod_objects() -> None:
    class Box:
        @tool
        @staticmethod
        def s(x: int) -> str:
            return str(x)

        @tool
        @classmethod
        def c(cls, y: int) -> str:
            return str(y)

    assert json.dumps(Box.s.input_schema) == (
        '{"type": "object", "properties": {"x": {"type": "integer"}}, "required": ["x"], "additionalProperties": false}'
    )
    assert Box.s(2) == "2"
    # mypy reads Tool.__get__ on an instance as binding the first parameter, a typing gap for static tools:
    assert Box().s(3) == "3"  # type: ignore[call-arg]
    assert json.dumps(Box.c.input_schema) == (
        '{"type": "object", "properties": {"y": {"type": "integer"}}, "required": ["y"], "additionalProperties": false}'
    )


def test_staticmethod_or_classmethod_on_top_of_tool_and_tool_on_overload_are_olt001() -> None:
    class Static:
        @staticmethod
        @tool
        def s(x: int) -> str:
            return ""

    class Klass:
        @classmethod
        @tool
        def c(cls, x: int) -> str:
            return ""

    assert refusal(lambda: tools_of(Static()))[0] == ["OLT001"]
    assert refusal(lambda: tools_of(Klass))[0] == ["OLT001"]
    from typing import overload

    def on_overload() -> object:
        @tool  # type: ignore[misc]  # one overload alone: this is what the test refuses
        @overload
        def f(x: int) -> int: ...  # type: ignore[empty-body]

        return f

    assert refusal(on_overload)[0] == ["OLT001"]


def test_tool_create_takes_a_bound_method_without_self() -> None:
    class Box:
        def m(self, x: int) -> str:
            return str(x)

    assert schema(Box().m) == (
        '{"type": "object", "properties": {"x": {"type": "integer"}}, "required": ["x"], "additionalProperties": false}'
    )


def test_a_lambda_needs_a_name() -> None:
    codes, message = refusal(lambda: Tool.create(lambda: ""))
    assert codes == ["OLT008"]
    assert message.endswith(
        "a lambda has no usable tool name; pass name=... (1-64 letters, digits, '_' or '-')  [OLT008]"
    )
    assert Tool.create(lambda: "", name="noop").name == "noop"


def test_olt007_and_olt010_are_raised_when_the_class_is_created() -> None:
    def duplicate() -> type:
        class Twice:
            @tool
            def a(self) -> str:
                return ""

            @tool(name="a")
            def b(self) -> str:
                return ""

        return Twice

    def generic() -> type:
        class Box(Generic[T]):
            @tool
            def put(self) -> str:
                return ""

        return Box

    for make, code in ((duplicate, "OLT007"), (generic, "OLT010")):
        with pytest.raises((ToolDefinitionError, RuntimeError)) as info:
            make()
        error = info.value if isinstance(info.value, ToolDefinitionError) else info.value.__cause__
        assert isinstance(error, ToolDefinitionError) and error.code == code
