"""A shape written under ``from __future__ import annotations``: every annotation is a
string that each implementation must evaluate (``typing.get_type_hints``) per function."""

from __future__ import annotations

from typing import Optional

from .shapes import Leg, Traveller


def plan_trip(traveller: Traveller, legs: list[Leg], budget: Optional[float] = None) -> dict[str, int]:
    """Plan a trip of several legs.

    Args:
        traveller: Who travels.
        legs: The legs, in order.
        budget: The most to spend, if any.
    """
    return {}
