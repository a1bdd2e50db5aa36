"""Every annotation marker, the annotated_types ones, their order and precedence.

Uses ``from __future__ import annotations``.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Annotated

import annotated_types as at

from onellm_runtime import (
    Char,
    Description,
    Email,
    Int8,
    JsonArray,
    Length,
    MaxLength,
    MinLength,
    Pattern,
    Range,
    StringLength,
    UInt8,
    Url,
    tool,
)


class Level(enum.Enum):
    LOW = "low"
    HIGH = "high"


@dataclass
class Contact:
    email: Annotated[str, Email(), Description("Where to write.")]
    site: Annotated[str | None, Url()] = None
    age: Annotated[int, Range(0, 150)] = 30
    tags: Annotated[list[Annotated[str, MinLength(1)]], MaxLength(5)] = field(default_factory=list)


@tool
def numbers(
    a: Annotated[int, Range(1, 10)],
    b: Annotated[float, Range(0.5, 99.5)],
    c: Annotated[Decimal, Range(0, 100)],
    d: Annotated[Int8, Range(0, 10)],
    e: Annotated[int, Range(min=0)],
    f: Annotated[int, Range(max=5)],
    g: Annotated[UInt8, Range(max=100)],
) -> str:
    """Range on numbers; it replaces a sized integer's bounds."""
    return ""


@tool
def strings(
    a: Annotated[str, StringLength(50)],
    b: Annotated[str, StringLength(50, min_length=2)],
    c: Annotated[str, StringLength(10, min_length=0)],
    d: Annotated[str, MinLength(0)],
    e: Annotated[str, MaxLength(0)],
    f: Annotated[str, Length(2, 8)],
    g: Annotated[str, Pattern(r"^[a-z]+\d*$")],
    h: Annotated[str, Email()],
    i: Annotated[str, Url()],
    j: Annotated[Char, Pattern("[A-Z]")],
) -> str:
    """String markers; only StringLength leaves a 0 minimum out."""
    return ""


@tool
def arrays(
    a: Annotated[list[int], MinLength(1)],
    b: Annotated[list[int], MaxLength(3)],
    c: Annotated[set[str], Length(0, 5)],
    d: Annotated[JsonArray, Length(1, 2)],
) -> str:
    """Length markers on arrays write minItems/maxItems."""
    return ""


@tool
def order_and_precedence(
    a: Annotated[str, Pattern("x"), MaxLength(5), Description("Described."), Email(), MinLength(1)],
    c: Annotated[Annotated[str, MaxLength(5)], MinLength(2)],
    d: Annotated[str | None, MaxLength(5), Description("Maybe.")],
    e: Annotated[int, Range(1, 5)] | None,
    f: Annotated[str, "just a string"],
    h: Annotated[int, Range(0, 9)],
    i: Annotated[Level, Description("An enum.")],
    g: Annotated[str, MaxLength(5)] = "abc",
) -> str:
    """Keyword order is fixed whatever the marker order; a description by its kind's rank.

    Args:
        h: From the docstring.
        i: Loses to Description.
    """
    return ""


@tool
def annotated_types_markers(
    a: Annotated[int, at.Ge(0)],
    b: Annotated[int, at.Le(10)],
    c: Annotated[float, at.Interval(ge=1, le=2)],
    d: Annotated[str, at.MinLen(1)],
    e: Annotated[str, at.MaxLen(9)],
    f: Annotated[list[int], at.Len(1, 3)],
    g: Annotated[str, at.Len(2)],
    h: Annotated[int, at.Ge(1), at.Le(3)],
) -> str:
    """The annotated_types markers read like onellm's own."""
    return ""


@tool
def contact(who: Contact) -> str:
    """Markers on record fields and on nested item types."""
    return ""


@tool
def returns_bounded() -> Annotated[int, Range(0, 10), Description("A score.")]:
    return 0
