"""The ``async def`` calls of a batch started without a task of their own.

A driver coroutine (``Steps``) runs the first steps of a run's calls one after another: the
run's loop sends it an iterator of calls, and it awaits each call inside itself, so a call
that ends there, as tools that only compute do, costs no task, no ``send`` of its own and no
``StopIteration``. A call that awaits something takes the driver with it: a task carries the
driver on from where it stopped (``continued``) until that call ends, and the calls left in
the iterator go to a new driver.

A driver runs in a copy of the caller's context, as a task would. A call that changes that
copy keeps it: the driver stops after it (``retired``) and a new driver, in a new copy, takes
the calls left, so no call sees another's changes. A call that changes nothing leaves the copy
as the caller's context is, and the next call runs in it.
"""

from __future__ import annotations

import contextvars
import types
from collections.abc import Coroutine, Generator
from typing import Any

__all__ = ["CHANGED", "READY", "Steps", "continued", "next_calls", "retired"]

#: What a driver yields when it has run every call it was sent and waits for more.
READY: Any = object()
#: What a driver yields after a call that changed its context: it takes no further call.
CHANGED: Any = object()


@types.coroutine
def next_calls() -> Generator[Any, Any, Any]:
    """Inside a driver: yield ``READY`` to the run's loop and receive the next calls it sends."""
    return (yield READY)


@types.coroutine
def retired() -> Generator[Any, Any, None]:
    """Inside a driver: yield ``CHANGED``; the run's loop closes the driver there."""
    yield CHANGED


class Steps:
    """A driver of first steps: its coroutine, the context it runs in, the caller's context it
    started from, the index of the call it runs, and whether that call took it into a task
    (then the driver ends with that call's result).

    The run's loop sends an iterator of calls as ``context.run(coroutine.send, calls)``: what
    comes back is ``READY`` (all run), ``CHANGED`` (the call at ``index`` changed the context)
    or what the call at ``index`` awaits.
    """

    __slots__ = ("coroutine", "context", "caller", "index", "taken")

    coroutine: Coroutine[Any, Any, Any]
    context: contextvars.Context
    caller: contextvars.Context
    index: int
    taken: bool

    def __init__(self) -> None:
        self.caller = contextvars.copy_context()
        self.context = self.caller.copy()
        self.index = -1
        self.taken = False

    def start(self, coroutine: Coroutine[Any, Any, Any]) -> None:
        """Run ``coroutine`` (the driver's body) up to its first ``next_calls``."""
        self.coroutine = coroutine
        self.context.run(coroutine.send, None)

    def close(self) -> None:
        """No more calls for this driver (it waits at ``next_calls`` or ``retired``)."""
        self.coroutine.close()


@types.coroutine
def continued(coroutine: Coroutine[Any, Any, Any], pending: object) -> Generator[Any, Any, Any]:
    """The rest of ``coroutine``, whose last step yielded ``pending``, awaitable by a task: what
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
