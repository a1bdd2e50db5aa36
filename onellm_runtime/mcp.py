"""Serving tools to MCP clients, on the official ``mcp`` package (the ``mcp`` extra).

``server(tools)`` is an ``mcp.server.lowlevel.Server`` whose ``tools/list`` answers exactly
``mcp_tool(t)`` for each tool and whose ``tools/call`` runs the call as ``dispatch("mcp",
...)`` does: strict binding, onellm's error texts as ``isError`` results, an unknown name
an error result too. A tool's ``ToolContext.progress(...)`` becomes
``notifications/progress`` (when the client asked for progress) and ``.log(...)``
becomes ``notifications/message`` (when the client opted in to that level). A client's
cancellation cancels the call: the handler's task is cancelled, which sets the tool's
``CancellationToken`` and cancels an ``async def`` tool where it awaits.

``serve_stdio`` and ``serve_http`` run it; ``onellm serve-mcp MODULE...`` runs them over the
tools a module defines.
"""

from __future__ import annotations

import asyncio
import importlib
import ipaddress
import os
import sys
import warnings
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from .context import ToolEvent
from .errortext import install_hint
from .providers import Approver, dispatch, mcp_tool

if TYPE_CHECKING:
    from mcp.server.context import ServerRequestContext
    from mcp.server.lowlevel import Server
    from mcp_types import CallToolRequestParams, CallToolResult, ListToolsResult, PaginatedRequestParams

    from .invoking.invoker import ToolInvoker
    from .tool import Tool

__all__ = ["server", "serve_stdio", "serve_http", "tools_in", "main"]

_LOOPBACK_NAMES = ("localhost",)


def _require_mcp() -> None:
    import importlib.util

    if importlib.util.find_spec("mcp") is None:
        raise ModuleNotFoundError(f"serving MCP needs the mcp package: {install_hint('mcp')}", name="mcp")


class _Notifier:
    """Carries a call's progress and log events to its MCP session, in the order they came.

    A tool reports from its own thread (sync tools run in workers); the events are handed
    to the event loop and sent by one task, which ``flush`` drains before the result goes.
    """

    def __init__(self, ctx: ServerRequestContext[Any, Any]) -> None:
        self._ctx = ctx
        self._loop = asyncio.get_running_loop()
        self._queue: asyncio.Queue[ToolEvent | None] = asyncio.Queue()
        self._task = asyncio.ensure_future(self._send_all())

    def __call__(self, event: ToolEvent) -> None:
        try:
            self._loop.call_soon_threadsafe(self._queue.put_nowait, event)
        except RuntimeError:  # the loop is closed: the call is long over
            pass

    async def _send_all(self) -> None:
        while True:
            event = await self._queue.get()
            if event is None:
                return
            try:
                await self._send(event)
            except Exception:  # a notification the session cannot send is not the tool's failure
                pass

    async def _send(self, event: ToolEvent) -> None:
        session = self._ctx.session
        if event.kind == "progress":
            await session.report_progress(event.progress or 0.0, event.total, event.message or None)
            return
        from mcp.shared.exceptions import MCPDeprecationWarning

        with warnings.catch_warnings():  # logging is deprecated from protocol 2026-07-28 on, still served
            warnings.simplefilter("ignore", MCPDeprecationWarning)
            sending = session.send_log_message(  # pyright: ignore[reportDeprecated]
                event.level, event.message, logger=event.tool_name
            )
        await sending

    async def flush(self) -> None:
        """Send every event reported so far, then stop."""
        await asyncio.sleep(0)  # events handed over from worker threads land first
        self._queue.put_nowait(None)
        await self._task

    def cancel(self) -> None:
        self._task.cancel()


