"""The bounded set of worker threads that sync tools run in.

At most ``limit`` calls run at once; a call beyond that waits its turn in a queue (first
come, first served) without holding a thread. A worker thread is started when a call is
queued, no worker is idle and fewer than ``limit`` threads are counted; it runs queued calls
one after another, waits up to ``IDLE_SECONDS`` for the next one, then ends. So a burst of
calls (a reply's many tool calls) starts at most ``limit`` threads, not one per call, and a
pool left idle holds no thread.

A call is abandoned when its caller is cancelled or the tool's timeout passes: a queued call
is dropped, and a running one's thread stops counting at once (another thread may start for
the queue). Such a thread keeps running the call if it ignores its cancellation token, then
ends without taking more work, so tools that never end cannot take every slot and starve
later calls. Workers are daemon threads because an abandoned call may never end: the
interpreter does not join daemon threads at exit, so it cannot hang the process's shutdown
(a ``ThreadPoolExecutor`` joins its workers at exit, and ``asyncio.run`` joins the loop's
default executor).

A batch's many calls go through a ``Drain``: a worker takes the batch's queued calls one after
another, a slice per hand-off, so a burst of short calls costs a thread round trip per slice.

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
import weakref
from collections import deque
from collections.abc import Callable
from typing import Any, Generic, TypeVar, cast

__all__ = ["DRAIN_PATIENCE", "DRAIN_SLICE", "IDLE_SECONDS", "Drain", "ToolRaised", "WorkerPool", "default_limit"]

#: How long a worker thread with nothing to run waits for a next call before it ends: long
#: enough to carry a batch's calls that arrive one event-loop step apart, short enough that
#: an idle invoker soon holds no thread.
IDLE_SECONDS = 0.5

#: The name of a worker thread between calls (while running one it bears the call's name).
IDLE_NAME = "onellm-worker-idle"

T = TypeVar("T")
K = TypeVar("K")


def default_limit() -> int:
    """``min(32, CPUs + 4)``, as ``concurrent.futures.ThreadPoolExecutor`` chooses."""
    return min(32, (os.cpu_count() or 1) + 4)


class ToolRaised(Exception):
    """Carries any exception a tool raised (``SystemExit``, ``StopIteration`` ...) as an ordinary one."""

    def __init__(self, original: BaseException) -> None:
        super().__init__()
        self.original = original


#: A job's states: waiting in the queue, running in a worker, finished, or left by its caller
#: (``GONE`` while queued: dropped; ``ABANDONED`` while running: its thread stops counting).
_QUEUED, _RUNNING, _DONE, _GONE, _ABANDONED = range(5)


class _Job:
    __slots__ = ("fn", "ctx", "name", "future", "outbox", "state")

    def __init__(self, fn: Callable[[], Any], name: str, loop: asyncio.AbstractEventLoop) -> None:
        self.fn = fn
        self.ctx = contextvars.copy_context()
        self.name = name
        self.future: asyncio.Future[tuple[bool, Any]] = loop.create_future()
        self.outbox: _Outbox | None = None
        self.state = _QUEUED


def _deliver(future: asyncio.Future[tuple[bool, Any]], outcome: tuple[bool, Any]) -> None:
    if not future.done():
        future.set_result(outcome)


#: How many outcomes one turn of the event loop takes from its outbox; the rest wait a turn.
DELIVERIES_PER_TURN = 64


class _Outbox:
    """The outcomes finished for one event loop, handed over in turns.

    A worker wakes the loop only for the first outcome after a turn has taken them all, so a
    burst of short calls costs one wake-up per turn, not one per call; a turn delivers at
    most ``DELIVERIES_PER_TURN``, so the awaiting tasks it resumes are bounded per turn too.
    """

    __slots__ = ("loop", "lock", "outcomes", "scheduled")

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.lock = threading.Lock()
        self.outcomes: deque[tuple[asyncio.Future[tuple[bool, Any]], tuple[bool, Any]]] = deque()
        self.scheduled = False

    def put(self, future: asyncio.Future[tuple[bool, Any]], outcome: tuple[bool, Any]) -> None:
        """From a worker thread."""
        with self.lock:
            self.outcomes.append((future, outcome))
            if self.scheduled:
                return
            self.scheduled = True
        try:
            self.loop.call_soon_threadsafe(self._turn)
        except RuntimeError:  # the loop is closed: nobody waits for these calls any more
            with self.lock:
                self.scheduled = False
                self.outcomes.clear()

    def _turn(self) -> None:
        """On the loop: deliver a turn's outcomes; another turn is scheduled while any are left."""
        with self.lock:
            count = min(len(self.outcomes), DELIVERIES_PER_TURN)
            taken = [self.outcomes.popleft() for _ in range(count)]
            more = bool(self.outcomes)
            self.scheduled = more
        for future, outcome in taken:
            _deliver(future, outcome)
        if more:
            self.loop.call_soon(self._turn)


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
        #: Signalled when a call is queued and a worker is idle.
        self._queued = threading.Condition(self._lock)
        self._queue: deque[_Job] = deque()
        #: Workers waiting for a call (counted in ``_threads`` too), and how many of them have
        #: been signalled and not yet woken: a call queued while more are idle than signalled
        #: signals one more instead of starting a thread.
        self._idle = 0
        self._signalled = 0
        #: Threads that count toward the limit: running a call, or about to look for one.
        self._threads = 0
        #: Calls running now, not abandoned.
        self._running = 0
        #: Per event loop that waits for calls: where their outcomes go.
        self._outboxes: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Outbox] = weakref.WeakKeyDictionary()

    @property
    def active(self) -> int:
        """Calls running now (not abandoned)."""
        return self._running

    @property
    def waiting(self) -> int:
        """Calls waiting for a thread (an upper bound: calls whose caller left are dropped lazily)."""
        return len(self._queue)

    async def run(self, fn: Callable[[], T], name: str = "onellm-tool") -> T:
        """Call ``fn()`` in a worker thread once one is free; its value, or ``ToolRaised``."""
        job = self._submit(fn, name, asyncio.get_running_loop())
        try:
            ok, value = await job.future
        except BaseException:  # cancelled (a timeout or the caller): leave the call
            self._leave(job)
            raise
        if not ok:
            raise ToolRaised(value)
        return value  # type: ignore[no-any-return]

    def _submit(self, fn: Callable[[], Any], name: str, loop: asyncio.AbstractEventLoop) -> _Job:
        """Queue ``fn`` (a thread is woken or started for it); its outcome arrives on ``job.future``."""
        job = _Job(fn, name, loop)
        with self._lock:
            job.outbox = self._outboxes.get(loop) or self._outboxes.setdefault(loop, _Outbox(loop))
            self._queue.append(job)
            start = False
            if self._idle > self._signalled:
                self._signalled += 1
                self._queued.notify()
            elif self._threads < self.limit:
                start = True
                self._threads += 1
        if start:
            self._start(job)
        return job

    def _start(self, job: _Job) -> None:
        try:
            threading.Thread(target=self._work, name=job.name, daemon=True).start()
        except BaseException:  # no thread could start: the call cannot run unless a worker is left
            with self._lock:
                self._threads -= 1
                stranded = self._threads == 0 and job.state == _QUEUED
                if stranded:
                    job.state = _GONE
            if stranded:
                raise

    def _leave(self, job: _Job) -> None:
        """The caller left: drop a queued call; a running one's thread stops counting."""
        with self._lock:
            if job.state == _QUEUED:
                job.state = _GONE
                return
            if job.state != _RUNNING:
                return
            job.state = _ABANDONED
            self._running -= 1
            self._threads -= 1
            start = bool(self._queue) and self._threads < self.limit
            if start:
                self._threads += 1
        if start:
            self._start(job)

    def _next(self) -> _Job | None:
        """The next queued call, now running, waiting up to ``IDLE_SECONDS`` for one; None
        (and this thread no longer counted) when none came."""
        with self._lock:
            timed_out = False
            while True:  # the queue is looked at after every wait, whatever ended it
                while self._queue:
                    job = self._queue.popleft()
                    if job.state == _QUEUED:
                        job.state = _RUNNING
                        self._running += 1
                        return job
                if timed_out:
                    self._threads -= 1
                    return None
                self._idle += 1
                timed_out = not self._queued.wait(IDLE_SECONDS)
                self._idle -= 1
                if self._signalled:
                    self._signalled -= 1

    def _work(self) -> None:
        """A worker thread's body: queued calls, one after another, until none is left."""
        thread = threading.current_thread()
        while True:
            job = self._next()
            if job is None:
                return
            thread.name = job.name
            try:
                outcome: tuple[bool, Any] = (True, job.ctx.run(job.fn))
            except BaseException as e:  # the function's own, whatever its kind: carried as a value
                outcome = (False, e)
            with self._lock:
                abandoned = job.state == _ABANDONED
                if not abandoned:
                    job.state = _DONE
                    self._running -= 1
            if abandoned:  # no longer counted: another thread took this one's place
                return
            if job.outbox is not None:
                job.outbox.put(job.future, outcome)
            del job, outcome  # an idle worker holds nothing of the call (its tool, its value)
            thread.name = IDLE_NAME


