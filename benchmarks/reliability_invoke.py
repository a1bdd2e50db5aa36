"""What the invoker's safeguards cost, and what they bound.

    python benchmarks/reliability_invoke.py           # the full figures (about a minute on 2 cores)
    python benchmarks/reliability_invoke.py --smoke   # tiny counts: checks that every part runs

Figures, each on one event loop:

1. Background jobs: the CPU time to start 8,000 running jobs, and for 10,000 quick jobs
   finishing together the CPU time and the longest stall of the event loop (a task that
   only yields measures the gaps between its turns).
2. Binding a 1 MB document: the longest event-loop stall while it is bound, on the loop
   (``BIND_OFF_LOOP_CHARS`` raised above the document's size) and off it (the default).
3. Sync tools: the peak number of threads for 10,000 concurrent calls (the pool's limit
   is the default, ``min(32, CPUs + 4)``).
4. A long-lived invoker serving ``Tool.create(closure)`` per request: memory still held
   per tool after the tools are dropped.
5. The result check: the time per call of a tool returning a small JSON document, with the
   check and with it switched off (the difference is what every JSON result pays).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import sys
import threading
import time
import tracemalloc
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from onellm_runtime import JsonValue, Tool, ToolInvoker
from onellm_runtime.invoking import convert as convert_module
from onellm_runtime.invoking import invoker as invoker_module
from onellm_runtime.invoking.jobs import JobRegistry


class Stalls:
    """The longest gap between two turns of a task that only yields, while it runs."""

    def __init__(self) -> None:
        self.longest = 0.0
        self._task: asyncio.Task[None] | None = None

    async def _tick(self) -> None:
        last = time.perf_counter()
        while True:
            await asyncio.sleep(0)
            now = time.perf_counter()
            self.longest = max(self.longest, now - last)
            last = now

    async def __aenter__(self) -> Stalls:
        self._task = asyncio.create_task(self._tick())
        await asyncio.sleep(0)
        return self

    async def __aexit__(self, *_: object) -> None:
        assert self._task is not None
        await asyncio.sleep(0)  # one more turn: a stall that ends as the work ends is counted too
        self._task.cancel()


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:,.1f} ms"


async def jobs(running: int, finishing: int) -> None:
    release = asyncio.Event()

    async def wait_for_release() -> str:
        await release.wait()
        return "done"

    async def quick() -> str:
        await release.wait()
        return "done"

    slow = Tool.create(wait_for_release, invocation_mode="model_choice")
    invoker = ToolInvoker(jobs=JobRegistry(max_finished=100))
    start = time.process_time()
    for _ in range(running):
        await invoker.invoke(slow, '{"invocationMode": "background"}')
    print(f"  start {running:,} running jobs: {_ms(time.process_time() - start)} CPU")
    await invoker.aclose()

    release = asyncio.Event()
    fast = Tool.create(quick, invocation_mode="model_choice")
    invoker = ToolInvoker(jobs=JobRegistry(max_finished=100))
    for _ in range(finishing):
        await invoker.invoke(fast, '{"invocationMode": "background"}')
    start = time.process_time()
    async with Stalls() as stalls:
        release.set()
        while len(invoker.jobs) > 100 or any(not invoker.jobs[j].done for j in invoker.jobs):
            await asyncio.sleep(0)
    print(
        f"  {finishing:,} quick jobs finishing together: {_ms(time.process_time() - start)} CPU, "
        f"longest loop stall {_ms(stalls.longest)}"
    )
    await invoker.aclose()


async def _bind_stall(t: Tool[..., Any], raw: str) -> float:
    invoker = ToolInvoker()
    async with Stalls() as stalls:
        result = await invoker.invoke(t, raw)
    assert not result.is_error, result.error
    return stalls.longest


async def binding(size: int) -> None:
    async def count(items: list[dict[str, JsonValue]]) -> int:
        return len(items)

    t = Tool.create(count)
    item = {"name": "widget", "qty": 3, "tags": ["a", "b"], "note": "x" * 40}
    per = len(json.dumps(item)) + 2
    raw = json.dumps({"items": [item] * (size // per)})
    saved = invoker_module.BIND_OFF_LOOP_CHARS
    try:
        invoker_module.BIND_OFF_LOOP_CHARS = len(raw) + 1
        on_loop = await _bind_stall(t, raw)
    finally:
        invoker_module.BIND_OFF_LOOP_CHARS = saved
    off_loop = await _bind_stall(t, raw)
    print(
        f"  a {len(raw) / 1e6:.2f} MB document: longest loop stall {_ms(on_loop)} bound on the loop, "
        f"{_ms(off_loop)} bound off it (above {saved:,} characters)"
    )


async def threads(calls: int) -> None:
    peak = 0
    lock = threading.Lock()

    def work(n: int) -> int:
        nonlocal peak
        with lock:
            peak = max(peak, threading.active_count())
        time.sleep(0.0005)
        return n

    t = Tool.create(work)
    invoker = ToolInvoker()
    results = await asyncio.gather(*(invoker.invoke(t, f'{{"n": {n}}}') for n in range(calls)))
    assert not any(r.is_error for r in results)
    print(f"  {calls:,} concurrent sync calls: peak {peak} threads (limit {invoker.workers.limit})")


async def memory(tools: int) -> None:
    invoker = ToolInvoker()

    async def serve(request: int) -> None:
        def per_request(n: int) -> int:
            return n + request

        result = await invoker.invoke(Tool.create(per_request), '{"n": 1}')
        assert not result.is_error

    await serve(-1)
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    for request in range(tools):
        await serve(request)
    gc.collect()
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    print(f"  {tools:,} tools served and dropped: {(after - before) / tools:,.0f} bytes held per tool")


def _per_call(op: Callable[[], Awaitable[Any]], calls: int) -> float:
    async def batch() -> float:
        start = time.process_time_ns()
        for _ in range(calls):
            await op()
        return (time.process_time_ns() - start) / calls / 1000

    return min(asyncio.run(batch()) for _ in range(7))


def result_check(calls: int) -> None:
    async def document() -> JsonValue:
        return {"id": 7, "name": "widget", "tags": ["a", "b"], "price": 9.5, "ok": True}

    t = Tool.create(document)
    invoker = ToolInvoker()
    saved = convert_module.problem
    checked: list[float] = []
    unchecked: list[float] = []
    gc.disable()
    try:
        for _ in range(3):  # alternated, so that a change in the machine's load hits both alike
            checked.append(_per_call(lambda: invoker.invoke(t, "{}"), calls))
            convert_module.problem = lambda value: None  # type: ignore[assignment]
            unchecked.append(_per_call(lambda: invoker.invoke(t, "{}"), calls))
            convert_module.problem = saved
    finally:
        convert_module.problem = saved
        gc.enable()
    print(f"  a small JSON result: {min(checked):.2f} us per call checked, {min(unchecked):.2f} us unchecked")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--smoke", action="store_true", help="tiny counts: check that every part runs")
    smoke = parser.parse_args().smoke
    gc.disable()
    print("1. background jobs")
    asyncio.run(jobs(80 if smoke else 8000, 100 if smoke else 10_000))
    gc.enable()
    print("2. binding a large document")
    asyncio.run(binding(100_000 if smoke else 1_000_000))
    print("3. sync tools on the bounded pool")
    asyncio.run(threads(100 if smoke else 10_000))
    print("4. a long-lived invoker")
    asyncio.run(memory(20 if smoke else 2000))
    print("5. the result check")
    result_check(10 if smoke else 20_000)


if __name__ == "__main__":
    main()
