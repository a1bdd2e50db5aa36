"""Background invocation (contract: "Invocation mode"): jobs the model starts, reads and stops.

Timeouts and retention ages run on a fake clock the test moves by hand; nothing waits for
real time. Waits on worker threads are bounded (a broken invoker fails instead of
hanging). Expected texts are written from the contract and ``onellm_runtime/jobs.py``'s
documented messages, never pasted from a run.
"""

from __future__ import annotations

import asyncio
import json
import threading
from pathlib import Path
from typing import Any

import pytest
from async_support import WAIT, FakeClock, in_thread, run

from onellm_runtime import (
    CancellationToken,
    CostLine,
    Job,
    JobRegistry,
    JsonPart,
    TextPart,
    Tool,
    ToolContext,
    ToolDefinitionError,
    ToolInvoker,
    ToolResult,
    job_tools,
    tool,
)
from onellm_runtime.cli import manifest

ROOT = Path(__file__).resolve().parent.parent


def background(arguments: dict[str, object]) -> str:
    return json.dumps({**arguments, "invocationMode": "background"})


def handle(job_id: str, status: str) -> ToolResult:
    return ToolResult([JsonPart({"job": job_id, "status": status})], False, None, None, [])


def no_other_tasks() -> bool:
    return asyncio.all_tasks() == {asyncio.current_task()}


UNKNOWN = 'Unknown job "{}". A finished job is forgotten once its result has been read, and an unread result expires.'


# --- the schema ----------------------------------------------------------------------------------


@tool(invocation_mode="model_choice", timeout_seconds=30)
def build_index(path: str, depth: int = 2) -> str:
    """Index a source tree.

    Args:
        path: Where to start.
        depth: How many levels to descend.
    """
    return f"indexed {path} to depth {depth}"


def test_model_choice_adds_the_control_last_never_required() -> None:
    assert json.dumps(build_index.input_schema) == (
        '{"type": "object", "properties": {'
        '"path": {"type": "string", "description": "Where to start."}, '
        '"depth": {"type": "integer", "description": "How many levels to descend.", "default": 2}, '
        '"invocationMode": {"type": "string", "enum": ["wait", "background"], "default": "wait"}}, '
        '"required": ["path"], "additionalProperties": false}'
    )

    def crawl() -> str:
        return ""

    created = Tool.create(crawl, invocation_mode="model_choice")
    assert json.dumps(created.input_schema) == (
        '{"type": "object", "properties": {'
        '"invocationMode": {"type": "string", "enum": ["wait", "background"], "default": "wait"}}, '
        '"additionalProperties": false}'
    )
    assert json.dumps(Tool.create(crawl).input_schema) == (
        '{"type": "object", "properties": {}, "additionalProperties": false}'
    )


_VALID_MODULE = '''\
from typing import Annotated

from onellm_runtime import CancellationToken, Description, Tool, ToolContext, tool


@tool(invocation_mode="model_choice", timeout_seconds=30)
def build_index(path: str, depth: int = 2, *, token: CancellationToken) -> str:
    """Index a source tree.

    Args:
        path: Where to start.
        depth: How many levels to descend.
    """
    return path


def _crawl(url: Annotated[str, Description("The first page.")], ctx: ToolContext) -> list[str]:
    return [url]


crawl = Tool.create(_crawl, name="crawl", invocation_mode="model_choice", parallel_safe=False)


class Builds:
    @tool(invocation_mode="model_choice")
    async def run_target(self, target_name: str, dry_run: bool = False) -> str:
        """Run one build target."""
        return target_name


@tool(invocation_mode="wait")
def quick(path: str) -> str:
    return path
'''

_CLASH_MODULE = """\
from onellm_runtime import tool


@tool(invocation_mode="model_choice")
def clash(path: str, invocationMode: str) -> str:
    return path
"""

_OLT015 = (
    "Tool 'clash': Parameter 'invocationMode' clashes with the framework control that "
    "invocation_mode='model_choice' adds; rename the parameter"
)


