"""Field reliability of the invoker, the jobs and the results (contract: "Errors become results").

Every failure of a tool is a result, in every way a call can run; no value a tool returns
can make reading its result fail later; no cost grows with the number of jobs or tools
served; misuse by the calling program raises at once. Expected texts are the contract's
(and, where it leaves the wording open, docs/binding.md's). Waits are bounded by ``WAIT``
so that a regression fails instead of hanging; nothing here asserts on time.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import gc
import json
import math
import os
import subprocess
import sys
import threading
import weakref
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import pytest
from async_support import WAIT, FakeClock, in_thread, run

from onellm_runtime import JsonObject, JsonPart, JsonValue, TextPart, Tool, ToolContext, ToolInvoker, ToolResult
from onellm_runtime.invoking.invoker import BIND_OFF_LOOP_CHARS, THREADED_WINDOW
from onellm_runtime.invoking.jobs import Job, JobRegistry, job_tools
from onellm_runtime.invoking.workers import IDLE_NAME, IDLE_SECONDS, default_limit

ROOT = Path(__file__).resolve().parent.parent

# --- how a call can run -----------------------------------------------------------------------------

#: (mode, the tool is async, timeout_seconds, runs as a background job)
MODES = {
    "async inline": (True, 0, False),
    "async with timeout": (True, 5, False),
    "async background job": (True, 0, True),
    "sync": (False, 0, False),
    "sync with timeout": (False, 5, False),
    "sync background job": (False, 0, True),
}


_UNSET: Any = object()


def make_tool(mode: str, body: Callable[[], Any], returns: Any = _UNSET) -> Tool[..., Any]:
    """A tool named ``x`` that runs ``body()`` in the given mode (``body`` may raise).

    ``returns``: its return annotation (None: unannotated); by default ``str``.
    """
    is_async, timeout, background = MODES[mode]
    if is_async:

        async def x() -> str:
            return body()  # type: ignore[no-any-return]

    else:

        def x() -> str:  # type: ignore[misc]
            return body()  # type: ignore[no-any-return]

    if returns is None:
        del x.__annotations__["return"]
    elif returns is not _UNSET:
        x.__annotations__["return"] = returns
    return Tool.create(x, timeout_seconds=timeout, invocation_mode="model_choice" if background else "wait")


async def call(mode: str, tool: Tool[..., Any], invoker: ToolInvoker | None = None) -> ToolResult:
    """Invoke ``tool`` as ``mode`` says; a background call's final result (timeouts on a clock that stands still)."""
    invoker = invoker if invoker is not None else ToolInvoker()
    context = ToolContext(clock=FakeClock())
    if MODES[mode][2]:
        handle = await invoker.invoke(tool, '{"invocationMode": "background"}', context)
        assert isinstance(handle.parts[0], JsonPart) and not handle.is_error, handle
        job = invoker.jobs[handle.parts[0].value["job"]]  # type: ignore[index]
        result = await asyncio.wait_for(job.wait(), WAIT)
        assert job.status == ("failed" if result.is_error else "completed")
        return result
    return await asyncio.wait_for(invoker.invoke(tool, "{}", context), WAIT)


def run_with_ticker(scenario: Callable[[], Any]) -> tuple[Any, int]:
    """Run ``scenario()`` beside a task that counts loop turns; the loop must keep running to the end."""

    async def main() -> tuple[Any, int]:
        ticks = 0

        async def ticker() -> None:
            nonlocal ticks
            while True:
                ticks += 1
                await asyncio.sleep(0)

        task = asyncio.create_task(ticker())
        await asyncio.sleep(0)
        outcome = await scenario()
        await asyncio.sleep(0)
        assert not task.done()  # the other task still runs
        task.cancel()
        return outcome, ticks

    return asyncio.run(main())


# --- every exception a tool raises is its failure ------------------------------------------------------


def _raise(error: Callable[[], BaseException]) -> Callable[[], Any]:
    """A body that raises what ``error()`` gives (or what calling it raises, as ``next(iter(()))`` does)."""

    def body() -> Any:
        raise error()

    return body


def _cancelled() -> BaseException:
    return asyncio.CancelledError()


