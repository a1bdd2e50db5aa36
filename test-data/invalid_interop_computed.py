"""Values the static side does not compute (OLT014, static only: the runtime writes the value it
has): operators outside the contract's list, calls, subscripts, comparisons, conditional
expressions, enum members as operands, values past the size bounds, and spread arguments, in
markers, defaults, record fields and ``@tool``/``Tool.create`` options.

Annotations are evaluated eagerly (no ``from __future__ import annotations``).
See README.md for the ``# expect:`` convention.
"""

import enum
from dataclasses import dataclass
from typing import Annotated, Any

from onellm_runtime import Description, MaxLength, Range, Tool, tool

PAGE = 10
NAME = "search"
WORDS = ("alpha", "beta")
BOUNDS = (0, 9)
OPTIONS: dict[str, Any] = {"timeout_seconds": 5}
#: Each twice the one before: ``T10`` is 102,400 characters, over the bound of a computed string.
T0 = "0123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789"
T1 = T0 + T0
T2 = T1 + T1
T3 = T2 + T2
T4 = T3 + T3
T5 = T4 + T4
T6 = T5 + T5
T7 = T6 + T6
T8 = T7 + T7
T9 = T8 + T8
T10 = T9 + T9


def compute() -> int:
    return 5


class Level(enum.IntEnum):
    LOW = 1


@dataclass
class Query:
    text: str
    limit: int = PAGE**2


@tool
def operators(
    power: int = 2**3,  # expect-static: OLT014
    ratio: float = 1 / 2,  # expect-static: OLT014
    flag_sum: int = True + 1,  # expect-static: OLT014
    negated_flag: int = -True,  # expect-static: OLT014
    repeated: str = "ab" * 2,  # expect-static: OLT014
    shifted: int = PAGE << 1,  # expect-static: OLT014
    chosen: int = PAGE if PAGE else 1,  # expect-static: OLT014
    first: str = WORDS[0],  # expect-static: OLT014
    member_sum: int = Level.LOW + 1,  # expect-static: OLT014
) -> str:
    return ""


@tool
def markers(
    a: Annotated[int, Range(0, 2**10)],  # expect-static: OLT014
    b: Annotated[str, Description("a" * 3)],  # expect-static: OLT014
    c: Annotated[str, MaxLength(len(NAME))],  # expect-static: OLT014
    d: Annotated[int, Range(*BOUNDS)],  # expect-static: OLT014
    e: Annotated[str, Description(f"{compute()} items")],  # expect-static: OLT014
    f: Annotated[str, Description(NAME.upper())],  # expect-static: OLT014
    g: Annotated[str, Description(f"{'x':>20000}")],  # expect-static: OLT014
    h: Annotated[str, Description(T10)],  # expect-static: OLT014
    i: Annotated[str, Description(f"level {Level.LOW}")],  # expect-static: OLT014
) -> str:
    return ""


@tool
def in_record(
    q: Query,  # expect-static: OLT014
) -> str:
    return ""


@tool(description="Find " + NAME.title())
def described() -> str:  # expect-static: OLT014
    return ""


@tool(name=NAME + str(PAGE), timeout_seconds=60 / 2)
def named() -> str:  # expect-static: OLT014 OLT014
    return ""


@tool(**OPTIONS)
def spread() -> str:  # expect-static: OLT014
    return ""


def helper() -> str:  # expect-static: OLT014
    return ""


helper_tool = Tool.create(helper, description=NAME * 2)