def test_static_and_runtime_schemas_are_the_same_bytes_and_both_report_olt015(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from onellm_mypy.extract import StaticDiagnostic, extract
    from onellm_runtime.cli.main import runtime_entries

    monkeypatch.chdir(ROOT)  # mypy finds onellm_runtime from the repository root
    valid = tmp_path / "jobs_fixture_valid.py"
    valid.write_text(_VALID_MODULE, encoding="utf-8")
    clash = tmp_path / "jobs_fixture_clash.py"
    clash.write_text(_CLASH_MODULE, encoding="utf-8")

    result = extract([str(valid), str(clash)])
    assert result.diagnostics == [StaticDiagnostic(str(clash), 5, 22, "OLT015", _OLT015)]
    static = [manifest.entry(t.module, t.qualname, t.model) for t in result.tools]
    monkeypatch.syspath_prepend(str(tmp_path))
    runtime = runtime_entries(manifest.discover([str(valid)]))
    assert [e["qualname"] for e in runtime] == ["build_index", "_crawl", "Builds.run_target", "quick"]
    assert manifest.dumps(static) == manifest.dumps(runtime)
    control = {"type": "string", "enum": ["wait", "background"], "default": "wait"}
    for entry in runtime[:3]:
        properties = entry["input_schema"]["properties"]
        assert list(properties)[-1] == "invocationMode" and properties["invocationMode"] == control
        assert "invocationMode" not in entry["input_schema"].get("required", [])
    assert "invocationMode" not in runtime[3]["input_schema"]["properties"]
    assert json.dumps(runtime[2]["input_schema"]) == (
        '{"type": "object", "properties": {"target_name": {"type": "string"}, '
        '"dry_run": {"type": "boolean", "default": false}, '
        '"invocationMode": {"type": "string", "enum": ["wait", "background"], "default": "wait"}}, '
        '"required": ["target_name"], "additionalProperties": false}'
    )

    def clash_fn(path: str, invocationMode: str) -> str:
        return path

    clash_fn.__name__ = "clash"
    with pytest.raises(ToolDefinitionError) as caught:
        tool(invocation_mode="model_choice")(clash_fn)
    assert caught.value.code == "OLT015"
    assert str(caught.value) == _OLT015 + "  [OLT015]"
    assert json.dumps(tool(clash_fn).input_schema) == (  # the default mode has no control to clash with
        '{"type": "object", "properties": {"path": {"type": "string"}, "invocationMode": {"type": "string"}}, '
        '"required": ["path", "invocationMode"], "additionalProperties": false}'
    )


# --- invocation modes --------------------------------------------------------------------------


def test_wait_mode_runs_inline_and_a_wait_tool_does_not_know_the_control() -> None:
    async def scenario() -> None:
        invoker = ToolInvoker()
        waited = await invoker.invoke(build_index, '{"path": "src", "invocationMode": "wait"}')
        assert waited == ToolResult([TextPart("indexed src to depth 2")], False, None, None, [])
        assert list(invoker.jobs) == []

        @tool
        def plain(path: str) -> str:
            return path

        for mode in ("wait", "background"):
            refused = await invoker.invoke(plain, {"path": "src", "invocationMode": mode})
            assert refused.error == "Argument 'invocationMode' is not a known property; known properties: path."
        assert list(invoker.jobs) == []

    run(scenario)


def test_background_start_then_read_while_running_and_after_completion() -> None:
    async def scenario() -> None:
        started, release = asyncio.Event(), asyncio.Event()
        calls: list[tuple[str, int]] = []

        @tool(invocation_mode="model_choice")
        async def build(path: str, ctx: ToolContext, depth: int = 2) -> str:
            calls.append((path, depth))
            ctx.add_cost("files", 3)
            started.set()
            await release.wait()
            return f"built {path}"

        invoker = ToolInvoker()
        context = ToolContext(call_id="call_1")
        start = await invoker.invoke(build, background({"path": "src"}), context)
        assert start == handle("job-1", "running")
        assert start.text == '{"job":"job-1","status":"running"}'
        assert list(invoker.jobs) == ["job-1"]
        job = invoker.jobs["job-1"]
        assert isinstance(job, Job)
        assert (job.id, job.tool_name, job.status, job.result) == ("job-1", "build", "running", None)
        assert job.context is context and job.cancellation is context.cancellation
        assert repr(job) == "Job(id='job-1', tool='build', status='running')"

        await started.wait()
        assert calls == [("src", 2)]  # bound arguments, the control removed
        assert job.costs == [CostLine("files", 3)]
        assert invoker.jobs.read("job-1") == handle("job-1", "running")
        assert invoker.jobs.read("job-1") == handle("job-1", "running")  # reading a running job keeps it

        release.set()
        final = await job.wait()
        assert job.status == "completed" and not job.cancellation.cancelled
        assert final == ToolResult([TextPart("built src")], False, None, None, [CostLine("files", 3)])
        assert list(invoker.jobs) == ["job-1"]  # wait() is not a read
        assert invoker.jobs.read("job-1") == final
        assert list(invoker.jobs) == [] and "job-1" not in invoker.jobs  # given once, then forgotten
        again = invoker.jobs.read("job-1")
        assert again.is_error and again.error == UNKNOWN.format("job-1")
        assert calls == [("src", 2)]
        assert no_other_tasks()

    run(scenario)


def test_bad_arguments_and_missing_approval_are_immediate_errors() -> None:
    async def scenario() -> None:
        @tool(invocation_mode="model_choice", requires_approval=True)
        def deploy(target: str) -> str:
            return f"deployed {target}"

        invoker = ToolInvoker()
        bad = await invoker.invoke(deploy, '{"target": 1, "invocationMode": "background"}')
        assert bad.error == "Argument 'target' must be a string, got integer 1."
        wrong_mode = await invoker.invoke(deploy, '{"target": "prod", "invocationMode": "later"}')
        assert wrong_mode.error == "Argument 'invocationMode' must be one of: wait, background; got \"later\"."
        refused = await invoker.invoke(deploy, background({"target": "prod"}))
        assert refused.error == "Tool 'deploy' requires approval."
        assert list(invoker.jobs) == []
        approved = await invoker.invoke(deploy, background({"target": "prod"}), approved=True)
        assert approved == handle("job-1", "running")
        assert await invoker.jobs["job-1"].wait() == ToolResult([TextPart("deployed prod")])

    run(scenario)


def test_each_job_keeps_its_own_context_costs_and_token() -> None:
    async def scenario() -> None:
        gate, both = asyncio.Event(), asyncio.Event()
        running: list[int] = []

        @tool(invocation_mode="model_choice")
        async def step(n: int, ctx: ToolContext, token: CancellationToken) -> str:
            ctx.add_cost("steps", n)
            running.append(n)
            if len(running) == 2:
                both.set()
            await gate.wait()
            return f"step {n}, cancelled={token.cancelled}"

        invoker = ToolInvoker(services={"db": "conn"})
        await invoker.invoke(step, background({"n": 1}))
        await invoker.invoke(step, background({"n": 2}))
        first, second = invoker.jobs["job-1"], invoker.jobs["job-2"]
        assert first.context is not second.context
        assert first.context.services == {"db": "conn"} and first.context.tool_name == "step"
        await both.wait()
        assert await first.stop() == handle("job-1", "stopped")
        assert first.cancellation.cancelled and not second.cancellation.cancelled
        gate.set()
        assert await second.wait() == ToolResult([TextPart("step 2, cancelled=False")], costs=[CostLine("steps", 2)])
        assert first.result == ToolResult.failure("Tool 'step' was stopped.", [CostLine("steps", 1)])

    run(scenario)


def test_a_tool_made_with_create_runs_in_the_background() -> None:
    async def scenario() -> None:
        def crawl(url: str) -> list[str]:
            return [url, url + "/about"]

        crawler = Tool.create(crawl, name="crawl_site", invocation_mode="model_choice")
        invoker = ToolInvoker()
        assert await invoker.invoke(crawler, background({"url": "https://x.test"})) == handle("job-1", "running")
        result = await invoker.jobs["job-1"].wait()
        assert result == ToolResult([JsonPart(["https://x.test", "https://x.test/about"])])
        assert invoker.jobs["job-1"].tool_name == "crawl_site"

    run(scenario)


# --- stop ----------------------------------------------------------------------------------------


def test_stop_an_async_job_sets_its_token_and_its_result_says_so() -> None:
    async def scenario() -> None:
        started = asyncio.Event()
        seen: list[str] = []

        @tool(invocation_mode="model_choice")
        async def crawl(url: str, ctx: ToolContext) -> str:
            ctx.add_cost("pages", 4)
            started.set()
            try:
                await asyncio.Event().wait()
            except asyncio.CancelledError:
                seen.append(f"cancelled, token={ctx.cancellation.cancelled}")
                raise
            return "never"

        invoker = ToolInvoker()
        await invoker.invoke(crawl, background({"url": "https://x.test"}))
        await started.wait()
        job = invoker.jobs["job-1"]
        assert await invoker.jobs.stop("job-1") == handle("job-1", "stopped")
        assert seen == ["cancelled, token=True"]
        assert job.status == "stopped" and job.cancellation.cancelled
        assert no_other_tasks()
        assert await invoker.jobs.stop("job-1") == handle("job-1", "stopped")  # stopping twice changes nothing
        stopped = invoker.jobs.read("job-1")
        assert stopped == ToolResult(
            [TextPart("Tool 'crawl' was stopped.")], True, "Tool 'crawl' was stopped.", None, [CostLine("pages", 4)]
        )
        assert (await invoker.jobs.stop("job-1")).error == UNKNOWN.format("job-1")

    run(scenario)


def test_stop_a_sync_job_the_worker_thread_sees_the_token_and_ends() -> None:
    async def scenario() -> None:
        entered, observed, left = threading.Event(), threading.Event(), threading.Event()

        @tool(invocation_mode="model_choice")
        def index(path: str, token: CancellationToken) -> str:
            entered.set()
            try:
                if token.wait(WAIT):
                    observed.set()
                return "late"
            finally:
                left.set()

        invoker = ToolInvoker()
        await invoker.invoke(index, background({"path": "src"}))
        assert await in_thread(entered)
        assert await invoker.jobs.stop("job-1") == handle("job-1", "stopped")
        assert invoker.jobs["job-1"].cancellation.cancelled
        assert await in_thread(observed) and await in_thread(left)
        assert invoker.jobs["job-1"].result == ToolResult.failure("Tool 'index' was stopped.")
        assert no_other_tasks()

    run(scenario)


def test_stopping_a_finished_job_keeps_its_result() -> None:
    async def scenario() -> None:
        invoker = ToolInvoker()
        await invoker.invoke(build_index, background({"path": "lib"}))
        job = invoker.jobs["job-1"]
        await job.wait()
        assert await invoker.jobs.stop("job-1") == handle("job-1", "completed")
        assert not job.cancellation.cancelled
        assert invoker.jobs.read("job-1") == ToolResult([TextPart("indexed lib to depth 2")])

    run(scenario)


# --- timeouts and errors inside a job ------------------------------------------------------------------


def test_timeout_inside_a_job_on_the_fake_clock() -> None:
    async def scenario() -> None:
        started = asyncio.Event()

        @tool(invocation_mode="model_choice", timeout_seconds=5)
        async def hangs(ctx: ToolContext) -> str:
            ctx.add_cost("tokens", 12, "tok")
            started.set()
            await asyncio.Event().wait()
            return "never"

        clock = FakeClock()
        invoker = ToolInvoker(clock=clock)
        assert await invoker.invoke(hangs, '{"invocationMode": "background"}') == handle("job-1", "running")
        job = invoker.jobs["job-1"]
        await started.wait()
        await clock.until_sleeping()
        await clock.advance(4.5)
        assert invoker.jobs.read("job-1") == handle("job-1", "running")
        await clock.advance(0.5)
        result = await job.wait()
        assert job.status == "timed_out" and job.cancellation.cancelled
        assert result == ToolResult.failure("Tool 'hangs' timed out after 5 s.", [CostLine("tokens", 12, "tok")])
        assert job.finished_at == 5.0 and job.started_at == 0.0
        assert invoker.jobs.read("job-1") == result
        await invoker.aclose()
        assert no_other_tasks()

    run(scenario)


def test_timeout_of_a_sync_job_sets_the_token_for_its_thread() -> None:
    async def scenario() -> None:
        entered, observed = threading.Event(), threading.Event()

        @tool(invocation_mode="model_choice", timeout_seconds=2.5)
        def polls(token: CancellationToken) -> str:
            entered.set()
            if token.wait(WAIT):
                observed.set()
            return "late"

        clock = FakeClock()
        invoker = ToolInvoker(clock=clock)
        await invoker.invoke(polls, '{"invocationMode": "background"}')
        assert await in_thread(entered)
        await clock.until_sleeping()
        await clock.advance(2.5)
        job = invoker.jobs["job-1"]
        assert (await job.wait()).error == "Tool 'polls' timed out after 2.5 s."
        assert job.status == "timed_out"
        assert await in_thread(observed)

    run(scenario)


def test_errors_inside_a_job_become_its_result() -> None:
    async def scenario() -> None:
        @tool(invocation_mode="model_choice")
        def fails(ctx: ToolContext) -> str:
            ctx.add_cost("calls", 1)
            raise ValueError("disk full")

        @tool(invocation_mode="model_choice")
        async def refuses() -> ToolResult:
            return ToolResult.failure("no such target")

        @tool(invocation_mode="model_choice")
        async def quiet() -> int:
            raise KeyError()

        invoker = ToolInvoker()
        failing: list[Tool[..., Any]] = [fails, refuses, quiet]
        for n, t in enumerate(failing, start=1):
            assert await invoker.invoke(t, '{"invocationMode": "background"}') == handle(f"job-{n}", "running")
        results = [await invoker.jobs[f"job-{n}"].wait() for n in (1, 2, 3)]
        assert [invoker.jobs[f"job-{n}"].status for n in (1, 2, 3)] == ["failed", "failed", "failed"]
        assert results[0] == ToolResult.failure("Tool 'fails' failed: ValueError: disk full", [CostLine("calls", 1)])
        assert results[1] == ToolResult.failure("no such target")
        assert results[2] == ToolResult.failure("Tool 'quiet' failed: KeyError")
        assert invoker.jobs.read("job-1") == results[0]

    run(scenario)


# --- retention ---------------------------------------------------------------------------------------


def test_retention_by_count_drops_the_oldest_unread_and_never_a_running_job() -> None:
    async def scenario() -> None:
        release = asyncio.Event()

        @tool(invocation_mode="model_choice")
        async def slow() -> str:
            await release.wait()
            return "slow"

        @tool(invocation_mode="model_choice")
        async def quick(n: int) -> int:
            return n

        clock = FakeClock()
        invoker = ToolInvoker(clock=clock, jobs=JobRegistry(max_finished=2))
        await invoker.invoke(slow, '{"invocationMode": "background"}')
        for n in (2, 3, 4):
            await invoker.invoke(quick, background({"n": n}))
            await invoker.jobs[f"job-{n}"].wait()
            clock.now += 1
        assert list(invoker.jobs) == ["job-1", "job-3", "job-4"]  # job-2 finished first: dropped
        assert invoker.jobs.read("job-3") == ToolResult([JsonPart(3)])
        assert list(invoker.jobs) == ["job-1", "job-4"]
        release.set()
        await invoker.jobs["job-1"].wait()
        clock.now += 1
        assert list(invoker.jobs) == ["job-1", "job-4"]
        await invoker.invoke(quick, background({"n": 5}))
        await invoker.jobs["job-5"].wait()
        assert list(invoker.jobs) == ["job-1", "job-5"]  # job-4 had finished before job-1
        assert invoker.jobs.read("job-4").error == UNKNOWN.format("job-4")
        assert len(invoker.jobs) == 2

    run(scenario)


def test_retention_by_age_on_the_jobs_clock() -> None:
    async def scenario() -> None:
        release = asyncio.Event()

        @tool(invocation_mode="model_choice")
        async def slow() -> str:
            await release.wait()
            return "slow"

        clock = FakeClock()
        invoker = ToolInvoker(clock=clock, jobs=JobRegistry(max_age=60))
        await invoker.invoke(build_index, background({"path": "a"}))
        await invoker.invoke(slow, '{"invocationMode": "background"}')
        await invoker.jobs["job-1"].wait()
        clock.now = 59.5
        assert list(invoker.jobs) == ["job-1", "job-2"]
        assert invoker.jobs["job-1"].age() == 59.5
        clock.now = 60.0
        assert list(invoker.jobs) == ["job-2"]  # a running job never expires
        assert invoker.jobs.read("job-1").error == UNKNOWN.format("job-1")
        release.set()
        await invoker.jobs["job-2"].wait()
        clock.now = 119.0
        assert invoker.jobs.read("job-2") == ToolResult([TextPart("slow")])

    run(scenario)


def test_registry_limits_are_checked() -> None:
    with pytest.raises(ValueError, match=r"^max_finished must be 0 or more, not -1$"):
        JobRegistry(max_finished=-1)
    with pytest.raises(ValueError, match=r"^max_age must be None or 0 or more, not -1.0$"):
        JobRegistry(max_age=-1.0)
    registry = JobRegistry()
    assert (registry.max_finished, registry.max_age) == (100, 3600.0)


# --- shutdown ----------------------------------------------------------------------------------------


def _worker(name: str) -> threading.Thread:
    threads = [t for t in threading.enumerate() if t.name == f"onellm-tool-{name}"]
    assert len(threads) == 1
    return threads[0]


def test_shutdown_stops_running_jobs_and_leaks_no_task() -> None:
    async def scenario() -> None:
        started = asyncio.Event()
        polite_in, polite_out, stubborn_in, gate = (threading.Event() for _ in range(4))

        @tool(invocation_mode="model_choice")
        async def waits() -> str:
            started.set()
            await asyncio.Event().wait()
            return "never"

        @tool(invocation_mode="model_choice")
        def polite_job(token: CancellationToken) -> str:
            polite_in.set()
            token.wait(WAIT)
            polite_out.set()
            return "late"

        @tool(invocation_mode="model_choice")
        def stubborn_job() -> str:
            stubborn_in.set()
            gate.wait(WAIT)
            return "finally"

        async with ToolInvoker() as invoker:
            started_tools: list[Tool[..., Any]] = [waits, polite_job, stubborn_job, build_index]
            for t in started_tools:
                arguments: dict[str, object] = {"path": "x"} if t is build_index else {}
                await invoker.invoke(t, background(arguments))
            await invoker.jobs["job-4"].wait()
            await started.wait()
            assert await in_thread(polite_in) and await in_thread(stubborn_in)
            polite_thread, stubborn_thread = _worker("polite_job"), _worker("stubborn_job")
        jobs = [invoker.jobs[f"job-{n}"] for n in (1, 2, 3, 4)]
        assert [j.status for j in jobs] == ["stopped", "stopped", "stopped", "completed"]
        assert [j.cancellation.cancelled for j in jobs] == [True, True, True, False]
        assert jobs[0].result == ToolResult.failure("Tool 'waits' was stopped: the invoker was shut down.")
        assert no_other_tasks()
        # the thread that honours its token ends; the one that ignores it was abandoned, not joined
        assert await in_thread(polite_out)
        polite_thread.join(WAIT)
        assert not polite_thread.is_alive()
        assert stubborn_thread.is_alive() and not gate.is_set()
        gate.set()
        stubborn_thread.join(WAIT)
        assert not stubborn_thread.is_alive()

        refused = await invoker.invoke(build_index, background({"path": "y"}))
        assert refused.error == "Tool 'build_index' cannot start in the background: the invoker has been shut down."
        waited = await invoker.invoke(build_index, '{"path": "y"}')
        assert waited.parts == [TextPart("indexed y to depth 2")]
        await invoker.aclose()  # closing twice is harmless
        assert list(invoker.jobs) == ["job-1", "job-2", "job-3", "job-4"]

    run(scenario)


def test_shutdown_awaits_a_timed_out_tool_still_cleaning_up() -> None:
    async def scenario() -> None:
        started, cleaning, cleanup_done = asyncio.Event(), asyncio.Event(), asyncio.Event()

        @tool(invocation_mode="model_choice", timeout_seconds=1)
        async def slow_exit() -> str:
            started.set()
            try:
                await asyncio.Event().wait()
            finally:
                cleaning.set()
                await cleanup_done.wait()
            return "never"

        clock = FakeClock()
        invoker = ToolInvoker(clock=clock)
        await invoker.invoke(slow_exit, '{"invocationMode": "background"}')
        await started.wait()
        await clock.until_sleeping()
        await clock.advance(1)
        job = invoker.jobs["job-1"]
        assert (await job.wait()).error == "Tool 'slow_exit' timed out after 1 s."
        await cleaning.wait()
        closing = asyncio.ensure_future(invoker.aclose())
        for _ in range(5):
            await asyncio.sleep(0)
        assert not closing.done()  # the tool's call is still ending: shutdown waits for it
        cleanup_done.set()
        await closing
        assert no_other_tasks()

    run(scenario)


def test_jobs_left_running_when_the_loop_ends_are_stopped() -> None:
    holder: list[ToolInvoker] = []

    @tool(invocation_mode="model_choice")
    async def forever() -> str:
        await asyncio.Event().wait()
        return "never"

    async def scenario() -> None:
        invoker = ToolInvoker()
        holder.append(invoker)
        await invoker.invoke(forever, '{"invocationMode": "background"}')
        await asyncio.sleep(0)

    run(scenario)  # asyncio.run cancels what is left
    job = holder[0].jobs["job-1"]
    assert job.status == "stopped" and job.cancellation.cancelled


# --- the two ready-made tools ------------------------------------------------------------------------


def test_read_job_and_stop_job_schemas() -> None:
    read_job, stop_job = job_tools(ToolInvoker())
    job_param = (
        '{"type": "object", "properties": {"job": {"type": "string", '
        '"description": "The job id a background call returned."}}, '
        '"required": ["job"], "additionalProperties": false}'
    )
    assert (read_job.name, stop_job.name) == ("read_job", "stop_job")
    assert json.dumps(read_job.input_schema) == job_param
    assert json.dumps(stop_job.input_schema) == job_param
    assert read_job.output_schema is None and stop_job.output_schema is None
    assert read_job.description == (
        'Read a background job (a call made with "invocationMode": "background"). While it runs: '
        '{"job": id, "status": "running"}. Once it has finished: the tool\'s own result, given once.'
    )
    assert stop_job.description == (
        "Stop a running background job. Answers its status; read_job then gives its result, which says it was stopped."
    )
    assert read_job.invocation_mode == "wait" and not read_job.requires_approval


def test_read_job_and_stop_job_through_the_invoker() -> None:
    async def scenario() -> None:
        release, started = asyncio.Event(), asyncio.Event()

        @tool(invocation_mode="model_choice")
        async def build(target: str, ctx: ToolContext) -> str:
            ctx.add_cost("cpu_seconds", 1.5, "s")
            started.set()
            await release.wait()
            return f"built {target}"

        async with ToolInvoker() as invoker:
            read_job, stop_job = job_tools(invoker)
            assert await invoker.invoke(build, background({"target": "app"})) == handle("job-1", "running")
            await started.wait()
            assert await invoker.invoke(read_job, '{"job": "job-1"}') == handle("job-1", "running")
            release.set()
            await invoker.jobs["job-1"].wait()
            done = await invoker.invoke(read_job, '{"job": "job-1"}')
            assert done == ToolResult([TextPart("built app")], costs=[CostLine("cpu_seconds", 1.5, "s")])
            gone = await invoker.invoke(read_job, '{"job": "job-1"}')
            assert gone.is_error and gone.parts == [TextPart(UNKNOWN.format("job-1"))]

            release.clear()
            started.clear()
            await invoker.invoke(build, background({"target": "docs"}))
            await started.wait()
            assert await invoker.invoke(stop_job, '{"job": "job-2"}') == handle("job-2", "stopped")
            assert invoker.jobs["job-2"].cancellation.cancelled
            stopped = await invoker.invoke(read_job, {"job": "job-2"})
            assert stopped == ToolResult.failure("Tool 'build' was stopped.", [CostLine("cpu_seconds", 1.5, "s")])

            unknown = await invoker.invoke(stop_job, '{"job": "job-9"}')
            assert unknown.error == UNKNOWN.format("job-9")
            assert (
                await invoker.invoke(read_job, '{"job": 7}')
            ).error == "Argument 'job' must be a string, got integer 7."
            assert (await invoker.invoke(stop_job, "{}")).error == "Argument 'job' is required."
            assert (await invoker.invoke(read_job, '{"job": "job-1", "invocationMode": "background"}')).error == (
                "Argument 'invocationMode' is not a known property; known properties: job."
            )

    run(scenario)
