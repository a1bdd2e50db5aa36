"""1. Schema build per tool: from a fresh function object to the JSON Schema a model reads."""

from __future__ import annotations

import itertools
import statistics
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from . import shapes
from .peers import Peers
from .report import Report, Row
from .rounds import Comparison, Entry, Results, Target, ratios, spread
from .timing import Stats, per_item

__all__ = ["comparisons", "show", "targets", "builders"]

TARGET_US = 50.0
TARGET_VS_TYPEADAPTER = 15.0

#: Each iteration's function gets a number no other iteration (of any implementation) uses.
_variants = itertools.count(1)


@dataclass(frozen=True)
class Builder:
    label: str
    peer: str | None  # None for onellm
    build: Callable[[Callable[..., Any]], object]


def builders(peers: Peers) -> tuple[list[Builder], list[Row]]:
    """onellm's builder and every present peer's; rows for the skipped ones."""
    from onellm_runtime import Tool

    found = [Builder("onellm Tool.create(fn).input_schema", None, lambda f: Tool.create(f).input_schema)]
    skipped: list[Row] = []

    def add(peer: str, label: str, make: Callable[[], Callable[[Callable[..., Any]], object]]) -> None:
        if peers.available(peer):
            found.append(Builder(label, peer, make()))
        else:
            skipped.append(Row(label, None, skipped=peers.why_missing(peer)))

    def pydantic() -> Callable[[Callable[..., Any]], object]:
        from pydantic import TypeAdapter

        return lambda f: TypeAdapter(f).json_schema()

    def agents() -> Callable[[Callable[..., Any]], object]:
        from agents import function_tool

        return lambda f: function_tool(f).params_json_schema

    def mcp() -> Callable[[Callable[..., Any]], object]:
        from mcp.server.mcpserver.tools.base import Tool as McpTool

        return lambda f: McpTool.from_function(f).parameters

    def pydantic_ai() -> Callable[[Callable[..., Any]], object]:
        from pydantic_ai import Tool as AiTool

        return lambda f: AiTool(f).tool_def

    add("pydantic", "pydantic TypeAdapter(fn).json_schema()", pydantic)
    add("openai-agents", "openai-agents function_tool(fn)", agents)
    add("mcp", "mcp Tool.from_function(fn) (MCPServer)", mcp)
    add("pydantic-ai", "pydantic-ai Tool(fn).tool_def", pydantic_ai)
    return found, skipped


def _fresh(fn: Callable[..., Any], cold_records: bool, docstring: bool = True) -> Iterator[Callable[..., Any]]:
    while True:
        i = next(_variants)
        new = shapes.fresh_function(fn, i, shapes.fresh_records(i) if cold_records else None)
        if not docstring:
            new.__doc__ = None
        yield new


def _entry(
    b: Builder,
    fn: Callable[..., Any],
    cold: bool,
    budget_s: float,
    max_n: int,
    *,
    docstring: bool = True,
    label: str | None = None,
    onellm: bool | None = None,
) -> Entry:
    label = label or b.label
    try:
        b.build(next(_fresh(fn, cold, docstring)))  # warm-up: lazy imports, and the check that it works
    except Exception as e:  # a peer that cannot describe this shape
        return Entry(label, None, skipped=f"failed: {type(e).__name__}: {str(e).splitlines()[0][:80]}")

    def sample() -> float:
        stats: Stats = per_item(b.build, itertools.islice(_fresh(fn, cold, docstring), max_n), budget_s)
        return stats.median_ns

    return Entry(label, sample, is_onellm=b.peer is None if onellm is None else onellm)


def _short(label: str) -> str:
    return label.split(":")[0]


TITLE = "1. Schema build per tool (a fresh function object per iteration)"
NOTES = (
    "Each iteration: a new function object (own identity, name and docstring text), same record classes.",
    "Cached by onellm (benchmarks/README.md lists each): per record or enum class, per annotation object that",
    "recurs (a class, typing's own cached forms), per annotation string's compiled code; docstring texts",
    "differ per iteration here, so their parse cache never answers.",
    "The 'cold' table makes new Enum and dataclass classes per iteration too: nothing can be cached.",
    "A round's figure = the median of single builds on the CPU clock, GC paused; ratio = row / onellm (higher = faster).",
    "Docstring share = 1 - (build of the same function without its docstring) / (build with it), round by round.",
)

