"""An ``async def`` call of a batch started without a task of its own.

Its first step runs at once, in a copy of the caller's context (as a task's would): a call
that ends there, as tools that only compute do, costs no task; one that awaits something
is carried on by a task from where it stopped (``continued``), in that same context.
"""

from __future__ import annotations

import contextvars
import types
from collections.abc import Coroutine, Generator
from typing import Any

__all__ = ["Started", "continued", "first_step"]


class Started:
    """A coroutine whose first step yielded ``pending``: it is under way, not finished."""

    __slots__ = ("coroutine", "pending", "context")

    coroutine: Coroutine[Any, Any, Any]
    pending: object
    context: contextvars.Context

    def __init__(self, coroutine: Coroutine[Any, Any, Any], pending: object, context: contextvars.Context) -> None:
        self.coroutine = coroutine
        self.pending = pending
        self.context = context


def first_step(coroutine: Coroutine[Any, Any, Any]) -> Started | tuple[object]:
    """Run ``coroutine`` up to its first suspension: ``(value,)`` when it returned, else ``Started``.

    Whatever it raises leaves as itself (the caller makes it the call's failure).
    """
    context = contextvars.copy_context()
    try:
        pending = context.run(coroutine.send, None)
    except StopIteration as stop:
        return (stop.value,)
    return Started(coroutine, pending, context)


@types.coroutine
def continued(started: Started) -> Generator[Any, Any, Any]:
    """The rest of a started coroutine, awaitable by a task: what it yielded goes to the task,
    and what the task sends or throws (a future's wake-up, a cancellation) goes to it."""
    coroutine, pending = started.coroutine, started.pending
    del started
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
