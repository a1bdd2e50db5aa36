"""``dispatch``: a provider's reply in, that API's tool-result items out.

The tool calls of the reply are found (``_calls``), bound with ``provider=`` set (so the
adapters' re-encodings are read back), run through a ``ToolInvoker`` as one batch (a run
of ``parallel_safe`` calls concurrently, any other call alone, in order) and written as the
API's tool-result items (``_outputs``), in call order. Nothing the model sent raises: an
unknown tool name, bad arguments, a refused approval and the tool's own failure are error
results, answered to the model like any other.
"""

from __future__ import annotations

import inspect
import json
import warnings
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, cast

from ..context import ToolContext, ToolEvent
from ..results import JsonPart, ToolResult
from ._calls import FINDERS, FoundCall, plain
from ._common import ProviderWarning
from ._outputs import Item, anthropic_result, chat_result, gemini_result, mcp_result, responses_result

if TYPE_CHECKING:
    from ..invoking.invoker import ToolInvoker
    from ..invoking.jobs import Job
    from ..tool import Tool
    from ..toolset import ToolSet

__all__ = ["Approver", "Dispatch", "DispatchedCall", "dispatch", "unknown_tool_message"]

#: ``"openai"`` is the Responses API, ``"openai-chat"`` Chat Completions.
DispatchProvider = Literal["openai", "openai-chat", "anthropic", "gemini", "mcp"]
#: Asked for each call of a ``requires_approval`` tool, before the batch runs: True runs it.
Approver = Callable[["DispatchedCall"], bool | Awaitable[bool]]

#: The binder's provider for each API (Chat Completions reads as OpenAI does).
_BINDING = {"openai": "openai", "openai-chat": "openai", "anthropic": "anthropic", "gemini": "gemini", "mcp": "mcp"}


@dataclass(frozen=True)
class DispatchedCall:
    """One tool call of the reply: as the model wrote it, and the tool it names (None: unknown)."""

    id: str
    name: str
    arguments: object
    tool: Tool[..., Any] | None


@dataclass
class Dispatch:
    """What one reply's tool calls produced, in call order.

    ``items``: the API's tool-result items, ready to send back (Responses
    ``function_call_output`` items, Chat ``role: "tool"`` messages, Anthropic ``tool_result``
    blocks, Gemini ``functionResponse`` parts, or one MCP ``CallToolResult``).
    ``jobs``: the background jobs these calls started (their handles are the answers).
    ``warnings``: media an API could not carry, sent as descriptions (also issued as
    ``ProviderWarning``).
    """

    provider: str
    calls: list[DispatchedCall] = field(default_factory=lambda: [])
    results: list[ToolResult] = field(default_factory=lambda: [])
    items: list[Item] = field(default_factory=lambda: [])
    jobs: list[Job] = field(default_factory=lambda: [])
    warnings: list[str] = field(default_factory=lambda: [])

    @property
    def ends_loop(self) -> bool:
        """A tool declared with ``ends_loop`` ran and succeeded: the loop should stop."""
        return self.final is not None

    @property
    def final(self) -> ToolResult | None:
        """The result of the first successful ``ends_loop`` call (its ``typed_result`` is the value)."""
        for call, result in zip(self.calls, self.results, strict=True):
            if call.tool is not None and call.tool.ends_loop and not result.is_error:
                return result
        return None

    @property
    def done(self) -> bool:
        """The loop is over: the reply called no tool, or an ``ends_loop`` tool succeeded."""
        return not self.calls or self.ends_loop


def unknown_tool_message(name: str, offered: Iterable[str]) -> str:
    names = ", ".join(offered)
    return (
        f"Unknown tool '{name}'; the tools are: {names}." if names else f"Unknown tool '{name}'; no tools are offered."
    )


def _tool_table(tools: ToolSet | Iterable[Tool[..., Any]] | Mapping[str, Tool[..., Any]]) -> ToolSet:
    """The tools offered, one per name: a repeated name raises OLT007 here, before any call runs."""
    from ..toolset import as_tool_set

    return as_tool_set(tools)


