"""3. End-to-end invoke per call: raw JSON in, arguments bound, a trivial tool run, a result out.

The tools are ``async def`` functions that return their input's title, so that no
implementation's worker-thread hop (each runs a plain ``def`` in a thread) is measured:
what is left is each framework's own path.
"""

from __future__ import annotations

import functools
import json
from typing import Any, Awaitable, Callable

from . import shapes
from .peers import Peers
from .report import Report, Row
from .timing import per_call_async

__all__ = ["run"]

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


def _row(label: str, make: Callable[[], Op], calls: int, repeat: int, *, note: str = "", onellm: bool = False) -> Row:
    try:
        op = make()
    except (NotImplementedError, ImportError, AttributeError, TypeError) as e:
        return Row(label, None, skipped=f"not available yet: {type(e).__name__}: {e}")
    try:
        stats = per_call_async(op, calls, repeat)
    except NotImplementedError as e:
        return Row(label, None, skipped=f"not available yet: NotImplementedError: {e}")
    except Exception as e:
        return Row(label, None, skipped=f"failed: {type(e).__name__}: {str(e).splitlines()[0][:80]}")
    return Row(label, stats, note=note, is_onellm=onellm)


def run(report: Report, peers: Peers, smoke: bool) -> None:
    report.section(
        "3. End-to-end invoke per call (bind, call a trivial async tool, build the result)",
        "Each implementation is prepared once per tool; each call starts from the raw JSON text.",
        "Time per call = median over batches of the batch mean on one event loop, on the CPU clock, GC paused;",
        "ratio = row / onellm.",
    )
    speedups: dict[str, float] = {}
    for label, _, afn, raw in shapes.BIND_DOCS:
        calls = 3 if smoke else max(20, 1_000_000 // (len(raw) * 20))
        repeat = 2 if smoke else 11
        rows = [_row("onellm ToolInvoker().invoke(tool, raw)", functools.partial(_onellm, afn, raw), calls, repeat, onellm=True)]
        counted: list[Row] = []
        for key, peer_label, make, note, counts in _PEERS:
            if peers.available(key):
                rows.append(_row(peer_label, functools.partial(make, afn, raw), calls, repeat, note=note))
                if counts:
                    counted.append(rows[-1])
            else:
                rows.append(Row(peer_label, None, skipped=peers.why_missing(key)))
        report.table("invoke", f"{label} ({len(raw):,} bytes)", rows)
        mine = rows[0].stats
        theirs = [r.stats.median_ns for r in counted if r.stats is not None]
        if mine is not None and theirs:
            speedups[label] = min(theirs) / mine.median_ns
    if speedups:
        least = min(speedups, key=lambda k: speedups[k])
        report.target(
            f"invoke >= {TARGET_VS_FASTEST:.0f}x faster than the fastest peer's call path (every document)",
            speedups[least] >= TARGET_VS_FASTEST,
            ", ".join(f"{k.split(':')[0]} {v:.1f}x" for k, v in speedups.items()),
        )
    else:
        report.target(
            f"invoke >= {TARGET_VS_FASTEST:.0f}x faster than the fastest peer",
            False,
            "not measured: the onellm invoker is not available, or no peer is installed",
        )
