"""Tools written the way openai-agents users write them for ``@function_tool``.

Habits followed: the description of a parameter as a plain string in ``Annotated[T, "text"]``,
Google-style ``Args:`` sections, pydantic models and TypedDicts as parameters, pydantic models as
returns, annotated_types bounds, ``str`` enums, a tool description built from constants. Only the
decorator is onellm's. Annotations are evaluated eagerly (no ``from __future__ import annotations``).
"""

from enum import Enum
from typing import Annotated, Literal, TypedDict

import annotated_types as at
from _settings import MAX_RESULTS, SERVICE
from pydantic import BaseModel, Field

from onellm_runtime import tool


class Location(TypedDict):
    lat: float
    long: float


class Tone(str, Enum):
    FORMAL = "formal"
    CASUAL = "casual"


class RefundRequest(BaseModel):
    order_id: str = Field(description="The order to refund")
    amount: int = Field(gt=0, lt=100_000, description="Amount in cents")
    reason: str | None = None


class OrderStatus(BaseModel):
    order_id: str
    status: Literal["open", "shipped", "delivered"]
    eta_days: int | None = None


class Passenger(BaseModel):
    name: str
    age: Annotated[int, at.Ge(0), at.Le(130)]


class Booking(BaseModel):
    flight: str = Field(pattern=r"^[A-Z]{2}\d{3,4}$", description="Flight number, e.g. LO281")
    passengers: list[Passenger] = Field(min_length=1, max_length=9)


@tool
def get_weather(city: Annotated[str, "The city to look up"]) -> str:
    """Fetch the current weather for a city."""
    return f"Sunny in {city}"


@tool
def fetch_forecast(
    city: str,
    days: Annotated[int, "How many days ahead", at.Ge(1), at.Le(14)] = 3,
) -> str:
    """Fetch a multi-day forecast.

    Args:
        city: Name of the city.
        days: Loses to the plain string in Annotated.
    """
    return f"{days} days of sun in {city}"


@tool
def find_restaurants(location: Location, cuisine: Literal["thai", "italian", "any"] = "any") -> str:
    """Find restaurants near a point.

    Args:
        location: Where to search.
        cuisine: The kind of food wanted.
    """
    return f"{cuisine} near {location['lat']},{location['long']}"


@tool
def issue_refund(request: RefundRequest) -> str:
    """Refund part or all of an order."""
    return f"refunded {request.amount} on {request.order_id}"


@tool
def lookup_order(order_id: Annotated[str, "The order number, e.g. A-1001"]) -> OrderStatus:
    """Look up where an order is."""
    return OrderStatus(order_id=order_id, status="open")


@tool
def book_flight(booking: Booking) -> str:
    """Book seats on one flight."""
    return f"{len(booking.passengers)} seats on {booking.flight}"


@tool
def draft_email(to: Annotated[str, "Recipient address"], subject: str, tone: Tone = Tone.CASUAL) -> str:
    """Draft an email for the user to review.

    Args:
        subject: The subject line.
    """
    return f"To {to}: {subject} ({tone.value})"


@tool(description="Search the " + SERVICE + " catalogue.")
def search_catalogue(
    query: Annotated[str, "Search words"],
    limit: Annotated[int, "At most this many", at.Le(MAX_RESULTS)] = 10,
) -> list[str]:
    return [query][:limit]


@tool
def convert_currency(
    amount: float,
    from_currency: Annotated[str, "ISO 4217 code of the source", at.Len(3, 3)],
    to_currency: Annotated[str, "ISO 4217 code of the target", at.Len(3, 3)],
) -> float:
    """Convert an amount between currencies."""
    return amount


@tool
def rate_hotel(
    hotel_id: Annotated[str, "The hotel's id"],
    stars: Annotated[int, "Stars given", at.Interval(gt=0, lt=6)],
) -> str:
    """Leave a star rating for a hotel stay."""
    return f"{stars} stars for {hotel_id}"
