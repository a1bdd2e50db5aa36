"""The contract's Annotations table, one case per marker (and per target kind), exact strings."""

from __future__ import annotations

import decimal
from typing import Annotated, Optional

import annotated_types as at
import pytest
from schema_support import fragment
from typing_extensions import Doc

from onellm_runtime import (
    Char,
    Description,
    Email,
    Int16,
    JsonArray,
    Length,
    MaxLength,
    MinLength,
    Pattern,
    Range,
    StringLength,
    Url,
)

ANNOTATIONS_TABLE = [
    # | Description("..."), Doc("...") | description (Description wins over Doc) |
    ("Description", Annotated[str, Description("Text.")], '{"type": "string", "description": "Text."}'),
    ("Doc", Annotated[str, Doc("Text.")], '{"type": "string", "description": "Text."}'),
    ("Description over Doc", Annotated[str, Description("D."), Doc("Doc.")], '{"type": "string", "description": "D."}'),
    (
        "Description over Doc, other order",
        Annotated[str, Doc("Doc."), Description("D.")],
        '{"type": "string", "description": "D."}',
    ),
    # | Range(min, max) (numbers) | minimum, maximum (replace a sized integer's range) |
    ("Range int", Annotated[int, Range(1, 9)], '{"type": "integer", "minimum": 1, "maximum": 9}'),
    ("Range float", Annotated[float, Range(-0.5, 0.5)], '{"type": "number", "minimum": -0.5, "maximum": 0.5}'),
    ("Range Decimal", Annotated[decimal.Decimal, Range(0, 1)], '{"type": "number", "minimum": 0, "maximum": 1}'),
    ("Range min only", Annotated[int, Range(min=0)], '{"type": "integer", "minimum": 0}'),
    ("Range max only", Annotated[int, Range(max=0)], '{"type": "integer", "maximum": 0}'),
    ("Range replaces Int16", Annotated[Int16, Range(0, 100)], '{"type": "integer", "minimum": 0, "maximum": 100}'),
    (
        "Range min replaces Int16's",
        Annotated[Int16, Range(min=0)],
        '{"type": "integer", "minimum": 0, "maximum": 32767}',
    ),
    # | StringLength(max, min_length=n) | maxLength, and minLength when n > 0 |
    ("StringLength", Annotated[str, StringLength(20)], '{"type": "string", "maxLength": 20}'),
    (
        "StringLength min",
        Annotated[str, StringLength(20, min_length=3)],
        '{"type": "string", "minLength": 3, "maxLength": 20}',
    ),
    ("StringLength min 0", Annotated[str, StringLength(20, min_length=0)], '{"type": "string", "maxLength": 20}'),
    # | MinLength(n), MaxLength(n), Length(a, b) | minLength/maxLength on strings, minItems/maxItems on arrays |
    ("MinLength string", Annotated[str, MinLength(2)], '{"type": "string", "minLength": 2}'),
    ("MaxLength string", Annotated[str, MaxLength(2)], '{"type": "string", "maxLength": 2}'),
    ("Length string", Annotated[str, Length(1, 4)], '{"type": "string", "minLength": 1, "maxLength": 4}'),
    (
        "MinLength array",
        Annotated[list[int], MinLength(2)],
        '{"type": "array", "items": {"type": "integer"}, "minItems": 2}',
    ),
    (
        "MaxLength array",
        Annotated[list[int], MaxLength(2)],
        '{"type": "array", "items": {"type": "integer"}, "maxItems": 2}',
    ),
    (
        "Length set",
        Annotated[set[int], Length(1, 4)],
        '{"type": "array", "items": {"type": "integer"}, "minItems": 1, "maxItems": 4, "uniqueItems": true}',
    ),
    ("Length JsonArray", Annotated[JsonArray, Length(0, 3)], '{"type": "array", "minItems": 0, "maxItems": 3}'),
    ("MaxLength on Char", Annotated[Char, MaxLength(1)], '{"type": "string", "minLength": 1, "maxLength": 1}'),
    # | Pattern(p) | pattern |
    ("Pattern", Annotated[str, Pattern(r"^\d{3}$")], r'{"type": "string", "pattern": "^\\d{3}$"}'),
    # | Email() | format: email |  | Url() | format: uri |
    ("Email", Annotated[str, Email()], '{"type": "string", "format": "email"}'),
    ("Url", Annotated[str, Url()], '{"type": "string", "format": "uri"}'),
    # annotated_types: Ge, Le, Interval(ge=, le=), MinLen, MaxLen, Len
    ("at.Ge", Annotated[int, at.Ge(1)], '{"type": "integer", "minimum": 1}'),
    ("at.Le", Annotated[float, at.Le(2.5)], '{"type": "number", "maximum": 2.5}'),
    ("at.Interval", Annotated[int, at.Interval(ge=1, le=5)], '{"type": "integer", "minimum": 1, "maximum": 5}'),
    ("at.MinLen", Annotated[str, at.MinLen(1)], '{"type": "string", "minLength": 1}'),
    ("at.MaxLen", Annotated[list[str], at.MaxLen(5)], '{"type": "array", "items": {"type": "string"}, "maxItems": 5}'),
    ("at.Len", Annotated[str, at.Len(2, 3)], '{"type": "string", "minLength": 2, "maxLength": 3}'),
    ("at.Len min only", Annotated[str, at.Len(2)], '{"type": "string", "minLength": 2}'),
    # several markers: the fixed keyword order, whatever the order written
    (
        "order",
        Annotated[str, Pattern("p"), MaxLength(9), Url(), Description("U."), MinLength(1)],
        '{"type": "string", "format": "uri", "description": "U.", "minLength": 1, "maxLength": 9, "pattern": "p"}',
    ),
    (
        "nested Annotated flattens",
        Annotated[Annotated[str, MinLength(1)], MaxLength(2)],
        '{"type": "string", "minLength": 1, "maxLength": 2}',
    ),
    (
        "Annotated inside Optional",
        Optional[Annotated[int, Range(0, 1)]],
        '{"type": ["integer", "null"], "minimum": 0, "maximum": 1}',
    ),
]


@pytest.mark.parametrize(("annotation", "expected"), [pytest.param(a, e, id=i) for i, a, e in ANNOTATIONS_TABLE])
def test_annotations_row(annotation: object, expected: str) -> None:
    assert fragment(annotation) == expected


def test_description_and_doc_win_over_the_docstring() -> None:
    from onellm_runtime import tool

    def f(a: Annotated[str, Doc("Doc.")], b: str) -> str:
        """Summary.

        :param a: Docstring loses.
        :param b: Docstring.
        """
        return ""

    props = tool(f).input_schema["properties"]
    assert (props["a"]["description"], props["b"]["description"]) == ("Doc.", "Docstring.")
