"""``ToolInvoker``: errors become results (contract: "Errors become results", Decisions: Invoker).

Timeouts are measured on a fake clock the test advances by hand, so no test waits for real
time or asserts on it. Waits on worker threads are bounded (a broken invoker fails the test
instead of hanging it). Expected texts are the contract's.
"""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest
from async_support import WAIT, FakeClock, in_thread, run

from onellm_runtime import (
    CancellationToken,
    CostLine,
    JsonPart,
    TextPart,
    Tool,
    ToolContext,
    ToolInvoker,
    ToolResult,
    tool,
    tools_of,
)
from onellm_runtime.invoking.invoker import ToolCall

# --- success, failure, approval -------------------------------------------------------------------


@tool
def add(a: int, b: int) -> int:
    return a + b


@tool
async def fails(message: str) -> str:
    raise ValueError(message)


@tool
def fails_quietly() -> str:
    raise KeyError()


def test_a_call_runs_and_converts_its_result() -> None:
    result = run(lambda: ToolInvoker().invoke(add, '{"a": 2, "b": 3}'))
    assert result == ToolResult([JsonPart(5)], False, None, None, [])


def test_bad_arguments_never_reach_the_body() -> None:
    calls: list[int] = []

    @tool
    def record(n: int) -> str:
        calls.append(n)
        return "ran"

    result = run(lambda: ToolInvoker().invoke(record, '{"n": "1", "m": 2}'))
    text = (
        "Argument 'm' is not a known property; known properties: n.\nArgument 'n' must be an integer, got string \"1\"."
    )
    assert result.is_error and result.error == text and result.parts == [TextPart(text)]
    assert calls == []
    malformed = run(lambda: ToolInvoker().invoke(record, '{"n": 1'))
    assert malformed.error == "Arguments are not valid JSON: Expecting ',' delimiter: line 1 column 8 (char 7)."
    assert calls == []


def test_exception_in_the_tool_becomes_a_result_without_traceback() -> None:
    result = run(lambda: ToolInvoker().invoke(fails, {"message": "disk full"}))
    assert result.is_error
    assert result.error == "Tool 'fails' failed: ValueError: disk full"
    assert result.parts == [TextPart("Tool 'fails' failed: ValueError: disk full")]
    assert result.typed_result is None
    quiet = run(lambda: ToolInvoker().invoke(fails_quietly, "{}"))
    assert quiet.error == "Tool 'fails_quietly' failed: KeyError"


def test_system_exit_in_a_worker_thread_is_the_tool_failing() -> None:
    @tool
    def exits() -> str:
        raise SystemExit(3)

    assert run(lambda: ToolInvoker().invoke(exits, "{}")).error == "Tool 'exits' failed: SystemExit: 3"


def test_approval() -> None:
    ran: list[bool] = []

    @tool(requires_approval=True)
    def delete_repo(name: str) -> str:
        ran.append(True)
        return f"deleted {name}"

    refused = run(lambda: ToolInvoker().invoke(delete_repo, '{"name": "x"}'))
    assert refused.is_error and refused.error == "Tool 'delete_repo' requires approval."
    assert ran == []
    # bad arguments are reported before anyone is asked to approve
    bad = run(lambda: ToolInvoker().invoke(delete_repo, "{}"))
    assert bad.error == "Argument 'name' is required."
    approved = run(lambda: ToolInvoker().invoke(delete_repo, '{"name": "x"}', approved=True))
    assert approved.parts == [TextPart("deleted x")] and not approved.is_error
    assert ran == [True]


# --- injection ----------------------------------------------------------------------------------


