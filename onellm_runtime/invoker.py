"""``ToolInvoker``: run one tool call, or a batch, where every failure becomes a result.

One call goes: bind strictly (bad arguments never reach the function) -> approval ->
inject the ``ToolContext`` / ``CancellationToken`` the function declares -> run (an
``async def`` on the event loop, a plain function in a worker thread of its own) under
the tool's timeout, measured on the context's clock -> convert the return value (the
contract's Results table) -> attach the cost lines the tool added. Only the caller's own
cancellation escapes, as ``asyncio.CancelledError``; it sets the tool's token first.

A worker thread is a daemon thread per call rather than a pool worker: at a timeout the
invoker answers at once and sets the token, and a thread that ignores the token is
abandoned, never awaited (a pool would be joined when the event loop shuts down).

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
import contextvars
import inspect
import threading
from dataclasses import dataclass, replace
from types import TracebackType
from typing import TYPE_CHECKING, Any, Callable, Iterable, Mapping, Union

from .binding import ArgumentError, CompiledBinder, compile_binder
from .context import CancellationToken, Clock, ToolContext
from .convert import Converter, compile_converter
from .jobs import Job, JobRegistry
from .results import ToolResult

if TYPE_CHECKING:
    from .tool import Tool

__all__ = ["ToolCall", "ToolInvoker"]

Arguments = Union[str, bytes, Mapping[str, object]]


@dataclass(frozen=True)
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
    """What the invoker derives once per tool model: its binder, its result converter, its facts."""

    __slots__ = ("binder", "convert", "context_params", "token_params", "name", "inline", "private")

    def __init__(self, tool: Tool[..., Any]) -> None:
        model = tool.model
        self.binder: CompiledBinder = compile_binder(model)
        self.convert: Converter = compile_converter(model)
        self.context_params = tuple(p.name for p in model.params if p.kind == "context")
        self.token_params = tuple(p.name for p in model.params if p.kind == "cancellation")
        self.name = tool.name
        #: An ``async def`` without a timeout runs in the caller's task: nothing to race it
        #: against, and the caller's cancellation reaches it directly.
        self.inline = tool.is_async and not tool.timeout_seconds > 0
        #: Inline, and no parameter takes the context or the token: a call needs no context
        #: unless the caller hands one in (or the call becomes a job).
        self.private = self.inline and not self.context_params and not self.token_params


#: Return values that cannot be awaitable (``inspect.isawaitable`` asks an ABC, which costs more).
_NEVER_AWAITABLE = frozenset({type(None), str, int, float, bool, dict, list, tuple, bytes})


def _seconds(timeout: float) -> str:
    return f"{timeout:g}"


class _Escaped(Exception):
    """A ``SystemExit`` or ``KeyboardInterrupt`` raised in a worker thread, reported as the tool's failure.

    (Re-raised on the event loop as itself, it would stop the loop rather than fail the call.)
    """

    def __init__(self, original: BaseException) -> None:
        super().__init__(str(original))
        self.original = original


def _describe(e: BaseException) -> str:
    if isinstance(e, _Escaped):
        e = e.original
    text = str(e)
    return f"{type(e).__name__}: {text}" if text else type(e).__name__


def _settle(future: asyncio.Future[Any], outcome: Callable[[], Any]) -> None:
    if not future.done():
        try:
            future.set_result(outcome())
        except BaseException as e:  # the tool's exception, carried to the loop
            future.set_exception(e)


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
    """

    def __init__(
        self,
        *,
        services: Any = None,
        clock: Clock | None = None,
        jobs: JobRegistry | None = None,
    ) -> None:
        self.services = services
        self.clock = clock
        self.jobs: JobRegistry = jobs if jobs is not None else JobRegistry()
        self._prepared: dict[int, tuple[object, _Prepared]] = {}

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
        entry = self._prepared.get(id(model))
        if entry is not None and entry[0] is model:
            return entry[1]
        prepared = _Prepared(tool)
        self._prepared[id(model)] = (model, prepared)
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
        """Run one call; never raises for bad arguments or the tool's own failure."""
        prepared = self._prepare(tool)
        if context is not None and not context.tool_name:
            context.tool_name = prepared.name
        try:
            kwargs, mode = prepared.binder._bind(arguments, provider)  # pyright: ignore[reportPrivateUsage]
        except ArgumentError as e:
            return self._failure(str(e), context)
        if tool.requires_approval and not approved:
            return self._failure(f"Tool '{prepared.name}' requires approval.", context)
        if context is None and (not prepared.private or mode == "background"):
            context = ToolContext(services=self.services, clock=self.clock, tool_name=prepared.name)
        if context is not None:
            for name in prepared.context_params:
                kwargs[name] = context
            for name in prepared.token_params:
                kwargs[name] = context.cancellation
            if mode == "background":
                return await self._background(tool, kwargs, context, prepared)
            if not prepared.inline:
                return await self._run(tool, kwargs, context, prepared)
        # An async tool without a timeout, in the caller's task. Without a context of the
        # caller's and with no parameter to receive one, no context is made: nothing could
        # reach it (no cost line can be added, no one can read its token).
        try:
            value = await tool.call_with(kwargs)
            if type(value) not in _NEVER_AWAITABLE and inspect.isawaitable(value):
                value = await value
        except asyncio.CancelledError:
            if context is not None:
                context.cancellation.cancel()
            raise
        except Exception as e:
            return self._failure(f"Tool '{prepared.name}' failed: {_describe(e)}", context)
        return self._finish(tool, value, context, prepared)

    async def invoke_all(
        self, calls: Iterable[ToolCall | tuple[Tool[..., Any], Arguments]], *, provider: str | None = None
    ) -> list[ToolResult]:
        """Run a batch (see the module docstring for the order); results in call order."""
        batch = [c if isinstance(c, ToolCall) else ToolCall(c[0], c[1]) for c in calls]
        results: list[ToolResult] = []
        i = 0
        while i < len(batch):
            j = i + 1
            if batch[i].tool.parallel_safe:
                while j < len(batch) and batch[j].tool.parallel_safe:
                    j += 1
            results.extend(await asyncio.gather(*(self._invoke_call(c, provider) for c in batch[i:j])))
            i = j
        return results

    async def _invoke_call(self, call: ToolCall, provider: str | None) -> ToolResult:
        context = call.context
        if context is None:
            context = ToolContext(call.id, self.services, self.clock, tool_name=call.tool.name)
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
        task = asyncio.ensure_future(self._call(tool, kwargs, token, loop))
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
        if task.cancelled():
            return self._failure(f"Tool '{tool.name}' failed: CancelledError", context)
        error = task.exception()
        if error is not None:
            return self._failure(f"Tool '{tool.name}' failed: {_describe(error)}", context)
        return self._finish(tool, task.result(), context, prepared)

    def _finish(
        self, tool: Tool[..., Any], value: object, context: ToolContext | None, prepared: _Prepared
    ) -> ToolResult:
        """The result of a call that returned ``value`` (the Results table; costs attached)."""
        try:
            converted = prepared.convert(value)
        except Exception as e:
            return self._failure(
                f"Tool '{prepared.name}' failed: its result cannot be converted: {_describe(e)}", context
            )
        costs = [] if context is None else context.costs
        if isinstance(converted, ToolResult):
            return replace(converted, parts=list(converted.parts), costs=[*converted.costs, *costs])
        typed = value if tool.ends_loop else None
        return ToolResult(converted, False, None, typed, list(costs))

    async def _call(
        self, tool: Tool[..., Any], kwargs: dict[str, object], token: CancellationToken, loop: asyncio.AbstractEventLoop
    ) -> Any:
        if tool.is_async:
            result = await tool.call_with(kwargs)
        else:
            result = await self._in_thread(tool, kwargs, loop)
        if inspect.isawaitable(result):
            result = await result
        return result

    @staticmethod
    async def _in_thread(tool: Tool[..., Any], kwargs: dict[str, object], loop: asyncio.AbstractEventLoop) -> Any:
        future: asyncio.Future[Any] = loop.create_future()
        ctx = contextvars.copy_context()

        def run() -> None:
            try:
                value = ctx.run(tool.call_with, kwargs)
                outcome: Callable[[], Any] = lambda: value  # noqa: E731
            except BaseException as e:  # carried to the loop; a worker has no one else to tell
                error = e if isinstance(e, Exception) else _Escaped(e)

                def outcome() -> Any:
                    raise error

            try:
                loop.call_soon_threadsafe(_settle, future, outcome)
            except RuntimeError:  # the loop is closed: the call was abandoned long ago
                pass

        threading.Thread(target=run, name=f"onellm-tool-{tool.name}", daemon=True).start()
        return await future

    @staticmethod
    def _failure(message: str, context: ToolContext | None) -> ToolResult:
        return ToolResult.failure(message, None if context is None else list(context.costs))
