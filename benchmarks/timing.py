"""How figures are taken: medians, with the garbage collector held off while timing.

Two ways, matched to how long one operation takes:

* ``per_item``: one timer reading around each operation on its own input (a fresh
  function per schema build), median of those. Suits operations of several µs and up.
  Read on the process's CPU clock too (a peer's build of several ms is rarely spared a
  wait for a core on a shared machine), less that clock's own cost, measured first (a
  CPU-clock reading is a system call of a few µs in this virtual machine).
* ``per_call``: batches of many calls on the same input, median of the batch means.
  Suits operations of a few µs and below, where one timer reading would be noise. A
  batch is timed on the process's CPU clock (``time.process_time_ns``), not the wall
  clock: on a shared machine the process is descheduled for whole milliseconds, and a
  batch of 20 ms is rarely spared, while CPU time counts only what the calls cost.

The collector is collected before and disabled during each timed run (as ``timeit``
does), so a collection triggered by one implementation's garbage is not charged to the
next one; the scale section leaves it on, because there the whole cost is the point.
"""

from __future__ import annotations

import asyncio
import gc
import statistics
import time
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

T = TypeVar("T")

__all__ = ["Stats", "per_item", "per_call", "per_call_async", "gc_paused"]


@dataclass(frozen=True)
class Stats:
    """A timing: the median and the 10th/90th percentiles of one operation, in ns."""

    median_ns: float
    p10_ns: float
    p90_ns: float
    n: int

    @property
    def median_us(self) -> float:
        return self.median_ns / 1000.0


def _stats(samples: Sequence[float], n: int) -> Stats:
    ordered = sorted(samples)
    k = len(ordered)
    return Stats(statistics.median(ordered), ordered[k // 10], ordered[min(k - 1, (k * 9) // 10)], n)


class gc_paused:
    """Collect, then keep the cyclic garbage collector off inside the block."""

    def __enter__(self) -> None:
        self._was_enabled = gc.isenabled()
        gc.collect()
        gc.disable()

    def __exit__(self, *exc: object) -> None:
        if self._was_enabled:
            gc.enable()


def _clock_cost_ns() -> float:
    """What one reading of the CPU clock adds to an interval (the median of empty intervals)."""
    clock = time.process_time_ns
    empty = []
    for _ in range(201):
        start = clock()
        empty.append(clock() - start)
    return float(statistics.median(empty))


def per_item(op: Callable[[T], object], items: Iterable[T], budget_s: float, min_n: int = 5) -> Stats:
    """Time ``op(item)`` once per item until the items or the time budget run out."""
    samples: list[float] = []
    clock = time.process_time_ns
    cost = _clock_cost_ns()
    deadline = time.perf_counter() + budget_s
    with gc_paused():
        for item in items:
            start = clock()
            op(item)
            samples.append(max(0.0, clock() - start - cost))
            if len(samples) >= min_n and time.perf_counter() > deadline:
                break
    if not samples:
        raise ValueError("no items to time")
    return _stats(samples, len(samples))


def per_call(op: Callable[[], object], calls: int, repeat: int) -> Stats:
    """Median over ``repeat`` batches of the mean time of one of ``calls`` calls to ``op``."""
    op()  # warm up (first-call compilation, caches every implementation is entitled to)
    means: list[float] = []
    clock = time.process_time_ns
    with gc_paused():
        for _ in range(repeat):
            start = clock()
            for _ in range(calls):
                op()
            means.append((clock() - start) / calls)
    return _stats(means, calls * repeat)


def per_call_async(op: Callable[[], Awaitable[Any]], calls: int, repeat: int) -> Stats:
    """``per_call`` for a coroutine function, every call awaited on one event loop."""

    async def run() -> list[float]:
        await op()
        means: list[float] = []
        clock = time.process_time_ns
        for _ in range(repeat):
            start = clock()
            for _ in range(calls):
                await op()
            means.append((clock() - start) / calls)
        return means

    loop = asyncio.new_event_loop()
    try:
        with gc_paused():
            means = loop.run_until_complete(run())
    finally:
        loop.close()
    return _stats(means, calls * repeat)
