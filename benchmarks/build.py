"""1. Schema build per tool: from a fresh function object to the JSON Schema a model reads."""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any, Callable, Iterator

from . import shapes
from .peers import Peers
from .report import Report, Row
from .timing import Stats, per_item

__all__ = ["run", "builders"]

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


def _fresh(fn: Callable[..., Any], cold_records: bool) -> Iterator[Callable[..., Any]]:
    while True:
        i = next(_variants)
        yield shapes.fresh_function(fn, i, shapes.fresh_records(i) if cold_records else None)


def _time(b: Builder, fn: Callable[..., Any], cold: bool, budget_s: float, max_n: int) -> Row:
    try:
        b.build(next(_fresh(fn, cold)))  # warm-up: lazy imports, and the check that it works
    except Exception as e:  # a peer that cannot describe this shape
        return Row(b.label, None, skipped=f"failed: {type(e).__name__}: {str(e).splitlines()[0][:80]}")
    stats: Stats = per_item(b.build, itertools.islice(_fresh(fn, cold), max_n), budget_s)
    return Row(b.label, stats, is_onellm=b.peer is None)


def run(report: Report, peers: Peers, smoke: bool) -> None:
    budget_s, max_n, max_cold = (0.0, 5, 3) if smoke else (1.5, 5000, 1000)
    report.section(
        "1. Schema build per tool (a fresh function object per iteration)",
        "Each iteration: a new function object (own identity, name and docstring text), same record classes.",
        "Cached by onellm (benchmarks/README.md lists each): per record or enum class, per annotation object that",
        "recurs (a class, typing's own cached forms), per annotation string's compiled code; docstring texts",
        "differ per iteration here, so their parse cache never answers.",
        "The 'cold' table makes new Enum and dataclass classes per iteration too: nothing can be cached.",
        "Time per tool = the median of single builds on the CPU clock, GC paused; ratio = row / onellm (higher = faster).",
    )
    found, skipped = builders(peers)
    onellm_medians: dict[str, float] = {}
    typeadapter_ratios: dict[str, float] = {}
    cases = [(label, fn, False) for label, fn in shapes.BUILD_SHAPES]
    cases.append(("cold: " + shapes.BUILD_SHAPES[0][0] + ", new record classes each time", shapes.create_ticket, True))
    for label, fn, cold in cases:
        rows = [_time(b, fn, cold, budget_s, max_cold if cold else max_n) for b in found] + skipped
        report.table("build", label, rows)
        mine = rows[0].stats
        ta = next((r.stats for r in rows if r.label.startswith("pydantic TypeAdapter")), None)
        if mine is not None and not cold:
            onellm_medians[label] = mine.median_us
            if ta is not None:
                typeadapter_ratios[label] = ta.median_ns / mine.median_ns
    if onellm_medians:
        worst = max(onellm_medians, key=lambda k: onellm_medians[k])
        report.target(
            f"schema build <= {TARGET_US:.0f} us median per tool (every warm shape)",
            onellm_medians[worst] <= TARGET_US,
            f"slowest shape '{worst.split(':')[0]}' {onellm_medians[worst]:.1f} us; "
            + ", ".join(f"{k.split(':')[0]} {v:.1f}" for k, v in onellm_medians.items()),
        )
    if typeadapter_ratios:
        least = min(typeadapter_ratios, key=lambda k: typeadapter_ratios[k])
        report.target(
            f"schema build >= {TARGET_VS_TYPEADAPTER:.0f}x faster than TypeAdapter(fn).json_schema() (every warm shape)",
            typeadapter_ratios[least] >= TARGET_VS_TYPEADAPTER,
            ", ".join(f"{k.split(':')[0]} {v:.1f}x" for k, v in typeadapter_ratios.items()),
        )
    else:
        report.print("  TARGET vs TypeAdapter: not measured (pydantic skipped)")
