"""5. Scale: building 1,000 and 50,000 tools; time per tool should not grow, memory per tool.

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
import marshal
import time
import tracemalloc
from collections.abc import Callable
from typing import Any

from . import shapes
from .build import Builder, builders
from .peers import Peers
from .report import Report
from .rounds import Comparison, Entry, Results, Target, ratios, spread

__all__ = ["comparisons", "once", "show", "targets"]

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


def _tracked_per_tool(b: Builder, n: int) -> float:
    """Objects the cyclic collector tracks, per tool kept (what every full collection walks)."""
    fns = _functions(n)
    gc.collect()
    before = len(gc.get_objects())
    built = [b.build(f) for f in fns]
    gc.collect()
    after = len(gc.get_objects())
    del built
    return (after - before) / n


def _per_tool(b: Builder, n: int, gc_on: bool) -> Callable[[], float]:
    def sample() -> float:
        fns = _functions(n)
        seconds, kept = _build_all(b, fns, gc_on)
        del kept, fns
        return seconds * 1e9 / n

    return sample


def _copies_per_tool(b: Builder, n: int) -> Callable[[], float]:
    """The floor under the GC-on figure: as many tools' schemas kept, but loaded from
    ``marshal`` copies of schemas built once (the same dicts and lists, so the same objects
    for the collector to walk), beside as many fresh functions: what keeping the results
    alone costs, at C speed, with no build."""
    frozen = [marshal.dumps(b.build(fn)) for _, fn in shapes.BUILD_SHAPES]

    def sample() -> float:
        fns = _functions(n)
        gc.collect()
        start = time.process_time()
        kept = [marshal.loads(frozen[i % len(frozen)]) for i in range(n)]
        seconds = time.process_time() - start
        del kept, fns
        return seconds * 1e9 / n

    return sample


def sizes(smoke: bool) -> tuple[int, int]:
    return (20, 200) if smoke else (1_000, 50_000)


TARGET_GROWTH = 1.2
TITLE_FMT = "5. Scale: building {small:,} and {large:,} tools (the four build shapes in turn)"
NOTES = (
    "A round's figure = total CPU time of building (and keeping) that many tools / count; flat = linear.",
    "The collector is on unless a row says paused: a long build pays for its garbage, in one process with",
    "every peer imported. Memory per tool = tracemalloc growth while building and keeping the tools / count,",
    "and GC-tracked objects per tool: both taken once, after the rounds.",
)


def _label(n: int, gc_on: bool) -> str:
    return f"onellm, {n:,} tools, " + ("GC on" if gc_on else "GC paused")


def _copy_label(n: int) -> str:
    return f"reference: the same schemas copied, {n:,} kept, GC on"


def comparisons(peers: Peers, smoke: bool, rounds: int) -> list[Comparison]:
    small, large = sizes(smoke)
    found, skipped = builders(peers)
    for b in found:  # warm-up: every shape's records and lazy imports, for everyone
        for _, fn in shapes.BUILD_SHAPES:
            b.build(shapes.fresh_function(fn, next(_variants)))
    onellm = found[0]
    entries = [
        Entry(_label(small, True), _per_tool(onellm, small, True), is_onellm=True),
        Entry(_label(large, True), _per_tool(onellm, large, True)),
        Entry(_label(small, False), _per_tool(onellm, small, False), base=_label(small, True)),
        Entry(_label(large, False), _per_tool(onellm, large, False), base=_label(small, False)),
        Entry(_copy_label(small), _copies_per_tool(onellm, small), base=_label(small, True)),
        Entry(_copy_label(large), _copies_per_tool(onellm, large), base=_copy_label(small)),
    ]
    for b in found[1:]:
        entries.append(Entry(f"{b.label}, {small:,} tools, GC on", _per_tool(b, small, True)))
    entries += [Entry(r.label + f", {small:,} tools", None, skipped=r.skipped) for r in skipped]
    return [
        Comparison(
            "scale", "time per tool", "time per tool (ratio: to onellm at the small size, paused to paused)", entries
        )
    ]


def once(peers: Peers, smoke: bool) -> dict[str, Any]:
    small, large = sizes(smoke)
    found, _ = builders(peers)
    onellm = found[0]
    memory = {f"{onellm.label}, {n:,} tools": _memory_per_tool(onellm, n) / 1024 for n in (small, large)}
    memory |= {f"{b.label}, {small:,} tools": _memory_per_tool(b, small) / 1024 for b in found[1:]}
    tracked = {n: _tracked_per_tool(onellm, n) for n in (small, large)}
    return {"scale_memory_kib": memory, "scale_gc_tracked_per_tool": {f"{n:,}": v for n, v in tracked.items()}}


def growth(results: Results, gc_on: bool) -> list[float]:
    small, large = _sizes_in(results)
    t = results.table("scale", "time per tool")
    a = None if t is None else t.figure(_label(small, gc_on))
    b = None if t is None else t.figure(_label(large, gc_on))
    return [] if a is None or b is None else ratios(b, a)


def _sizes_in(results: Results) -> tuple[int, int]:
    t = results.table("scale", "time per tool")
    labels = (
        [] if t is None else [f.label for f in t.figures if f.label.startswith("onellm, ") and "paused" not in f.label]
    )
    counts = sorted(int(label.split(", ")[1].split()[0].replace(",", "")) for label in labels)
    return (counts[0], counts[-1]) if counts else (0, 0)


def show(report: Report, results: Results, smoke: bool) -> None:
    small, large = _sizes_in(results)
    report.section(TITLE_FMT.format(small=small, large=large), *NOTES)
    for t in results.section_tables("scale"):
        report.rounds_table(t)
    on, off = growth(results, True), growth(results, False)
    report.print()
    report.print(f"  per-tool time at {large:,} / at {small:,}, collector on: {spread(on)} (1.00 = perfectly linear)")
    report.print(f"  the same with the collector paused: {spread(off)}")
    t = results.table("scale", "time per tool")
    pairs = [
        (None if t is None else t.figure(a), None if t is None else t.figure(b))
        for a, b in ((_label(small, True), _label(large, True)), (_copy_label(small), _copy_label(large)))
    ]
    if all(a is not None and b is not None for a, b in pairs):
        (a, b), (c, d) = pairs
        assert a is not None and b is not None and c is not None and d is not None
        grown = [(y - x) / 1000 for x, y in zip(a.samples, b.samples)]
        floor = [(y - x) / 1000 for x, y in zip(c.samples, d.samples)]
        report.print(
            f"  per-tool time added at {large:,} tools, collector on: onellm {spread(grown, unit=' us')};"
            f" keeping the copied schemas alone {spread(floor, unit=' us')} (the collector's full passes"
            " over the kept results and the functions, whoever built the results)"
        )
    memory: dict[str, float] = results.once.get("scale_memory_kib", {})
    if memory:
        report.print()
        report.print("  memory per tool (tracemalloc, tools kept alive):")
        for label, kib in memory.items():
            report.print(f"    {label:<52}{kib:10.1f} KiB")
    tracked: dict[str, float] = results.once.get("scale_gc_tracked_per_tool", {})
    if tracked:
        report.print(
            "  objects the collector tracks, per onellm tool kept: "
            + ", ".join(f"{v:.1f} at {n} tools" for n, v in tracked.items())
        )


def targets(results: Results) -> list[Target]:
    small, large = _sizes_in(results)
    return [
        Target(
            f"per-tool build time, {large:,} / {small:,} tools, GC on",
            growth(results, True),
            TARGET_GROWTH,
            detail="GC paused: " + spread(growth(results, False), unit="x"),
        )
    ]
