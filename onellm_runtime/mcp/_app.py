"""The MCP ``Server`` (the SDK's lowlevel one) that offers a tool set.

``tools/list`` answers exactly ``mcp_tool(t)`` for each tool; ``tools/call`` runs the call
as ``dispatch("mcp", ...)`` does: strict binding, onellm's error texts as ``isError``
results, an unknown name an error result too. A tool's ``ToolContext.progress(...)``
becomes ``notifications/progress`` (when the request carried a ``progressToken``) and
``.log(...)`` becomes ``notifications/message`` (at the levels the client asked for). A
client's cancellation cancels the call: the handler's task is cancelled, which sets the
tool's ``CancellationToken`` and cancels an ``async def`` tool where it awaits.
"""

from __future__ import annotations

import asyncio
import warnings
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from .. import ArgumentError
from ..context import ToolEvent
from ..providers import Approver, DispatchedCall, dispatch, mcp_result, mcp_tool
from ..results import ToolResult
from ..toolset import ToolSet, as_tool_set
from ._approval import approver_refusal, client_decision
from ._frames import RAW_KEY

if TYPE_CHECKING:
    from mcp.server.context import ServerRequestContext
    from mcp.server.lowlevel import Server
    from mcp_types import (
        CallToolRequestParams,
        CallToolResult,
        InputRequiredResult,
        ListToolsResult,
        PaginatedRequestParams,
    )

    from ..invoking.invoker import ToolInvoker
    from ..tool import Tool

__all__ = ["served_set", "server"]


class _Notifier:
    """Carries a call's progress and log events to its MCP session, in the order they came.

    A tool reports from its own thread (sync tools run in workers); the events are handed
    to the event loop and sent by one task, which ``flush`` drains before the result goes.
    The queue and its task are made with the first event: most calls report none.
    """

    def __init__(self, ctx: ServerRequestContext[Any, Any]) -> None:
        self._ctx = ctx
        self._loop = asyncio.get_running_loop()
        self._queue: asyncio.Queue[ToolEvent | None] | None = None
        self._task: asyncio.Future[None] | None = None
        self._closed = False
        self._reported = False

    def __call__(self, event: ToolEvent) -> None:
        if self._closed:  # the call has answered: a background job's later events have no request to go to
            return
        self._reported = True
        try:
            self._loop.call_soon_threadsafe(self._put, event)
        except RuntimeError:  # the loop is closed: the call is long over
            pass

    def _put(self, event: ToolEvent) -> None:
        if self._closed:
            return
        if self._queue is None:
            self._queue = asyncio.Queue()
            self._task = asyncio.ensure_future(self._send_all(self._queue))
        self._queue.put_nowait(event)

    async def _send_all(self, queue: asyncio.Queue[ToolEvent | None]) -> None:
        while True:
            event = await queue.get()
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
        if self._reported:
            await asyncio.sleep(0)  # events handed over from worker threads land first
        self._closed = True
        if self._queue is not None and self._task is not None:
            self._queue.put_nowait(None)
            await self._task

    def cancel(self) -> None:
        self._closed = True
        if self._task is not None:
            self._task.cancel()


def served_set(tools: Iterable[Tool[..., Any]] | Mapping[str, Tool[..., Any]], invoker: ToolInvoker) -> ToolSet:
    """``tools`` as one set, with ``read_job`` and ``stop_job`` beside a ``model_choice`` tool.

    A repeated name, the job tools' included, raises ``ToolDefinitionError`` (OLT007).
    """
    from ..invoking.jobs import job_tools

    served = as_tool_set(tools)
    if any(t.invocation_mode == "model_choice" for t in served.values()):
        served = served | job_tools(invoker)
    return served


async def _yes(call: DispatchedCall) -> bool:
    return True


def _binds(tool: Tool[..., Any], arguments: str | Mapping[str, object]) -> bool:
    """Whether the arguments bind: approval is asked only for a call that could run."""
    try:
        tool.bind(arguments, provider="mcp")
    except ArgumentError:
        return False
    return True


def server(
    tools: Iterable[Tool[..., Any]] | Mapping[str, Tool[..., Any]],
    *,
    name: str = "onellm",
    version: str = "",
    invoker: ToolInvoker | None = None,
    approve: Approver | None = None,
    raw_arguments: bool = False,
) -> Server[Any]:
    """An MCP server offering ``tools`` (made a ``ToolSet`` at once); ``invoker`` runs the calls.

    ``approve``: decides for each ``requires_approval`` call (see ``_approval``); without it
    the client is asked. ``raw_arguments``: the transport read the frames (``_frames``), so
    a call's arguments arrive as the text the client wrote.
    """
    from mcp.server.lowlevel import Server
    from mcp_types import CallToolResult, ListToolsResult

    from .. import __version__
    from ..invoking.invoker import ToolInvoker

    runner = invoker if invoker is not None else ToolInvoker()
    table = served_set(tools, runner)
    described = [dict(mcp_tool(t)) for t in table.values()]
    listed = ListToolsResult.model_validate({"tools": described})
    #: Each tool's ``inputSchema`` by name, as listed: what the SDK's HTTP transport checks a call's
    #: ``Mcp-Param-*`` headers against (without it, the transport runs a whole ``tools/list`` per call).
    input_schemas: dict[str, Mapping[str, Any]] = {d["name"]: d["inputSchema"] for d in described}

    async def list_tools(ctx: ServerRequestContext[Any, Any], params: PaginatedRequestParams | None) -> ListToolsResult:
        return listed

    async def refusal(
        ctx: ServerRequestContext[Any, Any],
        params: CallToolRequestParams,
        tool: Tool[..., Any],
        arguments: str | Mapping[str, object],
    ) -> str | InputRequiredResult | None:
        """None when the call may run; else its error text, or the question to put to the client first."""
        if approve is not None:
            return await approver_refusal(
                approve, DispatchedCall(str(ctx.request_id or ""), tool.name, arguments, tool)
            )
        shown = arguments if isinstance(arguments, str) else _json_text(arguments)
        decision = await client_decision(ctx, params, tool.name, shown)
        if decision is True:
            return None
        return f"Tool '{tool.name}' requires approval." if decision is False else decision

    async def call_tool(
        ctx: ServerRequestContext[Any, Any], params: CallToolRequestParams
    ) -> CallToolResult | InputRequiredResult:
        given: dict[str, Any] = params.arguments if params.arguments is not None else {}
        arguments: str | Mapping[str, object] = given
        if raw_arguments and list(given) == [RAW_KEY] and isinstance(given[RAW_KEY], str):
            arguments = given[RAW_KEY]
        tool = table.get(params.name)
        approved = None
        if tool is not None and tool.requires_approval and _binds(tool, arguments):
            refused = await refusal(ctx, params, tool, arguments)
            if isinstance(refused, str):
                return CallToolResult.model_validate(mcp_result(ToolResult.failure(refused), tool))
            if refused is not None:
                return refused
            approved = _yes
        notifier = _Notifier(ctx)
        try:
            done = await dispatch(
                "mcp",
                {"name": params.name, "arguments": arguments},
                table,
                invoker=runner,
                approve=approved,
                on_event=notifier,
            )
        except BaseException:
            notifier.cancel()
            raise
        await notifier.flush()
        return CallToolResult.model_validate(done.items[0])

    return Server(
        name,
        version=version or __version__,
        get_tool_input_schema=input_schemas.get,
        on_list_tools=list_tools,
        on_call_tool=call_tool,
    )


def _json_text(value: object) -> str:
    import json

    try:
        return json.dumps(value)
    except (TypeError, ValueError):
        return repr(value)
