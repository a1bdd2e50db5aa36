"""Gemini function declarations, in either of the two forms the API takes (never both).

``form="json_schema"`` (``parametersJsonSchema``, preferred on Gemini 2.5+): the canonical
schema, with the keywords Gemini does not read (formats other than date-time/date/time,
string lengths, ``pattern``, ``contentEncoding``, ``uniqueItems``, ``default``) said in the
description instead. Nothing changes shape, so binding needs no provider.

``form="openapi"`` (``parameters``, the OpenAPI 3.0 ``Schema`` object; the only form the Live
API takes): upper-case type names, ``nullable: true`` instead of type arrays and null
branches, enums of strings only (other ``Literal`` values are said in words), no
``uniqueItems``/``contentEncoding``/``additionalProperties`` (``dict[str, T]`` becomes a list
of ``{"key", "value"}`` entries, read back by ``tool.bind(..., provider="gemini")``). A JSON
type has no ``Schema`` form at all (``type`` is required and an object needs properties):
such a tool raises ``ProviderError``, pointing to the JSON Schema form.

A tool without parameters is declared without ``parameters``/``parametersJsonSchema``:
Gemini refuses an object schema with no properties.
"""

from __future__ import annotations

import re
from typing import Any, Literal

from ._adapter import Adapter, Reply
from ._calls import gemini_calls
from ._common import ProviderError, ToolDefinition, ToolLike, source_of
from ._downconvert import Schema, is_nullable, kind_of, map_children, move, ordered, pairs_schema, types_of
from ._outputs import gemini_result

__all__ = ["ADAPTER", "gemini_tool", "gemini_json_schema", "gemini_openapi_schema", "SCHEMA_FIELDS"]

#: Formats the JSON Schema form reads; others are said in words.
JSON_SCHEMA_FORMATS = frozenset({"date-time", "date", "time"})
JSON_SCHEMA_UNREAD = ("minLength", "maxLength", "pattern", "contentEncoding", "uniqueItems", "default")

#: Every field the ``Schema`` object has that onellm may write (anything else is a 400).
SCHEMA_FIELDS = frozenset(
    {
        "type",
        "format",
        "title",
        "description",
        "nullable",
        "enum",
        "items",
        "minItems",
        "maxItems",
        "minLength",
        "maxLength",
        "pattern",
        "minimum",
        "maximum",
        "properties",
        "required",
        "propertyOrdering",
        "anyOf",
        "default",
    }
)
OPENAPI_REFUSED = ("contentEncoding", "uniqueItems")

_FUNCTION_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.:-]{0,127}")
_PARAMETER_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,63}")
_JSON_TYPES = {
    "any": "a JSON value (JsonValue)",
    "json_object": "a JSON object (JsonObject)",
    "json_array": "a JSON array (JsonArray)",
}


def _json_schema(node: Schema, path: str) -> Schema:
    out = map_children(node, _json_schema, path)
    keys = [k for k in JSON_SCHEMA_UNREAD if k in out]
    if out.get("format") is not None and out["format"] not in JSON_SCHEMA_FORMATS:
        keys.insert(0, "format")
    return move(out, keys)


def gemini_json_schema(input_schema: Schema) -> Schema:
    """The ``parametersJsonSchema`` form of a canonical input schema."""
    return _json_schema(input_schema, "")


def _openapi(node: Schema, path: str) -> Schema:
    kind = kind_of(node)
    if kind in _JSON_TYPES:
        raise ProviderError(
            f"parameter '{path}' is {_JSON_TYPES[kind]}, which Gemini's OpenAPI Schema form cannot express; "
            "use gemini_tool(..., form='json_schema')"
        )
    nullable = is_nullable(node)
    if kind == "map":
        value = _openapi(node["additionalProperties"], f"{path}{{}}")
        entries = pairs_schema(value, False, node.get("description"))
        entries["items"] = {
            "type": "OBJECT",
            "properties": {"key": {"type": "STRING"}, "value": value},
            "required": ["key", "value"],
        }
        return _openapi_shape(entries, nullable)
    if "anyOf" in node:
        node = {**node, "anyOf": [b for b in node["anyOf"] if b != {"type": "null"}]}
    out = map_children(node, _openapi, path)
    keys = [k for k in OPENAPI_REFUSED if k in out]
    if "enum" in out and not all(isinstance(v, str) for v in out["enum"] if v is not None):
        keys.append("enum")
    out = move(out, keys)
    if "enum" in out:
        out["enum"] = [v for v in out["enum"] if v is not None]
    if kind == "record":
        out.pop("additionalProperties", None)
    return _openapi_shape(out, nullable)


def _openapi_shape(node: Schema, nullable: bool) -> Schema:
    """Upper-case ``type`` (one name, never an array) and ``nullable`` for a null member."""
    out = dict(node)
    types = [t for t in types_of(node) if t != "null"]
    if types:
        out["type"] = types[0].upper()
    if nullable:
        out["nullable"] = True
    return ordered(out)


def gemini_openapi_schema(input_schema: Schema) -> Schema:
    """The ``parameters`` (OpenAPI ``Schema``) form; raises ``ProviderError`` when there is none."""
    return _openapi(input_schema, "")


def _check_names(name: str, input_schema: Schema) -> None:
    if not _FUNCTION_NAME.fullmatch(name):
        raise ProviderError(
            f"Tool '{name}': Gemini function names start with a letter or '_'"
            " and use letters, digits, '_', '.', ':', '-'"
        )
    for param in input_schema.get("properties", {}):
        if not _PARAMETER_NAME.fullmatch(param):
            raise ProviderError(
                f"Tool '{name}': parameter '{param}' is not a Gemini parameter name (^[A-Za-z_][A-Za-z0-9_]{{0,63}}$)"
            )


def gemini_tool(tool: ToolLike, form: Literal["json_schema", "openapi"] = "json_schema") -> ToolDefinition:
    """The Gemini ``FunctionDeclaration`` of ``tool`` (as the REST API spells it, camelCase)."""
    if form not in ("json_schema", "openapi"):
        raise ValueError(f"form must be 'json_schema' or 'openapi', not {form!r}")
    src = source_of(tool)
    _check_names(src.name, src.input_schema)
    body: dict[str, Any] = {"name": src.name, "description": src.description}
    if src.input_schema.get("properties"):
        if form == "json_schema":
            body["parametersJsonSchema"] = gemini_json_schema(src.input_schema)
        else:
            try:
                body["parameters"] = gemini_openapi_schema(src.input_schema)
            except ProviderError as e:
                raise ProviderError(f"Tool '{src.name}': {e}") from None
    return ToolDefinition(body, None, ())


#: The registry's row for Gemini: the JSON Schema form (``parametersJsonSchema``).
ADAPTER = Adapter(
    form=gemini_tool,
    replies=(Reply("gemini", gemini_calls, lambda id, name, _, result: gemini_result(id, name, result, name)),),
)
