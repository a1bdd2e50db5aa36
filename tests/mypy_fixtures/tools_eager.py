"""Tools without ``from __future__ import annotations``: quoted forward references instead."""

import enum
from dataclasses import dataclass
from typing import Annotated, Optional

from onellm_runtime import Description, Range, Tool, tool

from .shared import Color, Item


class Mode(enum.Enum):
    FAST = "fast"
    SLOW = "slow"


DEFAULT_MODE = Mode.SLOW


@tool
def plan(
    route: "Route",
    stops: "list[Stop] | None" = None,
    mode: Mode = DEFAULT_MODE,
    color: "Color" = Color.RED,
    budget: Annotated[float, Range(0, 1e6), Description("Money.")] = 100.0,
) -> "Route":
    """Plan a route: forward references resolve at first use."""
    raise NotImplementedError


@dataclass
class Stop:
    name: str
    minutes: int = 5


@dataclass
class Route:
    """A route.

    Attributes:
        stops: Where to stop.
    """

    stops: "list[Stop]"
    item: Optional[Item] = None


def add(a: int, b: int = 2) -> int:
    """Add two numbers.

    Args:
        a: The first.
        b: The second.
    """
    return a + b


class Calculator:
    def scale(self, x: float, factor: float = 2.0) -> float:
        """Scale ``x``."""
        return x * factor


adder = Tool.create(add, name="adder", description="Add.")
scaler = Tool.create(Calculator().scale)
constant = Tool.create(lambda: "x", name="constant")