def server(
    tools: Iterable[Tool[..., Any]],
    *,
    name: str = "onellm",
    version: str = "",
    invoker: ToolInvoker | None = None,
    approve: Approver | None = None,
) -> Server[Any]:
    """An MCP server offering ``tools``; ``invoker`` runs the calls (its services, clock, jobs)."""
    _require_mcp()
    from mcp.server.lowlevel import Server
    from mcp_types import CallToolResult, ListToolsResult

    from . import __version__
    from .invoking.invoker import ToolInvoker

    table = {t.name: t for t in tools}
    listed = ListToolsResult.model_validate({"tools": [dict(mcp_tool(t)) for t in table.values()]})
    runner = invoker if invoker is not None else ToolInvoker()

    async def list_tools(ctx: ServerRequestContext[Any, Any], params: PaginatedRequestParams | None) -> ListToolsResult:
        return listed

    async def call_tool(ctx: ServerRequestContext[Any, Any], params: CallToolRequestParams) -> CallToolResult:
        notifier = _Notifier(ctx)
        try:
            done = await dispatch(
                "mcp",
                {"name": params.name, "arguments": params.arguments if params.arguments is not None else {}},
                table,
                invoker=runner,
                approve=approve,
                on_event=notifier,
            )
        except BaseException:
            notifier.cancel()
            raise
        await notifier.flush()
        return CallToolResult.model_validate(done.items[0])

    return Server(name, version=version or __version__, on_list_tools=list_tools, on_call_tool=call_tool)


async def serve_stdio(tools: Iterable[Tool[..., Any]], **options: Any) -> None:
    """Serve ``tools`` over stdin/stdout until the client closes the connection."""
    _require_mcp()
    from mcp.server.stdio import stdio_server

    app = server(tools, **options)
    async with stdio_server() as (read, write):
        await app.run(read, write, app.create_initialization_options())


def _loopback(host: str) -> bool:
    if host in _LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


async def serve_http(
    tools: Iterable[Tool[..., Any]],
    *,
    host: str = "127.0.0.1",
    port: int = 8000,
    path: str = "/mcp",
    started: asyncio.Event | None = None,
    ports: list[int] | None = None,
    **options: Any,
) -> None:
    """Serve ``tools`` over streamable HTTP at ``http://host:port/path`` until cancelled.

    Only a loopback host is served (a wider bind needs authentication this server does
    not have). ``port=0`` takes a free port: it is appended to ``ports`` and ``started``
    is set once the server listens.
    """
    if not _loopback(host):
        raise ValueError(f"serve_http serves loopback hosts only (127.0.0.1, ::1, localhost), not {host!r}")
    _require_mcp()
    import uvicorn

    app = server(tools, **options)
    web = app.streamable_http_app(streamable_http_path=path, host=host)
    http = uvicorn.Server(uvicorn.Config(web, host=host, port=port, log_level="warning", lifespan="on"))

    async def announce() -> None:
        while not http.started:
            await asyncio.sleep(0.01)
        if ports is not None:
            ports.extend(s.getsockname()[1] for srv in http.servers for s in srv.sockets)
        if started is not None:
            started.set()

    watcher = asyncio.ensure_future(announce())
    try:
        await http.serve()
    finally:
        watcher.cancel()


def tools_in(module_names: Sequence[str]) -> list[Tool[..., Any]]:
    """The tools each module (a dotted name or a ``.py`` path) defines at its top level, in order."""
    from .tool import Tool

    found: list[Tool[..., Any]] = []
    for name in module_names:
        if name.endswith(".py") and os.path.exists(name):
            root, file = os.path.split(os.path.abspath(name))
            if root not in sys.path:
                sys.path.insert(0, root)
            name = file[: -len(".py")]
        module = importlib.import_module(name)
        for value in list(vars(module).values()):
            if isinstance(value, Tool) and value.__module__ == module.__name__:
                found.append(value)  # pyright: ignore[reportUnknownArgumentType]
    return found


def main(modules: Sequence[str], http_port: int | None = None) -> int:
    """``onellm serve-mcp``: stdio by default, streamable HTTP on 127.0.0.1 with a port."""
    tools = tools_in(modules)
    if not tools:
        print(f"onellm: error: no tools found in {', '.join(modules)}", file=sys.stderr)
        return 2
    if http_port is None:
        asyncio.run(serve_stdio(tools))
    else:
        asyncio.run(serve_http(tools, port=http_port))
    return 0
