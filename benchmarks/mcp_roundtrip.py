"""MCP ``tools/call`` round trips per second over stdio: onellm's server beside the mcp package's own.

Both servers run the same function (``add(a: int, b: int) -> int``) in a subprocess started
by the ``mcp`` package's client, one after the other in one run, alternating in rounds so
that a slow moment of the machine falls on both. A figure is calls per second of wall time
(a round trip spans two processes, so CPU time of one of them would leave half of it out),
the median over the rounds. The servers answer with the same content and structured result;
the run checks that before it measures.

    python benchmarks/mcp_roundtrip.py [--calls 300] [--rounds 5]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve()


def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


def serve(kind: str) -> None:
    """The server side: ``--serve onellm`` or ``--serve mcpserver`` over stdio."""
    if kind == "onellm":
        from onellm_runtime import Tool
        from onellm_runtime.mcp import serve_stdio

        asyncio.run(serve_stdio([Tool.create(add)]))
    else:
        from mcp.server.mcpserver import MCPServer

        app = MCPServer("peer")
        app.tool()(add)
        app.run("stdio")


async def _calls_per_second(kind: str, calls: int) -> tuple[float, Any]:
    from mcp import Client
    from mcp.client.stdio import StdioServerParameters

    params = StdioServerParameters(command=sys.executable, args=[str(HERE), "--serve", kind])
    async with Client(params) as client:
        await client.list_tools()
        first = await client.call_tool("add", {"a": 1, "b": 2})
        start = time.perf_counter()
        for i in range(calls):
            await client.call_tool("add", {"a": i, "b": 1})
        elapsed = time.perf_counter() - start
    answer = first.model_dump(mode="json", exclude_none=True)
    return calls / elapsed, (answer["content"], answer.get("structured_content"), answer["is_error"])


async def measure(calls: int, rounds: int) -> dict[str, float]:
    figures: dict[str, list[float]] = {"onellm": [], "mcpserver": []}
    answers: dict[str, Any] = {}
    for _ in range(rounds):
        for kind in figures:
            rate, answers[kind] = await _calls_per_second(kind, calls)
            figures[kind].append(rate)
    if answers["onellm"] != answers["mcpserver"]:
        raise SystemExit(f"the servers answer differently: {answers}")
    return {kind: statistics.median(rates) for kind, rates in figures.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--serve", choices=("onellm", "mcpserver"), help=argparse.SUPPRESS)
    parser.add_argument("--calls", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=5)
    ns = parser.parse_args()
    if ns.serve:
        serve(ns.serve)
        return
    import mcp  # noqa: F401  (fail early with the import error when the extra is missing)

    result = asyncio.run(measure(ns.calls, ns.rounds))
    print(f"tools/call round trips over stdio, {ns.calls} calls x {ns.rounds} rounds (median of the rounds):")
    for kind, label in (("onellm", "onellm_runtime.mcp.server"), ("mcpserver", "mcp MCPServer (FastMCP)")):
        print(f"  {label:28} {result[kind]:8.0f} calls/s")
    print(f"  onellm / MCPServer: {result['onellm'] / result['mcpserver']:.2f}x")


if __name__ == "__main__":
    main()