#: (what the tool raises, the error result's text)
RAISED = {
    "StopIteration": (StopIteration, "Tool 'x' failed: StopIteration"),
    "next() on an empty iterator": (lambda: next(iter(())), "Tool 'x' failed: StopIteration"),
    "SystemExit(2)": (lambda: SystemExit(2), "Tool 'x' failed: SystemExit: 2"),
    "KeyboardInterrupt": (KeyboardInterrupt, "Tool 'x' failed: KeyboardInterrupt"),
    "GeneratorExit": (GeneratorExit, "Tool 'x' failed: GeneratorExit"),
    "its own CancelledError": (_cancelled, "Tool 'x' failed: CancelledError"),
    "ValueError": (lambda: ValueError("disk full"), "Tool 'x' failed: ValueError: disk full"),
}

OWN_CANCEL_NEEDS_311 = pytest.mark.skipif(
    sys.version_info < (3, 11),
    reason="Python 3.10 does not count cancel requests: an inline CancelledError counts as the caller's",
)


@pytest.mark.parametrize("mode", list(MODES))
@pytest.mark.parametrize("raised", list(RAISED))
def test_every_exception_the_tool_raises_is_its_failure_and_the_loop_keeps_running(mode: str, raised: str) -> None:
    if raised == "its own CancelledError" and mode == "async inline" and sys.version_info < (3, 11):
        pytest.skip("Python 3.10 does not count cancel requests: an inline CancelledError counts as the caller's")
    make, text = RAISED[raised]
    result, ticks = run_with_ticker(lambda: call(mode, make_tool(mode, _raise(make))))
    assert result == ToolResult([TextPart(text)], True, text, None, [])
    assert ticks > 0


def test_a_caller_cancellation_still_propagates_and_sets_the_token() -> None:
    """The tool's own CancelledError is a failure; the caller's cancellation is not (for every mode)."""

    async def scenario() -> None:
        for mode in ("async inline", "async with timeout", "sync", "sync with timeout"):
            started = threading.Event()
            tokens: list[Any] = []
            is_async, timeout, _ = MODES[mode]
            if is_async:

                async def x(context: ToolContext) -> str:
                    tokens.append(context.cancellation)
                    started.set()
                    await asyncio.sleep(WAIT)
                    return "late"

            else:

                def x(context: ToolContext) -> str:  # type: ignore[misc]
                    tokens.append(context.cancellation)
                    started.set()
                    context.cancellation.wait(WAIT)
                    return "late"

            t = Tool.create(x, timeout_seconds=timeout)
            task = asyncio.create_task(ToolInvoker().invoke(t, "{}", ToolContext(clock=FakeClock())))
            assert await in_thread(started)
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
            assert tokens[0].cancelled, mode

    run(scenario)


# --- exception texts ----------------------------------------------------------------------------------


class StrRaises(Exception):
    def __str__(self) -> str:
        raise RuntimeError("no text")


class StrNotText(Exception):
    def __str__(self) -> Any:
        return 42


class StrExits(Exception):
    def __str__(self) -> str:
        raise SystemExit(1)


class StrSubclass(str):
    def __str__(self) -> str:
        raise RuntimeError("not read")


class StrGivesSubclass(Exception):
    def __str__(self) -> str:
        return StrSubclass("a str subclass")


#: (the exception, the error result's text)
TEXTS = {
    "__str__ raises": (StrRaises("x"), "Tool 'x' failed: StrRaises"),
    "__str__ returns an int": (StrNotText(), "Tool 'x' failed: StrNotText"),
    "__str__ raises SystemExit": (StrExits(), "Tool 'x' failed: StrExits"),
    "__str__ returns a str subclass": (StrGivesSubclass(), "Tool 'x' failed: StrGivesSubclass: a str subclass"),
    "1 MB message": (ValueError("a" * 1_000_000), "Tool 'x' failed: ValueError: " + "a" * 1999 + "…"),
    "2,000 characters: kept": (ValueError("b" * 2000), "Tool 'x' failed: ValueError: " + "b" * 2000),
    "2,001 characters: cut": (ValueError("c" * 2001), "Tool 'x' failed: ValueError: " + "c" * 1999 + "…"),
    "a lone surrogate": (ValueError("bad \udc80 byte"), "Tool 'x' failed: ValueError: bad \\udc80 byte"),
    "2,000 lone surrogates": (
        ValueError("\udc80" * 2000),
        "Tool 'x' failed: ValueError: " + ("\\udc80" * 334)[:1999] + "…",
    ),
    "empty message": (KeyError(), "Tool 'x' failed: KeyError"),
}


