"""The contract's "A tool" and "Parameters" sections, rule by rule, as exact strings."""

from __future__ import annotations

import enum
import json
from typing import Annotated, Literal, Optional

import pytest
from schema_support import fragment, schema, tool_with
from typing_extensions import Doc

from onellm_runtime import (
    CancellationToken,
    Char,
    Description,
    JsonPart,
    JsonValue,
    Part,
    TextPart,
    ToolContext,
    ToolResult,
    UInt8,
    tool,
)


class Color(enum.Enum):
    RED = "r"
    GREEN = "g"


class Shade(enum.Enum):
    LIGHT = 1
    DARK = 2


# --- Parameters: defaults -------------------------------------------------------------
# "A default of type str, int, float, bool, an Enum (written as its member name) or a Char is
# written as "default". A None default writes nothing. Other defaults are not written."

DEFAULTS_TABLE = [
    ("str", str, "abc", '{"type": "string", "default": "abc"}'),
    ("empty str", str, "", '{"type": "string", "default": ""}'),
    ("int", int, 3, '{"type": "integer", "default": 3}'),
    ("negative int", int, -3, '{"type": "integer", "default": -3}'),
    ("float", float, 0.5, '{"type": "number", "default": 0.5}'),
    ("int default on float", float, 2, '{"type": "number", "default": 2}'),
    ("bool", bool, True, '{"type": "boolean", "default": true}'),
    ("str-valued Enum member: its value", Color, Color.GREEN, '{"type": "string", "enum": ["r", "g"], "default": "g"}'),
    (
        "int-valued Enum member: its name",
        Shade,
        Shade.DARK,
        '{"type": "string", "enum": ["LIGHT", "DARK"], "default": "DARK"}',
    ),
    ("Char", Char, "x", '{"type": "string", "minLength": 1, "maxLength": 1, "default": "x"}'),
    ("sized int", UInt8, 7, '{"type": "integer", "minimum": 0, "maximum": 255, "default": 7}'),
    ("Literal", Literal["a", "b"], "b", '{"type": "string", "enum": ["a", "b"], "default": "b"}'),
    ("nullable with value", Optional[int], 4, '{"type": ["integer", "null"], "default": 4}'),
    ("None", Optional[int], None, '{"type": ["integer", "null"]}'),
    (
        "described",
        Annotated[str, Description("Name.")],
        "x",
        '{"type": "string", "description": "Name.", "default": "x"}',
    ),
    ("list not written", list[int], [], '{"type": "array", "items": {"type": "integer"}}'),
    ("tuple not written", tuple[int, ...], (1,), '{"type": "array", "items": {"type": "integer"}}'),
    ("bytes not written", bytes, b"x", '{"type": "string", "contentEncoding": "base64"}'),
    ("NaN not written", float, float("nan"), '{"type": "number"}'),
    ("infinity not written", float, float("inf"), '{"type": "number"}'),
]


@pytest.mark.parametrize(
    ("annotation", "default", "expected"), [pytest.param(a, d, e, id=i) for i, a, d, e in DEFAULTS_TABLE]
)
def test_default_row(annotation: object, default: object, expected: str) -> None:
    assert fragment(annotation, default=default) == expected
    assert "required" not in tool_with(annotation, default=default).input_schema


# --- Parameters: required, nullable, injected, kinds ----------------------------------


def test_required_unless_defaulted_and_nullable_without_default_stays_required() -> None:
    def f(a: int, b: Optional[int], c: int = 1, d: Optional[int] = None) -> str:
        return ""

    assert schema(f) == (
        '{"type": "object", "properties": {"a": {"type": "integer"}, "b": {"type": ["integer", "null"]}, '
        '"c": {"type": "integer", "default": 1}, "d": {"type": ["integer", "null"]}}, '
        '"required": ["a", "b"], "additionalProperties": false}'
    )


def test_context_and_token_never_appear() -> None:
    def f(ctx: ToolContext, query: str, token: CancellationToken) -> str:
        return ""

    assert schema(f) == (
        '{"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"], '
        '"additionalProperties": false}'
    )


def test_positional_only_and_keyword_only_are_ordinary_properties_named_as_written() -> None:
    def f(oldText: str, /, new_text: str, *, Mode: int = 0) -> str:
        return ""

    assert schema(f) == (
        '{"type": "object", "properties": {"oldText": {"type": "string"}, "new_text": {"type": "string"}, '
        '"Mode": {"type": "integer", "default": 0}}, "required": ["oldText", "new_text"], '
        '"additionalProperties": false}'
    )


