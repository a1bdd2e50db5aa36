"""Annotated metadata that both sides refuse (OLT013), naming it and the fix: exclusive
bounds that are not exact, annotated_types and pydantic metadata onellm does not read,
``Field`` arguments with no row, other objects, and a keyword set twice.

Annotations are evaluated eagerly (no ``from __future__ import annotations``).
"""

from dataclasses import dataclass
from decimal import Decimal
from typing import Annotated, Literal, Union

import annotated_types as at
from pydantic import (
    AfterValidator,
    BeforeValidator,
    Field,
    PlainSerializer,
    PlainValidator,
    StringConstraints,
    WithJsonSchema,
    WrapSerializer,
    WrapValidator,
)
from pydantic import Discriminator as PydanticDiscriminator

from onellm_runtime import Description, MaxLength, Range, tool


class SomeoneElsesMarker:
    """Metadata from another library."""


@tool
def exclusive_not_exact(
    a: Annotated[float, at.Gt(0)],  # expect: OLT013
    b: Annotated[Decimal, at.Lt(10)],  # expect: OLT013
    c: Annotated[float, at.Interval(gt=0, le=1)],  # expect: OLT013
    d: Annotated[int, at.Gt(0.5)],  # expect: OLT013
    e: Annotated[int, Field(gt=0.5)],  # expect: OLT013
    f: Annotated[float, Field(lt=1)],  # expect: OLT013
    g: Annotated[int, at.Interval(lt=1.5)],  # expect: OLT013
) -> str:
    """An exclusive bound is exact only as an integer on an integer type."""
    return ""


@tool
def annotated_types_unread(
    a: Annotated[int, at.MultipleOf(5)],  # expect: OLT013
    b: Annotated[str, at.Predicate(str.isidentifier)],  # expect: OLT013
    c: Annotated[str, at.Timezone("UTC")],  # expect: OLT013
    d: Annotated[float, at.Unit("m")],  # expect: OLT013
) -> str:
    return ""


@tool
def validators(
    a: Annotated[str, AfterValidator(str.strip)],  # expect: OLT013
    b: Annotated[str, BeforeValidator(str.strip)],  # expect: OLT013
    c: Annotated[str, PlainValidator(str)],  # expect: OLT013
    d: Annotated[str, WrapValidator(lambda v, h: h(v))],  # expect: OLT013
    e: Annotated[str, PlainSerializer(str.upper)],  # expect: OLT013
    f: Annotated[str, WrapSerializer(lambda v, h: h(v))],  # expect: OLT013
    g: Annotated[str, WithJsonSchema({"type": "string"})],  # expect: OLT013
) -> str:
    return ""


@tool
def other_objects(
    a: Annotated[str, "just a string", 42, SomeoneElsesMarker()],  # expect: OLT013 OLT013
    b: Annotated[str, SomeoneElsesMarker],  # expect: OLT013
    c: Annotated[str, StringConstraints(strip_whitespace=True, to_lower=True)],  # expect: OLT013
) -> str:
    return ""


@tool
def field_arguments(
    a: Annotated[str, Field(title="Title")],  # expect: OLT013
    b: Annotated[int, Field(examples=[1, 2])],  # expect: OLT013
    c: Annotated[str, Field(alias="other")],  # expect: OLT013
    d: Annotated[str, Field(serialization_alias="other")],  # expect: OLT013
    e: Annotated[int, Field(multiple_of=2, json_schema_extra={"x": 1})],  # expect: OLT013 OLT013
    f: Annotated[str, Field(ge=1)],  # expect: OLT013
    g: Annotated[str, Field(description=3)],  # expect: OLT013
) -> str:
    return ""


@tool
def set_twice(
    a: Annotated[int, Range(1, 2), Range(3, 4)],  # expect: OLT013
    b: Annotated[int, Field(ge=1), at.Ge(2)],  # expect: OLT013
    c: Annotated[str, Field(max_length=5), MaxLength(9)],  # expect: OLT013
    d: Annotated[str, "First text", "Second text"],  # expect: OLT013
    e: Annotated[str, Description("One."), Description("Two.")],  # expect: OLT013
    f: Annotated[int, at.Interval(gt=0, ge=1)],  # expect: OLT013
) -> str:
    return ""


@dataclass
class Card:
    kind: Literal["card"]


@dataclass
class Cash:
    kind: Literal["cash"]


@tool
def pydantic_discriminator(
    payment: Annotated[Union[Card, Cash], PydanticDiscriminator("kind")],  # expect: OLT013
) -> str:
    return ""
