"""3. End-to-end invoke per call: raw JSON in, arguments bound, a trivial tool run, a result out.

The tools are ``async def`` functions that return their input's title, so that no
implementation's worker-thread hop (each runs a plain ``def`` in a thread) is measured:
what is left is each framework's own path.
"""

from __future__ import annotations

import functools
import json
import logging
import statistics
from collections.abc import Awaitable, Callable
from typing import Any

from . import shapes
from .peers import Peers
from .report import Report
from .rounds import Comparison, Entry, Results, Table, Target
from .timing import per_call_async

__all__ = ["comparisons", "show", "targets"]

TARGET_VS_FASTEST = 5.0

Op = Callable[[], Awaitable[Any]]


def _onellm(fn: Callable[..., Any], raw: str) -> Op:
    from onellm_runtime import Tool, ToolInvoker

    tool = Tool.create(fn)
    invoker = ToolInvoker()
    if not hasattr(invoker, "invoke"):
        raise NotImplementedError("ToolInvoker is still a placeholder without invoke()")

    async def op() -> Any:
        result = await invoker.invoke(tool, raw)
        if result.is_error:
            raise RuntimeError(result.error)
        return result

    return op


def _agents(fn: Callable[..., Any], raw: str) -> Op:
    from agents import function_tool
    from agents.tool_context import ToolContext

    tool = function_tool(fn)
    context = ToolContext(context=None, tool_name=tool.name, tool_call_id="call_1", tool_arguments=raw)

    async def op() -> Any:
        return await tool.on_invoke_tool(context, raw)

    return op


def _mcp(fn: Callable[..., Any], raw: str) -> Op:
    from mcp.server.mcpserver import MCPServer

    server = MCPServer("bench")
    # MCPServer sets the root logger to INFO with a handler (basicConfig): put it back, or the
    # later sections print a line per HTTP request and every LSP message the client sends.
    logging.getLogger().setLevel(logging.WARNING)
    server.add_tool(fn, name="tool")

    async def op() -> Any:
        result: Any = await server.call_tool("tool", json.loads(raw))
        if result.is_error:
            raise RuntimeError(str(result.content))
        return result

    return op


def _pydantic_ai(fn: Callable[..., Any], raw: str) -> Op:
    """pydantic-ai's own tool-call path in an agent run step: ``ToolManager.handle_call``."""
    from pydantic_ai import RunContext
    from pydantic_ai import Tool as AiTool
    from pydantic_ai.messages import ToolCallPart
    from pydantic_ai.models.test import TestModel
    from pydantic_ai.tool_manager import ToolManager
    from pydantic_ai.toolsets import FunctionToolset
    from pydantic_ai.usage import RunUsage

    tool = AiTool(fn, name="tool")
    context = RunContext(deps=None, model=TestModel(), usage=RunUsage())
    managers: list[Any] = []  # for_run_step is async: made on the first call, on the timing loop
    call = ToolCallPart("tool", args=raw, tool_call_id="call_1")

    async def op() -> Any:
        if not managers:
            managers.append(await ToolManager(FunctionToolset([tool])).for_run_step(context))
        return await managers[0].handle_call(call)

    return op


def _pydantic_ai_core(fn: Callable[..., Any], raw: str) -> Op:
    """A lower bound, not a call path anyone runs: pydantic-ai's validator and function call alone."""
    from pydantic_ai import Tool as AiTool

    schema = AiTool(fn).function_schema

    async def op() -> Any:
        args = schema.validator.validate_json(raw)
        return await schema.call(args, None)  # type: ignore[arg-type]  # takes_ctx is False: no RunContext read

    return op


#: (peer, label, make, note, counts for the target)
_PEERS: list[tuple[str, str, Callable[[Callable[..., Any], str], Op], str, bool]] = [
    ("openai-agents", "openai-agents FunctionTool.on_invoke_tool", _agents, "", True),
    ("mcp", "mcp MCPServer.call_tool(name, json.loads(raw))", _mcp, "", True),
    ("pydantic-ai", "pydantic-ai ToolManager.handle_call", _pydantic_ai, "its agent-run tool-call path", True),
    (
        "pydantic-ai",
        "pydantic-ai validate_json + function (core)",
        _pydantic_ai_core,
        "reference only: its validator and the call, without its call path",
        False,
    ),
]


