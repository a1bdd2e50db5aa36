"""``ToolInvoker``: run one tool call, or a batch, where every failure becomes a result.

One call goes: bind strictly (bad arguments never reach the function) -> approval ->
inject the ``ToolContext`` / ``CancellationToken`` the function declares -> run (an
``async def`` on the event loop, a plain function in a worker thread of its own) under
the tool's timeout, measured on the context's clock -> convert the return value (the
contract's Results table) -> attach the cost lines the tool added. Only the caller's own
cancellation escapes, as ``asyncio.CancelledError``; it sets the tool's token first.

Sync tools run in the invoker's ``WorkerPool`` (``workers.py``): at most ``max_workers``
calls at once, each in a daemon thread of its own; later calls wait their turn. At a
timeout the invoker answers at once and sets the token; a thread that ignores the token is
abandoned, never awaited, and no longer counts toward the limit.

A raw document longer than ``BIND_OFF_LOOP_CHARS`` is bound in a thread (the loop's default
executor), so that binding it does not stall the event loop's other tasks.

Every exception a tool raises, of any kind (``StopIteration``, ``SystemExit``,
``KeyboardInterrupt``, ``GeneratorExit``, a ``CancelledError`` of its own), becomes its
failure result; none reaches the event loop. A returned value is checked to be writable
as JSON before the result is made (``jsoncheck.py``), so reading ``.text`` never raises.

Batches (``invoke_all``, and ``dispatch`` through ``_run_batch``): every call is bound (and
approval asked) first; then calls are taken in order; a run of consecutive ``parallel_safe``
calls runs concurrently, and a call whose tool is not ``parallel_safe`` runs alone, after
everything before it has finished and before anything after it starts. Results come back in
call order. A call is a ``ToolCall`` or a ``(tool, arguments)`` pair. Within a run, plain
functions without a timeout go to the run's ``Drain`` (a slice of calls per worker hand-off)
and ``async def`` tools without one start without a task (``eager.py``); see ``_run_together``.

Background calls (``invocation_mode="model_choice"`` tools sent ``"invocationMode":
"background"``; the binder removes the control and reports it): after binding and
approval the call becomes a job in ``invoker.jobs`` and the answer is its handle, at once
(see ``jobs.py``). ``aclose()`` (or ``async with ToolInvoker() as invoker:``) stops the
running jobs and awaits their tasks.
"""

from __future__ import annotations

import asyncio
import inspect
import operator
import weakref
from collections.abc import Awaitable, Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, replace
from itertools import repeat
from types import TracebackType
from typing import TYPE_CHECKING, Any, cast

from ..binding import ArgumentError
from ..context import Clock, Listener, ToolContext
from ..errortext import cut, describe
from ..provider_names import check_provider
from ..results import ToolResult
from .convert import Misfit, Unwritable
from .eager import CHANGED, READY, Steps, continued, next_calls, retired
from .jobs import Job, JobRegistry
from .prepared import Prepared, forget
from .workers import Drain, DrainCall, DrainOutcome, ToolRaised, WorkerPool

if TYPE_CHECKING:
    from ..core.model import ToolModel
    from ..tool import Tool

__all__ = ["BIND_OFF_LOOP_CHARS", "SLICE", "THREADED_WINDOW", "Approval", "Batch", "ToolCall", "ToolInvoker"]

Arguments = str | bytes | Mapping[str, object]

#: Asked, by the call's index in the batch, whether a bound call of a ``requires_approval``
#: tool may run: True runs it, False refuses it, a ``ToolResult`` is its answer instead.
Approval = Callable[[int], Awaitable["bool | ToolResult"]]

#: A plain-function call handed to a run's ``Drain``: its index, and what finishes its result.
_InThread = tuple[int, "Tool[..., Any]", "Prepared", "ToolContext | None"]

