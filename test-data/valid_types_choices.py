"""Enums, Literals and every Optional spelling, on each kind of fragment.

Uses ``from __future__ import annotations``.
"""

from __future__ import annotations

import enum
from typing import Literal, Optional, Union

from onellm_runtime import Char, Int8, JsonArray, JsonObject, JsonValue, tool


class Level(enum.Enum):
    LOW = 1
    MEDIUM = 2
    MID = 2  # an alias: left out of the schema
    HIGH = 3


class Priority(enum.IntEnum):
    P1 = 1
    P2 = 2


class Mode(str, enum.Enum):
    READ = "r"
    WRITE = "w"


@tool
def enums(level: Level, priority: Priority, mode: Mode) -> str:
    """Int-valued enums are written by member name, a str mixin by member value; aliases left out."""
    return ""


@tool
def literals(
    word: Literal["a", "b"],
    number: Literal[1, 2, 3],
    yes: Literal[True],
    either: Literal[True, False],
    merged: Literal["x"] | Literal["y", "x"],
) -> str:
    """Literals of each JSON type; a union of Literals is one Literal."""
    return ""


@tool
def optional_spellings(
    a: int | None,
    b: Optional[int],
    c: Union[int, None],
    d: Union[None, int],
) -> str:
    """Every spelling of X | None."""
    return ""


@tool
def nullable_fragments(
    level: Level | None,
    word: Literal["a", "b"] | None,
    word2: Literal["a", "b", None],
    any_value: JsonValue | None,
    obj: JsonObject | None,
    arr: JsonArray | None,
    items: list[int] | None,
    letter: Optional[Char],
    small: Int8 | None,
    table: dict[str, int] | None,
    inner: list[int | None],
) -> str:
    """How null is added to each kind of fragment."""
    return ""


@tool
def returns_level() -> Level:
    return Level.LOW


@tool
def returns_literal() -> Literal["ok", "failed"]:
    return "ok"


@tool
def returns_optional_int() -> Optional[int]:
    return None


@tool
def returns_optional_text() -> str | None:
    return None
