"""``dispatch``: a provider's reply in, that API's tool-result items out.

The tool calls of the reply are found (``_calls``), bound with ``provider=`` set (so the
adapters' re-encodings are read back), run through a ``ToolInvoker`` as one batch (a run
of ``parallel_safe`` calls concurrently, any other call alone, in order) and written as the
API's tool-result items (``_outputs``), in call order. Nothing the model sent raises: an
unknown tool name, bad arguments, a refused approval and the tool's own failure are error
results, answered to the model like any other.
"""

from __future__ import annotations

import asyncio
import inspect
import warnings
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

from ..context import ToolEvent
from ..errortext import cut, describe
from ..provider_names import DispatchProvider
from ..results import JsonPart, ToolResult
from ._calls import FoundCall, json_kind, plain
from ._common import ProviderWarning
from ._outputs import Item, text_only
from .registry import BINDING, REPLIES

if TYPE_CHECKING:
    from ..invoking.invoker import ToolInvoker
    from ..invoking.jobs import Job
    from ..tool import Tool
    from ..toolset import ToolSet

__all__ = [
    "Approver",
    "Dispatch",
    "DispatchProvider",
    "DispatchedCall",
    "ask_approver",
    "dispatch",
    "unknown_tool_message",
]

#: Asked for each call of a ``requires_approval`` tool whose arguments bound, before the batch
#: runs: True runs it, False refuses it; any other answer, or an exception, is the call's error
#: result (``ask_approver``).
Approver = Callable[["DispatchedCall"], bool | Awaitable[bool]]


@dataclass(frozen=True, slots=True)
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


def _refused(raw: object, provider: str) -> ToolResult | None:
    """The error result for arguments the invoker cannot bind: not a JSON text or object.

    An API that sends a JSON string (``Reply.text_arguments``) may have its bytes read as the
    same text; the others send an object.
    """
    if isinstance(raw, (str, Mapping)):
        return None
    if isinstance(raw, bytes) and REPLIES[provider].text_arguments:
        return None
    return ToolResult.failure(f"Arguments must be a JSON object, got {json_kind(raw)}.")


async def ask_approver(approve: Approver, call: DispatchedCall) -> bool | ToolResult:
    """The approver's answer for ``call``, held to ``True`` or ``False``; anything else it
    answers, and any exception it raises, is the call's error result (the tool does not run).

    A caller's cancellation of the running task is not an answer: it propagates.
    """
    name = call.tool.name if call.tool is not None else call.name
    try:
        answer: object = approve(call)
        if inspect.isawaitable(answer):
            answer = await answer
    except asyncio.CancelledError:
        raise
    except BaseException as e:  # the approver's own code, whatever it raises
        return ToolResult.failure(f"Tool '{name}' was not approved: the approver raised {describe(e)}.")
    if answer is True or answer is False:
        return answer
    return ToolResult.failure(
        f"Tool '{name}' was not approved: the approver answered {_shown(answer)}, not True or False."
    )


def _shown(answer: object) -> str:
    """``repr(answer)``, bounded; its type's name when its ``__repr__`` fails."""
    try:
        text = repr(answer)
    except BaseException:  # its ``__repr__`` is user code
        return f"a {type(answer).__name__}"
    return cut(str.__str__(text))


