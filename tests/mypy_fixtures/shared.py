"""Records, aliases, enums and constants used from other fixture modules."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Annotated, Final, Generic, NamedTuple, NewType, Optional, TypeVar

import annotated_types as at
from typing_extensions import Doc, NotRequired, Required, TypedDict

from onellm_runtime import Description, Discriminator, JsonName, Length, MinLength, Pattern, Range, UInt16

T = TypeVar("T")

LIMIT = 25
FLOOR: Final = -3
RATE: Final[float] = 0.5
GREETING = "hello"

Quantity = Annotated[UInt16, Range(1, 99), Description("How many.")]
Code = Annotated[str, Pattern(r"^[A-Z]{3}$"), Length(3, 3)]
Words = Annotated[list[Annotated[str, MinLength(1)]], at.MaxLen(5)]
Vec = list[Annotated[T, Description("An entry.")]]
Ratio = Annotated[float, at.Interval(ge=0, le=1)]
Sku = NewType("Sku", str)
Tagged = NewType("Tagged", Annotated[str, Description("A tag.")])


class Color(enum.Enum):
    """Colors (aliases are left out of the schema)."""

    RED = "red"
    GREEN = "green"
    CRIMSON = "red"
    _ignore_ = ["helper"]  # noqa: RUF012 (the Enum protocol reads it)
    helper = 1


class Level(enum.IntEnum):
    LOW = 1
    HIGH = 2


@dataclass(frozen=True)
class Point:
    """A point.

    Attributes:
        x: Horizontal position.
        y: Vertical position.
    """

    x: float
    y: float = 0.0


@dataclass
class Item:
    """An order line.

    Args:
        sku: The stock unit.
        qty: How many to send.
    """

    sku: Sku
    qty: Quantity = 1
    note: Annotated[Optional[str], Doc("Free text.")] = None
    color: Color = Color.CRIMSON
    tags: list[str] = field(default_factory=list)
    internal: int = field(default=0, init=False)
    limit: int = LIMIT


@dataclass
class Page(Generic[T]):
    items: list[T]
    total: int = 0
    cursor: Optional[str] = None


class Span(NamedTuple):
    """A span.

    Attributes:
        start: First line.
    """

    start: int
    end: int = FLOOR


class Movie(TypedDict, total=False):
    title: Required[Annotated[str, Description("The title.")]]
    year: int
    rating: NotRequired[Ratio]


class LongMovie(Movie):
    minutes: Annotated[int, at.Ge(1), at.Le(900)]


@dataclass
class Start:
    """Start a job."""

    action: Annotated[str, JsonName("type")] = "start"
    job: str = ""


@dataclass
class StartTag:
    kind: Annotated[str, Description("Which.")]


@dataclass
class Open:
    op: "OpenTag"
    path: str


@dataclass
class Close:
    op: "CloseTag"
    path: str
    force: bool = False


from typing import Literal  # noqa: E402

OpenTag = Literal["open"]
CloseTag = Literal["close"]
Operation = Annotated[Open | Close, Discriminator("op")]