@pytest.mark.parametrize("mode", list(MODES))
@pytest.mark.parametrize("case", list(TEXTS))
def test_exception_texts_are_bounded_and_never_escape(mode: str, case: str) -> None:
    error, text = TEXTS[case]

    def body() -> Any:
        raise error

    result = run(lambda: call(mode, make_tool(mode, body)))
    assert result.error == text
    assert result.text == text
    result.text.encode("utf-8")  # always sendable


# --- results are checked inside invoke -----------------------------------------------------------------


def _cycle() -> dict[str, Any]:
    d: dict[str, Any] = {"a": []}
    d["a"].append(d)
    return d


def _list_cycle() -> list[Any]:
    items: list[Any] = [1]
    items.append(items)
    return items


def _nested(depth: int, *, cycle: bool = False) -> list[Any]:
    top: list[Any] = []
    inner = top
    for _ in range(depth - 1):
        inner.append([])
        inner = inner[0]
    if cycle:
        inner.append(top)
    return top


DEEP = "nesting deeper than the interpreter's recursion limit"
NAIVE = dt.datetime(2024, 7, 15, 18, 0, 0)
NAIVE_TEXT = "a datetime without a UTC offset (2024-07-15T18:00:00), which RFC 3339 cannot express"


@dataclass
class Meeting:
    title: str
    at: dt.datetime


@dataclass
class Box:
    content: JsonValue


def _unwritable(what: str) -> str:
    return f"Tool 'x' returned a value that cannot be written as JSON: {what}."


#: (return annotation, the value returned, the error result's text)
UNWRITABLE: dict[str, tuple[Any, Callable[[], Any], str]] = {
    "object() under JsonValue": (JsonValue, object, _unwritable("an object of type object")),
    "a set under JsonValue": (JsonValue, lambda: {1, 2}, _unwritable("an object of type set")),
    "a set inside a JsonObject": (JsonObject, lambda: {"tags": {"a"}}, _unwritable("an object of type set at tags")),
    "a cyclic dict under JsonObject": (JsonObject, _cycle, _unwritable("a reference cycle at a[0]")),
    "a cyclic list under JsonValue": (JsonValue, _list_cycle, _unwritable("a reference cycle at [1]")),
    "NaN under float": (float, lambda: math.nan, _unwritable("NaN")),
    "Infinity under JsonValue": (JsonValue, lambda: {"score": [1.5, math.inf]}, _unwritable("Infinity at score[1]")),
    "-Infinity under list[float]": (list[float], lambda: [-math.inf], _unwritable("-Infinity at [0]")),
    "an int over the digit limit": (int, lambda: 10**5000, _unwritable("an integer of more than 4,300 digits")),
    "a tuple key under JsonValue": (JsonValue, lambda: {(1, 2): 3}, _unwritable("a key of type tuple")),
    "a NaN key under JsonValue": (JsonValue, lambda: {"a": {math.nan: 1}}, _unwritable("a key that is NaN at a")),
    "a naive datetime": (dt.datetime, lambda: NAIVE, _unwritable(NAIVE_TEXT)),
    "a naive datetime in a list": (list[dt.datetime], lambda: [NAIVE], _unwritable(NAIVE_TEXT + " at [0]")),
    "a naive datetime in a record": (Meeting, lambda: Meeting("standup", NAIVE), _unwritable(NAIVE_TEXT + " at at")),
    "a cycle, unannotated": (None, _cycle, _unwritable("a reference cycle")),
    "a cycle through a record field": (Box, lambda: Box(_cycle()), _unwritable("a reference cycle at content.a[0]")),
    "a ToolResult holding object()": (
        ToolResult,
        lambda: ToolResult([JsonPart(object())]),
        _unwritable("an object of type object"),
    ),
    "a part holding NaN": (JsonPart, lambda: JsonPart(math.nan), _unwritable("NaN")),
}

#: Deeper than any interpreter's encoder goes (the message, like every message, cut to 2,000 characters).
DEEP_VALUES: dict[str, tuple[Any, Callable[[], Any], str]] = {
    "nesting 100,000 deep": (JsonValue, lambda: _nested(100_000), _unwritable(DEEP)),
    "a cycle 100,000 deep": (
        JsonValue,
        lambda: _nested(100_000, cycle=True),
        _unwritable(("a reference cycle at " + "[0]" * 700)[:1999] + "…"),
    ),
}