def _arguments(raw: object) -> str | Mapping[str, object]:
    """What the invoker binds: the API's string or object; anything else as the JSON it was."""
    if isinstance(raw, (str, Mapping)):
        return cast("str | Mapping[str, object]", raw)
    return json.dumps(raw)


def _job_of(result: ToolResult, started: Mapping[str, Job]) -> Job | None:
    if len(result.parts) == 1 and isinstance(result.parts[0], JsonPart):
        value = result.parts[0].value
        if isinstance(value, dict):
            job_id = cast("dict[str, object]", value).get("job")
            if isinstance(job_id, str):
                return started.get(job_id)
    return None


def _write(provider: str, call: DispatchedCall, result: ToolResult) -> tuple[Item, list[str]]:
    if provider == "openai":
        return responses_result(call.id, result, call.name)
    if provider == "openai-chat":
        return chat_result(call.id, result, call.name)
    if provider == "anthropic":
        return anthropic_result(call.id, result, call.name)
    if provider == "gemini":
        return gemini_result(call.id, call.name, result, call.name)
    return mcp_result(result, call.tool), []


async def dispatch(
    provider: DispatchProvider,
    reply: object,
    tools: ToolSet | Iterable[Tool[..., Any]] | Mapping[str, Tool[..., Any]],
    *,
    invoker: ToolInvoker | None = None,
    approve: Approver | None = None,
    on_event: Callable[[ToolEvent], object] | None = None,
) -> Dispatch:
    """Run the tool calls of ``reply`` and answer each in ``provider``'s tool-result shape.

    ``reply``: the API's response as plain JSON or as the SDK's object (see ``_calls``).
    ``tools``: the tools offered: a ``ToolSet``, or a list or mapping of tools made into one
    at once (two tools with one name raise ``ToolDefinitionError`` OLT007; a mapping's keys
    must be its tools' own names).
    ``invoker``: the ``ToolInvoker`` to run them (its services, clock and job registry);
    a new one when None. ``approve``: asked for each call of a ``requires_approval`` tool
    (a refused or unasked call gets ``Tool 'x' requires approval.``). ``on_event``: receives
    the progress and log events the tools report through their ``ToolContext``.
    """
    from ..invoking.invoker import ToolCall, ToolInvoker

    finder = FINDERS.get(provider)
    if finder is None:
        raise ValueError(f"provider must be one of {', '.join(FINDERS)}, not {provider!r}")
    table = _tool_table(tools)
    found: list[FoundCall] = finder(plain(reply))
    out = Dispatch(provider)
    if not found and provider != "mcp":
        return out
    runner = invoker if invoker is not None else ToolInvoker()
    listeners = () if on_event is None else (on_event,)
    calls = [DispatchedCall(f.id, f.name, f.arguments, table.get(f.name)) for f in found]
    batch: list[ToolCall] = []
    for call in calls:
        if call.tool is None:
            continue
        approved = False
        if call.tool.requires_approval and approve is not None:
            answer = approve(call)
            approved = bool(await answer) if inspect.isawaitable(answer) else bool(answer)
        context: ToolContext[Any] = ToolContext(
            call.id, runner.services, runner.clock, tool_name=call.tool.name, listeners=listeners
        )
        batch.append(ToolCall(call.tool, _arguments(call.arguments), call.id, approved, context))
    before = set(runner.jobs)
    ran = iter(await runner.invoke_all(batch, provider=_BINDING[provider]))
    started = {job_id: runner.jobs[job_id] for job_id in set(runner.jobs) - before}
    for call in calls:
        if call.tool is None:
            result = ToolResult.failure(unknown_tool_message(call.name, table))
        else:
            result = next(ran)
            job = _job_of(result, started)
            if job is not None:
                out.jobs.append(job)
        item, notes = _write(provider, call, result)
        for note in notes:
            warnings.warn(ProviderWarning(note), stacklevel=2)
        out.calls.append(call)
        out.results.append(result)
        out.items.append(item)
        out.warnings.extend(notes)
    return out
