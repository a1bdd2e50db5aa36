"""The services a server's tools read through ``ToolContext.services``, held for its lifetime.

``serve_mcp(tools, services=...)`` takes, in this order of reading:

| Given | The services |
|---|---|
| an async context manager (``__aenter__``) | what ``__aenter__`` returns (the manager itself when that is None); ``__aexit__`` at shutdown |
| a context manager (``__enter__``) | what ``__enter__`` returns (likewise); ``__exit__`` at shutdown |
| a class, or any other callable (a factory) | called once at start with no arguments; what it returns is read by these rows again (an awaitable is awaited first) |
| anything else | that object |
"""

from __future__ import annotations

import inspect
from collections.abc import AsyncGenerator, Callable
from contextlib import AbstractAsyncContextManager, AbstractContextManager, AsyncExitStack, asynccontextmanager
from typing import cast

__all__ = ["ServicesError", "held"]


class ServicesError(Exception):
    """The services given cannot be made: the message names them and the fix."""


def _takes_no_arguments(factory: Callable[..., object]) -> bool:
    try:
        signature = inspect.signature(factory)
    except (TypeError, ValueError):  # a builtin without a signature: try the call
        return True
    return all(
        p.default is not p.empty or p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) for p in signature.parameters.values()
    )


async def _made(services: object, named: str) -> object:
    """``services`` called once when it is a class or a factory (and awaited if that gives an awaitable)."""
    manager = hasattr(services, "__aenter__") or hasattr(services, "__enter__")
    if not callable(services) or (manager and not isinstance(services, type)):
        return services
    if not _takes_no_arguments(services):
        raise ServicesError(
            f"{named}: a services factory is called with no arguments, and "
            f"{getattr(services, '__qualname__', type(services).__name__)} needs some; "
            "give it defaults, or pass the object itself"
        )
    made: object = services()
    if inspect.isawaitable(made):
        made = await made
    return made


@asynccontextmanager
async def held(services: object, *, named: str = "services") -> AsyncGenerator[object]:
    """Make and enter ``services`` (see the module's table); yields what the tools receive."""
    async with AsyncExitStack() as stack:
        value = await _made(services, named)
        entered: object = None
        if hasattr(value, "__aenter__"):
            entered = await stack.enter_async_context(cast("AbstractAsyncContextManager[object]", value))
        elif hasattr(value, "__enter__"):
            entered = stack.enter_context(cast("AbstractContextManager[object]", value))
        yield value if entered is None else entered
