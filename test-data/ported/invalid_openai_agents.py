"""openai-agents habits (``@function_tool``) that the contract refuses, each with the fix in its
message: exclusive bounds on floats, a non-integer exclusive bound on an integer, ``MultipleOf``,
a pydantic validator in ``Annotated``, a model whose written form differs from its fields.

Annotations are evaluated eagerly (no ``from __future__ import annotations``).
See ../README.md for the ``# expect:`` convention.
"""

from decimal import Decimal
from typing import Annotated

import annotated_types as at
from pydantic import AfterValidator, BaseModel, computed_field

from onellm_runtime import tool


def _check_email(value: str) -> str:
    if "@" not in value:
        raise ValueError("not an email address")
    return value


class Quote(BaseModel):
    net: Decimal
    tax_rate: Decimal

    @computed_field  # type: ignore[prop-decorator]
    @property
    def gross(self) -> Decimal:
        return self.net * (1 + self.tax_rate)


@tool
def place_bet(
    stake: Annotated[float, at.Gt(0)],  # expect: OLT013
    odds: Annotated[float, "Decimal odds", at.Interval(gt=1.0, le=1000.0)],  # expect: OLT013
) -> str:
    """Place a bet."""
    return ""


@tool
def order_boxes(
    boxes: Annotated[int, at.Gt(0.5)],  # expect: OLT013
    per_pallet: Annotated[int, "Boxes per pallet", at.MultipleOf(12)],  # expect: OLT013
) -> str:
    """Order boxes by the pallet."""
    return ""


@tool
def register(
    email: Annotated[str, "The user's email", AfterValidator(_check_email)],  # expect: OLT013
) -> str:
    """Register a user."""
    return ""


@tool
def accept_quote(
    quote: Quote,  # expect: OLT005
) -> str:
    """Accept a price quote."""
    return ""
