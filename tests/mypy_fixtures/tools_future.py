"""Tools over another module's records and aliases, with ``from __future__ import annotations``."""

from __future__ import annotations

import datetime
import typing
from collections.abc import Mapping, MutableSet, Sequence
from typing import AbstractSet, Annotated, Awaitable, Literal, Optional, Union

from onellm_runtime import (
    CancellationToken,
    Char,
    Description,
    Email,
    Int8,
    JsonArray,
    JsonObject,
    JsonValue,
    StringLength,
    TextPart,
    ToolContext,
    ToolResult,
    Url,
    tool,
)

from . import shared
from .shared import GREETING, LIMIT, RATE, Code, Color, Item, Level, LongMovie, Movie, Page, Point, Quantity, Span


@tool
def place_order(
    items: Sequence[Item],
    code: Code,
    qty: Quantity = 3,
    color: shared.Color = shared.Color.GREEN,
    level: Level = Level.HIGH,
    limit: int = LIMIT,
    floor: int = shared.FLOOR,
    rate: float = RATE,
    greeting: str = GREETING,
    when: Optional[datetime.date] = None,
) -> Page[Item]:
    """Place an order.

    Args:
        items: The lines to order.
        code: The warehouse code.
        qty: Ignored when ``items`` is given.
    """
    raise NotImplementedError


@tool(name="find-movies", description="Search the catalogue.", naming="camelCase", timeout_seconds=2.5)
def find_movies(
    movie: Movie,
    longer: LongMovie | None,
    words: shared.Words,
    vec: shared.Vec[int],
    ratio: shared.Ratio = 0.25,
    page_size: Annotated[int, Description("Rows per page.")] = 10,
) -> list[Movie]:
    """Find movies (the description above wins over this)."""
    return []


@tool(invocation_mode="model_choice", ends_loop=True, parallel_safe=False, requires_approval=True)
async def route(
    ops: list[shared.Operation],
    start: shared.Start | None = None,
    points: frozenset[Point] = frozenset(),
    spans: AbstractSet[Span] = frozenset(),
    marks: MutableSet[Char] | None = None,
    table: Mapping[str, Int8] | None = None,
    *,
    ctx: ToolContext,
    token: CancellationToken,
) -> Optional[str]:
    """Route operations.

    Parameters
    ----------
    ops
        The operations, in order.
    start
        Where to begin.
    """
    return None


@tool
def json_things(
    blob: JsonValue,
    obj: JsonObject,
    arr: JsonArray,
    maybe: Optional[JsonValue] = None,
    mail: Annotated[str, Email(), StringLength(80, min_length=3)] = "a@b.c",
    site: Annotated[str | None, Url()] = None,
    choice: Literal["a", "b"] | Literal["c"] = "c",
    flag: Literal[True] = True,
    level: Union[Literal[1, 2], None] = 2,
    old_list: typing.List[typing.Dict[str, typing.Set[int]]] | None = None,
    old_tuple: typing.Tuple[int, ...] = (),
    frozen: typing.FrozenSet[str] = frozenset(),
) -> JsonObject:
    """JSON values and typing's old aliases.

    :param blob: Anything.
    :param obj: An object.
    """
    return {}


@tool
def texts(words: list[str]) -> list[TextPart]:
    return []


@tool
def result(x: int, /, y: int = -1) -> ToolResult:
    return ToolResult()


@tool
async def later(x: int) -> Awaitable[Color]:
    raise NotImplementedError


@tool
def colour(c: Color = Color.CRIMSON) -> Color:
    return c


class Shop:
    """A class with tools."""

    PAGE = 50
    TITLE: typing.Final = "Shop"

    @tool
    def browse(self, page_size: int = PAGE, title: str = TITLE, item: Item | None = None) -> list[Item]:
        return []

    @tool
    @staticmethod
    def count(prefix: str = "") -> int:
        return 0

    @tool
    @classmethod
    def describe(cls, level: Level = Level.LOW) -> str:
        return ""

    @tool(name="checkout")
    async def checkout_async(self, items: list[Item], ctx: ToolContext) -> Quantity:
        return 1
