"""A toy provider, to show what adding one takes: its definitions carry the canonical schema
under ``schema``; a reply is ``{"calls": [{"id", "tool", "args"}]}``; a result ``{"id", "text", "error"}``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, cast

from ._adapter import Adapter, Reply, Written
from ._calls import FoundCall
from ._common import ToolDefinition, ToolLike, source_of

if TYPE_CHECKING:
    from ..results import ToolResult
    from ..tool import Tool

__all__ = ["ADAPTER", "toy_tool"]


def toy_tool(tool: ToolLike) -> ToolDefinition:
    """The toy definition of ``tool``: its name, description and canonical input schema."""
    src = source_of(tool)
    return ToolDefinition({"name": src.name, "description": src.description, "schema": src.input_schema}, None, ())


def toy_calls(reply: Any) -> list[FoundCall]:
    """The ``calls`` of a toy reply, in order."""
    calls = reply.get("calls", []) if isinstance(reply, Mapping) else []
    found: list[FoundCall] = []
    for call in cast("list[Mapping[str, Any]]", calls):
        found.append(FoundCall(str(call.get("id", "")), str(call.get("tool", "")), call.get("args", {})))
    return found


def toy_result(call_id: str, name: str, tool: Tool[..., Any] | None, result: ToolResult) -> Written:
    """A toy result item: the result's text and whether it is an error."""
    return {"id": call_id, "text": result.text, "error": result.is_error}, []


ADAPTER = Adapter(form=toy_tool, replies=(Reply("toy", toy_calls, toy_result),))
