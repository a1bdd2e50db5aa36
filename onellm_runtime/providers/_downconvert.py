"""Shared pieces of every down-conversion: reading a canonical schema, and saying in words
what a provider will not read as a keyword.

The canonical schema (``onellm_runtime.core.schema``) uses only the contract's keywords, so a
node is always one of a few shapes, told apart here once (``kind_of``) for every adapter.
Every function returns new dicts: a tool's cached canonical schema is never modified.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Collection, Iterable
from typing import Any, Literal, cast

from ..core.scalars import BY_FORM
from ..core.schema import KEYWORD_ORDER

__all__ = [
    "Schema",
    "NodeKind",
    "kind_of",
    "types_of",
    "is_nullable",
    "sentences",
    "move",
    "append_description",
    "ordered",
    "make_nullable",
    "pairs_schema",
    "map_children",
    "json_text",
    "PAIRS_NOTE",
]

Schema = dict[str, Any]

NodeKind = Literal["any", "json_object", "json_array", "map", "record", "union", "array", "scalar"]

#: The canonical order, with the few non-canonical keys the adapters write placed where a
#: model reading top to bottom expects them.
_ORDER: list[str] = list(KEYWORD_ORDER)
_ORDER.insert(_ORDER.index("description") + 1, "nullable")
_RANK = {k: i for i, k in enumerate(_ORDER)}

#: Said in the description of every dictionary written as a list of key/value entries.
PAIRS_NOTE = 'A dictionary, written as a list of {"key": ..., "value": ...} entries with unique keys.'


def types_of(node: Schema) -> list[str]:
    """The JSON types a node names (``[]`` when it has no ``type``)."""
    t = node.get("type")
    if t is None:
        return []
    return [str(x) for x in cast("list[object]", t)] if isinstance(t, list) else [str(t)]


def is_nullable(node: Schema) -> bool:
    if "null" in types_of(node):
        return True
    return any(branch == {"type": "null"} for branch in node.get("anyOf", ()))


def kind_of(node: Schema) -> NodeKind:
    """Which row of the contract's Types table wrote this node.

    ``any`` is ``JsonValue`` (``{}``), ``json_object``/``json_array`` are ``JsonObject`` and
    ``JsonArray`` (no ``properties``/``items``), ``map`` a ``dict[str, T]``.
    """
    if "anyOf" in node:
        return "union"
    types = [t for t in types_of(node) if t != "null"]
    if not types:
        return "scalar" if "type" in node else "any"  # {"type": "null"}: a union's null branch
    if types[0] == "object":
        if "properties" in node:
            return "record"
        if isinstance(node.get("additionalProperties"), dict):
            return "map"
        return "json_object"
    if types[0] == "array":
        return "array" if "items" in node else "json_array"
    return "scalar"


def json_text(value: object) -> str:
    return json.dumps(value, ensure_ascii=False)


def _count(n: object, unit: str) -> str:
    return f"{n} {unit}" if n == 1 else f"{n} {unit}s"


def _bounds(lo: object, hi: object, unit: str | None) -> str | None:
    def q(n: object) -> str:
        return str(n) if unit is None else _count(n, unit)

    if lo is not None and hi is not None:
        if lo == hi:
            return f"Exactly {q(lo)}."
        return f"Between {lo} and {q(hi)}." if unit is not None else f"Between {lo} and {hi}."
    if lo is not None:
        return f"At least {q(lo)}."
    if hi is not None:
        return f"At most {q(hi)}."
    return None


#: The formats the markers write (``Email``, ``Url``); a scalar type's form is said by its row's note.
_MARKER_FORMATS = {
    "uri": "An absolute URI.",
    "email": "An email address.",
}


def _form(key: str, value: object) -> str | None:
    """The note of the scalar row whose form is ``key: value`` (``format: date``), if one is."""
    row = BY_FORM.get((key, value))
    return None if row is None else row.note


def _format(f: str) -> str:
    return _form("format", f) or _MARKER_FORMATS.get(f) or f"Format: {f}."


def _pattern(p: str) -> str:
    return _form("pattern", p) or f"Must match the regular expression /{p}/."


def sentences(node: Schema, keys: Collection[str]) -> list[str]:
    """Plain words for the keywords ``keys`` of ``node`` (only those present), in keyword order."""
    out: list[str] = []
    get = node.get

    def take(lo: str, hi: str) -> tuple[Any, Any]:
        return (get(lo) if lo in keys else None, get(hi) if hi in keys else None)

    if "format" in keys and "format" in node:
        out.append(_format(node["format"]))
    said = _bounds(*take("minimum", "maximum"), unit=None)
    if said:
        out.append(said)
    said = _bounds(*take("minLength", "maxLength"), unit="character")
    if said:
        out.append(said)
    if "pattern" in keys and "pattern" in node:
        out.append(_pattern(node["pattern"]))
    said = None
    if "contentEncoding" in keys and "contentEncoding" in node:
        said = _form("contentEncoding", node["contentEncoding"])
    if said:
        out.append(said)
    said = _bounds(*take("minItems", "maxItems"), unit="item")
    if said:
        out.append(said)
    if "uniqueItems" in keys and node.get("uniqueItems"):
        out.append("Items are unique.")
    if "enum" in keys and "enum" in node:
        values = [v for v in node["enum"] if v is not None]
        if len(values) == 1:
            out.append(f"Always {json_text(values[0])}.")
        else:
            out.append("One of: " + ", ".join(json_text(v) for v in values) + ".")
    if "default" in keys and "default" in node:
        out.append(f"Default: {json_text(node['default'])}.")
    return out


def append_description(node: Schema, notes: Iterable[str]) -> Schema:
    """``node`` with ``notes`` added after its description (a period closes the old text)."""
    notes = [n for n in notes if n]
    if not notes:
        return node
    old = node.get("description")
    text = " ".join(notes)
    if old:
        old = old.rstrip()
        text = f"{old} {text}" if old.endswith((".", "!", "?", ":")) else f"{old}. {text}"
    out = dict(node)
    out["description"] = text
    return ordered(out)


def move(node: Schema, keys: Collection[str], extra: Iterable[str] = ()) -> Schema:
    """Remove ``keys`` from ``node`` and say them (then ``extra``) in its description."""
    present = [k for k in keys if k in node]
    if not present:
        return append_description(node, extra)
    said = sentences(node, present)
    rest = {k: v for k, v in node.items() if k not in present}
    return append_description(rest, [*said, *extra])


def ordered(node: Schema) -> Schema:
    """Keys in the contract's order (``nullable`` after ``description``; unknown keys last)."""
    return dict(sorted(node.items(), key=lambda kv: _RANK.get(kv[0], len(_RANK))))