#: An ``async def`` call without a timeout, for a run's driver of first steps: its index, tool,
#: keyword arguments, context (None: it needs none) and prepared facts.
_Inline = tuple[int, "Tool[..., Any]", dict[str, object], "ToolContext | None", "Prepared"]

#: A call of a batch bound and approved: its tool's prepared facts, its keyword arguments
#: (the context's parameters filled when it starts) and the binder's mode.
_Ready = tuple["Prepared", dict[str, object], str]

#: A raw document longer than this (characters of a ``str``, bytes of ``bytes``) is bound in a
#: thread, off the event loop: binding costs about 40 us per KiB, so 64 KiB keeps the loop's
#: stall near 3 ms, while the hop to a thread (about 0.1 ms) stays a few per cent of binding.
BIND_OFF_LOOP_CHARS = 64 * 1024

#: How many calls of a batch are started (or answered, in ``dispatch``) between two returns to
#: the event loop: a call's share of a slice is tens of microseconds, so a slice holds the
#: loop for a few milliseconds, far under the 50 ms a stall may last.
SLICE = 128

#: How many calls of plain functions with a timeout per worker thread a batch keeps under way
#: at once (each has a task and a timer of its own): enough that a worker finds the next call
#: queued when it finishes one, few enough that a batch of thousands does not hold every call's
#: bookkeeping at once. Plain functions without a timeout go through the run's ``Drain`` instead.
THREADED_WINDOW = 4


@dataclass(frozen=True, slots=True)
class ToolCall:
    """One call in a batch: the tool, the model's arguments, and the call's id."""

    tool: Tool[..., Any]
    arguments: Arguments
    id: str = ""
    approved: bool = False
    context: ToolContext | None = None


@dataclass(slots=True)
class Batch:
    """The calls of a batch as columns (what ``invoke_all`` and ``dispatch`` hand the invoker):
    the tools, their arguments and ids; whether each is approved and its context, or empty
    lists when no call has either."""

    tools: list[Tool[..., Any]]
    arguments: list[Arguments]
    ids: list[str]
    approved: list[bool]
    contexts: list[ToolContext | None]

    def add(
        self, tool: Tool[..., Any], arguments: Arguments, id: str, approved: bool, context: ToolContext | None
    ) -> None:
        """One more call (its approval and context kept as columns once any call has one)."""
        index = len(self.tools)
        self.tools.append(tool)
        self.arguments.append(arguments)
        self.ids.append(id)
        if approved and not self.approved:
            self.approved.extend([False] * index)
        if self.approved:
            self.approved.append(approved)
        if context is not None and not self.contexts:
            self.contexts.extend([None] * index)
        if self.contexts:
            self.contexts.append(context)