#: The docstring share of a ticket-shape build (5 parameters, an Args section) on main at 0d5f1e1,
#: measured with this section (5 rounds, peers left out: median 41 %, range 38-42 %): the target halves it.
DOCSTRING_SHARE_BASELINE = 0.41
DOCSTRING_SHAPE = "ticket"
WITH_DOC = "onellm Tool.create(fn), with its docstring"
WITHOUT_DOC = "onellm Tool.create(fn), docstring removed"


def comparisons(peers: Peers, smoke: bool, rounds: int) -> list[Comparison]:
    budget_s, max_n, max_cold = (0.0, 5, 3) if smoke else (1.5 / max(1, rounds), 5000, 1000)
    found, skipped = builders(peers)
    out: list[Comparison] = []
    cases = [(label, fn, False) for label, fn in shapes.BUILD_SHAPES]
    cases.append(("cold: " + shapes.BUILD_SHAPES[0][0] + ", new record classes each time", shapes.create_ticket, True))
    for label, fn, cold in cases:
        entries = [_entry(b, fn, cold, budget_s, max_cold if cold else max_n) for b in found]
        entries += [Entry(r.label, None, skipped=r.skipped) for r in skipped]
        out.append(Comparison("build", "cold" if cold else _short(label), label, entries))
    for label, fn in shapes.BUILD_SHAPES:
        mine = found[0]
        out.append(
            Comparison(
                "build",
                "docstring " + _short(label),
                f"docstring share, {_short(label)} shape: the same build without the function's docstring",
                [
                    _entry(mine, fn, False, budget_s, max_n, label=WITH_DOC),
                    _entry(mine, fn, False, budget_s, max_n, docstring=False, label=WITHOUT_DOC, onellm=False),
                ],
            )
        )
    return out


def docstring_shares(results: Results, shape: str) -> list[float]:
    t = results.table("build", "docstring " + shape)
    if t is None:
        return []
    a, b = t.figure(WITH_DOC), t.figure(WITHOUT_DOC)
    return [] if a is None or b is None else [1.0 - r for r in ratios(b, a)]


def show(report: Report, results: Results, smoke: bool) -> None:
    report.section(TITLE, *NOTES)
    onellm_medians: dict[str, float] = {}
    typeadapter_ratios: dict[str, float] = {}
    for t in results.section_tables("build"):
        report.rounds_table(t)
        if t.name.startswith("docstring "):
            shares = docstring_shares(results, t.name.split(" ", 1)[1])
            report.print(f"    docstring share of the build: {spread([100 * s for s in shares], '{:.0f}', ' %')}")
            continue
        mine = next((f for f in t.figures if f.is_onellm and f.samples), None)
        ta = next((f for f in t.figures if f.label.startswith("pydantic TypeAdapter") and f.samples), None)
        if mine is not None and t.name != "cold":
            onellm_medians[t.heading] = mine.median / 1000
            if ta is not None:
                typeadapter_ratios[t.heading] = statistics.median(ratios(ta, mine))
    if onellm_medians:
        worst = max(onellm_medians, key=lambda k: onellm_medians[k])
        report.target(
            f"schema build <= {TARGET_US:.0f} us median per tool (every warm shape)",
            onellm_medians[worst] <= TARGET_US,
            f"slowest shape '{_short(worst)}' {onellm_medians[worst]:.1f} us; "
            + ", ".join(f"{_short(k)} {v:.1f}" for k, v in onellm_medians.items()),
        )
    if typeadapter_ratios:
        least = min(typeadapter_ratios, key=lambda k: typeadapter_ratios[k])
        report.target(
            f"schema build >= {TARGET_VS_TYPEADAPTER:.0f}x faster than TypeAdapter(fn).json_schema() (every warm shape)",
            typeadapter_ratios[least] >= TARGET_VS_TYPEADAPTER,
            ", ".join(f"{_short(k)} {v:.1f}x" for k, v in typeadapter_ratios.items()),
        )
    else:
        report.print("  TARGET vs TypeAdapter: not measured (pydantic skipped)")


def targets(results: Results) -> list[Target]:
    shares = docstring_shares(results, DOCSTRING_SHAPE)
    return [
        Target(
            f"docstring share of a {DOCSTRING_SHAPE}-shape build / the recorded {DOCSTRING_SHARE_BASELINE:.0%} (main at 0d5f1e1)",
            [s / DOCSTRING_SHARE_BASELINE for s in shares],
            0.5,
            detail="share " + spread([100 * s for s in shares], "{:.0f}", " %"),
        )
    ]
