"""Tools under other decorators: each is described from its own ``def``.

A decorator between ``@tool`` and the function that keeps the signature and says so with
``functools.wraps`` (``__wrapped__``) is read through, as ``inspect.signature`` reads it: the
runtime describes the innermost function and calls the outermost, and the mypy plugin reads
the ``def`` alike, whatever the decorator's declared type (kept, ParamSpec, untyped, erased).
"""

import functools
from typing import Any, Awaitable, Callable, Literal, ParamSpec, TypeVar

from onellm_runtime import tool

F = TypeVar("F", bound=Callable[..., Any])
P = ParamSpec("P")
R = TypeVar("R")

CALLS: list[str] = []


def traced(fn: F) -> F:
    """Keeps the type through a TypeVar."""

    @functools.wraps(fn)
    def inner(*args: Any, **kwargs: Any) -> Any:
        CALLS.append(fn.__name__)
        return fn(*args, **kwargs)

    return inner  # type: ignore[return-value]


def retried(fn: Callable[P, R]) -> Callable[P, R]:
    """Keeps the type through a ParamSpec."""

    @functools.wraps(fn)
    def inner(*args: P.args, **kwargs: P.kwargs) -> R:
        return fn(*args, **kwargs)

    return inner


def counted(fn):  # type: ignore[no-untyped-def]
    """Untyped: mypy sees Any."""

    @functools.wraps(fn)
    def inner(*args, **kwargs):  # type: ignore[no-untyped-def]
        CALLS.append("counted")
        return fn(*args, **kwargs)

    return inner


def erased(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Declares that it loses the signature, but keeps it at run time."""

    @functools.wraps(fn)
    def inner(*args: Any, **kwargs: Any) -> Any:
        return fn(*args, **kwargs)

    return inner


def timed(fn: Callable[P, Awaitable[R]]) -> Callable[P, Awaitable[R]]:
    """An async wrapper."""

    @functools.wraps(fn)
    async def inner(*args: P.args, **kwargs: P.kwargs) -> R:
        CALLS.append("timed")
        return await fn(*args, **kwargs)

    return inner


@tool
@traced
def lookup(sku: str, /, warehouse: int = 1) -> int:
    """Count the units of a product in stock.

    Args:
        sku: The stock-keeping unit.
        warehouse: Which warehouse.
    """
    return len(sku) * warehouse


@tool(name="price_of")
@retried
def price(sku: str, currency: Literal["EUR", "USD"] = "EUR") -> float:
    """The price of one unit."""
    return 1.5


@tool
@counted
def ping() -> str:
    """Answer pong."""
    return "pong"


@tool
@erased
def echo(text: str) -> str:
    """Say it back."""
    return text


@tool
@functools.lru_cache(maxsize=None)
def square(n: int) -> int:
    """Square a number (cached)."""
    return n * n


@tool
@timed
async def fetch(url: str) -> str:
    """Fetch a page."""
    return url


class Shelf:
    """A shelf of products."""

    @tool
    @traced
    def count(self, sku: str) -> int:
        """How many units are on the shelf."""
        return 0

    @tool
    @staticmethod
    @traced
    def unit() -> str:
        """The unit of counting."""
        return "piece"