class _LoopClock:
    """The default clock: the running event loop's."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop

    def monotonic(self) -> float:
        return self._loop.time()

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)


#: Return values that cannot be awaitable (``inspect.isawaitable`` asks an ABC, which costs more).
_NEVER_AWAITABLE = frozenset({type(None), str, int, float, bool, dict, list, tuple, bytes})


def _seconds(timeout: float) -> str:
    return f"{timeout:g}"


def _failed(name: str, error: BaseException) -> str:
    if isinstance(error, ToolRaised):
        error = error.original
    return f"Tool '{name}' failed: {describe(error)}"


def _unwritable(name: str, what: str) -> str:
    return f"Tool '{name}' returned a value that cannot be written as JSON: {cut(what)}."


def _misfit(name: str, what: str) -> str:
    return f"Tool '{name}' returned a value that does not fit its return type: {cut(what)}."


def _check_misuse(approved: object, provider: object) -> None:
    """The calling program's own mistakes, refused at once: they are not the model's."""
    if approved is not True and approved is not False:
        raise TypeError(f"approved must be a bool, not {type(approved).__name__}")
    check_provider(provider)


def _cancelled_by_caller() -> bool:
    """Whether the running task has been asked to cancel (a ``CancelledError`` not of the tool's own).

    Python 3.10 keeps no count of cancel requests: every ``CancelledError`` counts as the caller's there.
    """
    task = asyncio.current_task()
    cancelling = getattr(task, "cancelling", None)
    return cancelling is None or bool(cancelling())


def _quiet(task: asyncio.Future[Any]) -> None:
    """Retrieve an abandoned task's outcome so asyncio does not log it as never retrieved."""

    def retrieve(t: asyncio.Future[Any]) -> None:
        if not t.cancelled():
            t.exception()

    task.add_done_callback(retrieve)


class ToolInvoker:
    """Invokes tools; ``services`` and ``clock`` are used for the contexts it creates.

    ``services``: a ``Mapping`` (what a bare ``ToolContext`` parameter reads), or the
    caller's own object for tools that declare ``ToolContext[Deps]``.

    ``jobs``: the registry of background jobs (pass one to set its retention limits).
    ``max_workers``: how many sync tools may run at once, each in a worker thread (default
    ``min(32, CPUs + 4)``); further calls wait their turn. A thread abandoned after a
    timeout or a cancellation no longer counts (see ``workers.py``).
    """

    def __init__(
        self,
        *,
        services: Any = None,
        clock: Clock | None = None,
        jobs: JobRegistry | None = None,
        max_workers: int | None = None,
    ) -> None:
        self.services = services
        self.clock = clock
        self.jobs: JobRegistry = jobs if jobs is not None else JobRegistry()
        self.workers: WorkerPool = WorkerPool(max_workers)
        #: By ``id(model)``: a weak reference to the model (the entry goes when the model does) and
        #: what was prepared for it. A long-lived invoker serving ``Tool.create(...)`` per request
        #: so holds only the tools still alive.
        self._prepared: dict[int, tuple[weakref.ref[ToolModel], Prepared]] = {}

    async def aclose(self) -> None:
        """Shut down: refuse new background jobs, stop the running ones, await their tasks."""
        await self.jobs.aclose()

    async def __aenter__(self) -> ToolInvoker:
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.aclose()

    def _prepare(self, tool: Tool[..., Any]) -> Prepared:
        model = tool.model
        key = id(model)
        entry = self._prepared.get(key)
        if entry is not None and entry[0]() is model:
            return entry[1]
        prepared = Prepared(tool)
        self._prepared[key] = (weakref.ref(model, forget(self._prepared, key)), prepared)
        return prepared

    async def invoke(
        self,
        tool: Tool[..., Any],
        arguments: Arguments,
        context: ToolContext | None = None,
        *,
        approved: bool = False,
        provider: str | None = None,
    ) -> ToolResult:
        """Run one call; never raises for bad arguments or the tool's own failure.

        Raises at once for the calling program's own mistakes: ``approved`` not a bool
        (``TypeError``), an unknown ``provider`` name (``ValueError``).
        """
        if approved is not False or provider is not None:
            _check_misuse(approved, provider)
        prepared = self._prepare(tool)
        if context is not None and not context.tool_name:
            context.tool_name = prepared.name
        try:
            kind = type(arguments)
            if (kind is str or kind is bytes) and len(arguments) > BIND_OFF_LOOP_CHARS:
                loop = asyncio.get_running_loop()
                kwargs, mode = await loop.run_in_executor(None, prepared.binder._bind, arguments, provider)  # pyright: ignore[reportPrivateUsage]
            else:
                kwargs, mode = prepared.binder._bind(arguments, provider)  # pyright: ignore[reportPrivateUsage]
        except ArgumentError as e:
            return self._failure(str(e), context)
        if tool.requires_approval and not approved:
            return self._failure(f"Tool '{prepared.name}' requires approval.", context)
        if context is None and (not prepared.private or mode == "background"):
            context = ToolContext(services=self.services, clock=self.clock, tool_name=prepared.name)
        if context is not None:
            context._receive(arguments)  # pyright: ignore[reportPrivateUsage]
            for name in prepared.context_params:
                kwargs[name] = context
            for name in prepared.token_params:
                kwargs[name] = context.cancellation
            if mode == "background":
                return await self._background(tool, kwargs, context, prepared)
            if prepared.threaded:
                return await self._run_threaded(tool, kwargs, context, prepared)
            if not prepared.inline:
                return await self._run(tool, kwargs, context, prepared)
        elif prepared.threaded:
            return await self._run_threaded(tool, kwargs, None, prepared)
        # An async tool without a timeout, in the caller's task. Without a context of the
        # caller's and with no parameter to receive one, no context is made: nothing could
        # reach it (no cost line can be added, no one can read its token).
        try:
            value = await tool.call_with(kwargs)
            if type(value) not in _NEVER_AWAITABLE and inspect.isawaitable(value):
                value = await value
        except asyncio.CancelledError as e:
            return self._cancelled(e, context, prepared)
        except BaseException as e:  # of any kind: SystemExit, KeyboardInterrupt, GeneratorExit too
            return self._failure(_failed(prepared.name, e), context)
        return self._finish(tool, value, context, prepared)

    async def invoke_all(
        self,
        calls: Iterable[ToolCall | tuple[Tool[..., Any], Arguments]],
        *,
        provider: str | None = None,
        listeners: Iterable[Listener] = (),
    ) -> list[ToolResult]:
        """Run a batch (see the module docstring for the order); results in call order.

        ``listeners`` receive the progress and log events of the calls whose context the
        invoker makes (a ``ToolCall`` without one). Every call is bound first, then the runs
        go in order; the calls of a concurrent run are started ``SLICE`` at a time, with a
        return to the event loop between slices, so a large batch never holds the loop for
        longer than a slice.
        """
        if provider is not None:
            check_provider(provider)
        batch = Batch([], [], [], [], [])
        for c in calls:
            call = c if isinstance(c, ToolCall) else ToolCall(c[0], c[1])
            batch.add(call.tool, call.arguments, call.id, call.approved, call.context)
        return await self._run_batch(batch, provider, tuple(listeners), None)

    async def _run_batch(
        self, batch: Batch, provider: str | None, listeners: tuple[Listener, ...], approval: Approval | None
    ) -> list[ToolResult]:
        """``invoke_all``'s work, and ``dispatch``'s: bind every call, ask ``approval`` (by the
        call's index) about the bound calls of a ``requires_approval`` tool not yet approved
        (without it they are refused), then run the runs in order."""
        results: list[ToolResult | None] = [None] * len(batch.tools)
        ready = await self._bind_batch(batch, provider, approval, results)
        tools = batch.tools
        i = 0
        while i < len(tools):
            j = i + 1
            if tools[i].parallel_safe:
                while j < len(tools) and tools[j].parallel_safe:
                    j += 1
            await self._run_together(batch, ready, results, range(i, j), listeners)
            i = j
        # a call's task was cancelled from outside: as gather would, cancelled (``is`` over the
        # list in C: no generator frame per result)
        if any(map(operator.is_, repeat(None, len(results)), results)):
            raise asyncio.CancelledError
        return cast("list[ToolResult]", results)

    async def _bind_batch(
        self,
        batch: Batch,
        provider: str | None,
        approval: Approval | None,
        results: list[ToolResult | None],
    ) -> list[_Ready | None]:
        """Each call bound and approved (``_Ready``), or its answer put in ``results``.

        A slice ends after ``SLICE`` calls or ``BIND_OFF_LOOP_CHARS`` of documents bound on the
        loop, whichever comes first: the loop's turn comes back within a few milliseconds.
        """
        loop = asyncio.get_running_loop()
        ready: list[_Ready | None] = [None] * len(batch.tools)
        if not batch.tools:
            return ready
        #: The last call's tool, what was prepared for it and its binder: a reply's calls mostly
        #: repeat a tool.
        last = batch.tools[0]
        prepared = self._prepare(last)
        bind = prepared.binder._bind  # pyright: ignore[reportPrivateUsage]
        prepared_for: dict[int, Prepared] = {id(last): prepared}
        approved, contexts = batch.approved, batch.contexts
        counted = chars = 0
        for index, (tool, raw) in enumerate(zip(batch.tools, batch.arguments, strict=True)):
            if counted >= SLICE or chars >= BIND_OFF_LOOP_CHARS:
                await asyncio.sleep(0)
                counted = chars = 0
            counted += 1
            if tool is not last:
                known = prepared_for.get(id(tool))
                prepared = known if known is not None else prepared_for.setdefault(id(tool), self._prepare(tool))
                bind = prepared.binder._bind  # pyright: ignore[reportPrivateUsage]
                last = tool
            kind = type(raw)
            size = len(raw) if kind is str or kind is bytes else 0
            try:
                if size > BIND_OFF_LOOP_CHARS:
                    kwargs, mode = await loop.run_in_executor(None, bind, raw, provider)
                else:
                    chars += size
                    kwargs, mode = bind(raw, provider)
            except ArgumentError as e:
                results[index] = self._failure(str(e), contexts[index] if contexts else None)
                continue
            if prepared.requires_approval and not (approved and approved[index]):
                answer = False if approval is None else await approval(index)
                if answer is not True:
                    results[index] = (
                        answer
                        if isinstance(answer, ToolResult)
                        else self._failure(
                            f"Tool '{prepared.name}' requires approval.", contexts[index] if contexts else None
                        )
                    )
                    continue
            ready[index] = (prepared, kwargs, mode)
        return ready

    def _context_for(
        self, batch: Batch, index: int, prepared: Prepared, kwargs: dict[str, object], listeners: tuple[Listener, ...]
    ) -> ToolContext:
        """The call's context (the caller's, or one made for it), handed to the parameters that take it."""
        context = batch.contexts[index] if batch.contexts else None
        if context is None:
            context = ToolContext(
                batch.ids[index], self.services, self.clock, tool_name=prepared.name, listeners=listeners
            )
        elif not context.tool_name:
            context.tool_name = prepared.name
        context._receive(batch.arguments[index])  # pyright: ignore[reportPrivateUsage]
        for name in prepared.context_params:
            kwargs[name] = context
        for name in prepared.token_params:
            kwargs[name] = context.cancellation
        return context

    async def _run_together(
        self,
        batch: Batch,
        ready: list[_Ready | None],
        results: list[ToolResult | None],
        indices: range,
        listeners: tuple[Listener, ...],
    ) -> None:
        """The calls of one run, concurrently, started a slice at a time; their results put in
        ``results`` by index.

        How each call runs, by what its tool is:

        | tool | runs |
        |---|---|
        | plain ``def``, no timeout | in the run's ``Drain``: worker threads take the calls a slice per hand-off |
        | ``async def``, no timeout | its first step in the run's driver (``eager.py``), with the slice's others, before the loop next awaits; a task only if it awaits something |
        | with a timeout | a task of its own, racing the context's clock (``_run``) |
        | called with ``"invocationMode": "background"`` | a job at once; the answer is its handle |

        Only the tasks and the drain are waited for; the last of them to end wakes this one.
        """
        loop = asyncio.get_running_loop()
        room = asyncio.Semaphore(THREADED_WINDOW * self.workers.limit)
        tasks: dict[int, asyncio.Future[None]] = {}
        #: The contexts of the calls handed to the drain and not yet answered: their tokens are
        #: set if the run is cancelled.
        in_threads: dict[int, ToolContext] = {}
        all_ended = loop.create_future()
        #: The tasks and the drain under way, and this coroutine itself until every call of the
        #: run is started: the calls started first may all end while later ones are being started.
        unended = 1

        def ended() -> None:
            nonlocal unended
            unended -= 1
            if not unended and not all_ended.done():
                all_ended.set_result(None)

        async def one(index: int, work: Awaitable[ToolResult], windowed: bool) -> None:
            try:
                results[index] = await work
            finally:
                if windowed:
                    room.release()
                tasks.pop(index, None)
                ended()

        def start(index: int, work: Awaitable[ToolResult], windowed: bool = False) -> None:
            nonlocal unended
            unended += 1
            tasks[index] = asyncio.ensure_future(one(index, work, windowed))

        def answered(outcomes: list[DrainOutcome[_InThread]]) -> None:
            for (index, tool, prepared, context), returned, value in outcomes:
                if context is not None:
                    del in_threads[index]
                if not returned:
                    results[index] = self._failure(_failed(prepared.name, value), context)
                elif type(value) not in _NEVER_AWAITABLE and inspect.isawaitable(value):  # a plain def's coroutine
                    start(index, self._settle(value, tool, context, prepared))
                else:
                    results[index] = self._finish(tool, value, context, prepared)

        drain: Drain[_InThread] | None = None
        #: The driver that runs the first steps of this run's ``async def`` calls, while one is free.
        steps: Steps | None = None

        def first_steps(calls: list[_Inline]) -> None:
            """The first steps of ``calls``, in order, by as many drivers as the calls take."""
            nonlocal steps
            remaining = iter(calls)
            while True:
                if steps is None:
                    steps = Steps()
                    steps.start(self._first_steps(steps, results))
                own = steps.context
                outcome = own.run(steps.coroutine.send, remaining)
                if outcome is READY:  # every call run: the driver stays free for the next ones
                    return
                if outcome is not CHANGED:  # a call awaits something: it goes on in a task, with the driver
                    steps.taken = True
                    own.run(start, steps.index, continued(steps.coroutine, outcome))
                else:
                    steps.close()
                steps = None

        tools, contexts = batch.tools, batch.contexts
        try:
            threaded: list[DrainCall[_InThread]] = []
            #: The slice's ``async def`` calls without a timeout, whose first steps run together
            #: before anything else of the run can (at the slice's end, or before the loop awaits).
            inline: list[_Inline] = []
            for first in range(indices.start, indices.stop, SLICE):
                if first != indices.start:
                    if inline:
                        first_steps(inline)
                        inline = []
                    if threaded:
                        drain = drain if drain is not None else Drain(self.workers, answered)
                        drain.add(threaded)
                        threaded = []
                    await asyncio.sleep(0)  # the slice just started takes its next steps, beside other tasks
                for index in range(first, min(first + SLICE, indices.stop)):
                    readied = ready[index]
                    if readied is None:  # answered while binding
                        continue
                    ready[index] = None
                    prepared, kwargs, mode = readied
                    tool = tools[index]
                    context = (
                        None
                        if prepared.contextless and (not contexts or contexts[index] is None)
                        else self._context_for(batch, index, prepared, kwargs, listeners)
                    )
                    if prepared.inline and mode != "background":
                        inline.append((index, tool, kwargs, context, prepared))
                    elif mode == "background":
                        if inline:
                            first_steps(inline)
                            inline = []
                        results[index] = await self._background(tool, kwargs, cast(ToolContext, context), prepared)
                    elif prepared.threaded:
                        if context is not None:
                            in_threads[index] = context
                        call = ((index, tool, prepared, context), tool.call_with, kwargs, prepared.thread_name)
                        threaded.append(call)
                    else:
                        windowed = not tool.is_async
                        if windowed:
                            if inline:
                                first_steps(inline)
                                inline = []
                            await room.acquire()
                        start(index, self._run(tool, kwargs, cast(ToolContext, context), prepared), windowed)
            if inline:
                first_steps(inline)
            if steps is not None:
                steps.close()
                steps = None
            if threaded:
                drain = drain if drain is not None else Drain(self.workers, answered)
                drain.add(threaded)
            if drain is not None:
                drain.close()
                unended += 1
                drain.done.add_done_callback(lambda _: ended())
            ended()  # every call is started
            await all_ended
            if drain is not None and drain.done.exception() is not None:
                raise cast(BaseException, drain.done.exception())
        except BaseException:  # cancelled while starting or waiting: the calls under way are cancelled too
            if steps is not None:
                steps.close()
            if drain is not None:
                drain.stop()
            for context in in_threads.values():
                context.cancellation.cancel()
            for task in tasks.values():
                task.cancel()
            raise

    async def _first_steps(self, steps: Steps, results: list[ToolResult | None]) -> ToolResult:
        """A driver's body (``eager.py``): the calls of each iterator sent to it, in turn, each
        run as ``invoke`` runs an ``async def`` without a timeout and its result put in
        ``results``. It stops at a call that changed the driver's context, and once a call has
        taken the driver into a task, that call's result is the driver's own."""
        own, caller = steps.context, steps.caller
        while True:
            calls: Iterator[_Inline] = await next_calls()
            for index, tool, kwargs, context, prepared in calls:
                steps.index = index
                try:
                    value = await tool.call_with(kwargs)
                    if type(value) not in _NEVER_AWAITABLE and inspect.isawaitable(value):
                        value = await value
                except asyncio.CancelledError as e:
                    result = self._cancelled(e, context, prepared)
                except BaseException as e:  # of any kind, as in ``invoke``
                    result = self._failure(_failed(prepared.name, e), context)
                else:
                    result = self._finish(tool, value, context, prepared)
                if steps.taken:
                    return result
                results[index] = result
                if own != caller:
                    await retired()

    async def _settle(
        self, pending: Awaitable[Any], tool: Tool[..., Any], context: ToolContext | None, prepared: Prepared
    ) -> ToolResult:
        """A call's result once ``pending`` (its call under way, or an awaitable it returned) is awaited."""
        try:
            value = await pending
            if type(value) not in _NEVER_AWAITABLE and inspect.isawaitable(value):
                value = await value
        except asyncio.CancelledError as e:
            return self._cancelled(e, context, prepared)
        except BaseException as e:  # of any kind: SystemExit, KeyboardInterrupt, GeneratorExit too
            return self._failure(_failed(prepared.name, e), context)
        return self._finish(tool, value, context, prepared)

    async def _background(
        self, tool: Tool[..., Any], kwargs: dict[str, object], context: ToolContext, prepared: Prepared
    ) -> ToolResult:
        """A call the model asked to run as background work (``invocationMode: "background"``).

        The arguments are bound and approval given: the call becomes a job of this invoker,
        run by ``_run`` with the job's own context, and the answer is its handle, at once.
        """
        if self.jobs.closed:
            return self._failure(
                f"Tool '{tool.name}' cannot start in the background: the invoker has been shut down.", context
            )
        job = self.jobs.start(tool, context, lambda job: self._run(tool, kwargs, context, prepared, job))
        return job.handle()

    async def _run(
        self,
        tool: Tool[..., Any],
        kwargs: dict[str, object],
        context: ToolContext,
        prepared: Prepared,
        job: Job | None = None,
    ) -> ToolResult:
        token = context.cancellation
        loop = asyncio.get_running_loop()
        clock: Clock = context.clock if context.clock is not None else _LoopClock(loop)
        task = asyncio.ensure_future(self._call(tool, kwargs))
        if job is not None:
            job.adopt(task)
        timeout = tool.timeout_seconds
        try:
            if timeout > 0:
                timer = asyncio.ensure_future(clock.sleep(timeout))
                if job is not None:
                    job.adopt(timer)
                try:
                    await asyncio.wait((task, timer), return_when=asyncio.FIRST_COMPLETED)
                finally:
                    timer.cancel()
                if not task.done():
                    if job is not None:
                        job.timed_out()
                    token.cancel()
                    task.cancel()
                    _quiet(task)
                    return self._failure(f"Tool '{tool.name}' timed out after {_seconds(timeout)} s.", context)
            else:
                await asyncio.wait((task,))
        except asyncio.CancelledError:
            token.cancel()
            task.cancel()
            _quiet(task)
            raise
        if task.cancelled():  # the tool raised CancelledError itself (the caller's is handled above)
            return self._failure(f"Tool '{tool.name}' failed: CancelledError", context)
        error = task.exception()
        if error is not None:
            return self._failure(_failed(prepared.name, error), context)
        return self._finish(tool, task.result(), context, prepared)

    async def _run_threaded(
        self, tool: Tool[..., Any], kwargs: dict[str, object], context: ToolContext | None, prepared: Prepared
    ) -> ToolResult:
        """A plain function without a timeout, in a worker thread. The caller's cancellation
        leaves the thread (``WorkerPool.run``) and sets the token; it is not an error result."""
        try:
            value = await self.workers.run(lambda: tool.call_with(kwargs), prepared.thread_name)
        except ToolRaised as e:
            return self._failure(_failed(prepared.name, e), context)
        except asyncio.CancelledError:
            if context is not None:
                context.cancellation.cancel()
            raise
        if type(value) not in _NEVER_AWAITABLE and inspect.isawaitable(value):  # a plain def returning a coroutine
            try:
                value = await value
            except asyncio.CancelledError as e:
                return self._cancelled(e, context, prepared)
            except BaseException as e:  # of any kind, as from the thread
                return self._failure(_failed(prepared.name, e), context)
        return self._finish(tool, value, context, prepared)

    def _cancelled(self, e: asyncio.CancelledError, context: ToolContext | None, prepared: Prepared) -> ToolResult:
        """A ``CancelledError`` the tool raised itself is its failure, like any other; the caller's
        cancellation sets the call's token and goes on up."""
        if not _cancelled_by_caller():
            return self._failure(_failed(prepared.name, e), context)
        if context is not None:
            context.cancellation.cancel()
        raise e

    def _finish(
        self, tool: Tool[..., Any], value: object, context: ToolContext | None, prepared: Prepared
    ) -> ToolResult:
        """The result of a call that returned ``value`` (the Results table; costs attached).

        The converter checks the value against the return type while writing it (else
        ``Misfit``) and every JSON part to be writable as JSON (else ``Unwritable``), so that
        no later reading of the result can fail.
        """
        try:
            converted = prepared.convert(value)
        except Misfit as e:
            return self._failure(_misfit(prepared.name, str(e)), context)
        except Unwritable as e:
            return self._failure(_unwritable(prepared.name, str(e)), context)
        except BaseException as e:  # a value's own code (``__str__``, a mapping's ``items``) failed
            return self._failure(_unwritable(prepared.name, describe(e)), context)
        if isinstance(converted, ToolResult):
            costs = () if context is None else context.costs
            return replace(converted, parts=list(converted.parts), costs=[*converted.costs, *costs])
        typed = value if prepared.ends_loop else None
        return ToolResult(converted, False, None, typed, [] if context is None else list(context.costs))

    async def _call(self, tool: Tool[..., Any], kwargs: dict[str, object]) -> Any:
        """The tool's call as a task's body: any exception of the tool's leaves it as ``ToolRaised``.

        (A ``SystemExit`` or ``KeyboardInterrupt`` leaving a task would stop the event loop.)
        A ``CancelledError`` leaves as itself: the task is then cancelled, which ``_run`` reads.
        """
        try:
            if tool.is_async:
                result = await tool.call_with(kwargs)
            else:
                result = await self.workers.run(lambda: tool.call_with(kwargs), f"onellm-tool-{tool.name}")
            if inspect.isawaitable(result):
                result = await result
        except (asyncio.CancelledError, ToolRaised):
            raise
        except BaseException as e:
            raise ToolRaised(e) from None
        return result

    @staticmethod
    def _failure(message: str, context: ToolContext | None) -> ToolResult:
        return ToolResult.failure(message, None if context is None else list(context.costs))
