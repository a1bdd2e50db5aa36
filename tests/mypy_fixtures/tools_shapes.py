"""Shapes whose reading takes care: auto() aliases, KW_ONLY, functional records, hashability."""

import enum
import sys
from dataclasses import KW_ONLY, dataclass
from typing import Annotated, NamedTuple, NewType, Optional, TypedDict

import annotated_types as at

from onellm_runtime import Description, tool


class Mode(enum.Enum):
    FIRST = enum.auto()
    SECOND = enum.auto()
    AGAIN = 1  # an alias of FIRST (auto() started at 1)


class Bits(enum.IntFlag):
    READ = enum.auto()
    WRITE = enum.auto()


Tagged = NewType("Tagged", Annotated[str, Description("A tag.")])
Pair = NamedTuple("Pair", [("left", int), ("right", int)])
Film = TypedDict("Film", {"title": str, "year": int}, total=False)


@dataclass
class Opts:
    size: int
    _: KW_ONLY
    depth: int = 1
    label: str = "x"


@dataclass(unsafe_hash=True)
class Hashed:
    key: int


@dataclass(frozen=True)
class Frozen:
    key: int


@tool
def shapes(
    mode: Mode,
    tag: Tagged,
    pair: Pair,
    film: Film,
    opts: Opts,
    hashed: set[Hashed],
    frozen: frozenset[Frozen],
    loose_bound: Annotated[int, at.Interval(gt=1, le=9)],
    maybe: Optional[Tagged] = None,
) -> list[Mode]:
    """Everything at once."""
    return []


if sys.version_info >= (3, 11):

    class Color(enum.StrEnum):
        RED = enum.auto()
        CRIMSON = "red"  # an alias: StrEnum's auto() is the lower-cased name

    @tool
    def paint(color: Color = Color.CRIMSON) -> str:
        return color.value
