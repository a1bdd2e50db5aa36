"""pydantic ``BaseModel`` records, and pydantic ``Field(...)`` as a parameter's default.

Covers the contract's ``pydantic.BaseModel`` paragraph: ``model_fields`` in order with base
classes first, ``Field(alias=)`` as the wire name, required = no default and no default
factory, ``Field(description=)`` before the class docstring's entry, ``Field(ge=, le=,
min_length=, max_length=, pattern=)`` on model fields, nested models (in a list, optional),
a model return, ``naming="camelCase"`` on a model, ``model_config`` settings (accepted, the binder is not loosened), ``@tool`` methods
on a ``BaseModel`` subclass, and ``Field(...)`` as a parameter's default (required without a
default, optional with ``default`` or ``default_factory``). No ``from __future__ import
annotations``. No enums and no ``Annotated[..., Field(...)]`` (other rows' files have those),
and no validators: every document the schema accepts must bind here (the generated differential
holds that); ``tests/test_basemodel.py`` has the validators' rows.
"""

import datetime
from typing import Literal, Optional

from pydantic import BaseModel, ConfigDict, Field

from onellm_runtime import tool


class Page(BaseModel):
    """Paging.

    Attributes:
        page: Page number, from 1.
        size: Rows per page.
    """

    page: int = Field(1, ge=1)
    size: int = Field(default=20, ge=1, le=100, description="How many rows")


class OrderQuery(Page):
    """Which orders.

    Attributes:
        customer_id: The customer.
    """

    customer_id: str = Field(alias="customerId", min_length=1)
    states: list[Literal["open", "closed"]] = Field(default_factory=list, description="Only these states")
    since: Optional[datetime.date] = None


@tool
def list_orders(query: OrderQuery) -> str:
    """List orders."""
    return query.customer_id


class Line(BaseModel):
    sku: str = Field(pattern=r"^[A-Z0-9-]+$", max_length=12)
    qty: int = Field(gt=0, description="Units")


class Invoice(BaseModel):
    """An invoice.

    Attributes:
        customer: Customer id.
        lines: The billed lines.
    """

    model_config = ConfigDict(extra="allow", str_strip_whitespace=True)

    customer: str
    lines: list[Line] = Field(min_length=1)
    note: str = ""


class Receipt(BaseModel):
    number: int
    total_cents: int
    issued: datetime.datetime


@tool
def file_invoice(invoice: Invoice, reason: Optional[Page] = None) -> Receipt:
    """File an invoice."""
    return Receipt(number=1, total_cents=0, issued=datetime.datetime.now(datetime.timezone.utc))


class Booking(BaseModel):
    flight_number: str
    seat_class: Literal["economy", "business"] = "economy"


@tool(naming="camelCase")
def book_flight(booking: Booking, passenger_name: str) -> Booking:
    """Book a flight."""
    return booking


class WeatherPlugin(BaseModel):
    """A plugin configured by its fields; its tools take only their own parameters."""

    unit: str = "celsius"

    @tool
    def get_temperature(self, city: str) -> float:
        """The temperature in a city.

        Args:
            city: The city.
        """
        return 20.0

    @tool(name="forecast_days")
    def forecast(self, city: str, days: int = Field(3, ge=1, le=14, description="Days ahead")) -> list[float]:
        """A forecast."""
        return [20.0] * days


@tool
def remember(
    fact: str = Field(description="What to remember"),
    tags: list[str] = Field(default_factory=list, description="Labels"),
    weight: float = Field(default=1.0),
    source: str = Field("user", max_length=20),
) -> str:
    """Remember a fact."""
    return fact
