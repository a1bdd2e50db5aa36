"""The ``async def`` calls of a batch started without a task of their own.

One driver coroutine (``Steps``) runs the first steps of a run's calls one after another, each
sent to it by the run's loop: a call that ends there, as tools that only compute do, costs no
task, and its return is awaited inside the driver (no ``StopIteration`` per call, as a
``send`` to the call's own coroutine would raise). A call that awaits something takes the
driver with it: a task carries the driver on from where it stopped (``continued``) until that
call ends, and the next call gets a new driver.

The driver runs in a copy of the caller's context, as a task would. A call that changes that
copy keeps it (a new driver, in a new copy, takes the next call), so no call sees another's
changes; a call that changes nothing leaves the copy as the caller's context is, and the next
call runs in it.
"""

from __future__ import annotations

import contextvars
import types
from collections.abc import Coroutine, Generator
from typing import Any

__all__ = ["READY", "Steps", "continued", "next_call"]

#: What a driver yields when it has finished a call's first step and waits for the next call;
#: anything else it yields is what a call awaits (the call goes on in a task).
READY: Any = object()


@types.coroutine
def next_call() -> Generator[Any, Any, Any]:
    """Inside a driver: yield ``READY`` to the run's loop and receive the next call it sends."""
    return (yield READY)


class Steps:
    """A driver of first steps: its coroutine, the context it runs in, the caller's context it
    started from, and whether a call took it (then it ends with that call's result).

    The run's loop sends each call as ``context.run(coroutine.send, call)``: what comes back is
    ``READY``, or what the call awaits. ``context != caller`` afterwards: the call changed its
    context, and the next call needs a new driver.
    """

    __slots__ = ("coroutine", "context", "caller", "taken")

    coroutine: Coroutine[Any, Any, Any]
    context: contextvars.Context
    caller: contextvars.Context
    taken: bool

    def __init__(self) -> None:
        self.caller = contextvars.copy_context()
        self.context = self.caller.copy()
        self.taken = False

    def start(self, coroutine: Coroutine[Any, Any, Any]) -> None:
        """Run ``coroutine`` (the driver's body) up to its first ``next_call``."""
        self.coroutine = coroutine
        self.context.run(coroutine.send, None)

    def close(self) -> None:
        """No more calls for this driver (it waits at ``next_call``)."""
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