#: (return annotation, the value returned, the result's text): still written, and as fast as before
WRITABLE: dict[str, tuple[Any, Callable[[], Any], str]] = {
    "a JsonValue document": (JsonValue, lambda: {"a": [1, 2.5, None, True, "é"]}, '{"a":[1,2.5,null,true,"é"]}'),
    "a tuple under JsonValue": (JsonValue, lambda: (1, 2), "[1,2]"),
    "an int key under JsonValue": (JsonValue, lambda: {1: "a"}, '{"1":"a"}'),
    "the same list twice (not a cycle)": (JsonValue, lambda: [[1]] * 2, "[[1],[1]]"),
    "an int at the digit limit": (int, lambda: 10**4299, "1" + "0" * 4299),
    "an aware datetime": (dt.datetime, lambda: NAIVE.replace(tzinfo=dt.timezone.utc), '"2024-07-15T18:00:00+00:00"'),
    "a naive datetime, unannotated": (None, lambda: NAIVE, '"2024-07-15T18:00:00"'),
    "a finite float": (float, lambda: 0.5, "0.5"),
}


@pytest.mark.parametrize("mode", ["async inline", "sync with timeout", "async background job"])
@pytest.mark.parametrize("case", list(UNWRITABLE))
def test_a_value_that_cannot_be_written_as_json_is_an_error_result_made_inside_invoke(mode: str, case: str) -> None:
    annotation, value, text = UNWRITABLE[case]
    result = run(lambda: call(mode, make_tool(mode, value, annotation)))
    assert result == ToolResult([TextPart(text)], True, text, None, [])
    assert result.text == text  # reading it later cannot fail


@pytest.mark.parametrize("case", list(DEEP_VALUES))
def test_a_value_nested_too_deeply_is_an_error_result(case: str) -> None:
    annotation, value, text = DEEP_VALUES[case]
    result = run(lambda: call("async inline", make_tool("async inline", value, annotation)))
    assert result == ToolResult([TextPart(text)], True, text, None, [])


@pytest.mark.parametrize("case", list(WRITABLE))
def test_values_that_can_be_written_are_results_as_before(case: str) -> None:
    annotation, value, text = WRITABLE[case]
    result = run(lambda: call("async inline", make_tool("async inline", value, annotation)))
    assert not result.is_error, result.error
    assert result.text == text


def test_the_digit_limit_followed_is_the_interpreters_own() -> None:
    if not hasattr(sys, "set_int_max_str_digits"):
        pytest.skip("this interpreter has no digit limit")
    before = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(640)
    try:
        result = run(lambda: call("async inline", make_tool("async inline", lambda: 10**700, int)))
        assert result.error == _unwritable("an integer of more than 640 digits")
    finally:
        sys.set_int_max_str_digits(before)


# --- background jobs: retention costs O(1) per operation ------------------------------------------------