def test_context_and_token_are_injected() -> None:
    seen: dict[str, object] = {}

    @tool
    def inspect_call(path: str, ctx: ToolContext, token: CancellationToken) -> str:
        seen.update(ctx=ctx, token=token, name=ctx.tool_name, call=ctx.call_id, service=ctx.services["db"])
        return path

    context = ToolContext(call_id="call_7", services={"db": "conn"})
    result = run(lambda: ToolInvoker().invoke(inspect_call, '{"path": "src"}', context))
    assert result.parts == [TextPart("src")]
    assert seen == {
        "ctx": context,
        "token": context.cancellation,
        "name": "inspect_call",
        "call": "call_7",
        "service": "conn",
    }


def test_positional_only_context_parameter() -> None:
    @tool
    async def pos(a: int, ctx: ToolContext, /) -> str:
        return f"{a}:{ctx.call_id}"

    result = run(lambda: ToolInvoker().invoke(pos, '{"a": 4}', ToolContext(call_id="c")))
    assert result.parts == [TextPart("4:c")]


def test_bound_tools() -> None:
    class Counter:
        def __init__(self) -> None:
            self.n = 10

        @tool
        def bump(self, by: int = 1) -> int:
            self.n += by
            return self.n

        @tool
        async def read(self) -> int:
            return self.n

    counter = Counter()
    invoker = ToolInvoker()
    assert run(lambda: invoker.invoke(counter.bump, '{"by": 5}')).parts == [JsonPart(15)]
    bump, read = tools_of(counter)
    assert run(lambda: invoker.invoke(bump, "{}")).parts == [JsonPart(16)]
    assert run(lambda: invoker.invoke(read, "{}")).parts == [JsonPart(16)]


# --- timeouts and cancellation ------------------------------------------------------------------


def test_async_timeout_on_the_contexts_clock() -> None:
    async def scenario() -> None:
        started = asyncio.Event()
        cancelled: list[bool] = []

        @tool(timeout_seconds=5)
        async def hangs(ctx: ToolContext) -> str:
            ctx.add_cost("tokens", 12, "tok")
            started.set()
            try:
                await asyncio.Event().wait()
            except asyncio.CancelledError:
                cancelled.append(True)
                raise
            return "never"

        clock = FakeClock()
        context = ToolContext(clock=clock)
        task = asyncio.create_task(ToolInvoker().invoke(hangs, "{}", context))
        await started.wait()
        await clock.until_sleeping()
        await clock.advance(4.5)
        assert not task.done()
        await clock.advance(0.5)
        result = await task
        assert result.is_error and result.error == "Tool 'hangs' timed out after 5 s."
        assert result.costs == [CostLine("tokens", 12, "tok")]
        assert context.cancellation.cancelled
        await asyncio.sleep(0)
        assert cancelled == [True]

    run(scenario)


def test_sync_timeout_sets_the_token() -> None:
    async def scenario() -> None:
        entered, observed = threading.Event(), threading.Event()

        @tool(timeout_seconds=2.5)
        def polls(token: CancellationToken) -> str:
            entered.set()
            if token.wait(WAIT):
                observed.set()
            return "late"

        clock = FakeClock()
        context = ToolContext(clock=clock)
        task = asyncio.create_task(ToolInvoker().invoke(polls, "{}", context))
        assert await in_thread(entered)
        await clock.until_sleeping()
        await clock.advance(2.5)
        result = await task
        assert result.error == "Tool 'polls' timed out after 2.5 s."
        assert context.cancellation.cancelled
        assert await in_thread(observed)  # the worker saw the token

    run(scenario)


def test_a_thread_that_ignores_the_token_is_abandoned() -> None:
    async def scenario() -> None:
        entered, gate = threading.Event(), threading.Event()

        @tool(timeout_seconds=1)
        def stubborn() -> str:
            entered.set()
            gate.wait(WAIT)
            return "finally"

        clock = FakeClock()
        task = asyncio.create_task(ToolInvoker().invoke(stubborn, "{}", ToolContext(clock=clock)))
        assert await in_thread(entered)
        await clock.until_sleeping()
        await clock.advance(1)
        result = await task  # answered while the worker is still blocked
        assert result.error == "Tool 'stubborn' timed out after 1 s."
        assert not gate.is_set()
        gate.set()

    run(scenario)


