"""5. Scale: building 1,000 and 10,000 tools; time per tool should not grow, memory per tool.

The tools cycle through the build shapes, each a fresh function with its own name and
docstring text; the functions are made before the clock starts. The collector stays on
here: a long build pays for its garbage, and that is part of the figure. Memory is the
``tracemalloc`` growth while the tools are built and kept (the functions themselves were
allocated before), divided by the count; it includes onellm's shared caches (records,
parsed docstrings) divided over the tools, which is why it is taken after a warm-up.
"""

from __future__ import annotations

import gc
import itertools
import time
import tracemalloc
from typing import Any, Callable

from . import shapes
from .build import Builder, builders
from .peers import Peers
from .report import Report, Row
from .timing import Stats

__all__ = ["run"]

_variants = itertools.count(10_000_000)


def _functions(n: int) -> list[Callable[..., Any]]:
    fns = [fn for _, fn in shapes.BUILD_SHAPES]
    return [shapes.fresh_function(fns[i % len(fns)], next(_variants)) for i in range(n)]


def _build_all(b: Builder, fns: list[Callable[..., Any]], gc_on: bool = True) -> tuple[float, list[object]]:
    """CPU seconds to build every tool (the process's CPU clock: on a shared machine the
    wall clock also counts the milliseconds the process waits for a core)."""
    gc.collect()
    if not gc_on:
        gc.disable()
    try:
        start = time.process_time()
        built = [b.build(f) for f in fns]
        return time.process_time() - start, built
    finally:
        gc.enable()


def _memory_per_tool(b: Builder, n: int) -> float:
    fns = _functions(n)
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        built = [b.build(f) for f in fns]
        gc.collect()
        after = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    del built
    return (after - before) / n


def _as_stats(seconds: float, n: int) -> Stats:
    ns = seconds * 1e9 / n
    return Stats(ns, ns, ns, n)


def run(report: Report, peers: Peers, smoke: bool) -> None:
    small, large = (20, 200) if smoke else (1_000, 10_000)
    larger = 2 * large  # is the growth the collector's first full collections, or steady?
    report.section(
        f"5. Scale: building {small:,} and {large:,} tools (the four build shapes in turn, GC on)",
        "Time per tool = total CPU time of the build / count; linear growth means the per-tool time stays flat.",
        "Memory per tool = tracemalloc growth while building and keeping the tools / count.",
    )
    found, skipped = builders(peers)
    for b in found:  # warm-up: every shape's records and lazy imports, for everyone
        for _, fn in shapes.BUILD_SHAPES:
            b.build(shapes.fresh_function(fn, next(_variants)))

    onellm = found[0]
    t_small, kept = _build_all(onellm, _functions(small))
    del kept
    t_large, kept = _build_all(onellm, _functions(large))
    del kept
    # The same builds with the collector paused: onellm's own work. With it on, each full
    # collection walks every live object (the tools kept so far, and every imported peer),
    # so its share grows with the heap in any library.
    p_small, kept = _build_all(onellm, _functions(small), gc_on=False)
    del kept
    p_large, kept = _build_all(onellm, _functions(large), gc_on=False)
    del kept
    t_larger, kept = _build_all(onellm, _functions(larger))
    del kept
    rows = [
        Row(f"onellm, {small:,} tools", _as_stats(t_small, small), is_onellm=True),
        Row(f"onellm, {large:,} tools", _as_stats(t_large, large), note=f"total {t_large:.2f} s"),
        Row(f"onellm, {small:,} tools, GC paused", _as_stats(p_small, small), note=f"total {p_small:.2f} s"),
        Row(f"onellm, {large:,} tools, GC paused", _as_stats(p_large, large), note=f"total {p_large:.2f} s"),
        Row(f"onellm, {larger:,} tools", _as_stats(t_larger, larger), note=f"total {t_larger:.2f} s"),
    ]
    peer_mem: list[tuple[str, float]] = []
    for b in found[1:]:
        seconds, kept = _build_all(b, _functions(small))
        del kept
        rows.append(Row(f"{b.label}, {small:,} tools", _as_stats(seconds, small), note=f"total {seconds:.2f} s"))
        peer_mem.append((b.label, _memory_per_tool(b, small)))
    rows += [Row(r.label + f", {small:,} tools", None, skipped=r.skipped) for r in skipped]
    report.table("scale", "time per tool", rows)

    growth = (t_large / large) / (t_small / small)
    own_growth = (p_large / large) / (p_small / small)
    mine_mem = _memory_per_tool(onellm, small)
    report.print()
    report.print(f"  per-tool time at {large:,} / at {small:,}: {growth:.2f} (1.00 = perfectly linear)")
    report.print(f"  the same with the collector paused: {own_growth:.2f}")
    steady = (t_larger / larger) / (t_large / large)
    report.print(f"  per-tool time at {larger:,} / at {large:,}, collector on: {steady:.2f}")
    report.print(f"  total time {large:,} / {small:,}: {t_large / t_small:.1f}x for {large // small}x the tools")
    report.print()
    report.print("  memory per tool (tracemalloc, tools kept alive):")
    report.print(f"    {onellm.label:<44}{mine_mem / 1024:10.1f} KiB   1.00x (onellm)")
    for label, mem in peer_mem:
        report.print(f"    {label:<44}{mem / 1024:10.1f} KiB   {mem / mine_mem:.2f}x")
    report.results["scale_memory_kib"] = {onellm.label: round(mine_mem / 1024, 2)} | {
        label: round(mem / 1024, 2) for label, mem in peer_mem
    }
    report.results["scale_growth"] = round(growth, 3)
    report.results["scale_growth_gc_paused"] = round(own_growth, 3)
    report.results["scale_growth_10k_to_20k"] = round(steady, 3)
    report.target(
        "time grows linearly (per-tool time at 10x the tools within 1.25x, GC on)",
        growth <= 1.25,
        f"{growth:.2f} (GC paused: {own_growth:.2f}); {mine_mem / 1024:.1f} KiB per tool",
    )
