"""Annotated metadata from other tool libraries that onellm honours: plain strings, the
exclusive annotated_types bounds on integers, pydantic ``Field`` and ``StringConstraints``.

Annotations are evaluated eagerly (no ``from __future__ import annotations``).
"""

from dataclasses import dataclass
from typing import Annotated, Literal, Union

import annotated_types as at
from pydantic import Field, Strict, StringConstraints
from typing_extensions import Doc

from onellm_runtime import Description, Int32, tool

CITY = "The city"


@tool
def plain_strings(
    city: Annotated[str, "The city to look up"],
    days: Annotated[int, "How many days ahead"],
    named: Annotated[str, CITY],
    maybe: Annotated[str | None, "Or nothing"] = None,
) -> Annotated[int, "Degrees"]:
    """A plain string is a description; it wins over the docstring's entry.

    Args:
        days: Loses to the plain string.
        maybe: Loses too.
    """
    return 0


@tool
def description_order(
    a: Annotated[str, "Plain.", Description("Description wins.")],
    b: Annotated[str, Doc("Doc wins."), "Plain."],
    c: Annotated[str, "Plain.", Field(description="Field wins.")],
    d: Annotated[str, Field(description="Field loses."), Doc("Doc wins over Field.")],
) -> str:
    """Description, Doc, Field(description=), a plain string, the docstring: in that order."""
    return ""


@tool
def exclusive_bounds(
    a: Annotated[int, at.Gt(0)],
    b: Annotated[int, at.Lt(100)],
    c: Annotated[int, at.Gt(0), at.Lt(100)],
    d: Annotated[int, at.Interval(gt=-1, lt=11)],
    e: Annotated[int, at.Interval(gt=0, le=5)],
    f: Annotated[Int32, at.Gt(-10)],
    g: Annotated[int, Field(gt=0, lt=6)],
) -> str:
    """Exclusive bounds are exact on integers: minimum n+1, maximum n-1."""
    return ""


@tool
def field_in_annotated(
    sides: Annotated[int, Field(description="Faces on the die", ge=2, le=100)],
    tags: Annotated[list[str], Field(max_length=10)],
    code: Annotated[str, Field(min_length=3, max_length=3, pattern=r"^[A-Z]+$")],
    note: Annotated[str, Field(strict=True, repr=False, frozen=True, kw_only=True, validate_default=True)],
    ratio: Annotated[float, Field(ge=0.5, le=1.5), Strict()],
) -> str:
    """Field inside Annotated: its arguments read as the markers they mean."""
    return ""


@dataclass
class Card:
    kind: Literal["card"]
    last_four: Annotated[str, Field(alias="lastFour", pattern=r"^\d{4}$")]


@dataclass
class Transfer:
    kind: Literal["transfer"]
    iban: Annotated[str, Field(description="The account", max_length=34)]


@tool
def field_on_records(
    payment: Annotated[Union[Card, Transfer], Field(discriminator="kind")],
) -> str:
    """Field(alias=) names a record field on the wire; Field(discriminator=) names a union's tag."""
    return ""


@tool
def string_constraints(
    username: Annotated[str, StringConstraints(min_length=3, max_length=32, pattern=r"^[a-z0-9_]+$")],
    short: Annotated[str, StringConstraints(max_length=5, strict=True)],
) -> str:
    """StringConstraints read as a whole: its lengths and its pattern."""
    return ""


@tool
def text_return_description() -> Annotated[str, "The news as text"]:
    """A description on a text return is accepted and not written (a text return has no schema)."""
    return ""
