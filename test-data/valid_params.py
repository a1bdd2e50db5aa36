"""Parameters: context injection, required/default/nullable, which defaults are written.

Uses ``from __future__ import annotations``: every annotation is a string, resolved later.
"""

from __future__ import annotations

import datetime
import decimal
import enum
import uuid
from typing import Final, Literal, Optional, Union

from onellm_runtime import CancellationToken, Char, Int8, ToolContext, tool

PAGE_SIZE = 20
MAX_ITEMS: Final = 50
NEGATIVE = -1.5


class Color(enum.Enum):
    RED = "r"
    GREEN = "g"


DEFAULT_COLOR = Color.GREEN


@tool
def no_params() -> str:
    """Take nothing."""
    return ""


@tool
def only_context(ctx: ToolContext, token: CancellationToken) -> str:
    """Injected parameters never appear."""
    return ""


@tool
def injected_between(query: str, ctx: ToolContext, limit: int, token: CancellationToken) -> str:
    """Context and token may sit anywhere."""
    return query


@tool
def required_and_optional(
    name: str,
    nickname: str | None,
    age: int = 0,
    note: str | None = None,
    alias: Optional[str] = None,
    title: Union[str, None] = "Dr",
) -> str:
    """Required unless defaulted; nullable without default stays required."""
    return name


@tool
def written_defaults(
    text: str = "hello",
    count: int = 3,
    negative: int = -7,
    ratio: float = 0.25,
    whole_float: float = 2.0,
    flag: bool = False,
    on: bool = True,
    color: Color = Color.GREEN,
    sep: Char = ",",
    small: Int8 = -5,
    mode: Literal["fast", "slow"] = "slow",
    page: int = PAGE_SIZE,
    maybe: int | None = 4,
) -> str:
    """Defaults of str, int, float, bool, Enum (its name) and Char are written."""
    return text


@tool
def unwritten_defaults(
    nothing: str | None = None,
    day: datetime.date = datetime.date(2024, 1, 1),
    amount: decimal.Decimal = decimal.Decimal("1.50"),
    ident: uuid.UUID = uuid.UUID(int=0),
    data: bytes = b"",
    tags: tuple[str, ...] = (),
    span: datetime.timedelta = datetime.timedelta(0),
) -> str:
    """None writes nothing; other defaults are not written, but the parameter is optional."""
    return ""


@tool
def positional_and_keyword(a: int, b: int = 1, /, c: int = 2, *, d: int, e: int = 4) -> str:
    """Positional-only and keyword-only parameters are ordinary properties."""
    return ""


@tool
def required_order(z: int, y: int = 0, *, x: int, w: int) -> str:
    """Required lists names in parameter order."""
    return ""


@tool
def constant_defaults(
    limit: int = MAX_ITEMS,
    color: Color = DEFAULT_COLOR,
    offset: float = NEGATIVE,
    grouped: int = (7),
    joined: str = "a" "b",
) -> str:
    """Defaults read from constants (Final or not), parentheses and joined strings."""
    return joined


@tool
def plain_invocation_mode(invocationMode: str) -> str:
    """A parameter may be named invocationMode when the tool's mode is 'wait'."""
    return invocationMode


@tool
def unwritable_defaults(ceiling: float = 1e400, floor: float = -1e400, step: float = 0.5) -> str:
    """Defaults json.dumps cannot write (an infinity) are left out of the schema and still apply."""
    return ""
