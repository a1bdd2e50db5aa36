"""A ``ToolResult`` written as each API's tool-result item (plain JSON-ready dicts).

Text and JSON parts become text everywhere (JSON as compact JSON). An image or a file goes
into the item where that API's request type has a place for it; elsewhere it is replaced
by its description (``describe_part``) and a warning says so. Which API takes which media
is the table ``MEDIA`` (its sources: docs/providers.md, "Tool results").
"""

from __future__ import annotations

import base64
import json
from collections.abc import Callable
from typing import Any

from ..results import FilePart, ImagePart, JsonPart, Part, TextPart, ToolResult, describe_part

__all__ = [
    "Item",
    "b64",
    "part_text",
    "text_only",
    "responses_text_item",
    "chat_text_item",
    "anthropic_text_item",
    "MEDIA",
    "anthropic_result",
    "chat_result",
    "gemini_result",
    "responses_result",
]

Item = dict[str, Any]
Media = ImagePart | FilePart
#: A writer's answer: the item, and the warnings for media it could not carry.
Written = tuple[Item, list[str]]

_WEB_IMAGES = frozenset({"image/png", "image/jpeg", "image/gif", "image/webp"})

#: Which media types each API's tool result can carry: a media type -> carried or not.
MEDIA: dict[str, Callable[[Media], bool]] = {
    "openai": lambda p: isinstance(p, FilePart) or p.media_type in _WEB_IMAGES,
    "openai-chat": lambda p: False,
    "anthropic": lambda p: (
        (p.media_type in _WEB_IMAGES)
        if isinstance(p, ImagePart)
        else p.media_type in ("application/pdf", "text/plain") and _plain_text_ok(p)
    ),
    "gemini": lambda p: p.media_type in ("image/png", "image/jpeg", "image/webp", "application/pdf", "text/plain"),
    "mcp": lambda p: True,
}

_API_NAMES = {
    "openai": "OpenAI Responses function_call_output",
    "openai-chat": "Chat Completions tool messages",
    "anthropic": "Anthropic tool_result",
    "gemini": "Gemini functionResponse",
    "mcp": "MCP CallToolResult",
}


def _plain_text_ok(part: FilePart) -> bool:
    if part.media_type != "text/plain":
        return True
    try:
        part.data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def _data_url(part: Media) -> str:
    return f"data:{part.media_type};base64,{b64(part.data)}"


#: Compact JSON, made once (``json.dumps`` with keywords makes an encoder per call).
_compact = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode


def _json_text(value: object) -> str:
    """``value`` as compact JSON; an integer (checked writable when the result was made) by ``str``."""
    return str(value) if type(value) is int else _compact(value)


def part_text(part: TextPart | JsonPart) -> str:
    if isinstance(part, TextPart):
        return part.text
    return _json_text(part.value)


def _sorted(provider: str, tool_name: str, parts: list[Part]) -> tuple[list[Part], list[str]]:
    """The parts with every medium ``provider`` cannot carry replaced by its description."""
    if not any(isinstance(p, (ImagePart, FilePart)) for p in parts):
        return parts, []
    carried = MEDIA[provider]
    out: list[Part] = []
    warnings: list[str] = []
    for part in parts:
        if isinstance(part, (ImagePart, FilePart)) and not carried(part):
            what = describe_part(part)
            warnings.append(
                f"Tool '{tool_name}': {_API_NAMES[provider]} cannot carry {part.media_type}; sent as the text {what}."
            )
            out.append(TextPart(what))
        else:
            out.append(part)
    return out, warnings


def text_only(parts: list[Part]) -> str | None:
    """The parts' text joined when every part is a text or a JSON part (exactly those types:
    nothing to place or describe, and most results are one such part); else None."""
    if len(parts) == 1:
        part = parts[0]
        if type(part) is TextPart:
            return part.text
        return _json_text(part.value) if type(part) is JsonPart else None
    texts: list[str] = []
    for part in parts:
        if type(part) is TextPart:
            texts.append(part.text)
        elif type(part) is JsonPart:
            texts.append(_json_text(part.value))
        else:
            return None
    return "".join(texts)


def _joined(parts: list[Part]) -> str:
    return "".join(describe_part(p) if isinstance(p, (ImagePart, FilePart)) else part_text(p) for p in parts)


def responses_text_item(call_id: str, text: str, is_error: bool) -> Item:
    """The ``function_call_output`` item of a result made of text alone (the API has no error flag)."""
    return {"type": "function_call_output", "call_id": call_id, "output": text}


