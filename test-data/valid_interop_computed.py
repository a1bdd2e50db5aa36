"""Values both sides compute (the contract's "Values in markers, defaults, options and enum
members"): names bound once, here and imported, ``+ - * // %`` and unary ``-``/``+`` on
numbers, ``+`` on strings, f-strings with conversions and format specs, parentheses, tuples,
in markers, defaults, record fields, ``@tool`` and ``Tool.create`` options and enum members.

Annotations are evaluated eagerly (no ``from __future__ import annotations``).
"""

import enum
from dataclasses import dataclass, field
from typing import Annotated, Final

import _computed_constants as consts
from _computed_constants import MAX_DAYS, SERVICE

from onellm_runtime import Description, Length, MaxLength, Pattern, Range, Tool, tool

PAGE = 10
LIMIT: Final = PAGE * 100
ZONE = "UTC"
PREFIX = "Look up "
WIDTH = 12
RATE = 2.5
DIGITS = "[0-9]"


class Pair(enum.Enum):
    """Tuple values, compared as the runtime compares them: ``ALSO_LOW`` is an alias of ``LOW``."""

    LOW = (0, 1)
    ALSO_LOW = (0, 2 - 1)
    HIGH = (1, 0)


@dataclass
class Page:
    """One page of results.

    Attributes:
        size: Items on the page.
    """

    size: Annotated[int, Range(1, PAGE * 5)] = PAGE * 2
    title: Annotated[str, MaxLength(LIMIT // 10)] = "Results " + f"{PAGE}+"
    label: str = field(default=consts.UNIT + "!")


@tool(description=PREFIX + "the " + SERVICE + " for a place", timeout_seconds=PAGE * 3)
def forecast(
    days: Annotated[int, Range(1, MAX_DAYS)] = MAX_DAYS // 2,
    offset: Annotated[int, Range(-PAGE * 2, +PAGE)] = -(PAGE % 3),
    zone: Annotated[str, Description(f"time zone, {ZONE!r} when left out")] = ZONE,
) -> str:
    return ""


@tool
def amounts(
    limit: Annotated[int, Range(0, 10 * 100)] = LIMIT - 1,
    rate: float = RATE * 2,
    half: float = (RATE + 0.5) // 2,
    rest: int = 17 % 5,
    three: int = 1 + 2,
    note: Annotated[str, Description(f"at most {LIMIT:,} items at {RATE:.1f} each")] = f"{PAGE!s}/{ZONE!a}",
    code: Annotated[str, Pattern("^" + DIGITS + "{3}$"), Length(3 - 0, 1 + 2)] = "0" + "42",
) -> str:
    """Arithmetic: ints stay ints, a float operand makes a float: (2.5 + 0.5) // 2 is 1.0."""
    return ""


@tool(name="page_" + "of_" + SERVICE, requires_approval=True)
def paged(page: Page) -> str:
    """Record fields are computed as parameters are."""
    return ""


class Units:
    """Class-level constants, read where a method's defaults are."""

    SCALE = 1000
    NAME = "milli" + consts.UNIT

    @tool(description=f"{'Convert':>{WIDTH}} to {NAME}")
    def convert(self, value: Annotated[int, Range(0, SCALE * 2)] = SCALE // 4, unit: str = NAME) -> str:
        return ""


@tool
def pick(pair: Pair = Pair.ALSO_LOW) -> str:
    """An enum with tuple values: the alias is written as its canonical member."""
    return ""


def alerts(region: Annotated[str, Description("Region, e.g. " + f"{'EU'!r}")] = "E" + "U") -> str:
    return ""


alert_tool = Tool.create(alerts, name=SERVICE + "_alerts", description=f"{SERVICE} alerts, {MAX_DAYS} days ahead")
