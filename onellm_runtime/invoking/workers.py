"""The bounded set of worker threads that sync tools run in.

At most ``limit`` calls hold a slot at once; a call beyond that waits its turn (first come,
first served) without holding a thread. Each call runs in a daemon thread of its own,
started when it gets its slot.

A slot is given back when the function returns or raises, or at once when the call is
abandoned: the caller was cancelled, or the tool's timeout passed. A thread that ignores
its cancellation token then keeps running, but no longer counts, so tools that never end
cannot take every slot and starve later calls. Such a thread is a daemon thread because it
may never end: the interpreter does not join daemon threads at exit, so an abandoned call
cannot hang the process's shutdown (a ``ThreadPoolExecutor`` joins its workers at exit, and
``asyncio.run`` joins the loop's default executor).

The outcome travels back to the event loop as a value, never through
``Future.set_exception``: asyncio refuses ``StopIteration`` there, and a ``SystemExit``
raised on the loop would stop it. Every exception the function raises comes back as
``ToolRaised``.
"""

from __future__ import annotations

import asyncio
import contextvars
import os
import threading
from collections import deque
from collections.abc import Callable
from typing import Any, TypeVar, cast

__all__ = ["ToolRaised", "WorkerPool", "default_limit"]

T = TypeVar("T")


def default_limit() -> int:
    """``min(32, CPUs + 4)``, as ``concurrent.futures.ThreadPoolExecutor`` chooses."""
    return min(32, (os.cpu_count() or 1) + 4)


class ToolRaised(Exception):
    """Carries any exception a tool raised (``SystemExit``, ``StopIteration`` ...) as an ordinary one."""

    def __init__(self, original: BaseException) -> None:
        super().__init__()
        self.original = original


class _Waiter:
    __slots__ = ("loop", "future", "granted", "gone")

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.future: asyncio.Future[None] = loop.create_future()
        self.granted = False
        self.gone = False


def _wake(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)


def _deliver(future: asyncio.Future[tuple[bool, Any]], outcome: tuple[bool, Any]) -> None:
    if not future.done():
        future.set_result(outcome)


class _Slot:
    """One call's hold on the pool; given back once, by whichever comes first."""

    __slots__ = ("_pool", "_held")

    def __init__(self, pool: WorkerPool) -> None:
        self._pool = pool
        self._held = True

    def release(self) -> None:
        with self._pool._lock:  # pyright: ignore[reportPrivateUsage]
            if not self._held:
                return
            self._held = False
        self._pool._hand_on()  # pyright: ignore[reportPrivateUsage]


class WorkerPool:
    """Runs plain functions in daemon threads, at most ``limit`` counted at once (see the module docstring).

    Safe to share between event loops and threads: its bookkeeping is under a lock, and a
    waiter is woken on its own loop.
    """

    def __init__(self, limit: int | None = None) -> None:
        if limit is None:
            limit = default_limit()
        given = cast(object, limit)
        if isinstance(given, bool) or not isinstance(given, int):
            raise TypeError(f"the worker limit must be an int, not {type(given).__name__}")
        if limit < 1:
            raise ValueError(f"the worker limit must be 1 or more, not {limit}")
        self.limit = limit
        self._lock = threading.Lock()
        self._active = 0
        self._waiters: deque[_Waiter] = deque()

    @property
    def active(self) -> int:
        """Calls holding a slot now (running, not abandoned)."""
        return self._active

    @property
    def waiting(self) -> int:
        """Calls waiting for a slot (an upper bound: waiters that left are dropped lazily)."""
        return len(self._waiters)

    async def run(self, fn: Callable[[], T], name: str = "onellm-tool") -> T:
        """Call ``fn()`` in a worker thread once a slot is free; its value, or ``ToolRaised``."""
        loop = asyncio.get_running_loop()
        slot = await self._acquire(loop)
        future: asyncio.Future[tuple[bool, Any]] = loop.create_future()
        ctx = contextvars.copy_context()

        def work() -> None:
            try:
                outcome: tuple[bool, Any] = (True, ctx.run(fn))
            except BaseException as e:  # the function's own, whatever its kind: carried as a value
                outcome = (False, e)
            slot.release()
            try:
                loop.call_soon_threadsafe(_deliver, future, outcome)
            except RuntimeError:  # the loop is closed: the call was abandoned long ago
                pass

        try:
            threading.Thread(target=work, name=name, daemon=True).start()
            ok, value = await future
        except BaseException:  # cancelled (a timeout or the caller), or no thread: abandon the slot
            slot.release()
            raise
        if not ok:
            raise ToolRaised(value)
        return value  # type: ignore[no-any-return]

    async def _acquire(self, loop: asyncio.AbstractEventLoop) -> _Slot:
        with self._lock:
            if self._active < self.limit and not self._waiters:
                self._active += 1
                return _Slot(self)
            waiter = _Waiter(loop)
            self._waiters.append(waiter)
        try:
            await waiter.future
        except BaseException:
            with self._lock:
                granted = waiter.granted
                waiter.gone = True
            if granted:  # the slot arrived as the wait was cancelled: pass it on
                _Slot(self).release()
            raise
        return _Slot(self)

    def _hand_on(self) -> None:
        """A slot came free: give it to the longest waiter still waiting, else count it free."""
        while True:
            with self._lock:
                waiter = None
                while self._waiters:
                    candidate = self._waiters.popleft()
                    if not candidate.gone:
                        waiter = candidate
                        break
                if waiter is None:
                    self._active -= 1
                    return
                waiter.granted = True
            try:
                waiter.loop.call_soon_threadsafe(_wake, waiter.future)
                return
            except RuntimeError:  # its loop is closed: nobody waits there any more
                with self._lock:
                    waiter.gone = True
