"""pydantic-ai habits (``@agent.tool_plain``) that the contract refuses: a keyword given twice
(``Field`` with an annotated_types marker or an onellm marker), ``Field`` arguments the binder
could not honour (``multiple_of``, ``title``, ``examples``), a metadata object onellm does not
read (``WithJsonSchema``), models whose written form differs from their fields
(``alias_generator``, a field serializer).

Uses ``from __future__ import annotations``: every annotation is a string, resolved later.
See ../README.md for the ``# expect:`` convention.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Annotated

import annotated_types as at
from pydantic import BaseModel, ConfigDict, Field, WithJsonSchema, field_serializer
from pydantic.alias_generators import to_camel

from onellm_runtime import MaxLength, Range, tool


class Contact(BaseModel):
    model_config = ConfigDict(alias_generator=to_camel)

    first_name: str
    last_name: str


class Payment(BaseModel):
    amount: Decimal

    @field_serializer("amount")
    def amount_as_text(self, value: Decimal) -> str:
        return str(value)


@tool
def reserve_table(
    guests: Annotated[int, Field(ge=1), at.Ge(2)],  # expect: OLT013
    name: Annotated[str, Field(max_length=40), MaxLength(60)],  # expect: OLT013
    seats: Annotated[int, Field(ge=1, description="Seats wanted"), Range(1, 12)],  # expect: OLT013
) -> str:
    """Reserve a table."""
    return ""


@tool
def configure_batch(
    size: Annotated[int, Field(multiple_of=8, description="Rows per batch")],  # expect: OLT013
    label: Annotated[str, Field(title="Label", description="Shown in the report")],  # expect: OLT013
    city: Annotated[str, Field(examples=["Paris"], description="Where the batch runs")],  # expect: OLT013
    starts: Annotated[str, WithJsonSchema({"type": "string", "format": "date"})],  # expect: OLT013
) -> str:
    """Configure a batch job."""
    return ""


@tool
def save_contact(
    contact: Contact,  # expect: OLT005
    payment: Payment,  # expect: OLT005
) -> str:
    """Save a contact and their payment."""
    return ""
