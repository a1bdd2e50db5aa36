"""Enums by value and by name (contract, Types: the two ``Enum`` rows): a plain ``Enum`` whose
values are all strings and a ``str`` mixin are written by member value, integer and mixed values
by member name; as defaults, in records, in collections, under ``Optional`` and as returns.
(``StrEnum`` with ``auto()`` is in ``valid_interop_enums_py311.py``.)

Does not use ``from __future__ import annotations``.
"""

import enum
from dataclasses import dataclass
from typing import Any, Optional

from onellm_runtime import tool

HIGH = "high"


class Unit(enum.Enum):
    CELSIUS = "celsius"
    FAHRENHEIT = "fahrenheit"
    C = "celsius"  # an alias of CELSIUS: left out


class Format(str, enum.Enum):
    JSON = "application/json"
    TEXT = "text/plain"


class Scale(enum.Enum):
    """A value given by a module constant, which the static side reads."""

    LOW = "low"
    TOP = HIGH


class Weekday(enum.IntEnum):
    MON = 1
    TUE = 2


class Grade(enum.Enum):
    TOP = "a"
    COUNT = 3  # one value is not a string: the whole enum by name


class Stage(enum.Enum):
    FIRST = enum.auto()  # auto() outside StrEnum is a number: by name
    SECOND = enum.auto()


def made_value() -> str:
    return "made"


class Sized(enum.Enum):
    """One value is an integer: by name, whatever the value only the runtime computes."""

    ONE = 1
    MADE = made_value()


class Named(str, enum.Enum):
    """``auto()`` through a ``_generate_next_value_`` that returns the name."""

    @staticmethod
    def _generate_next_value_(name: str, start: int, count: int, last_values: list[Any]) -> str:
        return name

    ALPHA = enum.auto()
    BETA = enum.auto()


Mood = enum.Enum("Mood", {"HAPPY": "happy", "GLAD": "happy", "SAD": "sad"})  # string values, an alias
Step = enum.Enum("Step", "START STOP")  # names only: auto() numbers, so by name

DEFAULT_UNIT = Unit.FAHRENHEIT


@dataclass
class Reading:
    """A temperature reading.

    Attributes:
        value: The number read.
        unit: Its unit.
        shown_as: How it is shown.
    """

    value: float
    unit: Unit = Unit.CELSIUS
    shown_as: Optional[Format] = None


@tool
def kinds(unit: Unit, fmt: Format, scale: Scale, day: Weekday, grade: Grade, stage: Stage) -> str:
    """Each enum kind once."""
    return ""


@tool
def made_otherwise(sized: Sized, named: Named, mood: Mood, step: Step = Step.STOP) -> str:
    """Enums made by a call, a name generator and the functional API."""
    return ""


@tool
def with_defaults(
    unit: Unit = Unit.C,
    fmt: Format = Format.TEXT,
    day: Weekday = Weekday.TUE,
    other: Unit = DEFAULT_UNIT,
    maybe: Optional[Unit] = Unit.FAHRENHEIT,
    none: Optional[Format] = None,
) -> str:
    """Defaults written in their wire form: an alias as its member."""
    return ""


@tool
def nested(readings: list[Reading], by_day: dict[str, Weekday], units: set[Unit]) -> str:
    """Enums inside a record and collections."""
    return ""


@tool
def convert(reading: Reading, target: Unit) -> Reading:
    """A record return: its enum field by value."""
    return reading


@tool
def pick(day: Weekday) -> Optional[Unit]:
    """An optional enum return."""
    return None
