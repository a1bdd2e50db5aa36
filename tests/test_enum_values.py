"""String-valued enums on the wire (contract, Types: the two ``Enum`` rows; Parameters: defaults;
Results): written and bound by member value, every other enum by member name.

Every expected string is written from the contract's rows, not pasted from a run.
"""

from __future__ import annotations

import asyncio
import enum
import json
import sys
from dataclasses import dataclass
from typing import Any, Optional

import pytest

from onellm_runtime import ArgumentError, Tool, ToolInvoker, ToolResult, tool
from onellm_runtime.providers import anthropic_tool, gemini_tool, mcp_tool, openai_tool


class Unit(enum.Enum):
    """A plain Enum whose values are all strings: by value."""

    CELSIUS = "deg_c"
    FAHRENHEIT = "deg_f"
    C = "deg_c"  # an alias of CELSIUS: left out, and its name is not on the wire


class Size(str, enum.Enum):
    """A str mixin: by value."""

    SMALL = "s"
    LARGE = "l"


class Shade(enum.Enum):
    """Integer values: by name."""

    LIGHT = 1
    DARK = 2


class Mixed(enum.Enum):
    """A string and an integer: by name."""

    TEXT = "text"
    COUNT = 2


def one(tp: object, default: object = None, has_default: bool = False) -> Tool[..., Any]:
    def f(x: Any = default) -> str:
        return ""

    if not has_default:
        f.__defaults__ = None
    f.__annotations__["x"] = tp
    return Tool.create(f)


def bound(tp: object, text: str) -> object:
    """The value bound for ``x`` from its JSON text."""
    return one(tp).bind('{"x": ' + text + "}")["x"]


def refused(tp: object, text: str) -> str:
    with pytest.raises(ArgumentError) as info:
        one(tp).bind('{"x": ' + text + "}")
    return str(info.value)


# -- the schema and its default ------------------------------------------------------------

SCHEMAS = [
    ("plain Enum of str values", Unit, '{"type": "string", "enum": ["deg_c", "deg_f"]}'),
    ("str mixin", Size, '{"type": "string", "enum": ["s", "l"]}'),
    ("int values", Shade, '{"type": "string", "enum": ["LIGHT", "DARK"]}'),
    ("mixed values", Mixed, '{"type": "string", "enum": ["TEXT", "COUNT"]}'),
    ("Optional str Enum", Optional[Unit], '{"type": ["string", "null"], "enum": ["deg_c", "deg_f", null]}'),
    ("list of str Enum", list[Unit], '{"type": "array", "items": {"type": "string", "enum": ["deg_c", "deg_f"]}}'),
]


@pytest.mark.parametrize(("tp", "expected"), [pytest.param(t, e, id=i) for i, t, e in SCHEMAS])
def test_schema_row(tp: object, expected: str) -> None:
    assert json.dumps(one(tp).input_schema["properties"]["x"]) == expected


DEFAULTS = [
    ("a value", Unit, Unit.FAHRENHEIT, '"default": "deg_f"'),
    ("an alias: its member's value", Unit, Unit.C, '"default": "deg_c"'),
    ("a str mixin member", Size, Size.LARGE, '"default": "l"'),
    ("an int-valued member: its name", Shade, Shade.DARK, '"default": "DARK"'),
    ("Optional", Optional[Unit], Unit.CELSIUS, '"default": "deg_c"'),
]


@pytest.mark.parametrize(("tp", "default", "written"), [pytest.param(t, d, w, id=i) for i, t, d, w in DEFAULTS])
def test_default_is_written_in_wire_form(tp: object, default: object, written: str) -> None:
    assert json.dumps(one(tp, default, True).input_schema["properties"]["x"]).endswith(", " + written + "}")


# -- the binder ------------------------------------------------------------------------------

ACCEPTED = [
    ("a value", Unit, '"deg_c"', Unit.CELSIUS),
    ("the other value", Unit, '"deg_f"', Unit.FAHRENHEIT),
    ("a str mixin value", Size, '"l"', Size.LARGE),
    ("an int-valued enum's name", Shade, '"DARK"', Shade.DARK),
    ("a mixed enum's name", Mixed, '"TEXT"', Mixed.TEXT),
    ("Optional null", Optional[Unit], "null", None),
]