class Counted:
    """Counts how often the registry looks at a job (its status, its age)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.looks = 0
        status, age = Job.status, Job.age

        def counted_status(job: Job) -> Any:
            self.looks += 1
            return status.fget(job)  # type: ignore[misc]

        def counted_age(job: Job) -> float:
            self.looks += 1
            return age(job)

        monkeypatch.setattr(Job, "status", property(counted_status))
        monkeypatch.setattr(Job, "age", counted_age)


def test_starting_many_running_jobs_looks_at_each_job_a_bounded_number_of_times(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    counted = Counted(monkeypatch)
    n = 2000

    async def scenario() -> None:
        release = asyncio.Event()

        async def wait_for_release() -> str:
            await release.wait()
            return "done"

        slow = Tool.create(wait_for_release, invocation_mode="model_choice")
        invoker = ToolInvoker(jobs=JobRegistry(max_finished=100, max_age=3600))
        counted.looks = 0
        for _ in range(n):
            await invoker.invoke(slow, '{"invocationMode": "background"}')
        starting = counted.looks
        assert starting <= 2 * n  # the handle reads each new job's status once; no walk over running jobs
        counted.looks = 0
        release.set()
        for _ in range(5):
            await asyncio.sleep(0)
        finishing = counted.looks
        assert finishing <= 2 * n  # n finish together: each costs O(1)
        assert len(invoker.jobs) == 100  # the oldest-finished unread results beyond max_finished are gone
        await invoker.aclose()

    run(scenario)


def test_reading_and_expiring_results_cost_o1_amortised(monkeypatch: pytest.MonkeyPatch) -> None:
    counted = Counted(monkeypatch)
    n = 1000

    async def scenario() -> None:
        async def quick(k: int) -> int:
            return k

        t = Tool.create(quick, invocation_mode="model_choice")
        clock = FakeClock()
        invoker = ToolInvoker(clock=clock, jobs=JobRegistry(max_finished=n, max_age=60))
        for k in range(n):
            await invoker.invoke(t, json.dumps({"k": k, "invocationMode": "background"}))
        await asyncio.wait_for(asyncio.gather(*(invoker.jobs[j].wait() for j in list(invoker.jobs))), WAIT)
        counted.looks = 0
        for k in range(1, n // 2 + 1):
            assert invoker.jobs.read(f"job-{k}") == ToolResult([JsonPart(k - 1)])  # forgotten once read
        assert counted.looks <= 3 * (n // 2)
        clock.now = 60.0
        counted.looks = 0
        assert invoker.jobs.read(f"job-{n}").error == (
            f'Unknown job "job-{n}". A finished job is forgotten once its result has been read, '
            "and an unread result expires."
        )
        assert counted.looks <= n  # each expired result is looked at once, then dropped
        assert len(invoker.jobs) == 0

    run(scenario)


#: (keyword arguments, the exception and its message)
REGISTRY_LIMITS: dict[str, tuple[dict[str, Any], type[Exception], str]] = {
    "max_age NaN": ({"max_age": math.nan}, ValueError, "max_age must be None or 0 or more, not nan"),
    "max_age negative": ({"max_age": -1.0}, ValueError, "max_age must be None or 0 or more, not -1.0"),
    "max_age -inf": ({"max_age": -math.inf}, ValueError, "max_age must be None or 0 or more, not -inf"),
    "max_age text": ({"max_age": "60"}, TypeError, "max_age must be None or a number of seconds, not str"),
    "max_age True": ({"max_age": True}, TypeError, "max_age must be None or a number of seconds, not bool"),
    "max_finished 1.5": ({"max_finished": 1.5}, TypeError, "max_finished must be an int, not float"),
    "max_finished negative": ({"max_finished": -1}, ValueError, "max_finished must be 0 or more, not -1"),
}


@pytest.mark.parametrize("case", list(REGISTRY_LIMITS))
def test_registry_limits_that_make_no_sense_are_refused(case: str) -> None:
    kwargs, error, text = REGISTRY_LIMITS[case]
    with pytest.raises(error) as raised:
        JobRegistry(**kwargs)
    assert str(raised.value) == text


def test_max_age_inf_means_no_age_limit() -> None:
    async def scenario() -> None:
        async def quick() -> str:
            return "kept"

        clock = FakeClock()
        invoker = ToolInvoker(clock=clock, jobs=JobRegistry(max_age=math.inf))
        await invoker.invoke(Tool.create(quick, invocation_mode="model_choice"), '{"invocationMode": "background"}')
        await asyncio.wait_for(invoker.jobs["job-1"].wait(), WAIT)
        clock.now = 1e300
        assert invoker.jobs.read("job-1") == ToolResult([TextPart("kept")])

    run(scenario)


def test_a_huge_job_id_is_echoed_cut_as_the_binder_cuts_excerpts() -> None:
    huge = "j" * 5_000_000
    text = (
        'Unknown job "' + "j" * 40 + '...". A finished job is forgotten once its result has been read, '
        "and an unread result expires."
    )

    async def scenario() -> None:
        invoker = ToolInvoker()
        assert invoker.jobs.read(huge).error == text
        assert (await invoker.jobs.stop(huge)).error == text
        read_job, stop_job = job_tools(invoker)
        for t in (read_job, stop_job):
            result = await invoker.invoke(t, json.dumps({"job": huge}))
            assert result.error == text

    run(scenario)


# --- the invoker holds only tools that are alive ---------------------------------------------------------


def test_a_long_lived_invoker_does_not_keep_the_tools_it_served() -> None:
    async def scenario() -> None:
        invoker = ToolInvoker()
        tools: list[weakref.ref[Any]] = []
        models: list[weakref.ref[Any]] = []
        for request in range(50):

            def per_request(n: int) -> int:
                return n + request

            t = Tool.create(per_request)
            assert (await invoker.invoke(t, '{"n": 1}')).parts == [JsonPart(1 + request)]
            tools.append(weakref.ref(t))
            models.append(weakref.ref(t.model))
            del t, per_request
        gc.collect()
        assert [r for r in tools if r() is not None] == []
        assert [r for r in models if r() is not None] == []
        assert len(invoker._prepared) == 0  # pyright: ignore[reportPrivateUsage]

    run(scenario)


def test_a_tool_still_alive_is_prepared_once() -> None:
    async def scenario() -> None:
        invoker = ToolInvoker()

        def add(a: int, b: int) -> int:
            return a + b

        t = Tool.create(add)
        for _ in range(3):
            assert (await invoker.invoke(t, '{"a": 1, "b": 2}')).parts == [JsonPart(3)]
        assert len(invoker._prepared) == 1  # pyright: ignore[reportPrivateUsage]

    run(scenario)


# --- binding off the event loop -----------------------------------------------------------------------

#: The threads ``Note`` records were built in (the binder builds them while it binds).
BOUND_IN: list[int] = []


@dataclass
class Note:
    text: str

    def __post_init__(self) -> None:
        BOUND_IN.append(threading.get_ident())


def test_a_large_document_is_bound_off_the_loop_a_small_one_on_it() -> None:
    seen = BOUND_IN
    seen.clear()

    async def keep(note: Note) -> int:
        return len(note.text)

    t = Tool.create(keep)

    async def scenario() -> tuple[int, int, int]:
        loop_thread = threading.get_ident()
        invoker = ToolInvoker()
        small = json.dumps({"note": {"text": "hi"}})
        big = json.dumps({"note": {"text": "x" * BIND_OFF_LOOP_CHARS}})
        assert (await invoker.invoke(t, small)).parts == [JsonPart(2)]
        assert (await invoker.invoke(t, big)).parts == [JsonPart(BIND_OFF_LOOP_CHARS)]
        assert (await invoker.invoke(t, big.encode())).parts == [JsonPart(BIND_OFF_LOOP_CHARS)]
        return loop_thread, len(small), len(big)

    loop_thread, small_size, big_size = asyncio.run(scenario())
    assert BIND_OFF_LOOP_CHARS == 65536 and small_size <= BIND_OFF_LOOP_CHARS < big_size
    assert seen[0] == loop_thread
    assert seen[1] != loop_thread and seen[2] != loop_thread


def test_bad_arguments_in_a_large_document_are_still_an_immediate_error_result() -> None:
    async def take(n: int) -> int:
        return n

    big = json.dumps({"n": "x" * 100_000})
    result = run(lambda: ToolInvoker().invoke(Tool.create(take), big))
    assert result.error == "Argument 'n' must be an integer, got string \"" + "x" * 40 + '...".'


# --- sync tools run on a bounded executor ---------------------------------------------------------------


def test_the_worker_limit_defaults_to_what_thread_pool_executor_chooses() -> None:
    assert ToolInvoker().workers.limit == default_limit() == min(32, (os.cpu_count() or 1) + 4)
    assert ToolInvoker(max_workers=4).workers.limit == 4


@pytest.mark.parametrize(
    ("limit", "error", "text"),
    [
        (0, ValueError, "the worker limit must be 1 or more, not 0"),
        (-3, ValueError, "the worker limit must be 1 or more, not -3"),
        ("4", TypeError, "the worker limit must be an int, not str"),
        (2.0, TypeError, "the worker limit must be an int, not float"),
        (True, TypeError, "the worker limit must be an int, not bool"),
    ],
)
def test_a_worker_limit_that_makes_no_sense_is_refused(limit: Any, error: type[Exception], text: str) -> None:
    with pytest.raises(error) as raised:
        ToolInvoker(max_workers=limit)
    assert str(raised.value) == text


def test_200_concurrent_sync_calls_with_limit_4_never_run_more_than_4_at_once() -> None:
    lock = threading.Lock()
    inside = 0
    most = 0
    # Every wave of 4 must be inside together (fewer than 4 at once would break the barrier).
    wave = threading.Barrier(4, timeout=WAIT)
    daemon: list[bool] = []

    def work(n: int) -> int:
        nonlocal inside, most
        with lock:
            inside += 1
            most = max(most, inside)
        daemon.append(threading.current_thread().daemon)
        wave.wait()
        with lock:
            inside -= 1
        return n

    t = Tool.create(work)

    async def scenario() -> tuple[list[ToolResult], int]:
        invoker = ToolInvoker(max_workers=4)
        results = await asyncio.gather(*(invoker.invoke(t, json.dumps({"n": n})) for n in range(200)))
        return results, invoker.workers.active

    results, active_after = asyncio.run(scenario())
    assert [r.parts for r in results] == [[JsonPart(n)] for n in range(200)]
    assert most == 4
    assert active_after == 0
    assert daemon == [True] * 200


def test_threads_abandoned_after_a_timeout_do_not_starve_later_calls() -> None:
    stuck = threading.Event()
    entered = threading.Semaphore(0)

    def ignores_the_token() -> str:
        entered.release()
        stuck.wait(WAIT)  # never looks at its token
        return "too late"

    def quick() -> str:
        return "ran"

    stubborn = Tool.create(ignores_the_token, timeout_seconds=1)
    fine = Tool.create(quick)

    async def scenario() -> None:
        clock = FakeClock()
        invoker = ToolInvoker(max_workers=2)
        calls = [asyncio.create_task(invoker.invoke(stubborn, "{}", ToolContext(clock=clock))) for _ in range(2)]
        loop = asyncio.get_running_loop()
        for _ in range(2):
            assert await loop.run_in_executor(None, entered.acquire, True, WAIT)
        assert invoker.workers.active == 2
        await clock.until_sleeping()
        await clock.advance(1)
        for task in calls:
            assert (await task).error == "Tool 'ignores_the_token' timed out after 1 s."
        assert invoker.workers.active == 0  # abandoned: they no longer count
        results = await asyncio.wait_for(asyncio.gather(*(invoker.invoke(fine, "{}") for _ in range(4))), WAIT)
        assert [r.text for r in results] == ["ran"] * 4
        stuck.set()

    run(scenario)


def test_a_cancelled_call_gives_its_slot_back_running_or_waiting() -> None:
    gate = threading.Event()
    entered = threading.Event()

    def blocks() -> str:
        entered.set()
        gate.wait(WAIT)
        return "blocked"

    def quick() -> str:
        return "ran"

    async def scenario() -> None:
        invoker = ToolInvoker(max_workers=1)
        running = asyncio.create_task(invoker.invoke(Tool.create(blocks), "{}"))
        assert await in_thread(entered)
        waiting = asyncio.create_task(invoker.invoke(Tool.create(quick), "{}"))
        for _ in range(100):
            if invoker.workers.waiting:
                break
            await asyncio.sleep(0)
        assert invoker.workers.active == 1 and invoker.workers.waiting == 1
        waiting.cancel()
        with pytest.raises(asyncio.CancelledError):
            await waiting
        running.cancel()
        with pytest.raises(asyncio.CancelledError):
            await running
        assert invoker.workers.active == 0
        assert (await asyncio.wait_for(invoker.invoke(Tool.create(quick), "{}"), WAIT)).text == "ran"
        gate.set()

    run(scenario)


def test_a_burst_of_calls_reuses_its_worker_threads_and_keeps_few_waiting() -> None:
    """A batch of 300 short sync calls with 3 workers: at most 3 threads run them (each takes
    the next queued call), and at most ``THREADED_WINDOW`` calls per worker are under way, so
    the pool's queue never holds the whole batch."""
    threads: set[int] = set()
    most_waiting = 0
    invoker = ToolInvoker(max_workers=3)

    def short(n: int) -> int:
        nonlocal most_waiting
        threads.add(threading.get_ident())
        most_waiting = max(most_waiting, invoker.workers.waiting)
        return n

    t = Tool.create(short)
    results = run(lambda: invoker.invoke_all([(t, json.dumps({"n": n})) for n in range(300)]))
    assert [r.parts for r in results] == [[JsonPart(n)] for n in range(300)]
    assert 1 <= len(threads) <= 3
    assert most_waiting <= THREADED_WINDOW * 3
    assert invoker.workers.active == 0


