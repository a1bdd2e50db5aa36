"""Enums whose wire form the static side cannot know (OLT014, static only: the runtime reads the
members' values and writes them by value or by name).

Uses ``from __future__ import annotations``.
See README.md for the ``# expect:`` convention. Tools without a comment are fine on both sides.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any, Optional

from onellm_runtime import tool


def label() -> str:
    return "computed"


class Made(enum.Enum):
    """One value is a call: a string at runtime, so by value there; unknown to the static side."""

    FIRST = "first"
    LATER = label()


class Labelled(str, enum.Enum):
    """Its values are set in ``__new__``."""

    def __new__(cls, value: str, text: str) -> Labelled:
        member = str.__new__(cls, value)
        member._value_ = value
        return member

    SHORT = ("s", "Short")
    LONG = ("l", "Long")


class Generated(str, enum.Enum):
    """A ``_generate_next_value_`` that does more than return the name."""

    @staticmethod
    def _generate_next_value_(name: str, start: int, count: int, last_values: list[Any]) -> str:
        return f"{name}-{count}"

    A = enum.auto()


Dynamic = enum.Enum("Dynamic", {"A": "a", "B": label()})  # the functional API, a value from a call


@dataclass
class Order:
    made: Made


@tool
def made(
    value: Made,  # expect-static: OLT014
    maybe: Optional[Made] = None,  # expect-static: OLT014
) -> str:
    return ""


@tool
def labelled(value: Labelled) -> str:  # expect-static: OLT014
    return ""


@tool
def generated(value: Generated) -> str:  # expect-static: OLT014
    return ""


@tool
def in_a_record(order: Order, orders: list[Order]) -> str:  # expect-static: OLT014 OLT014
    return ""


@tool
def optional_and_returned(value: Made | None = None, count: int = 2) -> Made:  # expect-static: OLT014 OLT014
    return Made.FIRST


@tool
def functional(value: Dynamic) -> str:  # expect-static: OLT014
    return ""
