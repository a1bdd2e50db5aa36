"""Tools written the way pydantic-ai users write them for ``@agent.tool_plain``.

Habits followed: Google-style docstrings (pydantic-ai reads them for descriptions), constraints and
descriptions in ``Annotated[T, Field(...)]``, ``StringConstraints``, pydantic models as parameters
and returns (nested, with base classes, aliases and their own validators), a union of models with
``Field(discriminator=...)``, ``str`` enums and plain enums with string values. Only the
decorator is onellm's.

Uses ``from __future__ import annotations``: every annotation is a string, resolved later.
"""

from __future__ import annotations

import datetime
from decimal import Decimal
from enum import Enum
from typing import Annotated, Literal

from pydantic import BaseModel, Field, StringConstraints, model_validator

from onellm_runtime import tool


class Currency(str, Enum):
    EUR = "eur"
    USD = "usd"


class Priority(str, Enum):
    LOW = "low"
    NORMAL = "normal"
    HIGH = "high"


class OrderState(Enum):
    OPEN = "open"
    CLOSED = "closed"


class InvoiceLine(BaseModel):
    sku: Annotated[str, StringConstraints(min_length=3, max_length=12, pattern=r"^[A-Z0-9-]+$")]
    quantity: Annotated[int, Field(gt=0)]
    unit_price: Annotated[Decimal, Field(ge=0)]


class Invoice(BaseModel):
    """An invoice to file.

    Attributes:
        customer: Customer id in the billing system.
        lines: The billed lines.
    """

    customer: str
    lines: list[InvoiceLine]
    currency: Currency = Currency.EUR


class Receipt(BaseModel):
    invoice_id: str
    total: Decimal


class WeatherReport(BaseModel):
    temperature_c: float
    summary: str


class Ticket(BaseModel):
    ticket_id: str = Field(alias="ticketId", description="The ticket's id, e.g. T-42")
    priority: Priority = Priority.NORMAL


class DateWindow(BaseModel):
    start: datetime.date
    end: datetime.date

    @model_validator(mode="after")
    def ordered(self) -> DateWindow:
        if self.end < self.start:
            raise ValueError("end is before start")
        return self


class CardPayment(BaseModel):
    kind: Literal["card"]
    last4: Annotated[str, StringConstraints(pattern=r"^\d{4}$")]


class TransferPayment(BaseModel):
    kind: Literal["transfer"]
    iban: str


class BaseQuery(BaseModel):
    page: Annotated[int, Field(ge=1, description="Page number, from 1")] = 1


class OrderQuery(BaseQuery):
    customer: str
    states: list[OrderState] = Field(default_factory=list, description="Only orders in these states")


@tool
def roll_dice(sides: Annotated[int, Field(ge=2, le=100, description="Faces on the die")] = 6) -> int:
    """Roll one die and return the number it shows."""
    return sides


@tool
def get_player_name() -> str:
    """Get the player's name."""
    return "Anne"


@tool
def search_docs(query: str, max_results: int = 5) -> list[str]:
    """Search the documentation.

    Args:
        query: Words to look for.
        max_results: Upper bound on hits.
    """
    return [query][:max_results]


@tool
def file_invoice(invoice: Invoice) -> Receipt:
    """File an invoice and return its receipt."""
    return Receipt(invoice_id="I-1", total=sum((line.unit_price * line.quantity for line in invoice.lines), Decimal(0)))


@tool
def weather_at(
    lat: Annotated[float, Field(ge=-90, le=90, description="Latitude in degrees")],
    lng: Annotated[float, Field(ge=-180, le=180, description="Longitude in degrees")],
) -> WeatherReport:
    """Get the weather at a point."""
    return WeatherReport(temperature_c=21.5, summary="clear")


@tool
def lookup_user(
    username: Annotated[str, StringConstraints(min_length=3, max_length=32, pattern=r"^[a-z0-9_]+$")],
) -> str:
    """Look up a user's display name.

    Args:
        username: The login name.
    """
    return username


@tool
def escalate_ticket(ticket: Ticket, note: Annotated[str, Field(max_length=500)] = "") -> str:
    """Escalate a support ticket.

    Args:
        note: Why it is escalated.
    """
    return f"{ticket.ticket_id} escalated"


@tool
def count_bookings(window: DateWindow) -> int:
    """Count the bookings that start inside a date window."""
    return 0


@tool
def list_orders(query: OrderQuery) -> list[str]:
    """List a customer's orders, one page at a time."""
    return [query.customer]


@tool
def record_payment(
    payment: Annotated[CardPayment | TransferPayment, Field(discriminator="kind", description="How it was paid")],
    amount: Annotated[Decimal, Field(ge=0)],
) -> str:
    """Record a payment against an invoice."""
    return str(amount)
