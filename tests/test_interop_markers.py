"""Annotated metadata from other tool libraries, on both sides: the contract's table "Code
written for other tool libraries" row by row. Every row is one tool ``t<i>(x: ...)`` in one
generated module, built by the runtime (``Tool.create`` via the module's ``@tool``) and read
by mypy (``onellm_mypy.extract``); an honoured row writes the same fragment on both sides and
the binder enforces what it writes, a refused row gives the same OLT013 text on both sides.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from onellm_mypy.extract import ExtractResult, extract
from onellm_runtime import ArgumentError, Tool
from onellm_runtime.core import fields, schema

CORPUS = Path(__file__).resolve().parent.parent / "test-data"
sys.path.insert(0, str(CORPUS))

import _corpus  # noqa: E402

HEADER = """\
from decimal import Decimal
from typing import Annotated, Literal, Union

import annotated_types as at
from pydantic import AfterValidator, Field, PlainSerializer, Strict, StringConstraints, WithJsonSchema
from typing_extensions import Doc

from onellm_runtime import Description, MaxLength, Range, tool

TEXT = "From a constant"


class Other:
    pass

"""

#: (label, annotation of x, docstring entry of x or None, fragment of x as json.dumps writes it).
HONOURED: list[tuple[str, str, str | None, str]] = [
    ("Field(default=) inside Annotated", "Annotated[int, Field(default=3)]", None, '{"type": "integer", "default": 3}'),
    (
        "Field(default_factory=) inside Annotated",
        "Annotated[list[str], Field(default_factory=list)]",
        None,
        '{"type": "array", "items": {"type": "string"}}',
    ),
    ("plain string", 'Annotated[str, "The city"]', None, '{"type": "string", "description": "The city"}'),
    ("plain string constant", "Annotated[str, TEXT]", None, '{"type": "string", "description": "From a constant"}'),
    (
        "plain string over docstring",
        'Annotated[int, "Plain"]',
        "Doc entry.",
        '{"type": "integer", "description": "Plain"}',
    ),
    (
        "Field(description=) over plain string",
        'Annotated[str, "Plain", Field(description="Field")]',
        None,
        '{"type": "string", "description": "Field"}',
    ),
    (
        "Doc over Field(description=)",
        'Annotated[str, Field(description="Field"), Doc("Doc")]',
        None,
        '{"type": "string", "description": "Doc"}',
    ),
    (
        "Description over plain string",
        'Annotated[str, "Plain", Description("Description")]',
        None,
        '{"type": "string", "description": "Description"}',
    ),
    ("Gt on int", "Annotated[int, at.Gt(0)]", None, '{"type": "integer", "minimum": 1}'),
    ("Lt on int", "Annotated[int, at.Lt(100)]", None, '{"type": "integer", "maximum": 99}'),
    ("Gt negative", "Annotated[int, at.Gt(-5)]", None, '{"type": "integer", "minimum": -4}'),
    (
        "Interval(gt=, lt=)",
        "Annotated[int, at.Interval(gt=0, lt=10)]",
        None,
        '{"type": "integer", "minimum": 1, "maximum": 9}',
    ),
    (
        "Interval(gt=, le=)",
        "Annotated[int, at.Interval(gt=0, le=5)]",
        None,
        '{"type": "integer", "minimum": 1, "maximum": 5}',
    ),
    ("Field(gt=, lt=)", "Annotated[int, Field(gt=0, lt=6)]", None, '{"type": "integer", "minimum": 1, "maximum": 5}'),
    (
        "Field(ge=, le=, description=)",
        'Annotated[int, Field(description="Faces", ge=2, le=100)]',
        None,
        '{"type": "integer", "description": "Faces", "minimum": 2, "maximum": 100}',
    ),
    ("Field(ge=) on float", "Annotated[float, Field(ge=0.5)]", None, '{"type": "number", "minimum": 0.5}'),
    (
        "Field(min_length=, max_length=) on a list",
        "Annotated[list[str], Field(min_length=1, max_length=10)]",
        None,
        '{"type": "array", "items": {"type": "string"}, "minItems": 1, "maxItems": 10}',
    ),
    (
        "Field(min_length=, max_length=, pattern=) on str",
        'Annotated[str, Field(min_length=2, max_length=4, pattern="^[a-z]+$")]',
        None,
        '{"type": "string", "minLength": 2, "maxLength": 4, "pattern": "^[a-z]+$"}',
    ),
    (
        "Field arguments with no wire meaning",
        "Annotated[str, Field(strict=True, repr=False, frozen=True, kw_only=True, init=False, init_var=True, validate_default=True)]",
        None,
        '{"type": "string"}',
    ),
    ("Field(strict=False)", "Annotated[str, Field(strict=False)]", None, '{"type": "string"}'),
    ("Field(...) without arguments", "Annotated[str, Field()]", None, '{"type": "string"}'),
    ("pydantic Strict", "Annotated[int, Strict()]", None, '{"type": "integer"}'),
    (
        "StringConstraints",
        'Annotated[str, StringConstraints(min_length=3, max_length=32, pattern="^[a-z_]+$")]',
        None,
        '{"type": "string", "minLength": 3, "maxLength": 32, "pattern": "^[a-z_]+$"}',
    ),
    (
        "StringConstraints(strict=)",
        "Annotated[str, StringConstraints(max_length=5, strict=True)]",
        None,
        '{"type": "string", "maxLength": 5}',
    ),
]

#: (label, annotation of x, the message after "Parameter 'x': ").
REFUSED: list[tuple[str, str, str]] = [
    (
        "Gt on float",
        "Annotated[float, at.Gt(0)]",
        "Gt(0) is an exclusive bound, which is exact only on an integer type, not on 'float'; "
        "write an inclusive bound with Ge/Le or Range",
    ),
    (
        "Lt on Decimal",
        "Annotated[Decimal, at.Lt(1)]",
        "Lt(1) is an exclusive bound, which is exact only on an integer type, not on 'Decimal'; "
        "write an inclusive bound with Ge/Le or Range",
    ),
    (
        "Interval(gt=) on float",
        "Annotated[float, at.Interval(gt=0, le=1)]",
        "Interval(gt=0) is an exclusive bound, which is exact only on an integer type, not on 'float'; "
        "write an inclusive bound with Ge/Le or Range",
    ),
    (
        "Field(lt=) on float",
        "Annotated[float, Field(lt=1.5)]",
        "Field(lt=1.5) is an exclusive bound, which is exact only on an integer type, not on 'float'; "
        "write an inclusive bound with Ge/Le or Range",
    ),
    (
        "Gt non-integer on int",
        "Annotated[int, at.Gt(0.5)]",
        "Gt(0.5) on 'int' needs an integer bound (an exclusive bound is exact only as one); "
        "write an inclusive bound with Ge/Le or Range",
    ),
    (
        "Field(gt=) non-integer on int",
        "Annotated[int, Field(gt=0.5)]",
        "Field(gt=0.5) on 'int' needs an integer bound (an exclusive bound is exact only as one); "
        "write an inclusive bound with Ge/Le or Range",
    ),
    (
        "Interval(lt=) non-integer on int",
        "Annotated[int, at.Interval(lt=1.5)]",
        "Interval(lt=1.5) on 'int' needs an integer bound (an exclusive bound is exact only as one); "
        "write an inclusive bound with Ge/Le or Range",
    ),
    (
        "Gt on str",
        "Annotated[str, at.Gt(0)]",
        "Gt applies to numbers, not to 'str'; remove the annotation or change the type",
    ),
    (
        "MultipleOf",
        "Annotated[int, at.MultipleOf(5)]",
        "MultipleOf is not read by onellm; remove it and check the value in the tool body",
    ),
    (
        "Predicate",
        "Annotated[str, at.Predicate(str.isidentifier)]",
        "Predicate is not read by onellm (no schema keyword says it); remove it and check the value in the tool body, "
        "or write Range, Length or Pattern",
    ),
    (
        "Timezone",
        'Annotated[str, at.Timezone("UTC")]',
        "Timezone is not read by onellm; remove it and check the time zone in the tool body",
    ),
    (
        "Unit",
        'Annotated[float, at.Unit("m")]',
        "Unit is not read by onellm; remove it and name the unit in the description",
    ),
    (
        "AfterValidator",
        "Annotated[str, AfterValidator(str.strip)]",
        "AfterValidator is not run by onellm's binder; validate in the tool body, or use a BaseModel record, "
        "whose validators do run",
    ),
    (
        "PlainSerializer",
        "Annotated[str, PlainSerializer(str.upper)]",
        "PlainSerializer is not run by onellm (a value is written by its type); convert the value in the tool body",
    ),
    (
        "WithJsonSchema",
        'Annotated[str, WithJsonSchema({"type": "string"})]',
        "WithJsonSchema is not read by onellm (the schema is written from the type and the annotations the binder "
        "enforces); remove it",
    ),
    ("an int", "Annotated[str, 42]", "Annotated metadata of type 'int' is not read by onellm; remove it"),
    ("an instance", "Annotated[str, Other()]", "Annotated metadata of type 'Other' is not read by onellm; remove it"),
    ("a class", "Annotated[str, Other]", "the class 'Other' is not Annotated metadata onellm reads; remove it"),
    (
        "StringConstraints transformations",
        "Annotated[str, StringConstraints(strip_whitespace=True, to_lower=True)]",
        "StringConstraints(strip_whitespace=, to_lower=) is not read by onellm (the binder never changes a value); "
        "remove it, and transform the text in the tool body",
    ),
    (
        "Field(title=)",
        'Annotated[str, Field(title="T")]',
        "Field(title=) is not read by onellm; remove it (put what the model should know into the description)",
    ),
    (
        "Field(examples=)",
        'Annotated[str, Field(examples=["a"])]',
        "Field(examples=) is not read by onellm; remove it (put an example into the description)",
    ),
    (
        "Field(json_schema_extra=)",
        'Annotated[str, Field(json_schema_extra={"x": 1})]',
        "Field(json_schema_extra=) is not read by onellm; remove it (onellm writes only the keywords it enforces)",
    ),
    (
        "Field(multiple_of=)",
        "Annotated[int, Field(multiple_of=2)]",
        "Field(multiple_of=) is not read by onellm; remove it and check the value in the tool body",
    ),
    (
        "Field(validation_alias=)",
        'Annotated[str, Field(validation_alias="y")]',
        "Field(validation_alias=) is not read by onellm; name the field as the wire names it, or give a record field "
        "Field(alias=)",
    ),
    (
        "Field(alias=) on a parameter",
        'Annotated[str, Field(alias="y")]',
        "Field(alias=) cannot be used here (tool parameters are never renamed); remove it",
    ),
    (
        "Field(ge=) on str",
        "Annotated[str, Field(ge=1)]",
        "Field(ge=) applies to numbers, not to 'str'; remove the annotation or change the type",
    ),
    (
        "Field(description=) not a string",
        "Annotated[str, Field(description=3)]",
        "Field(description=) must be a plain string; write it as a string",
    ),
    (
        "Field(default=) inside Annotated and a default after it",
        "Annotated[int, Field(default=3)] = 4",
        "a default is given twice, by Field(default=) inside Annotated and after the annotation; keep one",
    ),
    (
        "two Ranges",
        "Annotated[int, Range(1, 2), Range(3, 4)]",
        "the minimum is set twice, by Range and Range; keep one",
    ),
    (
        "Field(ge=) and Ge",
        "Annotated[int, Field(ge=1), at.Ge(2)]",
        "the minimum is set twice, by Field(ge=) and Ge; keep one",
    ),
    (
        "Field(max_length=) and MaxLength",
        "Annotated[str, Field(max_length=5), MaxLength(9)]",
        "the maximum length is set twice, by Field(max_length=) and MaxLength; keep one",
    ),
    (
        "Range and Gt",
        "Annotated[int, Range(max=9), at.Lt(5)]",
        "the maximum is set twice, by Range and Lt; keep one",
    ),
    (
        "two plain strings",
        'Annotated[str, "One", "Two"]',
        "the description is set twice, by a plain string and a plain string; keep one",
    ),
    (
        "Interval(gt=, ge=)",
        "Annotated[int, at.Interval(gt=0, ge=1)]",
        "the minimum is set twice, by Interval(gt=) and Interval(ge=); keep one",
    ),
]


def _tool_source(name: str, annotation: str, doc: str | None) -> str:
    docstring = f'    """A row.\n\n    Args:\n        x: {doc}\n    """\n' if doc is not None else ""
    return f"@tool\ndef {name}(x: {annotation}) -> str:\n{docstring}    return ''\n\n\n"


def _module_source() -> str:
    parts = [HEADER]
    for i, (_, annotation, doc, _) in enumerate(HONOURED):
        parts.append(_tool_source(f"ok{i}", annotation, doc))
    for i, (_, annotation, _) in enumerate(REFUSED):
        parts.append(_tool_source(f"bad{i}", annotation, None))
    return "\n\n".join(parts)


@pytest.fixture(scope="module")
def sides(tmp_path_factory: pytest.TempPathFactory) -> tuple[_corpus.Collected, ExtractResult]:
    root = tmp_path_factory.mktemp("interop_markers")
    path = root / "interop_rows.py"
    path.write_text(_module_source())
    return _corpus.collect_runtime(path), extract([str(root)])


def _runtime_tool(collected: _corpus.Collected, name: str) -> Tool[..., Any]:
    found = getattr(collected.module, name)
    assert isinstance(found, Tool)
    return found


def _static_fragment(result: ExtractResult, name: str) -> str:
    (found,) = [t for t in result.tools if t.qualname == name]
    return json.dumps(schema.input_schema(found.model)["properties"]["x"])


@pytest.mark.parametrize(("label", "annotation", "doc", "expected"), HONOURED, ids=[r[0] for r in HONOURED])
def test_an_honoured_row_writes_its_fragment_on_both_sides(
    sides: tuple[_corpus.Collected, ExtractResult], label: str, annotation: str, doc: str | None, expected: str
) -> None:
    collected, result = sides
    name = f"ok{[r[0] for r in HONOURED].index(label)}"
    assert collected.errors.get(name) is None
    assert json.dumps(_runtime_tool(collected, name).input_schema["properties"]["x"]) == expected
    assert _static_fragment(result, name) == expected
    assert [d.message for d in result.diagnostics if f"Tool '{name}'" in d.message] == []


@pytest.mark.parametrize(("label", "annotation", "message"), REFUSED, ids=[r[0] for r in REFUSED])
def test_a_refused_row_gives_the_same_olt013_on_both_sides(
    sides: tuple[_corpus.Collected, ExtractResult], label: str, annotation: str, message: str
) -> None:
    collected, result = sides
    name = f"bad{[r[0] for r in REFUSED].index(label)}"
    text = f"Tool '{name}': Parameter 'x': {message}"
    (error,) = collected.errors[name]
    assert [d.code for d in error.diagnostics] == ["OLT013"]
    assert str(error) == f"{text}  [OLT013]"
    static = [(d.code, d.message) for d in result.diagnostics if d.message.startswith(f"Tool '{name}':")]
    assert static == [("OLT013", text)]


#: (label of an honoured row, an argument its bound refuses, the binder's exact message).
ENFORCED: list[tuple[str, object, str | None]] = [
    ("Gt on int", 0, "Argument 'x' must be at least 1, got 0."),
    ("Gt on int", 1, None),
    ("Lt on int", 99, None),
    ("Lt on int", 100, "Argument 'x' must be at most 99, got 100."),
    ("Gt negative", -5, "Argument 'x' must be at least -4, got -5."),
    ("Interval(gt=, lt=)", 10, "Argument 'x' must be between 1 and 9, got 10."),
    ("Interval(gt=, le=)", 0, "Argument 'x' must be between 1 and 5, got 0."),
    ("Field(gt=, lt=)", 6, "Argument 'x' must be between 1 and 5, got 6."),
    ("Field(ge=, le=, description=)", 1, "Argument 'x' must be between 2 and 100, got 1."),
    ("Field(ge=) on float", 0.25, "Argument 'x' must be at least 0.5, got 0.25."),
    ("Field(min_length=, max_length=) on a list", [], "Argument 'x' must have at least 1 item, got 0."),
    (
        "Field(min_length=, max_length=, pattern=) on str",
        "abcde",
        "Argument 'x' must be at most 4 characters long, got 5.",
    ),
    (
        "Field(min_length=, max_length=, pattern=) on str",
        "AB",
        "Argument 'x' must match the pattern ^[a-z]+$, got \"AB\".",
    ),
    ("StringConstraints", "ab", "Argument 'x' must be at least 3 characters long, got 2."),
    ("StringConstraints", "a-b", "Argument 'x' must match the pattern ^[a-z_]+$, got \"a-b\"."),
    ("StringConstraints(strict=)", "abcdef", "Argument 'x' must be at most 5 characters long, got 6."),
]


@pytest.mark.parametrize(("label", "value", "message"), ENFORCED, ids=[f"{r[0]}: {r[1]!r}" for r in ENFORCED])
def test_the_binder_enforces_every_bound_it_writes(
    sides: tuple[_corpus.Collected, ExtractResult], label: str, value: object, message: str | None
) -> None:
    collected, _ = sides
    t = _runtime_tool(collected, f"ok{[r[0] for r in HONOURED].index(label)}")
    if message is None:  # the bound itself is accepted
        assert t.bind({"x": value}) == {"x": value}
        return
    with pytest.raises(ArgumentError) as raised:
        t.bind({"x": value})
    assert str(raised.value) == message


def test_every_field_argument_has_a_reading_and_pydantics_signature_order() -> None:
    import inspect

    from pydantic import Field

    written = [p for p in inspect.signature(Field).parameters if p != "extra"]
    assert list(fields.ARGUMENTS) == written


def test_a_field_info_reads_back_into_the_arguments_it_was_given() -> None:
    from pydantic import Field

    info = Field(3, ge=1, lt=10, description="d", pattern="^a", strict=True, max_length=4, alias="a")
    assert fields.field_arguments(info) == {
        "default": 3,
        "alias": "a",
        "validation_alias": "a",
        "serialization_alias": "a",
        "description": "d",
        "strict": True,
        "ge": 1,
        "lt": 10,
        "max_length": 4,
        "pattern": "^a",
    }
    reading = fields.read_field(fields.field_arguments(info))
    assert (reading.description, reading.default, reading.alias) == ("d", fields.FieldDefault("value", 3), "a")
    assert [m.spec.display for m in reading.markers] == [
        "Field(alias=)",
        "Field(description=)",
        "Field(pattern=)",
        "Field(ge=)",
        "Field(lt=)",
        "Field(max_length=)",
    ]


@pytest.mark.parametrize(
    ("call", "default"),
    [
        ("Field()", fields.NO_FIELD_DEFAULT),
        ("Field(...)", fields.NO_FIELD_DEFAULT),
        ("Field(default=...)", fields.NO_FIELD_DEFAULT),
        ('Field("main")', fields.FieldDefault("value", "main")),
        ("Field(default=None)", fields.FieldDefault("value", None)),
    ],
)
def test_a_fields_default_reads_alike_from_the_object_and_the_call(call: str, default: fields.FieldDefault) -> None:
    import ast

    from pydantic import Field

    from onellm_mypy import source

    at_runtime = fields.read_field(fields.field_arguments(eval(call, {"Field": Field})))
    expr = ast.parse(call, mode="eval").body
    assert isinstance(expr, ast.Call)
    statically = source.field_from_call(expr, lambda e: None)
    assert at_runtime.default == statically.default == default
    assert at_runtime.markers == statically.markers == ()
