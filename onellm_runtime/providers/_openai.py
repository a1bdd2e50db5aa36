"""OpenAI function tools: the Responses and Chat Completions shapes, strict by default.

Strict mode (Structured Outputs) reads a subset of JSON Schema (see PROVIDERS.md). The
conversion keeps every call the canonical schema allows expressible, and the binder with
``provider="openai"`` reads it back:

- every property is required; an optional one becomes nullable, and null means "not
  given" (the function's default applies);
- ``default``, ``uniqueItems``, ``contentEncoding`` and ``format: uri`` move into the
  description;
- ``dict[str, T]`` becomes a list of ``{"key", "value"}`` entries;
- a JSON type (``JsonValue``, ``JsonObject``, ``JsonArray``) has no strict form at all, and
  neither has a schema over OpenAI's size limits: such a tool is sent non-strict, with its
  canonical schema and a ``ProviderWarning`` that says why.
"""

from __future__ import annotations

import copy
from typing import Literal

from ._adapter import Adapter, Reply
from ._calls import chat_calls, responses_calls
from ._common import NotStrict, ToolDefinition, ToolLike, source_of, warn
from ._downconvert import (
    Schema,
    append_description,
    is_nullable,
    json_text,
    kind_of,
    make_nullable,
    map_children,
    move,
    ordered,
    pairs_schema,
)
from ._outputs import chat_result, chat_text_item, responses_result, responses_text_item

__all__ = ["ADAPTER", "openai_tool", "openai_strict_schema", "openai_loose_schema"]

#: Formats strict mode reads; any other is said in words.
STRICT_FORMATS = frozenset({"date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"})
#: Keywords strict mode refuses that the canonical writer can produce.
REFUSED = ("contentEncoding", "uniqueItems", "default")

MAX_DEPTH = 10
MAX_PROPERTIES = 5000
MAX_ENUM_VALUES = 1000
MAX_NAME_CHARS = 120_000
MAX_DESCRIPTION = 1024

_JSON_TYPES = {
    "any": "a JSON value (JsonValue)",
    "json_object": "a JSON object (JsonObject)",
    "json_array": "a JSON array (JsonArray)",
}


def _optional_note(prop: Schema, nullable_before: bool) -> list[str]:
    """What the model is told about an optional property it must now always send."""
    if "default" in prop:
        if nullable_before:
            return [f"Default: {json_text(prop['default'])}."]
        return [f"Default: {json_text(prop['default'])}; null means the default."]
    if nullable_before:
        return []
    return ["Optional; null means not given."]


def _strict(node: Schema, path: str) -> Schema:
    kind = kind_of(node)
    if kind in _JSON_TYPES:
        raise NotStrict(f"parameter '{path}' is {_JSON_TYPES[kind]}, which strict mode cannot express")
    if kind == "map":
        value = _strict(node["additionalProperties"], f"{path}{{}}")
        return pairs_schema(value, is_nullable(node), node.get("description"))
    if kind == "record":
        return _record(node, path)
    out = map_children(node, _strict, path)
    keys = [k for k in REFUSED if k in out]
    if out.get("format") is not None and out["format"] not in STRICT_FORMATS:
        keys.insert(0, "format")
    return move(out, keys)


def _record(node: Schema, path: str) -> Schema:
    """Every property required; an optional one nullable, its default said in words."""
    required = set(node.get("required", ()))
    props: Schema = {}
    for name, prop in node["properties"].items():
        sub = _strict({k: v for k, v in prop.items() if k != "default"}, f"{path}.{name}" if path else name)
        if name not in required:
            sub = append_description(make_nullable(sub), _optional_note(prop, is_nullable(prop)))
        elif "default" in prop:
            sub = append_description(sub, [f"Default: {json_text(prop['default'])}."])
        props[name] = sub
    out = dict(node)
    out["properties"] = props
    if props:
        out["required"] = list(props)
    out["additionalProperties"] = False
    return ordered(out)


