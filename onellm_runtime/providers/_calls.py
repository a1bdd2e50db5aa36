"""Finding the tool calls in a provider's reply, given as plain JSON or as the SDK's object.

An SDK object is read through its ``model_dump`` (every provider SDK's models are pydantic
models), so no SDK is imported. Each finder accepts the whole reply or the part of it that
holds the calls (the Responses ``output`` list, a Chat message, an Anthropic ``content``
list, a Gemini ``Content`` or its ``parts``), and returns the calls in the reply's order.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

__all__ = [
    "FoundCall",
    "plain",
    "json_kind",
    "responses_calls",
    "chat_calls",
    "anthropic_calls",
    "gemini_calls",
    "mcp_calls",
]


@dataclass(slots=True)
class FoundCall:
    """One tool call as the reply wrote it."""

    id: str
    name: str
    #: As the API sent them: a JSON string (OpenAI) or an object (the others).
    arguments: object
    #: Why the call cannot run as written (its answer is this error), or None.
    problem: str | None = None


def plain(value: object) -> Any:
    """``value`` as plain JSON data: mappings as they are, SDK models dumped; a list's items
    too, one level down (the finders read no deeper in a list, so nesting costs no recursion)."""
    if isinstance(value, (list, tuple)):
        return [_plain_one(v) for v in cast("Sequence[object]", value)]
    return _plain_one(value)


def _plain_one(value: object) -> Any:
    if isinstance(value, (list, tuple, Mapping, str, int, float, bool)) or value is None:
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
    if type(value) is dict:  # what ``json.loads`` and ``model_dump`` make: no ABC check needed
        return cast("Mapping[str, Any]", value)
    return cast("Mapping[str, Any]", value) if isinstance(value, Mapping) else {}


def _str(value: object) -> str:
    return value if isinstance(value, str) else ""


#: The JSON kinds of the values ``json.loads`` makes, by Python type.
_JSON_KINDS: dict[type, str] = {list: "array", str: "string", int: "integer", float: "number", bool: "boolean"}


def json_kind(value: object) -> str:
    """A value's JSON kind (its Python type's name when it is not JSON), for ``got <kind>``."""
    if value is None:
        return "null"
    return _JSON_KINDS.get(type(value), type(value).__name__)


def _shown(value: object) -> str:
    """A call's ``type`` as the message quotes it: a string in quotes (cut short), else its kind."""
    if isinstance(value, str):
        return repr(value[:40] + ("..." if len(value) > 40 else ""))
    return json_kind(value)


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
        kind = call.get("type", "function")
        function = _map(call.get("function"))
        found.append(FoundCall(_str(call.get("id")), _str(function.get("name")), function.get("arguments", "")))
        if kind != "function":  # a custom tool's call, or a type the API may add: answered, never dropped
            name = _str(_map(call.get(kind) if isinstance(kind, str) else None).get("name")) or found[-1].name
            found[-1] = FoundCall(
                found[-1].id,
                name,
                None,
                f"Tool call type {_shown(kind)} is not supported; only function tools are offered.",
            )
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
        written = part.get("functionCall", part.get("function_call"))
        if written is None:
            continue
        if not isinstance(written, Mapping):
            problem = f"A functionCall must be an object, got {json_kind(written)}."
            found.append(FoundCall("", "", None, problem))
            continue
        call = _map(cast(object, written))
        found.append(FoundCall(_str(call.get("id")), _str(call.get("name")), call.get("args", {})))
    return found


def mcp_calls(reply: Any) -> list[FoundCall]:
    """A ``tools/call`` request's ``params`` (``{"name", "arguments"}``): one call."""
    body = _map(reply)
    if "params" in body:
        body = _map(body["params"])
    return [FoundCall("", _str(body.get("name")), body.get("arguments", {}))]