def test_a_worker_thread_is_named_for_its_call_and_ends_once_idle() -> None:
    workers: list[threading.Thread] = []

    def quick() -> str:
        workers.append(threading.current_thread())
        return threading.current_thread().name

    invoker = ToolInvoker(max_workers=2)
    assert run(lambda: invoker.invoke(Tool.create(quick), "{}")).text == "onellm-tool-quick"
    [worker] = workers
    assert worker.daemon
    worker.join(IDLE_SECONDS + WAIT)
    assert not worker.is_alive()
    assert worker.name == IDLE_NAME  # between calls, and as it ended


def test_many_calls_cancelled_while_running_or_waiting_leave_no_slot_taken() -> None:
    def short(n: int) -> int:
        threading.Event().wait(0.001)
        return n

    t = Tool.create(short)

    async def scenario() -> None:
        invoker = ToolInvoker(max_workers=3)
        tasks = [asyncio.create_task(invoker.invoke(t, json.dumps({"n": n}))) for n in range(90)]
        cancelled: set[int] = set()
        for turn, task in enumerate(tasks):
            if turn % 3 == 0 and task.cancel():  # some before they start, some waiting, some running
                cancelled.add(turn)  # (False: the call had already finished, and keeps its result)
            if turn % 10 == 0:
                await asyncio.sleep(0)
        done = await asyncio.wait_for(asyncio.gather(*tasks, return_exceptions=True), WAIT)
        assert len(cancelled) >= 20  # most cancels land before their call ends
        assert [isinstance(r, asyncio.CancelledError) for r in done] == [n in cancelled for n in range(90)]
        kept = [r for r in done if isinstance(r, ToolResult)]
        assert [r.parts for r in kept] == [[JsonPart(n)] for n in range(90) if n not in cancelled]
        assert (invoker.workers.active, invoker.workers.waiting) == (0, 0)

    run(scenario)