def _check_limits(root: Schema) -> None:
    """OpenAI's documented size limits; over them, strict mode refuses the schema."""
    properties = enum_values = name_chars = 0

    def walk(node: Schema, depth: int) -> int:
        nonlocal properties, enum_values, name_chars
        deepest = depth
        if "properties" in node:
            for name, sub in node["properties"].items():
                properties += 1
                name_chars += len(name)
                deepest = max(deepest, walk(sub, depth + 1))
        for v in node.get("enum", ()):
            enum_values += 1
            name_chars += len(str(v)) if v is not None else 0
        if isinstance(node.get("items"), dict):
            deepest = max(deepest, walk(node["items"], depth))
        for branch in node.get("anyOf", ()):
            deepest = max(deepest, walk(branch, depth))
        return deepest

    depth = walk(root, 0)
    if depth > MAX_DEPTH:
        raise NotStrict(f"it nests {depth} levels of objects (the limit is {MAX_DEPTH})")
    if properties > MAX_PROPERTIES:
        raise NotStrict(f"it has {properties} properties (the limit is {MAX_PROPERTIES})")
    if enum_values > MAX_ENUM_VALUES:
        raise NotStrict(f"it has {enum_values} enum values (the limit is {MAX_ENUM_VALUES})")
    if name_chars > MAX_NAME_CHARS:
        raise NotStrict(f"its names and enum values have {name_chars} characters (the limit is {MAX_NAME_CHARS})")


def openai_strict_schema(input_schema: Schema) -> Schema:
    """The strict-mode form of a canonical input schema; raises ``NotStrict`` when there is none."""
    out = _strict(input_schema, "")
    _check_limits(out)
    return out


def _loosen(node: Schema) -> Schema:
    if kind_of(node) == "json_array":
        out = dict(node)
        out["items"] = {}
        return move(out, [])
    return map_children(node, lambda sub, _path: _loosen(sub), "")


def openai_loose_schema(input_schema: Schema) -> Schema:
    """The non-strict form: the canonical schema, except that every array names its ``items``
    (OpenAI refuses an array without ``items`` even when not strict)."""
    return _loosen(copy.deepcopy(input_schema))


def openai_tool(tool: ToolLike, api: Literal["responses", "chat"] = "responses", strict: bool = True) -> ToolDefinition:
    """The OpenAI function-tool definition of ``tool``.

    ``api="responses"``: ``{"type": "function", "name", "description", "parameters", "strict"}``;
    ``api="chat"``: ``{"type": "function", "function": {"name", "description", "parameters", "strict"}}``.
    Bind the model's arguments with ``tool.bind(arguments, provider="openai")``.
    """
    if api not in ("responses", "chat"):
        raise ValueError(f"api must be 'responses' or 'chat', not {api!r}")
    src = source_of(tool)
    found: list[str] = []
    parameters: Schema | None = None
    if strict:
        try:
            parameters = openai_strict_schema(src.input_schema)
        except NotStrict as e:
            found.append(warn(f"Tool '{src.name}' is sent to OpenAI non-strict: {e}.", stacklevel=2))
    is_strict = parameters is not None
    if parameters is None:
        parameters = openai_loose_schema(src.input_schema)
    if len(src.description) > MAX_DESCRIPTION:
        found.append(
            warn(
                f"Tool '{src.name}' has a description of {len(src.description)} characters; "
                f"OpenAI has refused descriptions over {MAX_DESCRIPTION}.",
                stacklevel=2,
            )
        )
    function = {"name": src.name, "description": src.description, "parameters": parameters, "strict": is_strict}
    body = {"type": "function", **function} if api == "responses" else {"type": "function", "function": function}
    return ToolDefinition(body, is_strict, tuple(found))


#: The registry's row for OpenAI: the Responses shape, strict; replies from the Responses API
#: and from Chat Completions, whose arguments are JSON text.
ADAPTER = Adapter(
    form=openai_tool,
    replies=(
        Reply(
            "openai",
            responses_calls,
            lambda id, name, _, result: responses_result(id, result, name),
            True,
            responses_text_item,
        ),
        Reply(
            "openai-chat", chat_calls, lambda id, name, _, result: chat_result(id, result, name), True, chat_text_item
        ),
    ),
)