def test_parameter_names_are_never_rewritten_even_with_camel_case() -> None:
    def f(old_text: str) -> str:
        return ""

    assert schema(f, naming="camelCase") == (
        '{"type": "object", "properties": {"old_text": {"type": "string"}}, "required": ["old_text"], '
        '"additionalProperties": false}'
    )


def test_parameter_description_precedence() -> None:
    def f(
        a: Annotated[str, Description("D.")],
        b: Annotated[str, Doc("Doc.")],
        c: Annotated[str, Doc("Doc."), Description("D wins.")],
        d: str,
    ) -> str:
        """Summary.

        Args:
            a: Docstring a.
            b: Docstring b.
            c: Docstring c.
            d: Docstring d.
        """
        return ""

    props = json.loads(schema(f))["properties"]
    assert [props[k]["description"] for k in "abcd"] == ["D.", "Doc.", "D wins.", "Docstring d."]


# --- A tool: name, description, output, metadata --------------------------------------


def test_description_precedence_and_flattening() -> None:
    def documented() -> str:
        """Read   the :class:`~pkg.mod.Docket`
        and ``its`` parts.

        Returns:
            Text.
        """
        return ""

    assert tool(documented).description == "Read the Docket and its parts.\n\nReturns:\nText."
    assert tool(description="Given.")(documented).description == "Given."

    def bare() -> str:
        return ""

    assert tool(bare).description == ""


OUTPUT_TABLE = [
    ("None", None, "null"),
    ("str", str, "null"),
    ("str | None", Optional[str], "null"),
    ("TextPart", TextPart, "null"),
    ("JsonPart", JsonPart, "null"),
    ("Part", Part, "null"),
    ("list[Part]", list[Part], "null"),
    ("ToolResult", ToolResult, "null"),
    ("JsonValue", JsonValue, "null"),
    ("int", int, '{"type": "integer"}'),
    ("list[str]", list[str], '{"type": "array", "items": {"type": "string"}}'),
    ("str-valued Enum", Color, '{"type": "string", "enum": ["r", "g"]}'),
    ("int-valued Enum", Shade, '{"type": "string", "enum": ["LIGHT", "DARK"]}'),
]


@pytest.mark.parametrize(("returns", "expected"), [pytest.param(r, e, id=i) for i, r, e in OUTPUT_TABLE])
def test_output_schema_row(returns: object, expected: str) -> None:
    from schema_support import output

    assert output(returns) == expected


def test_async_def_result_is_unwrapped() -> None:
    async def f() -> list[int]:
        return []

    assert json.dumps(tool(f).output_schema) == '{"type": "array", "items": {"type": "integer"}}'


def test_no_return_annotation_has_no_output_schema() -> None:
    def f(x: int):  # type: ignore[no-untyped-def]
        return x

    assert tool(f).output_schema is None


def test_metadata_defaults_and_values() -> None:
    def f() -> str:
        return ""

    plain = tool(f)
    assert (plain.ends_loop, plain.requires_approval, plain.parallel_safe, plain.timeout_seconds) == (
        False,
        False,
        True,
        0,
    )
    assert plain.invocation_mode == "wait"
    set_ = tool(ends_loop=True, requires_approval=True, parallel_safe=False, timeout_seconds=1.5)(f)
    assert (set_.ends_loop, set_.requires_approval, set_.parallel_safe, set_.timeout_seconds) == (
        True,
        True,
        False,
        1.5,
    )


def test_model_choice_adds_the_invocation_mode_property_last_and_never_required() -> None:
    def f(path: str, depth: int = 1) -> str:
        return ""

    assert schema(f, invocation_mode="model_choice") == (
        '{"type": "object", "properties": {"path": {"type": "string"}, "depth": {"type": "integer", "default": 1}, '
        '"invocationMode": {"type": "string", "enum": ["wait", "background"], "default": "wait"}}, '
        '"required": ["path"], "additionalProperties": false}'
    )
    assert schema(f, invocation_mode="wait") == (
        '{"type": "object", "properties": {"path": {"type": "string"}, "depth": {"type": "integer", "default": 1}}, '
        '"required": ["path"], "additionalProperties": false}'
    )


def test_bad_metadata_values_are_refused() -> None:
    def f() -> str:
        return ""

    with pytest.raises(ValueError, match="invocation_mode must be 'wait' or 'model_choice'"):
        tool(invocation_mode="later")(f)
    with pytest.raises(ValueError, match="timeout_seconds must be 0"):
        tool(timeout_seconds=-1)(f)