@pytest.mark.parametrize(("tp", "text", "member"), [pytest.param(t, x, m, id=i) for i, t, x, m in ACCEPTED])
def test_accepted(tp: object, text: str, member: object) -> None:
    assert bound(tp, text) is member


def test_a_mapping_binds_the_same_member() -> None:
    assert one(Unit).bind({"x": "deg_f"})["x"] is Unit.FAHRENHEIT


REFUSED = [
    (
        "a member name suggests its value",
        Unit,
        '"CELSIUS"',
        'Argument \'x\' must be one of: deg_c, deg_f; got "CELSIUS" (did you mean "deg_c"?).',
    ),
    (
        "a member name in another case suggests its value",
        Unit,
        '"fahrenheit"',
        'Argument \'x\' must be one of: deg_c, deg_f; got "fahrenheit" (did you mean "deg_f"?).',
    ),
    (
        "an alias's name is not on the wire either, and suggests its value",
        Unit,
        '"C"',
        'Argument \'x\' must be one of: deg_c, deg_f; got "C" (did you mean "deg_c"?).',
    ),
    (
        "a value in another case (case-sensitive)",
        Unit,
        '"DEG_C"',
        'Argument \'x\' must be one of: deg_c, deg_f; got "DEG_C" (did you mean "deg_c"?).',
    ),
    ("no close value", Unit, '"kelvin"', "Argument 'x' must be one of: deg_c, deg_f; got \"kelvin\"."),
    ("a number", Unit, "1", "Argument 'x' must be one of: deg_c, deg_f; got 1."),
    ("null", Unit, "null", "Argument 'x' must be one of: deg_c, deg_f; got null."),
    ("Optional", Optional[Unit], '"x"', "Argument 'x' must be one of: deg_c, deg_f, null; got \"x\"."),
    (
        "a str mixin's name",
        Size,
        '"SMALL"',
        'Argument \'x\' must be one of: s, l; got "SMALL" (did you mean "s"?).',
    ),
    (
        "an int-valued enum's value suggests its name",
        Shade,
        "1",
        "Argument 'x' must be one of: LIGHT, DARK; got 1 (did you mean \"LIGHT\"?).",
    ),
    (
        "a mixed enum's value",
        Mixed,
        '"text"',
        'Argument \'x\' must be one of: TEXT, COUNT; got "text" (did you mean "TEXT"?).',
    ),
    (
        "in a list, at its index",
        list[Unit],
        '["deg_c", "FAHRENHEIT"]',
        'Argument \'x[1]\' must be one of: deg_c, deg_f; got "FAHRENHEIT" (did you mean "deg_f"?).',
    ),
]


@pytest.mark.parametrize(("tp", "text", "message"), [pytest.param(t, x, m, id=i) for i, t, x, m in REFUSED])
def test_refused(tp: object, text: str, message: str) -> None:
    assert refused(tp, text) == message


@dataclass
class Reading:
    unit: Unit
    value: float
    fallback: Unit = Unit.CELSIUS


def test_a_record_field_binds_by_value_and_writes_its_default() -> None:
    t = one(Reading)
    assert json.dumps(t.input_schema["properties"]["x"]["properties"]["unit"]) == (
        '{"type": "string", "enum": ["deg_c", "deg_f"]}'
    )
    assert json.dumps(t.input_schema["properties"]["x"]["properties"]["fallback"]) == (
        '{"type": "string", "enum": ["deg_c", "deg_f"], "default": "deg_c"}'
    )
    assert t.bind('{"x": {"unit": "deg_f", "value": 1}}')["x"] == Reading(Unit.FAHRENHEIT, 1.0)
    assert refused(Reading, '{"unit": "FAHRENHEIT", "value": 1}') == (
        'Argument \'x.unit\' must be one of: deg_c, deg_f; got "FAHRENHEIT" (did you mean "deg_f"?).'
    )


def test_a_dict_of_enums_binds_by_value() -> None:
    assert bound(dict[str, Unit], '{"a": "deg_c", "b": "deg_f"}') == {"a": Unit.CELSIUS, "b": Unit.FAHRENHEIT}


@pytest.mark.skipif(sys.version_info < (3, 11), reason="enum.StrEnum is new in Python 3.11")
def test_str_enum_auto_is_the_lower_cased_name() -> None:
    Tone = enum.StrEnum("Tone", ["LOUD", "Quiet"])  # type: ignore[misc]
    t = one(Tone)
    assert json.dumps(t.input_schema["properties"]["x"]) == '{"type": "string", "enum": ["loud", "quiet"]}'
    assert t.bind('{"x": "quiet"}')["x"] is Tone.Quiet
    assert refused(Tone, '"LOUD"') == 'Argument \'x\' must be one of: loud, quiet; got "LOUD" (did you mean "loud"?).'


