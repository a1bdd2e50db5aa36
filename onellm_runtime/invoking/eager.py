"""An ``async def`` call of a batch started without a task of its own.

Its first step runs at once, in a copy of the caller's context (as a task's would; the invoker
sends the coroutine its first ``None`` itself): a call that ends there, as tools that only
compute do, costs no task; one that awaits something is carried on by a task from where it
stopped (``continued``), in that same context.
"""

from __future__ import annotations

import types
from collections.abc import Coroutine, Generator
from typing import Any

__all__ = ["continued"]


@types.coroutine
def continued(coroutine: Coroutine[Any, Any, Any], pending: object) -> Generator[Any, Any, Any]:
    """The rest of ``coroutine``, whose first step yielded ``pending``, awaitable by a task: what
    it yields goes to the task, and what the task sends or throws (a future's wake-up, a
    cancellation) goes to it."""
    while True:
        try:
            sent = yield pending
        except GeneratorExit:
            coroutine.close()
            raise
        except BaseException as thrown:  # a cancellation, or a future's exception: the coroutine's to handle
            try:
                pending = coroutine.throw(thrown)
            except StopIteration as stop:
                return stop.value
        else:
            try:
                pending = coroutine.send(sent)
            except StopIteration as stop:
                return stop.value