def test_default_clock_is_the_event_loop() -> None:
    @tool(timeout_seconds=0.01)
    def waits_for_token(token: CancellationToken) -> str:
        token.wait(WAIT)
        return "late"

    assert run(lambda: ToolInvoker().invoke(waits_for_token, "{}")).error == (
        "Tool 'waits_for_token' timed out after 0.01 s."
    )


def test_result_before_the_timeout() -> None:
    @tool(timeout_seconds=5)
    async def quick() -> str:
        return "done"

    result = run(lambda: ToolInvoker().invoke(quick, "{}", ToolContext(clock=FakeClock())))
    assert result.parts == [TextPart("done")] and not result.is_error


def test_caller_cancellation_propagates_and_sets_the_token() -> None:
    async def scenario() -> None:
        started = asyncio.Event()

        @tool(timeout_seconds=60)
        async def waits() -> str:
            started.set()
            await asyncio.Event().wait()
            return "never"

        context = ToolContext(clock=FakeClock())
        task = asyncio.create_task(ToolInvoker().invoke(waits, "{}", context))
        await started.wait()
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        assert context.cancellation.cancelled

    run(scenario)


def test_caller_cancellation_of_an_async_tool_without_timeout() -> None:
    async def scenario() -> None:
        started = asyncio.Event()
        seen: list[str] = []

        @tool
        async def waits(token: CancellationToken) -> str:
            started.set()
            try:
                await asyncio.Event().wait()
            except asyncio.CancelledError:
                seen.append("cancelled inside")
                raise
            return "never"

        context = ToolContext()
        task = asyncio.create_task(ToolInvoker().invoke(waits, "{}", context))
        await started.wait()
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        assert context.cancellation.cancelled
        assert seen == ["cancelled inside"]

    run(scenario)


def test_caller_cancellation_of_a_sync_tool() -> None:
    async def scenario() -> None:
        entered, observed = threading.Event(), threading.Event()

        @tool
        def blocks(token: CancellationToken) -> str:
            entered.set()
            if token.wait(WAIT):
                observed.set()
            return "late"

        context = ToolContext()
        task = asyncio.create_task(ToolInvoker().invoke(blocks, "{}", context))
        assert await in_thread(entered)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        assert context.cancellation.cancelled
        assert await in_thread(observed)

    run(scenario)


# --- costs ----------------------------------------------------------------------------------------


def test_cost_lines_are_kept_on_every_path() -> None:
    @tool
    def costs_then_fails(ctx: ToolContext) -> str:
        ctx.add_cost("calls", 1)
        raise RuntimeError("boom")

    @tool
    def costs_then_returns(ctx: ToolContext) -> ToolResult:
        ctx.add_cost("usd", 0.5, "USD")
        return ToolResult([TextPart("own")], costs=[CostLine("tokens", 7, "tok")])

    @tool(requires_approval=True)
    def needs_approval(ctx: ToolContext) -> str:
        ctx.add_cost("never", 1)
        return ""

    failed = run(lambda: ToolInvoker().invoke(costs_then_fails, "{}"))
    assert failed.error == "Tool 'costs_then_fails' failed: RuntimeError: boom"
    assert failed.costs == [CostLine("calls", 1, "")]
    passed = run(lambda: ToolInvoker().invoke(costs_then_returns, "{}"))
    assert passed.parts == [TextPart("own")]
    assert passed.costs == [CostLine("tokens", 7, "tok"), CostLine("usd", 0.5, "USD")]
    context = ToolContext()
    context.add_cost("before", 2)  # lines the caller put on its own context stay too
    refused = run(lambda: ToolInvoker().invoke(needs_approval, "{}", context))
    assert refused.costs == [CostLine("before", 2, "")]


# --- batches -----------------------------------------------------------------------------------------


