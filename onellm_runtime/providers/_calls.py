"""Finding the tool calls in a provider's reply, given as plain JSON or as the SDK's object.

An SDK object is read through its ``model_dump`` (every provider SDK's models are pydantic
models), so no SDK is imported. Each finder accepts the whole reply or the part of it that
holds the calls (the Responses ``output`` list, a Chat message, an Anthropic ``content``
list, a Gemini ``Content`` or its ``parts``), and returns the calls in the reply's order.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
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


#: One tool call as the reply wrote it: its id, its tool's name, its arguments as the API sent
#: them (a JSON string for OpenAI, an object for the others), and why it cannot run as written
#: (its answer is this error) or None. A plain tuple: ``dispatch`` reads each once, and a reply
#: may hold thousands.
FoundCall = tuple[str, str, object, "str | None"]


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
    for written in items:
        # what ``json.loads`` and ``model_dump`` make is read as it is, without a call of ``_map``
        item = cast("Mapping[str, Any]", written) if type(written) is dict else _map(written)
        if item.get("type") == "function_call":
            call_id, name = item.get("call_id"), item.get("name")
            if type(call_id) is not str or type(name) is not str:  # what the API sends: no call of _str
                call_id, name = _str(call_id), _str(name)
            found.append((call_id, name, item.get("arguments", ""), None))
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
        call_id, name = _str(call.get("id")), _str(function.get("name"))
        if kind == "function":
            found.append((call_id, name, function.get("arguments", ""), None))
        else:  # a custom tool's call, or a type the API may add: answered, never dropped
            name = _str(_map(call.get(kind) if isinstance(kind, str) else None).get("name")) or name
            problem = f"Tool call type {_shown(kind)} is not supported; only function tools are offered."
            found.append((call_id, name, None, problem))
    return found


def anthropic_calls(reply: Any) -> list[FoundCall]:
    """``tool_use`` blocks of a Message (or of its ``content`` list)."""
    blocks = _listed(reply, "content")
    found: list[FoundCall] = []
    for block in map(_map, blocks):
        if block.get("type") == "tool_use":
            found.append((_str(block.get("id")), _str(block.get("name")), block.get("input", {}), None))
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
            found.append(("", "", None, problem))
            continue
        call = _map(cast(object, written))
        found.append((_str(call.get("id")), _str(call.get("name")), call.get("args", {}), None))
    return found


def mcp_calls(reply: Any) -> list[FoundCall]:
    """A ``tools/call`` request's ``params`` (``{"name", "arguments"}``): one call."""
    body = _map(reply)
    if "params" in body:
        body = _map(body["params"])
    return [("", _str(body.get("name")), body.get("arguments", {}), None)]