def make_nullable(node: Schema) -> Schema:
    """``node`` that also accepts null, as the canonical writer makes ``X | None``."""
    if is_nullable(node):
        return node
    out = dict(node)
    if "anyOf" in out:
        out["anyOf"] = [*out["anyOf"], {"type": "null"}]
        return out
    t = out.get("type")
    if t is None:
        return out
    out["type"] = [*t, "null"] if isinstance(t, list) else [t, "null"]
    if "enum" in out and None not in out["enum"]:
        out["enum"] = [*out["enum"], None]
    return out


def pairs_schema(value: Schema, nullable: bool, description: str | None) -> Schema:
    """A dictionary written as a closed array of ``{"key", "value"}`` objects."""
    out: Schema = {"type": ["array", "null"] if nullable else "array"}
    if description:
        out["description"] = description
    out["items"] = {
        "type": "object",
        "properties": {"key": {"type": "string"}, "value": value},
        "required": ["key", "value"],
        "additionalProperties": False,
    }
    return append_description(out, [PAIRS_NOTE])


def map_children(node: Schema, fn: Callable[[Schema, str], Schema], path: str) -> Schema:
    """``node`` with ``fn`` applied to each direct subschema; ``path`` grows as a wire path."""
    out = dict(node)
    if "properties" in node:
        out["properties"] = {
            name: fn(sub, f"{path}.{name}" if path else name) for name, sub in node["properties"].items()
        }
    if isinstance(node.get("items"), dict):
        out["items"] = fn(node["items"], f"{path}[]")
    if isinstance(node.get("additionalProperties"), dict):
        out["additionalProperties"] = fn(node["additionalProperties"], f"{path}{{}}")
    if "anyOf" in node:
        out["anyOf"] = [fn(branch, path) for branch in node["anyOf"]]
    return out