def test_invoke_all_keeps_call_order() -> None:
    results = run(
        lambda: ToolInvoker().invoke_all(
            [(add, '{"a": 1, "b": 1}'), ToolCall(fails, {"message": "x"}, id="c2"), (add, {"a": 2, "b": 2})]
        )
    )
    assert [r.parts for r in results] == [
        [JsonPart(2)],
        [TextPart("Tool 'fails' failed: ValueError: x")],
        [JsonPart(4)],
    ]


def test_parallel_safe_calls_run_concurrently() -> None:
    async def scenario() -> None:
        a_started, b_started = asyncio.Event(), asyncio.Event()

        @tool
        async def first() -> str:
            a_started.set()
            await asyncio.wait_for(b_started.wait(), WAIT)  # only finishes if 'second' runs meanwhile
            return "a"

        @tool
        async def second() -> str:
            b_started.set()
            await asyncio.wait_for(a_started.wait(), WAIT)
            return "b"

        barrier = threading.Barrier(2, timeout=WAIT)

        @tool
        def left() -> str:
            barrier.wait()  # two worker threads at once
            return "l"

        @tool
        def right() -> str:
            barrier.wait()
            return "r"

        results = await ToolInvoker().invoke_all([(first, "{}"), (second, "{}"), (left, "{}"), (right, "{}")])
        assert [r.text for r in results] == ["a", "b", "l", "r"]

    run(scenario)


def test_calls_that_are_not_parallel_safe_run_alone_in_order() -> None:
    async def scenario() -> None:
        log: list[str] = []

        def make(name: str, safe: bool) -> Tool[..., Any]:
            async def body() -> str:
                log.append(f"start {name}")
                for _ in range(3):
                    await asyncio.sleep(0)
                log.append(f"end {name}")
                return name

            body.__name__ = name
            return Tool.create(body, name=name, parallel_safe=safe)

        calls = [make("a", True), make("b", True), make("c", False), make("d", True), make("e", False)]
        results = await ToolInvoker().invoke_all([(t, "{}") for t in calls])
        assert [r.text for r in results] == ["a", "b", "c", "d", "e"]
        # a and b overlap; c runs after both and before d; e after d
        assert log[:2] == ["start a", "start b"]
        assert log[4:] == ["start c", "end c", "start d", "end d", "start e", "end e"]

    run(scenario)


# --- invocation mode ---------------------------------------------------------------------------


def test_invocation_mode_wait_runs_inline_and_background_answers_a_job_handle() -> None:
    # Jobs themselves (read, stop, timeouts, retention, shutdown) are tested in test_jobs.py.
    @tool(invocation_mode="model_choice")
    def build_index(path: str) -> str:
        return f"indexed {path}"

    invoker = ToolInvoker()
    result = run(lambda: invoker.invoke(build_index, '{"path": "src", "invocationMode": "wait"}'))
    assert result.parts == [TextPart("indexed src")]
    started = run(lambda: invoker.invoke(build_index, '{"path": "src", "invocationMode": "background"}'))
    assert started.parts == [JsonPart({"job": "job-1", "status": "running"})] and not started.is_error
    bad = run(lambda: invoker.invoke(build_index, '{"path": "src", "invocationMode": "soon"}'))
    assert bad.error == "Argument 'invocationMode' must be one of: wait, background; got \"soon\"."


# --- the inline path without a context of the caller's ---------------------------------------------


@tool
async def echo_async(text: str) -> str:
    return text


@tool
async def returns_awaitable(text: str):  # type: ignore[no-untyped-def]  # unannotated: written by its own type
    return asyncio.sleep(0, result=text.upper())  # awaited too, as a sync tool's awaitable is


def test_an_async_tool_without_context_gives_what_it_gives_with_one() -> None:
    # No context is made for a call that could not reach it: the results must not show it.
    for t, arguments in ((echo_async, '{"text": "hi"}'), (fails, '{"message": "no"}'), (echo_async, '{"text": 1}')):
        alone = run(lambda: ToolInvoker().invoke(t, arguments))
        given = run(lambda: ToolInvoker().invoke(t, arguments, ToolContext()))
        assert alone == given
        assert alone.costs == []


