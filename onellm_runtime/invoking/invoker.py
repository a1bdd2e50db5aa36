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

Batches (``invoke_all``): calls are taken in order; a run of consecutive
``parallel_safe`` calls runs concurrently, and a call whose tool is not ``parallel_safe``
runs alone, after everything before it has finished and before anything after it starts.
Results come back in call order. A call is a ``ToolCall`` or a ``(tool, arguments)`` pair.

Background calls (``invocation_mode="model_choice"`` tools sent ``"invocationMode":
"background"``; the binder removes the control and reports it): after binding and
approval the call becomes a job in ``invoker.jobs`` and the answer is its handle, at once
(see ``jobs.py``). ``aclose()`` (or ``async with ToolInvoker() as invoker:``) stops the
running jobs and awaits their tasks.
"""

from __future__ import annotations

import asyncio
import inspect
import weakref
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from types import TracebackType
from typing import TYPE_CHECKING, Any, cast

from ..binding import ArgumentError, CompiledBinder, compile_binder
from ..context import Clock, Listener, ToolContext
from ..errortext import cut, describe
from ..provider_names import check_provider
from ..results import ToolResult
from .convert import Converter, Misfit, Unwritable, compile_converter
from .jobs import Job, JobRegistry
from .workers import ToolRaised, WorkerPool

if TYPE_CHECKING:
    from ..core.model import ToolModel
    from ..tool import Tool

__all__ = ["BIND_OFF_LOOP_CHARS", "SLICE", "THREADED_WINDOW", "ToolCall", "ToolInvoker"]

Arguments = str | bytes | Mapping[str, object]

#: A raw document longer than this (characters of a ``str``, bytes of ``bytes``) is bound in a
#: thread, off the event loop: binding costs about 40 us per KiB, so 64 KiB keeps the loop's
#: stall near 3 ms, while the hop to a thread (about 0.1 ms) stays a few per cent of binding.
BIND_OFF_LOOP_CHARS = 64 * 1024

#: How many calls of a batch are started (or answered, in ``dispatch``) between two returns to
#: the event loop: a call's share of a slice is tens of microseconds, so a slice holds the
#: loop for a few milliseconds, far under the 50 ms a stall may last.
SLICE = 128

#: How many calls of plain functions per worker thread a batch keeps under way at once: enough
#: that a worker finds the next call queued when it finishes one, few enough that a batch of
#: thousands does not hold every call's bookkeeping (and the collector's work over it) at once.
THREADED_WINDOW = 4


@dataclass(frozen=True, slots=True)
class ToolCall:
    """One call in a batch: the tool, the model's arguments, and the call's id."""

    tool: Tool[..., Any]
    arguments: Arguments
    id: str = ""
    approved: bool = False
    context: ToolContext | None = None


class _LoopClock:
    """The default clock: the running event loop's."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop

    def monotonic(self) -> float:
        return self._loop.time()

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)


class _Prepared:
    """What the invoker derives once per tool model: its binder, its result converter, its facts.

    It holds nothing that keeps the model alive (the binder keeps only the model's parameters).
    """

    __slots__ = (
        "binder",
        "convert",
        "context_params",
        "token_params",
        "name",
        "thread_name",
        "inline",
        "threaded",
        "private",
    )

    def __init__(self, tool: Tool[..., Any]) -> None:
        model = tool.model
        self.binder: CompiledBinder = compile_binder(model)
        self.convert: Converter = compile_converter(model)
        self.context_params = tuple(p.name for p in model.params if p.kind == "context")
        self.token_params = tuple(p.name for p in model.params if p.kind == "cancellation")
        self.name = tool.name
        self.thread_name = f"onellm-tool-{tool.name}"
        #: An ``async def`` without a timeout runs in the caller's task: nothing to race it
        #: against, and the caller's cancellation reaches it directly.
        self.inline = tool.is_async and not tool.timeout_seconds > 0
        #: A plain function without a timeout: awaited in a worker thread from the caller's
        #: task, with nothing to race it against (no timer, no task of its own).
        self.threaded = not tool.is_async and not tool.timeout_seconds > 0
        #: Inline or threaded, and no parameter takes the context or the token: a call needs no
        #: context unless the caller hands one in (or the call becomes a job).
        self.private = (self.inline or self.threaded) and not self.context_params and not self.token_params


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


