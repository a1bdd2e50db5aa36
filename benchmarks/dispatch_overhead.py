"""10. What ``dispatch`` adds per call: one reply of N calls through ``dispatch``, beside N calls of
``ToolInvoker.invoke`` awaited one after another, on one invoker.

Both bind the same arguments and run the same tool; ``dispatch`` also finds the calls in the
reply, asks nothing (no tool needs approval), and writes each result as the API's item. The
figure is CPU time per call (process CPU, so worker threads count), each run in a fresh event
loop, for a plain ``def`` tool (its calls run on worker threads) and an ``async def`` tool (no
thread). Target: dispatch's per-call CPU <= invoke's + 10%, per kind of tool.

    python benchmarks/dispatch_overhead.py [--calls 2000] [--repeat 5] [--smoke]

The standalone command prints the smallest of ``--repeat`` runs (the least disturbed), with the
collector left on. The section ``dispatch`` of ``benchmarks/run.py`` takes the same two figures
in its interleaved rounds (each round's figure the median of its runs, the collector paused, as
every section but scale) and prints one target line per kind of tool.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if __package__ in (None, ""):  # run as a script: make ``benchmarks`` (and this tree's onellm) importable
    sys.path.insert(0, str(ROOT))

from benchmarks.peers import Peers  # noqa: E402
from benchmarks.report import Report  # noqa: E402
from benchmarks.rounds import Comparison, Entry, Results, Target, ratios  # noqa: E402
from benchmarks.timing import gc_paused  # noqa: E402

__all__ = ["comparisons", "show", "targets", "measure"]

TARGET = 1.10
CALLS = 2_000
SMOKE_CALLS = 50
#: Runs per round's figure in the ``dispatch`` section (their median).
RUNS_PER_SAMPLE = 3

TITLE = "10. dispatch of one reply of N calls, per call, beside N awaited invokes (benchmarks/dispatch_overhead.py)"
NOTES = (
    "The same tool, invoker and arguments both ways; dispatch also finds the calls in an OpenAI Responses reply",
    "and writes each result as its item. Figure = process CPU per call (worker threads included), each run in a",
    f"fresh event loop; a round's figure = the median of {RUNS_PER_SAMPLE} runs (1 with --smoke), GC paused;",
    "ratio = dispatch / invoke, round by round.",
)
INVOKE = "onellm ToolInvoker.invoke, N calls awaited in turn"
DISPATCH = "onellm dispatch of one reply of N calls"


def add(a: int, b: int) -> int:
    return a + b


async def add_async(a: int, b: int) -> int:
    return a + b


#: The kinds of tool measured: (the name its table and target line use, the function).
KINDS: tuple[tuple[str, Callable[..., Any]], ...] = (("def", add), ("async def", add_async))


def _arguments(i: int) -> str:
    return json.dumps({"a": i, "b": 2})


def _reply(name: str, calls: int) -> dict[str, Any]:
    output = [
        {"type": "function_call", "call_id": f"c{i}", "name": name, "arguments": _arguments(i)} for i in range(calls)
    ]
    return {"id": "resp_1", "object": "response", "output": output}


def _cpu_runs(run: Callable[[], Awaitable[object]], repeat: int) -> list[float]:
    """The process CPU seconds of each of ``repeat`` runs, each in a fresh event loop."""
    seconds: list[float] = []
    for _ in range(repeat):

        async def timed() -> float:
            start = time.process_time()
            await run()
            return time.process_time() - start

        seconds.append(asyncio.run(timed()))
    return seconds


@dataclass
class Pair:
    """One kind of tool, both ways: ``calls`` awaited invokes, and ``dispatch`` of one reply of as many."""

    calls: int
    invokes: Callable[[], Awaitable[None]]
    dispatched: Callable[[], Awaitable[None]]


def prepare(fn: Callable[..., Any], calls: int) -> Pair:
    """The two runs of ``fn`` on one invoker, each checked once (every call answered without an error)."""
    from onellm_runtime import Tool, ToolInvoker
    from onellm_runtime.providers import dispatch

    tool = Tool.create(fn, name="add")
    reply = _reply("add", calls)
    arguments = [_arguments(i) for i in range(calls)]
    invoker = ToolInvoker()

    async def invokes() -> None:
        for raw in arguments:
            result = await invoker.invoke(tool, raw, provider="openai")
            if result.is_error:
                raise RuntimeError(f"invoke answered a call with an error: {result.error}")

    async def dispatched() -> None:
        done = await dispatch("openai", reply, [tool], invoker=invoker)
        if len(done.results) != calls or any(r.is_error for r in done.results):
            raise RuntimeError("dispatch did not answer every call without an error: the measure is wrong")

    asyncio.run(invokes())  # compile the binder and the converter before anything is measured
    asyncio.run(dispatched())
    return Pair(calls, invokes, dispatched)


# -- the ``dispatch`` section of benchmarks/run.py --------------------------------------------


def _sample(run: Callable[[], Awaitable[None]], calls: int, repeat: int) -> Callable[[], float]:
    def sample() -> float:
        with gc_paused():
            seconds = _cpu_runs(run, repeat)
        return statistics.median(seconds) / calls * 1e9

    return sample


def comparisons(peers: Peers, smoke: bool, rounds: int) -> list[Comparison]:
    calls, repeat = (SMOKE_CALLS, 1) if smoke else (CALLS, RUNS_PER_SAMPLE)
    found: list[Comparison] = []
    for kind, fn in KINDS:
        try:
            pair = prepare(fn, calls)
        except Exception as e:  # a tree without dispatch, or a wrong answer: a result, not a crash
            why = f"failed: {type(e).__name__}: {str(e).splitlines()[0][:80] if str(e) else ''}"
            entries = [Entry(INVOKE, None, why, is_onellm=True), Entry(DISPATCH, None, why, base=INVOKE)]
        else:
            entries = [
                Entry(INVOKE, _sample(pair.invokes, calls, repeat), is_onellm=True),
                Entry(DISPATCH, _sample(pair.dispatched, calls, repeat), base=INVOKE),
            ]
        heading = f"{kind} tool add(a, b): N = {calls:,} calls"
        found.append(Comparison("dispatch", kind, heading, entries, "us"))
    return found


def show(report: Report, results: Results, smoke: bool) -> None:
    report.section(TITLE, *NOTES)
    for t in results.section_tables("dispatch"):
        report.rounds_table(t)


def targets(results: Results) -> list[Target]:
    """One line per kind of tool: dispatch's CPU per call / invoke's, round by round."""
    found: list[Target] = []
    for kind, _ in KINDS:
        mine = results.figure("dispatch", kind, DISPATCH)
        base = results.figure("dispatch", kind, INVOKE)
        found.append(
            Target(
                f"dispatch of N calls / N awaited invokes, CPU per call, {kind} tool",
                [] if mine is None or base is None else ratios(mine, base),
                TARGET,
                why_not="not measured (the table above says why)",
            )
        )
    return found


# -- the standalone command -------------------------------------------------------------


def measure(calls: int, repeat: int) -> float:
    """Print one row per kind of tool; the worst ratio of dispatch's per-call CPU to invoke's."""
    print(f"{'tool':<12} {'calls':>6} {'invoke / call':>14} {'dispatch / call':>16} {'ratio':>7}")
    worst = 0.0
    for kind, fn in KINDS:
        pair = prepare(fn, calls)
        by_invoke = min(_cpu_runs(pair.invokes, repeat)) / calls
        by_dispatch = min(_cpu_runs(pair.dispatched, repeat)) / calls
        ratio = by_dispatch / by_invoke
        worst = max(worst, ratio)
        print(f"{kind:<12} {calls:>6,} {by_invoke * 1e6:>11.1f} us {by_dispatch * 1e6:>13.1f} us {ratio:>6.2f}x")
    print()
    print(
        f"TARGET dispatch per call <= invoke per call + 10%: worst {worst:.2f}x {'met' if worst <= TARGET else 'MISSED'}"
    )
    return worst


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=CALLS)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--smoke", action="store_true", help="tiny counts, seconds: checks that it runs")
    args = parser.parse_args()
    print(f"Python {sys.version.split()[0]}, {'smoke' if args.smoke else 'full'} run")
    measure(SMOKE_CALLS if args.smoke else args.calls, 1 if args.smoke else args.repeat)


if __name__ == "__main__":
    main()