def test_an_awaitable_returned_by_an_async_tool_is_awaited() -> None:
    result = run(lambda: ToolInvoker().invoke(returns_awaitable, '{"text": "hi"}'))
    assert not result.is_error and result.text == "HI"


def test_a_context_of_the_callers_gets_the_tools_name_on_the_inline_path() -> None:
    context = ToolContext()
    result = run(lambda: ToolInvoker().invoke(echo_async, '{"text": "hi"}', context))
    assert result == ToolResult([TextPart("hi")], False, None, None, [])
    assert context.tool_name == echo_async.name


def test_a_cancelled_batch_cancels_every_call_under_way_and_sets_their_tokens() -> None:
    """The caller's cancellation of ``invoke_all`` reaches each concurrent call: async calls are
    cancelled, sync calls are left (their tokens set); none becomes a result."""
    started = 0
    lock = threading.Lock()
    cancelled: list[str] = []

    async def waits(name: str) -> str:
        nonlocal started
        with lock:
            started += 1
        try:
            await asyncio.sleep(60)
        except asyncio.CancelledError:
            cancelled.append(name)
            raise
        return name

    def blocks(name: str, token: CancellationToken) -> str:
        nonlocal started
        with lock:
            started += 1
        token.wait(60)
        cancelled.append(f"{name} (token)")
        return name

    a, s = Tool.create(waits), Tool.create(blocks)
    calls = [(a, '{"name": "a1"}'), (s, '{"name": "s1"}'), (a, '{"name": "a2"}'), (s, '{"name": "s2"}')]

    async def scenario() -> None:
        batch = asyncio.ensure_future(ToolInvoker().invoke_all(calls))
        while started < 4:  # every call under way, the sync ones in their threads
            await asyncio.sleep(0.001)
        batch.cancel()
        with pytest.raises(asyncio.CancelledError):
            await batch
        for _ in range(500):  # the sync calls' threads see their tokens
            if len(cancelled) == 4:
                break
            await asyncio.sleep(0.01)

    asyncio.run(scenario())
    assert sorted(cancelled) == ["a1", "a2", "s1 (token)", "s2 (token)"]


def test_a_batch_answers_every_call_when_its_first_calls_end_before_the_last_start() -> None:
    """Plain functions with a timeout are started a few per worker at a time: with one worker,
    the batch waits for room after four, and those four all end while it waits. The calls
    started after them are still awaited and answered."""

    def quick(n: int) -> int:
        return n

    t = Tool.create(quick, timeout_seconds=5)
    results = run(lambda: ToolInvoker(max_workers=1).invoke_all([(t, f'{{"n": {n}}}') for n in range(40)]))
    assert [r.text for r in results] == [str(n) for n in range(40)]


def test_a_cancelled_batch_starts_none_of_its_queued_sync_calls() -> None:
    """One worker, six plain-function calls: the first blocks until its token is set, the
    other five wait their turn. Cancelling the batch sets the first one's token and drops
    the five: none of them ever runs, and no worker is left counted."""
    ran: list[int] = []
    first_started = threading.Event()

    def step(n: int, token: CancellationToken) -> int:
        ran.append(n)
        if n == 0:
            first_started.set()
            token.wait(WAIT)
        return n

    t = Tool.create(step)
    invoker = ToolInvoker(max_workers=1)

    async def scenario() -> None:
        batch = asyncio.ensure_future(invoker.invoke_all([(t, f'{{"n": {n}}}') for n in range(6)]))
        await in_thread(first_started)
        batch.cancel()
        with pytest.raises(asyncio.CancelledError):
            await batch
        await asyncio.sleep(0.2)  # time enough for a queued call to start, were any still queued

    asyncio.run(scenario())
    assert ran == [0]
    assert invoker.workers.active == 0