def _forget(
    cache: dict[int, tuple[weakref.ref[ToolModel], _Prepared]], key: int
) -> Callable[[weakref.ref[ToolModel]], None]:
    """The callback that drops a model's entry once the model is gone (unless the id was reused since)."""

    def drop(ref: weakref.ref[ToolModel]) -> None:
        entry = cache.get(key)
        if entry is not None and entry[0] is ref:
            del cache[key]

    return drop


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
        self._prepared: dict[int, tuple[weakref.ref[ToolModel], _Prepared]] = {}

    async def aclose(self) -> None:
        """Shut down: refuse new background jobs, stop the running ones, await their tasks."""
        await self.jobs.aclose()

    async def __aenter__(self) -> ToolInvoker:
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.aclose()

    def _prepare(self, tool: Tool[..., Any]) -> _Prepared:
        model = tool.model
        key = id(model)
        entry = self._prepared.get(key)
        if entry is not None and entry[0]() is model:
            return entry[1]
        prepared = _Prepared(tool)
        self._prepared[key] = (weakref.ref(model, _forget(self._prepared, key)), prepared)
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
            if not _cancelled_by_caller():  # the tool's own: its failure, like any other
                return self._failure(_failed(prepared.name, e), context)
            if context is not None:
                context.cancellation.cancel()
            raise
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
        invoker makes (a ``ToolCall`` without one). The calls of a concurrent run are
        started ``SLICE`` at a time, with a return to the event loop between slices, and at
        most ``THREADED_WINDOW`` calls per worker of plain functions are under way at once
        (the rest would only wait for a worker): a large batch never holds the loop for
        longer than a slice, nor keeps every call's bookkeeping alive at once.
        """
        if provider is not None:
            check_provider(provider)
        batch = [c if isinstance(c, ToolCall) else ToolCall(c[0], c[1]) for c in calls]
        heard = tuple(listeners)
        results: list[ToolResult] = []
        i = 0
        while i < len(batch):
            j = i + 1
            if batch[i].tool.parallel_safe:
                while j < len(batch) and batch[j].tool.parallel_safe:
                    j += 1
            if j - i == 1:
                results.append(await self._invoke_call(batch[i], provider, heard))
            else:
                results.extend(await self._run_together(batch[i:j], provider, heard))
            i = j
        return results

    async def _run_together(
        self, calls: list[ToolCall], provider: str | None, listeners: tuple[Listener, ...]
    ) -> list[ToolResult]:
        """Calls that run concurrently, started a slice at a time; their results in call order.

        Each call's task records its result and its own end (no callback per task): the last
        to end wakes this one.
        """
        if not calls:
            return []
        results: list[ToolResult | None] = [None] * len(calls)
        room = asyncio.Semaphore(THREADED_WINDOW * self.workers.limit)
        running: dict[int, asyncio.Task[None]] = {}
        all_ended = asyncio.get_running_loop().create_future()
        unended = len(calls)

        async def one(index: int, call: ToolCall, threaded: bool) -> None:
            nonlocal unended
            try:
                results[index] = await self._invoke_call(call, provider, listeners)
            finally:
                if threaded:
                    room.release()
                running.pop(index, None)
                unended -= 1
                if not unended and not all_ended.done():
                    all_ended.set_result(None)

        try:
            for index, call in enumerate(calls):
                if index % SLICE == 0 and index:
                    await asyncio.sleep(0)  # the slice just started takes its first steps, beside other tasks
                threaded = not call.tool.is_async
                if threaded:
                    await room.acquire()
                running[index] = asyncio.ensure_future(one(index, call, threaded))
            await all_ended
        except BaseException:  # cancelled while starting or waiting: the calls under way are cancelled too
            for task in running.values():
                task.cancel()
            raise
        if any(r is None for r in results):  # a call's task was cancelled from outside: as gather would, cancelled
            raise asyncio.CancelledError
        return cast("list[ToolResult]", results)

    async def _invoke_call(
        self, call: ToolCall, provider: str | None, listeners: tuple[Listener, ...] = ()
    ) -> ToolResult:
        context = call.context
        if context is None and not (self._prepare(call.tool).private and call.tool.invocation_mode == "wait"):
            # (a private tool that always waits has nothing that could reach a context: none is made)
            context = ToolContext(call.id, self.services, self.clock, tool_name=call.tool.name, listeners=listeners)
        return await self.invoke(call.tool, call.arguments, context, approved=call.approved, provider=provider)

    async def _background(
        self, tool: Tool[..., Any], kwargs: dict[str, object], context: ToolContext, prepared: _Prepared
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
        prepared: _Prepared,
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
        self, tool: Tool[..., Any], kwargs: dict[str, object], context: ToolContext | None, prepared: _Prepared
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
                if not _cancelled_by_caller():  # the tool's own: its failure, like any other
                    return self._failure(_failed(prepared.name, e), context)
                if context is not None:
                    context.cancellation.cancel()
                raise
            except BaseException as e:  # of any kind, as from the thread
                return self._failure(_failed(prepared.name, e), context)
        return self._finish(tool, value, context, prepared)

    def _finish(
        self, tool: Tool[..., Any], value: object, context: ToolContext | None, prepared: _Prepared
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
        costs = [] if context is None else context.costs
        if isinstance(converted, ToolResult):
            return replace(converted, parts=list(converted.parts), costs=[*converted.costs, *costs])
        typed = value if tool.ends_loop else None
        return ToolResult(converted, False, None, typed, list(costs))

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