#: How many calls of a ``Drain`` one worker runs per hand-off before it hands their outcomes
#: back together and returns to the pool's queue.
DRAIN_SLICE = 128

#: How long a drain's queue may stand still (no call taken from it) before one more worker is
#: asked to help: calls that block or run long get a worker each, up to the pool's limit, while
#: a stream of short calls is taken by as few workers as its slices need.
DRAIN_PATIENCE = 0.002

#: A call of a ``Drain``: its key (the caller's, handed back with the outcome), the function,
#: its one argument (no closure made per call), and the name its thread bears meanwhile.
DrainCall = tuple[K, Callable[[Any], Any], Any, str]
#: A call's outcome: its key, whether it returned, and its value or the exception it raised.
DrainOutcome = tuple[K, bool, Any]


class Drain(Generic[K]):
    """Many plain-function calls of one batch, run by the pool's workers a slice per hand-off.

    The calls wait in one queue of the batch's own. Each hand-off to a worker (a call of the
    pool, counted and queued like any other) takes calls from it one after another, up to
    ``DRAIN_SLICE``, and sends their outcomes back to the loop together: a burst of short calls
    costs one thread round trip per slice, not one per call, and a call that blocks holds one
    worker while the others take the rest. A drain starts a hand-off per ``DRAIN_SLICE`` calls
    queued, and one more each ``DRAIN_PATIENCE`` its queue stands still (every worker it has is
    inside a call that takes its time), up to ``limit`` at once; each hand-off goes back to the
    pool's queue behind other callers' calls.

    ``on_slice`` receives each slice's outcomes on the loop. ``done`` is resolved once
    ``close()`` has said no call will be added and every call's outcome has been received.
    ``stop()`` (the caller was cancelled) runs no further call and abandons the running ones.
    """

    def __init__(self, pool: WorkerPool, on_slice: Callable[[list[DrainOutcome[K]]], None]) -> None:
        self._pool = pool
        self._loop = asyncio.get_running_loop()
        self._on_slice = on_slice
        self._calls: deque[DrainCall[K]] = deque()
        self._jobs: set[_Job] = set()
        self._closed = False
        self._stopped = False
        #: How many calls the workers have taken from the queue (counted by them, read by the
        #: watch), and the count at the watch's last look; the watch's timer while one is set.
        self._taken = 0
        self._seen = -1
        self._watch: asyncio.TimerHandle | None = None
        self.done: asyncio.Future[None] = self._loop.create_future()

    def add(self, calls: list[DrainCall[K]]) -> None:
        """Queue ``calls``: a hand-off per slice of them, up to the pool's limit, and a watch."""
        self._calls.extend(calls)
        wanted = min(self._pool.limit, -(-len(self._calls) // DRAIN_SLICE)) - len(self._jobs)
        for _ in range(wanted):
            self._hand_off()
        if self._watch is None:
            self._seen = self._taken
            self._watch = self._loop.call_later(DRAIN_PATIENCE, self._look)

    def _look(self) -> None:
        """On the loop, each ``DRAIN_PATIENCE`` while calls are queued: a queue that stood
        still since the last look gets one more hand-off."""
        self._watch = None
        if self._stopped or not self._calls:
            return
        try:
            if self._taken == self._seen and len(self._jobs) < self._pool.limit:
                self._hand_off()
        except BaseException as e:  # no thread could start: the batch's waiter gets it
            self.stop()
            if not self.done.done():
                self.done.set_exception(e)
            return
        self._seen = self._taken
        self._watch = self._loop.call_later(DRAIN_PATIENCE, self._look)

    def close(self) -> None:
        """No call will be added: ``done`` resolves once the queued ones have been answered."""
        self._closed = True
        self._check_done()

    def stop(self) -> None:
        """Run no further call; the running ones are abandoned (their threads stop counting)."""
        self._stopped = True
        self._calls.clear()
        if self._watch is not None:
            self._watch.cancel()
            self._watch = None
        for job in self._jobs:
            self._pool._leave(job)  # pyright: ignore[reportPrivateUsage]
            job.future.cancel()
        self._jobs.clear()

    def _hand_off(self) -> None:
        job = self._pool._submit(self._slice, IDLE_NAME, self._loop)  # pyright: ignore[reportPrivateUsage]
        self._jobs.add(job)
        job.future.add_done_callback(lambda future: self._slice_back(job, future))

    def _slice(self) -> list[DrainOutcome[K]]:
        """In a worker thread: up to ``DRAIN_SLICE`` queued calls, each in a copy of the context."""
        thread = threading.current_thread()
        calls = self._calls
        outcomes: list[DrainOutcome[K]] = []
        named = ""
        while len(outcomes) < DRAIN_SLICE and not self._stopped:
            try:
                key, fn, argument, name = calls.popleft()
            except IndexError:
                break
            self._taken += 1  # (a count two workers race on may lose one: it only has to move)
            if name != named:
                thread.name = named = name
            try:
                outcomes.append((key, True, contextvars.copy_context().run(fn, argument)))
            except BaseException as e:  # the function's own, whatever its kind: carried as a value
                outcomes.append((key, False, e))
        return outcomes

    def _slice_back(self, job: _Job, future: asyncio.Future[tuple[bool, Any]]) -> None:
        """On the loop: a hand-off's outcomes received; another hand-off while calls are queued."""
        self._jobs.discard(job)
        if self._stopped or future.cancelled():
            return
        ok, outcomes = future.result()
        try:
            if not ok:  # ``_slice`` itself cannot raise; were it to, the batch fails loudly
                raise outcomes
            self._on_slice(outcomes)
            if self._calls and len(self._jobs) < self._pool.limit:
                self._hand_off()  # (raises if no thread could start and none is left)
        except BaseException as e:  # in a callback nobody awaits: the batch's waiter gets it
            self.stop()
            if not self.done.done():
                self.done.set_exception(e)
            return
        self._check_done()

    def _check_done(self) -> None:
        if self._closed and not self._calls and not self._jobs and not self.done.done():
            if self._watch is not None:  # no call is left to watch for
                self._watch.cancel()
                self._watch = None
            self.done.set_result(None)