# -- results -----------------------------------------------------------------------------


def run(t: Tool[..., Any]) -> ToolResult:
    return asyncio.run(ToolInvoker().invoke(t, "{}"))


def returning(value: object, annotation: object) -> Tool[..., Any]:
    def f() -> Any:
        return value

    if annotation is not None:
        f.__annotations__["return"] = annotation
    else:
        del f.__annotations__["return"]
    return Tool.create(f)


@dataclass
class Sample:
    unit: Unit
    shade: Shade


RESULTS = [
    ("a member", Unit.FAHRENHEIT, Unit, '"deg_f"'),
    ("an alias: its member's value", Unit.C, Unit, '"deg_c"'),
    ("a str mixin member", Size.SMALL, Size, '"s"'),
    ("an int-valued member: its name", Shade.DARK, Shade, '"DARK"'),
    ("Optional", Unit.CELSIUS, Optional[Unit], '"deg_c"'),
    ("in a list", [Unit.CELSIUS, Unit.FAHRENHEIT], list[Unit], '["deg_c", "deg_f"]'),
    ("in a dict", {"k": Size.LARGE}, dict[str, Size], '{"k": "l"}'),
    ("in a record", Sample(Unit.FAHRENHEIT, Shade.LIGHT), Sample, '{"unit": "deg_f", "shade": "LIGHT"}'),
    ("unannotated: by its own type", [Unit.CELSIUS, Shade.DARK], None, '["deg_c", "DARK"]'),
]


@pytest.mark.parametrize(("value", "annotation", "written"), [pytest.param(v, a, w, id=i) for i, v, a, w in RESULTS])
def test_result_is_written_in_wire_form(value: object, annotation: object, written: str) -> None:
    result = run(returning(value, annotation))
    assert not result.is_error, result.error
    assert json.dumps(result.parts[0].value) == written  # type: ignore[union-attr]


def test_another_enums_member_than_declared_does_not_fit() -> None:
    result = run(returning(Size.LARGE, Unit))
    assert result.is_error
    assert result.error == "Tool 'f' returned a value that does not fit its return type: expected Unit, got Size."


# -- provider adapters keep the values ----------------------------------------------------------


@tool
def convert(reading: float, unit: Unit, target: Unit = Unit.FAHRENHEIT) -> str:
    """Convert a temperature."""
    return ""


def test_openai_strict_keeps_values_and_says_the_default_value() -> None:
    assert json.dumps(openai_tool(convert)["parameters"]) == (
        '{"type": "object", "properties": {"reading": {"type": "number"}, '
        '"unit": {"type": "string", "enum": ["deg_c", "deg_f"]}, '
        '"target": {"type": ["string", "null"], "description": "Default: \\"deg_f\\"; null means the default.", '
        '"enum": ["deg_c", "deg_f", null]}}, '
        '"required": ["reading", "unit", "target"], "additionalProperties": false}'
    )


def test_openai_null_for_the_defaulted_enum_is_omitted_and_a_value_binds() -> None:
    assert convert.bind('{"reading": 1, "unit": "deg_c", "target": null}', provider="openai") == {
        "reading": 1.0,
        "unit": Unit.CELSIUS,
    }
    assert convert.bind('{"reading": 1, "unit": "deg_c", "target": "deg_c"}', provider="openai")["target"] is (
        Unit.CELSIUS
    )


def test_anthropic_mcp_and_gemini_keep_values() -> None:
    unit = '"unit": {"type": "string", "enum": ["deg_c", "deg_f"]}'
    target = '"target": {"type": "string", "enum": ["deg_c", "deg_f"], "default": "deg_f"}'
    assert f"{unit}, {target}" in json.dumps(anthropic_tool(convert))
    assert f"{unit}, {target}" in json.dumps(mcp_tool(convert))
    assert (
        '"unit": {"type": "STRING", "enum": ["deg_c", "deg_f"]}, '
        '"target": {"type": "STRING", "enum": ["deg_c", "deg_f"], "default": "deg_f"}'
    ) in json.dumps(gemini_tool(convert, form="openapi"))