def _job_of(result: ToolResult, started: Mapping[str, Job]) -> Job | None:
    if len(result.parts) == 1 and isinstance(result.parts[0], JsonPart):
        value = result.parts[0].value
        if isinstance(value, dict):
            job_id = cast("dict[str, object]", value).get("job")
            if isinstance(job_id, str):
                return started.get(job_id)
    return None


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
    from ..invoking.invoker import SLICE, Batch, ToolInvoker

    shape = REPLIES.get(provider)
    if shape is None:
        raise ValueError(f"provider must be one of {', '.join(REPLIES)}, not {provider!r}")
    table = _tool_table(tools)
    found: list[FoundCall] = shape.find(plain(reply))
    out = Dispatch(provider)
    if not found:  # an MCP request is always one call
        return out
    runner = invoker if invoker is not None else ToolInvoker()
    listeners = () if on_event is None else (on_event,)
    #: The answers decided from the reply alone (an unknown tool, a malformed call), by the
    #: call's index; every other call's answer comes from the batch, in order.
    decided: dict[int, ToolResult] = {}
    batch = Batch([], [], [], [], [])
    #: The reply's call behind each call of the batch: what the approver is asked about.
    asked: list[DispatchedCall] = []
    calls, tool_named = out.calls, dict(table)
    add_call, add_id = calls.append, batch.ids.append
    # A call reaches the batch's columns only once its tool is known and its arguments are what
    # an API sends (the checks below): the appenders are typed for that once, not per call.
    add_tool = cast("Callable[[Tool[..., Any] | None], None]", batch.tools.append)
    add_arguments = cast("Callable[[object], None]", batch.arguments.append)
    for start in range(0, len(found), SLICE):
        if start:
            await asyncio.sleep(0)  # the reply's size sets this loop's length: the event loop's turn
        for call_id, name, arguments, problem in found[start : start + SLICE]:
            tool = tool_named.get(name)
            call = _new_call(DispatchedCall)
            _set_id(call, call_id)
            _set_name(call, name)
            _set_arguments(call, arguments)
            _set_tool(call, tool)
            add_call(call)
            kind = type(arguments)
            if problem is not None or tool is None or (kind is not str and kind is not dict):  # not what APIs send
                answer = _decided(call, problem, provider, table)
                if answer is not None:
                    decided[len(calls) - 1] = answer
                    continue
            add_tool(tool)
            add_arguments(arguments)
            add_id(call_id)
            if approve is not None:
                asked.append(call)
    del found  # the calls hold what was found: a large reply's records are not kept twice while it runs

    def approval(index: int) -> Awaitable[bool | ToolResult]:
        """Asked once a call's arguments have bound: a call whose arguments are wrong is
        answered as such, and the approver never sees it."""
        return ask_approver(cast(Approver, approve), asked[index])

    before = set(runner.jobs)
    ran = await runner._run_batch(  # pyright: ignore[reportPrivateUsage]
        batch, BINDING[provider], listeners, None if approve is None else approval
    )
    del batch
    started = {job_id: runner.jobs[job_id] for job_id in set(runner.jobs) - before}
    if decided:  # the batch's results in call order, the decided answers in their places
        answered = iter(ran)
        results = [decided[index] if index in decided else next(answered) for index in range(len(calls))]
    else:
        results = ran
    out.results = results
    if started:
        out.jobs.extend(job for job in (_job_of(result, started) for result in ran) if job is not None)
    write, write_text, items = shape.write, shape.write_text, out.items
    add_item = items.append
    for start in range(0, len(calls), SLICE):
        if start:
            await asyncio.sleep(0)
        for call, result in zip(calls[start : start + SLICE], results[start : start + SLICE], strict=True):
            if write_text is not None:
                text = text_only(result.parts)
                if text is not None:  # text alone, most results: its item, with nothing to warn about
                    add_item(write_text(call.id, text, result.is_error))
                    continue
            item, notes = write(call.id, call.name, call.tool, result)
            if notes:
                for note in notes:
                    warnings.warn(ProviderWarning(note), stacklevel=2)
                out.warnings.extend(notes)
            add_item(item)
    return out


#: ``DispatchedCall``'s fields set through its slots: a frozen dataclass's ``__init__`` sets each
#: with ``object.__setattr__`` by name, and ``dispatch`` makes one per call of a reply.
_new_call = object.__new__
_SLOTS: dict[str, Any] = dict(vars(DispatchedCall))
_set_id: Callable[[DispatchedCall, str], None] = _SLOTS["id"].__set__
_set_name: Callable[[DispatchedCall, str], None] = _SLOTS["name"].__set__
_set_arguments: Callable[[DispatchedCall, object], None] = _SLOTS["arguments"].__set__
_set_tool: Callable[[DispatchedCall, Tool[..., Any] | None], None] = _SLOTS["tool"].__set__


def _decided(
    call: DispatchedCall, problem: str | None, provider: str, table: Mapping[str, Tool[..., Any]]
) -> ToolResult | None:
    """A call's answer when it is decided from the reply alone; else None: the batch binds the
    call's arguments (and, for a ``requires_approval`` tool, asks the approver)."""
    if problem is not None:
        return ToolResult.failure(problem)
    if call.tool is None:
        return ToolResult.failure(unknown_tool_message(call.name, table))
    return _refused(call.arguments, provider)
