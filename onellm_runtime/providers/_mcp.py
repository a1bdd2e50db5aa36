"""Model Context Protocol tools (``tools/list``): the canonical schemas, unchanged.

MCP takes any JSON Schema 2020-12 in ``inputSchema``. ``outputSchema`` must have an object
root (up to protocol 2025-11-25), because a result's ``structuredContent`` is a JSON object:
an output schema that is not an object (a list, a number, a union, a nullable record...) is
wrapped as ``{"result": ...}``, and the server must then send ``{"result": value}`` as
``structuredContent`` (``mcp_structured_content`` does that).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from ..results import FilePart, ImagePart, JsonPart
from ._adapter import Adapter, Reply
from ._calls import mcp_calls
from ._common import ToolDefinition, ToolLike, output_schema_of, source_of
from ._downconvert import Schema
from ._outputs import Item, b64, part_text

if TYPE_CHECKING:
    from ..results import Part, ToolResult
    from ..tool import Tool

__all__ = ["ADAPTER", "mcp_tool", "mcp_output_schema", "mcp_result", "mcp_structured_content", "RESULT_KEY"]

RESULT_KEY = "result"


def _is_object_root(schema: Schema) -> bool:
    return schema.get("type") == "object"


def mcp_output_schema(output_schema: Schema | None) -> Schema | None:
    """The ``outputSchema`` for a canonical output schema: itself when its root is an object, else wrapped."""
    if output_schema is None or _is_object_root(output_schema):
        return output_schema
    return {
        "type": "object",
        "properties": {RESULT_KEY: output_schema},
        "required": [RESULT_KEY],
        "additionalProperties": False,
    }


def mcp_structured_content(tool: ToolLike, value: Any) -> Any:
    """The ``structuredContent`` for a result ``value`` (already in JSON form), wrapped as the
    tool's ``outputSchema`` says: ``{"result": value}`` when the output schema was wrapped."""
    out = output_schema_of(tool)
    if out is not None and not _is_object_root(out):
        return {RESULT_KEY: value}
    return value


def mcp_tool(tool: ToolLike) -> ToolDefinition:
    """The MCP ``Tool`` of ``tool``: ``{"name", "description", "inputSchema", "outputSchema"?}``."""
    src = source_of(tool)
    body: dict[str, Any] = {"name": src.name, "description": src.description, "inputSchema": src.input_schema}
    out = mcp_output_schema(src.output_schema)
    if out is not None:
        body["outputSchema"] = out
    return ToolDefinition(body, None, ())


def _mcp_block(part: Part, index: int) -> Item:
    if isinstance(part, ImagePart):
        return {"type": "image", "data": b64(part.data), "mimeType": part.media_type}
    if isinstance(part, FilePart):
        if part.media_type.startswith("audio/"):
            return {"type": "audio", "data": b64(part.data), "mimeType": part.media_type}
        uri = "file:///" + quote(part.name or f"part-{index}")
        return {"type": "resource", "resource": {"uri": uri, "mimeType": part.media_type, "blob": b64(part.data)}}
    return {"type": "text", "text": part_text(part)}


def mcp_result(result: ToolResult, tool: Tool[..., Any] | None = None) -> Item:
    """A ``CallToolResult``: every part a content block, ``isError``, and ``structuredContent``
    for a tool with an output schema whose result is one JSON part."""
    item: Item = {"content": [_mcp_block(p, i) for i, p in enumerate(result.parts)], "isError": result.is_error}
    if (
        tool is not None
        and tool.output_schema is not None
        and not result.is_error
        and len(result.parts) == 1
        and isinstance(result.parts[0], JsonPart)
    ):
        item["structuredContent"] = mcp_structured_content(tool, result.parts[0].value)
    return item


#: The registry's row for MCP: the ``tools/list`` entry; a ``tools/call`` answered with a
#: ``CallToolResult`` (media carried as they are, so nothing to warn about).
ADAPTER = Adapter(
    form=mcp_tool,
    replies=(Reply("mcp", mcp_calls, lambda _, __, tool, result: (mcp_result(result, tool), [])),),
)
