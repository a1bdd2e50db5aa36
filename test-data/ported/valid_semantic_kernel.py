"""Tools written the way Semantic Kernel users write plugins with ``@kernel_function``.

Habits followed: plugins as classes of tool methods (some plain classes, some pydantic
``BaseModel`` subclasses whose fields configure the plugin, as ``KernelBaseModel`` plugins are),
``@kernel_function(name=..., description=...)`` options, parameter and return descriptions as plain
strings in ``Annotated[T, "text"]``, annotated_types bounds, ``str`` enums, pydantic models as
returns. Only the decorator is onellm's.

Uses ``from __future__ import annotations``: every annotation is a string, resolved later.
"""

from __future__ import annotations

import math
from decimal import Decimal
from enum import Enum
from typing import Annotated

import annotated_types as at
from pydantic import BaseModel

from onellm_runtime import tool


class TemperatureUnit(str, Enum):
    CELSIUS = "celsius"
    FAHRENHEIT = "fahrenheit"


class LightModel(BaseModel):
    id: int
    name: str
    is_on: bool
    brightness: Annotated[int, "Percent of full brightness", at.Ge(0), at.Le(100)] = 100


class LightsPlugin:
    @tool(name="get_lights", description="Gets a list of lights and their current state")
    def get_state(self) -> list[LightModel]:
        return []

    @tool(name="change_state", description="Changes the state of the light")
    def change_state(
        self,
        id: Annotated[int, "The light's id"],
        is_on: Annotated[bool, "Whether to switch it on"],
    ) -> Annotated[LightModel | None, "The updated light, or null when there is none"]:
        return None


class WeatherPlugin(BaseModel):
    """Weather lookups; the model's fields configure the plugin and are no tool parameters."""

    service_url: str = "https://weather.invalid"
    timeout_s: float = 5.0

    @tool(description="Get the temperature in a city")
    def get_temperature(
        self,
        city: Annotated[str, "The city name"],
        unit: Annotated[TemperatureUnit, "The unit to answer in"] = TemperatureUnit.CELSIUS,
    ) -> Annotated[float, "Degrees in the unit asked for"]:
        return 20.0

    @tool
    def get_forecast(
        self,
        city: Annotated[str, "The city name"],
        days: Annotated[int, "Days ahead", at.Ge(1), at.Le(7)] = 3,
    ) -> Annotated[list[str], "One line per day"]:
        """Get a short forecast."""
        return []


class MathPlugin:
    @tool(description="Add two numbers")
    def add(
        self,
        a: Annotated[float, "The first number"],
        b: Annotated[float, "The second number"],
    ) -> Annotated[float, "The sum"]:
        return a + b

    @tool(description="Take the square root of a number")
    def square_root(self, x: Annotated[float, "A number that is not negative", at.Ge(0)]) -> Annotated[float, "The root"]:
        return math.sqrt(x)


class TimePlugin:
    @tool(description="Get the current date.")
    def today(self) -> str:
        return "2026-12-01"


class EmailPlugin(BaseModel):
    sender: str = "assistant@example.invalid"

    @tool(description="Sends an email to the recipients")
    def send_email(
        self,
        recipients: Annotated[list[str], "Addresses to send to", at.MinLen(1)],
        subject: Annotated[str, "The subject", at.MaxLen(200)],
        body: Annotated[str, "The body"],
    ) -> None:
        return None


class MenuPlugin:
    @tool(description="Provides the price of the requested menu item.")
    def get_item_price(self, menu_item: Annotated[str, "The name of the menu item."]) -> Annotated[Decimal, "The price"]:
        return Decimal("9.99")
