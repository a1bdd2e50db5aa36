"""Rule checkers written from PROVIDERS.md, independently of the adapters' code.

Each returns the list of violations found anywhere in a converted schema (empty when the
provider would accept it), with the JSON path of each, so a failing test says where.
"""

from __future__ import annotations

import re
from typing import Any, Callable, Iterator

Schema = dict[str, Any]

# OpenAI strict: the keywords the "supported schemas" page lists, plus what every schema may have.
OPENAI_STRICT_KEYWORDS = {
    "type",
    "description",
    "enum",
    "anyOf",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "pattern",
    "format",
    "minimum",
    "maximum",
    "minItems",
    "maxItems",
    "minLength",
    "maxLength",
}
OPENAI_FORMATS = {"date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"}
ANTHROPIC_REFUSED = {"minimum", "maximum", "multipleOf", "minLength", "maxLength", "maxItems", "uniqueItems"}
ANTHROPIC_FORMATS = {"date-time", "time", "date", "duration", "email", "hostname", "uri", "ipv4", "ipv6", "uuid"}
GEMINI_JSON_KEYWORDS = {
    "type",
    "title",
    "description",
    "properties",
    "required",
    "additionalProperties",
    "enum",
    "format",
    "minimum",
    "maximum",
    "items",
    "prefixItems",
    "minItems",
    "maxItems",
    "anyOf",
    "$ref",
}
GEMINI_JSON_FORMATS = {"date-time", "date", "time"}
GEMINI_SCHEMA_FIELDS = {
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
GEMINI_TYPES = {"STRING", "NUMBER", "INTEGER", "BOOLEAN", "ARRAY", "OBJECT"}


def nodes(schema: Schema, path: str = "$") -> Iterator[tuple[str, Schema]]:
    """Every subschema with its path."""
    yield path, schema
    for name, sub in schema.get("properties", {}).items():
        yield from nodes(sub, f"{path}.properties.{name}")
    if isinstance(schema.get("items"), dict):
        yield from nodes(schema["items"], f"{path}.items")
    if isinstance(schema.get("additionalProperties"), dict):
        yield from nodes(schema["additionalProperties"], f"{path}.additionalProperties")
    for i, branch in enumerate(schema.get("anyOf", ())):
        yield from nodes(branch, f"{path}.anyOf[{i}]")


def _check(schema: Schema, rule: Callable[[str, Schema], list[str]]) -> list[str]:
    return [v for path, node in nodes(schema) for v in rule(path, node)]


def _types(node: Schema) -> list[str]:
    t = node.get("type")
    return [] if t is None else (t if isinstance(t, list) else [t])


def openai_strict(schema: Schema) -> list[str]:
    out: list[str] = []
    if schema.get("type") != "object" or "anyOf" in schema:
        out.append("$: the root must be an object, never an anyOf")

    def rule(path: str, node: Schema) -> list[str]:
        v = [f"{path}: {k} is refused" for k in node if k not in OPENAI_STRICT_KEYWORDS]
        if not _types(node) and "anyOf" not in node:
            v.append(f"{path}: no type (any JSON) cannot be strict")
        if "object" in _types(node):
            if node.get("additionalProperties") is not False:
                v.append(f"{path}: an object needs additionalProperties false")
            if sorted(node.get("required", [])) != sorted(node.get("properties", {})):
                v.append(f"{path}: every property must be required")
        if "array" in _types(node) and "items" not in node:
            v.append(f"{path}: an array needs items")
        if "format" in node and node["format"] not in OPENAI_FORMATS:
            v.append(f"{path}: format {node['format']} is refused")
        if "null" in _types(node) and "enum" in node and None not in node["enum"]:
            v.append(f"{path}: a nullable enum must carry null")
        return v

    return out + _check(schema, rule)


def openai_loose(schema: Schema) -> list[str]:
    return _check(
        schema, lambda p, n: [f"{p}: an array needs items"] if "array" in _types(n) and "items" not in n else []
    )


_COMPLEX = re.compile(r"\\[1-9]|\(\?[=!<]|\\[bB]")


def anthropic_strict(schema: Schema) -> list[str]:
    def rule(path: str, node: Schema) -> list[str]:
        v = [f"{path}: {k} is refused" for k in node if k in ANTHROPIC_REFUSED or k == "contentEncoding"]
        if node.get("minItems", 0) > 1:
            v.append(f"{path}: minItems above 1 is refused")
        if "object" in _types(node) and node.get("additionalProperties") is not False:
            v.append(f"{path}: an object needs additionalProperties false")
        if "format" in node and node["format"] not in ANTHROPIC_FORMATS:
            v.append(f"{path}: format {node['format']} is refused")
        if "pattern" in node and _COMPLEX.search(node["pattern"]):
            v.append(f"{path}: pattern is not simple")
        if not _types(node) and "anyOf" not in node and "enum" not in node:
            v.append(f"{path}: no type (any JSON)")
        return v

    return _check(schema, rule)


def gemini_json_schema(schema: Schema) -> list[str]:
    def rule(path: str, node: Schema) -> list[str]:
        v = [f"{path}: {k} is not read" for k in node if k not in GEMINI_JSON_KEYWORDS]
        if "format" in node and node["format"] not in GEMINI_JSON_FORMATS:
            v.append(f"{path}: format {node['format']} is not read")
        return v

    return _check(schema, rule)


def gemini_openapi(schema: Schema) -> list[str]:
    def rule(path: str, node: Schema) -> list[str]:
        v = [f"{path}: {k} is an unknown field" for k in node if k not in GEMINI_SCHEMA_FIELDS]
        t = node.get("type")
        if "anyOf" not in node and t not in GEMINI_TYPES:
            v.append(f"{path}: type {t!r} is not one Schema type")
        if "enum" in node and not all(isinstance(x, str) for x in node["enum"]):
            v.append(f"{path}: enum values must be strings")
        if t == "ARRAY" and "items" not in node:
            v.append(f"{path}: an ARRAY needs items")
        if t == "OBJECT" and not node.get("properties") and path == "$":
            v.append(f"{path}: an OBJECT needs properties")
        return v

    return _check(schema, rule)


def object_root(schema: Schema) -> list[str]:
    return [] if schema.get("type") == "object" else ["$: the root must be an object"]
