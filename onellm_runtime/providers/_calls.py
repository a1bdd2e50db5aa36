"""Finding the tool calls in a provider's reply, given as plain JSON or as the SDK's object.

An SDK object is read through its ``model_dump`` (every provider SDK's models are pydantic
models), so no SDK is imported. Each finder accepts the whole reply or the part of it that
holds the calls (the Responses ``output`` list, a Chat message, an Anthropic ``content``
list, a Gemini ``Content`` or its ``parts``), and returns the calls in the reply's order.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

__all__ = ["FoundCall", "plain", "FINDERS"]


@dataclass(frozen=True)
class FoundCall:
    """One tool call as the reply wrote it."""

    id: str
    name: str
    #: As the API sent them: a JSON string (OpenAI) or an object (the others).
    arguments: object


def plain(value: object) -> Any:
    """``value`` as plain JSON data: mappings and lists as they are, SDK models dumped."""
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in cast("Sequence[object]", value)]
    if isinstance(value, (Mapping, str, int, float, bool)) or value is None:
        return cast(Any, value)
    dump = getattr(value, "model_dump", None)
    if callable(dump):
        try:
            return dump(mode="json", by_alias=True, exclude_none=True)
        except TypeError:  # a model_dump without pydantic's keywords
            return dump()
    to_dict = getattr(value, "to_dict", None)
    if callable(to_dict):
        return to_dict()
    raise TypeError(f"cannot read a provider reply of type {type(value).__name__}")


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []  # pyright: ignore[reportUnknownVariableType]


def _listed(reply: Any, key: str) -> list[Any]:
    """The reply itself when it is a list, else its ``key`` list."""
    return _list(reply) if isinstance(reply, list) else _list(_map(reply).get(key))


def _map(value: object) -> Mapping[str, Any]:
    return cast("Mapping[str, Any]", value) if isinstance(value, Mapping) else {}


def _str(value: object) -> str:
    return value if isinstance(value, str) else ""


def responses_calls(reply: Any) -> list[FoundCall]:
    """``function_call`` items of a Response (or of its ``output`` list)."""
    items = _listed(reply, "output")
    found: list[FoundCall] = []
    for item in map(_map, items):
        if item.get("type") == "function_call":
            found.append(FoundCall(_str(item.get("call_id")), _str(item.get("name")), item.get("arguments", "")))
    return found


def chat_calls(reply: Any) -> list[FoundCall]:
    """``tool_calls`` of a ChatCompletion's first choice (or of a message)."""
    body = _map(reply)
    choices = _list(body.get("choices"))
    message = _map(_map(choices[0]).get("message")) if choices else body
    found: list[FoundCall] = []
    for call in map(_map, _list(message.get("tool_calls"))):
        if call.get("type", "function") == "function":
            function = _map(call.get("function"))
            found.append(FoundCall(_str(call.get("id")), _str(function.get("name")), function.get("arguments", "")))
    return found


def anthropic_calls(reply: Any) -> list[FoundCall]:
    """``tool_use`` blocks of a Message (or of its ``content`` list)."""
    blocks = _listed(reply, "content")
    found: list[FoundCall] = []
    for block in map(_map, blocks):
        if block.get("type") == "tool_use":
            found.append(FoundCall(_str(block.get("id")), _str(block.get("name")), block.get("input", {})))
    return found


def _gemini_parts(reply: Any) -> list[Any]:
    body = _map(reply)
    candidates = _list(body.get("candidates"))
    if candidates:
        body = _map(_map(candidates[0]).get("content"))
    return _listed(reply if isinstance(reply, list) else body, "parts")


def gemini_calls(reply: Any) -> list[FoundCall]:
    """``functionCall`` parts of a GenerateContentResponse's first candidate (or of a Content, or parts)."""
    found: list[FoundCall] = []
    for part in map(_map, _gemini_parts(reply)):
        call = _map(part.get("functionCall", part.get("function_call")))
        if call:
            found.append(FoundCall(_str(call.get("id")), _str(call.get("name")), call.get("args", {})))
    return found


def mcp_calls(reply: Any) -> list[FoundCall]:
    """A ``tools/call`` request's ``params`` (``{"name", "arguments"}``): one call."""
    body = _map(reply)
    if "params" in body:
        body = _map(body["params"])
    return [FoundCall("", _str(body.get("name")), body.get("arguments", {}))]


FINDERS: dict[str, Callable[[Any], list[FoundCall]]] = {
    "openai": responses_calls,
    "openai-chat": chat_calls,
    "anthropic": anthropic_calls,
    "gemini": gemini_calls,
    "mcp": mcp_calls,
}