def test_an_abandoned_thread_does_not_hang_interpreter_exit(tmp_path: Path) -> None:
    script = tmp_path / "abandon.py"
    script.write_text(
        "import asyncio, threading\n"
        "from onellm_runtime import Tool, ToolInvoker\n"
        "forever = threading.Event()\n"
        "def stubborn() -> str:\n"
        "    forever.wait()\n"
        "    return 'never'\n"
        "async def main() -> None:\n"
        "    result = await ToolInvoker().invoke(Tool.create(stubborn, timeout_seconds=0.05), '{}')\n"
        "    print(result.error)\n"
        "asyncio.run(main())\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=60, env=env)
    assert (done.returncode, done.stdout, done.stderr) == (0, "Tool 'stubborn' timed out after 0.05 s.\n", "")


# --- misuse by the calling program raises at once ------------------------------------------------------


async def _echo(n: int) -> int:
    return n


ECHO = Tool.create(_echo, name="echo")


@pytest.mark.parametrize(
    ("approved", "text"),
    [
        ("no", "approved must be a bool, not str"),
        (1, "approved must be a bool, not int"),
        (None, "approved must be a bool, not NoneType"),
    ],
)
def test_approved_must_be_a_bool(approved: Any, text: str) -> None:
    with pytest.raises(TypeError) as raised:
        run(lambda: ToolInvoker().invoke(ECHO, '{"n": 1}', approved=approved))
    assert str(raised.value) == text


PROVIDER_TEXT = "provider must be None or one of openai, anthropic, gemini, mcp, not {!r}"


@pytest.mark.parametrize("provider", ["openia", "OpenAI", "", 3])
def test_an_unknown_provider_is_refused_in_invoke_invoke_all_and_bind(provider: Any) -> None:
    text = PROVIDER_TEXT.format(provider)
    with pytest.raises(ValueError) as raised:
        run(lambda: ToolInvoker().invoke(ECHO, '{"n": 1}', provider=provider))
    assert str(raised.value) == text
    with pytest.raises(ValueError) as raised:
        run(lambda: ToolInvoker().invoke_all([(ECHO, '{"n": 1}')], provider=provider))
    assert str(raised.value) == text
    with pytest.raises(ValueError) as raised:
        ECHO.bind('{"n": 1}', provider=provider)
    assert str(raised.value) == text


@pytest.mark.parametrize("provider", [None, "openai", "anthropic", "gemini", "mcp"])
def test_the_known_providers_are_accepted(provider: str | None) -> None:
    assert ECHO.bind('{"n": 1}', provider=provider) == {"n": 1}
    assert run(lambda: ToolInvoker().invoke(ECHO, '{"n": 1}', provider=provider)).parts == [JsonPart(1)]


# --- the figures' script runs (no timing asserted) ---------------------------------------------------


@pytest.mark.slow  # a benchmark's smoke mode: the slow group
def test_the_reliability_benchmark_smoke_mode_prints_every_figure() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "reliability_invoke.py"), "--smoke"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    for line in (
        "1. background jobs",
        "  start 80 running jobs: ",
        "  100 quick jobs finishing together: ",
        "2. binding a large document",
        "bound on the loop, ",
        "3. sync tools on the bounded pool",
        "  100 concurrent sync calls: peak ",
        "4. a long-lived invoker",
        "  20 tools served and dropped: ",
        "5. the result check",
        "  a small JSON result: ",
    ):
        assert line in done.stdout, line