def responses_result(call_id: str, result: ToolResult, tool_name: str) -> Written:
    """A ``function_call_output`` input item: a string, or a list of input_text/input_image/input_file."""
    text = text_only(result.parts)
    if text is not None:
        return responses_text_item(call_id, text, result.is_error), []
    parts, warnings = _sorted("openai", tool_name, result.parts)
    output: str | list[Item]
    if not any(isinstance(p, (ImagePart, FilePart)) for p in parts):
        output = _joined(parts)
    else:
        output = []
        for p in parts:
            if isinstance(p, ImagePart):
                output.append({"type": "input_image", "image_url": _data_url(p)})
            elif isinstance(p, FilePart):
                output.append({"type": "input_file", "file_data": _data_url(p), "filename": p.name or "file"})
            else:
                output.append({"type": "input_text", "text": part_text(p)})
    return {"type": "function_call_output", "call_id": call_id, "output": output}, warnings


def chat_text_item(call_id: str, text: str, is_error: bool) -> Item:
    """The ``role: "tool"`` message of a result made of text alone (the API has no error flag)."""
    return {"role": "tool", "tool_call_id": call_id, "content": text}


def chat_result(call_id: str, result: ToolResult, tool_name: str) -> Written:
    """A ``role: "tool"`` message (Chat Completions carries text only)."""
    text = text_only(result.parts)
    if text is not None:
        return chat_text_item(call_id, text, result.is_error), []
    parts, warnings = _sorted("openai-chat", tool_name, result.parts)
    return {"role": "tool", "tool_call_id": call_id, "content": _joined(parts)}, warnings


def _anthropic_block(part: Part) -> Item | None:
    if isinstance(part, ImagePart):
        return {"type": "image", "source": {"type": "base64", "media_type": part.media_type, "data": b64(part.data)}}
    if isinstance(part, FilePart):
        if part.media_type == "application/pdf":
            source: Item = {"type": "base64", "media_type": "application/pdf", "data": b64(part.data)}
        else:
            source = {"type": "text", "media_type": "text/plain", "data": part.data.decode("utf-8")}
        block: Item = {"type": "document", "source": source}
        if part.name:
            block["title"] = part.name
        return block
    text = part_text(part)
    return {"type": "text", "text": text} if text else None


def anthropic_text_item(call_id: str, text: str, is_error: bool) -> Item:
    """The ``tool_result`` block of a result made of text alone."""
    if text:  # an empty text block is refused; no content at all is not
        return {"type": "tool_result", "tool_use_id": call_id, "content": text, "is_error": is_error}
    return {"type": "tool_result", "tool_use_id": call_id, "is_error": is_error}


def anthropic_result(call_id: str, result: ToolResult, tool_name: str) -> Written:
    """A ``tool_result`` content block with ``is_error``; images and documents as blocks."""
    text = text_only(result.parts)
    if text is not None:
        return anthropic_text_item(call_id, text, result.is_error), []
    parts, warnings = _sorted("anthropic", tool_name, result.parts)
    item: Item = {"type": "tool_result", "tool_use_id": call_id}
    if any(isinstance(p, (ImagePart, FilePart)) for p in parts):
        item["content"] = [b for b in map(_anthropic_block, parts) if b is not None]
    else:
        text = _joined(parts)
        if text:  # an empty text block is refused; no content at all is not
            item["content"] = text
    item["is_error"] = result.is_error
    return item, warnings


def gemini_result(call_id: str, name: str, result: ToolResult, tool_name: str) -> Written:
    """A ``functionResponse`` part: ``response`` is ``{"output": ...}`` or ``{"error": ...}``,
    media go into its ``parts`` as ``inlineData``."""
    given = result.parts
    only = given[0] if len(given) == 1 else None
    if isinstance(only, JsonPart) and not result.is_error:  # as the general path below writes it
        return _gemini_item(call_id, name, {"output": only.value}), []
    text = text_only(given)
    if text is not None:
        return _gemini_item(call_id, name, {"error": text} if result.is_error else {"output": text}), []
    parts, warnings = _sorted("gemini", tool_name, given)
    response: Item
    if result.is_error:
        response = {"error": _joined(parts)}
    elif len(parts) == 1 and isinstance(parts[0], JsonPart):
        response = {"output": parts[0].value}
    else:
        response = {"output": _joined(parts)}
    body: Item = {}
    if call_id:
        body["id"] = call_id
    body["name"] = name
    body["response"] = response
    media: list[Item] = []
    for p in parts:
        if isinstance(p, (ImagePart, FilePart)):
            blob: Item = {"mimeType": p.media_type, "data": b64(p.data)}
            if isinstance(p, FilePart) and p.name:
                blob["displayName"] = p.name
            media.append({"inlineData": blob})
    if media:
        body["parts"] = media
    return {"functionResponse": body}, warnings


def _gemini_item(call_id: str, name: str, response: Item) -> Item:
    """A ``functionResponse`` part without media."""
    body: Item = (
        {"id": call_id, "name": name, "response": response} if call_id else {"name": name, "response": response}
    )
    return {"functionResponse": body}
