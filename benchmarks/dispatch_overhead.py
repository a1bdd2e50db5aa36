"""What ``dispatch`` adds per call: one reply of N calls through ``dispatch``, beside N calls of
``ToolInvoker.invoke`` awaited one after another, on one invoker.

Both bind the same arguments and run the same tool; ``dispatch`` also finds the calls in the
reply, asks nothing (no tool needs approval), and writes each result as the API's item. The
figure is CPU time per call (process CPU, so worker threads count), the smallest of
``--repeat`` runs (the machine is shared; the smallest is the least disturbed), for a plain
``def`` tool (a worker thread per call's run) and an ``async def`` tool (no thread).

    python benchmarks/dispatch_overhead.py [--calls 2000] [--repeat 5] [--smoke]

Target: dispatch's per-call CPU <= invoke's + 10%.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from onellm_runtime import Tool, ToolInvoker  # noqa: E402
from onellm_runtime.providers import dispatch  # noqa: E402

TARGET = 1.10


def add(a: int, b: int) -> int:
    return a + b


async def add_async(a: int, b: int) -> int:
    return a + b


def _arguments(i: int) -> str:
    return json.dumps({"a": i, "b": 2})


def _reply(name: str, calls: int) -> dict[str, Any]:
    output = [
        {"type": "function_call", "call_id": f"c{i}", "name": name, "arguments": _arguments(i)} for i in range(calls)
    ]
    return {"id": "resp_1", "object": "response", "output": output}


def _cpu(run: Callable[[], Awaitable[object]], repeat: int) -> float:
    """The smallest process CPU time of ``repeat`` runs, each in a fresh event loop."""
    best = float("inf")
    for _ in range(repeat):

        async def timed() -> float:
            start = time.process_time()
            await run()
            return time.process_time() - start

        best = min(best, asyncio.run(timed()))
    return best


def measure(calls: int, repeat: int) -> float:
    """Print one row per tool kind; the worst ratio of dispatch's per-call CPU to invoke's."""
    print(f"{'tool':<12} {'calls':>6} {'invoke / call':>14} {'dispatch / call':>16} {'ratio':>7}")
    worst = 0.0
    for label, fn in (("def", add), ("async def", add_async)):
        tool = Tool.create(fn, name="add")
        reply = _reply("add", calls)
        arguments = [_arguments(i) for i in range(calls)]
        invoker = ToolInvoker()

        async def invokes() -> None:
            for raw in arguments:
                result = await invoker.invoke(tool, raw, provider="openai")
                if result.is_error:
                    raise SystemExit(result.error)

        async def dispatched() -> None:
            done = await dispatch("openai", reply, [tool], invoker=invoker)
            if any(r.is_error for r in done.results):
                raise SystemExit("dispatch answered a call with an error: the measure is wrong")

        asyncio.run(invokes())  # compile the binder and the converter before anything is measured
        by_invoke = _cpu(invokes, repeat) / calls
        by_dispatch = _cpu(dispatched, repeat) / calls
        ratio = by_dispatch / by_invoke
        worst = max(worst, ratio)
        print(f"{label:<12} {calls:>6,} {by_invoke * 1e6:>11.1f} us {by_dispatch * 1e6:>13.1f} us {ratio:>6.2f}x")
    print()
    print(
        f"TARGET dispatch per call <= invoke per call + 10%: worst {worst:.2f}x {'met' if worst <= TARGET else 'MISSED'}"
    )
    return worst


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=2_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--smoke", action="store_true", help="tiny counts, seconds: checks that it runs")
    args = parser.parse_args()
    print(f"Python {sys.version.split()[0]}, {'smoke' if args.smoke else 'full'} run")
    measure(50 if args.smoke else args.calls, 1 if args.smoke else args.repeat)


if __name__ == "__main__":
    main()
