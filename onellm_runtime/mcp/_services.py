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
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from typing import Any

__all__ = ["ServicesError", "held"]


class ServicesError(Exception):
    """The services given cannot be made: the message names them and the fix."""


def _takes_no_arguments(factory: Any) -> bool:
    try:
        signature = inspect.signature(factory)
    except (TypeError, ValueError):  # a builtin without a signature: try the call
        return True
    return all(
        p.default is not p.empty or p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) for p in signature.parameters.values()
    )


@asynccontextmanager
async def held(services: Any, *, named: str = "services") -> AsyncIterator[Any]:
    """Make and enter ``services`` (see the module's table); yields what the tools receive."""
    async with AsyncExitStack() as stack:
        value = services
        manager = hasattr(value, "__aenter__") or hasattr(value, "__enter__")
        if callable(value) and (isinstance(value, type) or not manager):
            if not _takes_no_arguments(value):
                raise ServicesError(
                    f"{named}: a services factory is called with no arguments, and "
                    f"{getattr(value, '__qualname__', type(value).__name__)} needs some; "
                    "give it defaults, or pass the object itself"
                )
            value = value()
            if inspect.isawaitable(value):
                value = await value
        if hasattr(value, "__aenter__"):
            entered = await stack.enter_async_context(value)
            value = value if entered is None else entered
        elif hasattr(value, "__enter__"):
            entered = stack.enter_context(value)
            value = value if entered is None else entered
        yield value