ONELLM = "onellm ToolInvoker().invoke(tool, raw)"
TARGET_VS_EVERY_PEER = 1.0


def _entry(
    label: str, make: Callable[[], Op], calls: int, repeat: int, *, note: str = "", onellm: bool = False
) -> Entry:
    try:
        op = make()
        per_call_async(op, 1, 1)  # the check that it works (and its first-call set-up)
    except NotImplementedError as e:
        return Entry(label, None, skipped=f"not available yet: NotImplementedError: {e}")
    except Exception as e:
        return Entry(label, None, skipped=f"failed: {type(e).__name__}: {str(e).splitlines()[0][:80]}")
    return Entry(label, lambda: per_call_async(op, calls, repeat).median_ns, note=note, is_onellm=onellm)


TITLE = "3. End-to-end invoke per call (bind, call a trivial async tool, build the result)"
NOTES = (
    "Each implementation is prepared once per tool; each call starts from the raw JSON text.",
    "A round's figure = median over batches of the batch mean on one event loop, on the CPU clock, GC paused;",
    "ratio = row / onellm.",
)


def comparisons(peers: Peers, smoke: bool, rounds: int) -> list[Comparison]:
    out = []
    for label, _, afn, raw in shapes.BIND_DOCS:
        calls = 3 if smoke else max(20, 1_000_000 // (len(raw) * 20))
        repeat = 1 if smoke else 4
        entries = [_entry(ONELLM, functools.partial(_onellm, afn, raw), calls, repeat, onellm=True)]
        for key, peer_label, make, note, _ in _PEERS:
            if peers.available(key):
                entries.append(_entry(peer_label, functools.partial(make, afn, raw), calls, repeat, note=note))
            else:
                entries.append(Entry(peer_label, None, skipped=peers.why_missing(key)))
        out.append(Comparison("invoke", label.split(":")[0], f"{label} ({len(raw):,} bytes)", entries))
    return out


def _speedups(t: Table) -> list[float]:
    """Round by round: the fastest counted peer's time / onellm's (>= 1: onellm at least as fast as every peer)."""
    mine = t.figure(ONELLM)
    theirs = [f for f in (t.figure(label) for _, label, _, _, counts in _PEERS if counts) if f is not None]
    if mine is None or not theirs:
        return []
    rounds = min(len(mine.samples), *(len(f.samples) for f in theirs))
    return [min(f.samples[r] for f in theirs) / mine.samples[r] for r in range(rounds)]


def show(report: Report, results: Results, smoke: bool) -> None:
    report.section(TITLE, *NOTES)
    speedups: dict[str, float] = {}
    for t in results.section_tables("invoke"):
        report.rounds_table(t)
        s = _speedups(t)
        if s:
            speedups[t.name] = statistics.median(s)
    if speedups:
        least = min(speedups, key=lambda k: speedups[k])
        report.target(
            f"invoke >= {TARGET_VS_FASTEST:.0f}x faster than the fastest peer's call path (every document)",
            speedups[least] >= TARGET_VS_FASTEST,
            ", ".join(f"{k} {v:.1f}x" for k, v in speedups.items()),
        )
    else:
        report.target(
            f"invoke >= {TARGET_VS_FASTEST:.0f}x faster than the fastest peer",
            False,
            "not measured: the onellm invoker is not available, or no peer is installed",
        )


def targets(results: Results) -> list[Target]:
    return [
        Target(
            f"invoke: fastest peer's call path / onellm, {t.name} call",
            _speedups(t),
            TARGET_VS_EVERY_PEER,
            at_most=False,
            why_not="not measured (no peer installed, or onellm's invoker unavailable)",
        )
        for t in results.section_tables("invoke")
    ]
