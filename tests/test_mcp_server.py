"""The MCP server end to end, with the ``mcp`` package's own client.

Over stdio the client starts ``python -m onellm_runtime serve-mcp tests/mcp_tools.py`` as its
subprocess (and stops it on leaving); over streamable HTTP the server runs in this process
on 127.0.0.1, on a free port, and is stopped when the test ends. Every run is bounded by
``BOUND`` seconds.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any, Awaitable, Callable

import anyio
import mcp_tools
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp_types import LoggingMessageNotificationParams

from onellm_runtime import ToolInvoker
from onellm_runtime.mcp import serve_http, server, tools_in
from onellm_runtime.providers import mcp_tool

ROOT = Path(__file__).parent.parent
TOOLS_FILE = Path(__file__).parent / "mcp_tools.py"
BOUND = 60.0

TOOLS = [
    mcp_tools.add,
    mcp_tools.shout,
    mcp_tools.explode,
    mcp_tools.snap,
    mcp_tools.crawl,
    mcp_tools.wait_forever,
    mcp_tools.wait_in_thread,
    mcp_tools.cancelled_count,
]

#: tools/call rows: (tool, arguments) -> (isError, content, structuredContent).
CALLS: list[tuple[str, dict[str, Any], bool, list[dict[str, Any]], Any]] = [
    ("add", {"a": 2, "b": 3}, False, [{"type": "text", "text": "5"}], {"result": 5}),
    (
        "add",
        {"a": "x"},
        True,
        [{"type": "text", "text": "Argument 'a' must be an integer, got string \"x\".\nArgument 'b' is required."}],
        None,
    ),
    (
        "shout",
        {"text": "a" * 11},
        True,
        [{"type": "text", "text": "Argument 'text' must be at most 10 characters long, got 11."}],
        None,
    ),
    (
        "explode",
        {"reason": "disk full"},
        True,
        [{"type": "text", "text": "Tool 'explode' failed: RuntimeError: disk full"}],
        None,
    ),
    (
        "nope",
        {},
        True,
        [
            {
                "type": "text",
                "text": "Unknown tool 'nope'; the tools are: add, shout, explode, snap, crawl, "
                "wait_forever, wait_in_thread, cancelled_count.",
            }
        ],
        None,
    ),
    ("snap", {}, False, [{"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png"}], None),
]


def _stdio() -> StdioServerParameters:
    return StdioServerParameters(
        command=sys.executable, args=["-m", "onellm_runtime", "serve-mcp", str(TOOLS_FILE)], cwd=str(ROOT)
    )


async def _session(client: Client, logs: list[LoggingMessageNotificationParams]) -> None:
    """Everything one connection is tested for."""
    listed = await client.list_tools()
    assert [t.model_dump(by_alias=True, exclude_none=True, mode="json") for t in listed.tools] == [
        dict(mcp_tool(t)) for t in TOOLS
    ]
    for name, arguments, is_error, content, structured in CALLS:
        result = await client.call_tool(name, arguments)
        dumped = result.model_dump(by_alias=True, exclude_none=True, mode="json")
        assert (dumped["isError"], dumped["content"], dumped.get("structuredContent")) == (
            is_error,
            content,
            structured,
        ), name
    # the same texts as the invoker gives in process
    local = await ToolInvoker().invoke(mcp_tools.add, {"a": "x"})
    assert CALLS[1][3][0]["text"] == local.text

    progress: list[tuple[float, float | None, str | None]] = []

    async def on_progress(done: float, total: float | None, message: str | None) -> None:
        progress.append((done, total, message))

    crawled = await client.call_tool("crawl", {"pages": 3}, progress_callback=on_progress)
    assert crawled.model_dump(mode="json")["content"][0]["text"] == "3 pages"
    assert progress == [(1.0, 3.0, "page 1"), (2.0, 3.0, "page 2"), (3.0, 3.0, "page 3")]
    assert [(m.level, m.logger, m.data) for m in logs] == [("info", "crawl", "crawled 3 pages")]

    for waiting in ("wait_forever", "wait_in_thread"):  # an async def, and a plain def on its token
        await _cancel_midway(client, waiting)


async def _cancel_midway(client: Client, name: str) -> None:
    """Start a call, cancel it once the tool reports it started, and see the tool cancelled."""
    before = (await client.call_tool("cancelled_count", {})).structured_content
    started = anyio.Event()

    async def on_start(done: float, total: float | None, message: str | None) -> None:
        started.set()

    async def wait() -> None:
        await client.call_tool(name, {}, progress_callback=on_start)

    async with anyio.create_task_group() as group:
        group.start_soon(wait)
        await started.wait()
        group.cancel_scope.cancel()  # the client sends notifications/cancelled
    for _ in range(100):  # the server sees the cancellation a moment after the client gave up
        answer = (await client.call_tool("cancelled_count", {})).structured_content
        if answer != before:
            break
        await anyio.sleep(0.05)
    assert before is not None and answer == {"result": before["result"] + 1}, name


def _bounded(scenario: Callable[[], Awaitable[None]]) -> None:
    async def run() -> None:
        with anyio.fail_after(BOUND):
            await scenario()

    asyncio.run(run())


def test_stdio_subprocess() -> None:
    async def scenario() -> None:
        logs: list[LoggingMessageNotificationParams] = []

        async def on_log(params: LoggingMessageNotificationParams) -> None:
            logs.append(params)

        async with Client(_stdio(), log_level="debug", logging_callback=on_log) as client:
            await _session(client, logs)

    _bounded(scenario)


def test_streamable_http_on_loopback() -> None:
    async def scenario() -> None:
        started, ports = asyncio.Event(), []
        serving = asyncio.ensure_future(serve_http(TOOLS, port=0, started=started, ports=ports))
        try:
            await started.wait()
            logs: list[LoggingMessageNotificationParams] = []

            async def on_log(params: LoggingMessageNotificationParams) -> None:
                logs.append(params)

            async with Client(f"http://127.0.0.1:{ports[0]}/mcp", log_level="debug", logging_callback=on_log) as client:
                await _session(client, logs)
        finally:
            serving.cancel()
            await asyncio.gather(serving, return_exceptions=True)

    _bounded(scenario)


def test_logs_below_the_clients_level_are_not_sent() -> None:
    async def scenario() -> None:
        logs: list[LoggingMessageNotificationParams] = []

        async def on_log(params: LoggingMessageNotificationParams) -> None:
            logs.append(params)

        async with Client(server(TOOLS), log_level="error", logging_callback=on_log) as client:
            await client.call_tool("crawl", {"pages": 1})
        assert logs == []

    _bounded(scenario)


def test_tools_in_finds_a_modules_tools_in_order() -> None:
    assert [t.name for t in tools_in([str(TOOLS_FILE)])] == [t.name for t in TOOLS]


@pytest.mark.parametrize("host", ["0.0.0.0", "192.168.1.4", "example.com"])
def test_http_serves_loopback_only(host: str) -> None:
    with pytest.raises(
        ValueError, match=f"serve_http serves loopback hosts only \\(127.0.0.1, ::1, localhost\\), not '{host}'"
    ):
        asyncio.run(serve_http(TOOLS, host=host))


@pytest.mark.slow  # a benchmark's smoke mode: the slow group
def test_benchmark_runs() -> None:
    """benchmarks/mcp_roundtrip.py at tiny counts (figures meaningless; nothing about speed is asserted)."""
    import subprocess

    out = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "mcp_roundtrip.py"), "--calls", "2", "--rounds", "1"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=BOUND,
        check=True,
    ).stdout.splitlines()
    assert out[0] == "tools/call round trips, 2 calls x 1 rounds: median (min-max) over the rounds"
    per_transport = ["onellm", "mcp", "onellm"]  # onellm's row, the SDK's, the target line
    assert [line.split()[0] for line in out[1:]] == ["stdio:", *per_transport, "http:", *per_transport]
    assert [line.split(":")[0].strip() for line in out[1:] if "target" in line] == ["onellm / SDK calls per second"] * 2


def test_the_sdk_reads_each_tools_input_schema_by_name_as_listed() -> None:
    """What the SDK's HTTP transport checks ``Mcp-Param-*`` headers against, without a ``tools/list`` per call."""
    app = server(TOOLS)
    lookup = app.get_tool_input_schema
    assert lookup is not None
    assert {t.name: lookup(t.name) for t in TOOLS} == {t.name: dict(mcp_tool(t))["inputSchema"] for t in TOOLS}
    assert lookup("no_such_tool") is None
