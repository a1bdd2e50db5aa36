"""The provider tests' own tools: every row of the contract's Types table and every marker,
plus the small tools whose converted definitions the tests spell out by hand.

Kept apart from ``test-data/`` (another corpus, read too) so the provider tests always
cover every shape an adapter has to convert, whatever that corpus holds.
"""

from __future__ import annotations

import datetime
import decimal
import enum
import uuid
from dataclasses import dataclass
from typing import Annotated, FrozenSet, Iterable, List, Literal, Mapping, NamedTuple, Optional, Sequence, Union

from typing_extensions import NotRequired, TypedDict

from onellm_runtime import (
    Char,
    Description,
    Discriminator,
    Email,
    Int8,
    Int16,
    Int32,
    Int64,
    JsonArray,
    JsonName,
    JsonObject,
    JsonValue,
    Length,
    MaxLength,
    MinLength,
    Pattern,
    Range,
    StringLength,
    Tool,
    UInt8,
    UInt16,
    UInt32,
    UInt64,
    Url,
    tool,
)


class Mode(enum.Enum):
    FAST = 1
    SAFE = 2


@dataclass
class Item:
    """A line of an order.

    Attributes:
        sku: Stock keeping unit
        qty: How many.
    """

    sku: Annotated[str, Pattern(r"^[A-Z]{3}-\d+$")]
    qty: Annotated[int, Range(1, 99)] = 1


class Read(TypedDict):
    action: Literal["read"]
    path: str


class Write(TypedDict):
    action: Literal["write"]
    path: str
    text: str
    mode: NotRequired[Mode]


class Point(NamedTuple):
    x: float
    y: float


@dataclass
class Renamed:
    old_text: str
    label: Annotated[str, JsonName("display-name")] = ""
    extras: Optional[dict[str, int]] = None


@dataclass
class Move:
    kind: Literal["move"]
    to: Point


@dataclass
class Tag:
    kind: Literal["tag"]
    labels: dict[str, str]


# -- the tools the tests spell out by hand ------------------------------------------------


@tool
def search(query: str, limit: Annotated[int, Range(1, 100)] = 20, tags: Optional[set[str]] = None) -> str:
    """Search the catalogue.

    Args:
        query: Words to look for
        limit: How many results.
    """
    return ""


@tool
def configure(env: dict[str, str], data: bytes, home: Annotated[str, Url()], mode: Mode = Mode.FAST) -> None:
    """Configure the runner."""


@tool
def edit(request: Union[Read, Write]) -> str:
    """Read or write a file."""
    return ""


@tool
def levels(
    level: Literal[1, 2],
    code: Annotated[str, StringLength(8, min_length=2)],
    few: Annotated[list[int], Length(2, 5)],
    flag: Optional[Literal[True]] = None,
) -> None:
    """Set levels."""


@tool
def raw(value: JsonValue) -> None:
    """Store any JSON."""


@tool
def ping() -> str:
    """Check the service."""
    return "pong"


@tool
def totals(items: list[Item]) -> list[int]:
    """Sum each line."""
    return []


@tool
def first_item(items: list[Item]) -> Item:
    """The first line."""
    return items[0]


@dataclass
class Line:
    """Attributes:
    sku: Stock keeping unit, such as ABC-12.
    qty: How many.
    """

    sku: Annotated[str, Pattern(r"^[A-Z]{3}-\d+$")]
    qty: Annotated[int, Range(1, 99)] = 1


@tool
def place_order(
    customer: uuid.UUID,
    lines: Annotated[list[Line], Length(1, 20)],
    notes: dict[str, str],
    gift: bool = False,
    coupons: Optional[set[str]] = None,
) -> str:
    """Place an order for a customer.

    Args:
        customer: The customer's id.
        lines: What to order.
        notes: Free-form notes by topic.
        gift: Wrap it as a gift.
        coupons: Coupon codes to apply.
    """
    return ""


# -- every row and marker -----------------------------------------------------------------


@tool
def scalars(
    flag: bool,
    count: int,
    i8: Int8,
    u8: UInt8,
    i16: Int16,
    u16: UInt16,
    i32: Int32,
    u32: UInt32,
    i64: Int64,
    u64: UInt64,
    ratio: float,
    price: decimal.Decimal,
    name: str,
    initial: Char,
    ident: uuid.UUID,
    at: datetime.datetime,
    day: datetime.date,
    clock: datetime.time,
    wait: datetime.timedelta,
    blob: bytes,
) -> None:
    """Every scalar."""


@tool
def choices(
    mode: Mode,
    word: Literal["a", "b"],
    number: Literal[1, 2, 3],
    yes: Literal[True],
    merged: Union[Literal["x"], Literal["y"]],
    maybe_mode: Optional[Mode] = None,
    maybe_number: Optional[Literal[4, 5]] = None,
    default_word: Literal["a", "b"] = "b",
    default_mode: Mode = Mode.SAFE,
) -> None:
    """Every kind of choice."""


@tool
def collections(
    names: list[str],
    seq: Sequence[int],
    it: Iterable[float],
    tup: tuple[str, ...],
    unique: set[int],
    frozen: FrozenSet[str],
    env: dict[str, str],
    mapping: Mapping[str, list[int]],
    nested: dict[str, dict[str, bool]],
    maybe_env: Optional[dict[str, int]] = None,
    any_value: Optional[List[Point]] = None,
) -> None:
    """Every collection."""


@tool
def json_types(value: JsonValue, obj: JsonObject, arr: JsonArray, maybe: Optional[JsonObject] = None) -> None:
    """Every JSON type."""


@tool(naming="camelCase")
def records(
    item: Item,
    point: Point,
    renamed: Renamed,
    typed: Write,
    lines: list[Item],
    maybe_item: Optional[Item] = None,
    by_name: Optional[dict[str, Item]] = None,
) -> None:
    """Every record kind."""


@tool
def unions(
    op: Annotated[Union[Move, Tag], Discriminator("kind")],
    maybe_op: Optional[Union[Move, Tag]] = None,
    ops: Optional[list[Union[Move, Tag]]] = None,
) -> None:
    """Discriminated unions, one holding a dictionary."""


@tool
def markers(
    described: Annotated[str, Description("Said plainly.")],
    ranged: Annotated[float, Range(0.5, 2.5)],
    at_least: Annotated[int, Range(0, None)],
    at_most: Annotated[int, Range(None, 10)],
    sized: Annotated[str, StringLength(64)],
    min_len: Annotated[str, MinLength(1)],
    max_len: Annotated[str, MaxLength(3)],
    exact: Annotated[str, Length(4, 4)],
    min_items: Annotated[list[int], MinLength(1)],
    max_items: Annotated[list[int], MaxLength(3)],
    many: Annotated[list[int], MinLength(2)],
    pattern: Annotated[str, Pattern(r"^\w+$")],
    complex_pattern: Annotated[str, Pattern(r"^(?=a)\w{1,200}$")],
    email: Annotated[str, Email()],
    url: Annotated[str, Url()],
    optional_url: Annotated[Optional[str], Url()] = None,
    unique_bounded: Annotated[set[int], Length(1, 3)] = frozenset(),
) -> None:
    """Every marker."""


@tool(invocation_mode="model_choice")
def background(path: str, depth: int = 1) -> str:
    """A tool the model may run as a job."""
    return path


@tool
def outputs_union(maybe: bool) -> Optional[Item]:
    """An output that can be null."""
    return None


class Shelf:
    """Tools as methods."""

    @tool
    def put(self, item: Item, where: dict[str, int]) -> str:
        """Put an item."""
        return ""


OWN: list[Tool[..., object]] = [
    place_order,
    search,
    configure,
    edit,
    levels,
    raw,
    ping,
    totals,
    first_item,
    scalars,
    choices,
    collections,
    json_types,
    records,
    unions,
    markers,
    background,
    outputs_union,
    Shelf().put,
]
