"""Readings of the model that the checker, the schema writer and the binder all share.

Anything that two of them would otherwise each decide (the tool's name, which field is a
union's discriminator, a property's wire name, whether a default is written) is decided
here once, so the schema advertised and the arguments bound cannot drift apart.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal as L

from . import docstrings
from .caches import BoundedCache
from .model import (
    MAX_RECORD_DEPTH,
    Annotated,
    ArrayType,
    EnumType,
    JsonType,
    LiteralType,
    MapType,
    Marker,
    Nullable,
    Param,
    Record,
    RecordField,
    Scalar,
    ScalarKind,
    SelfReference,
    ToolModel,
    TypeNode,
    UnionType,
    Unsupported,
)

__all__ = [
    "snake_case",
    "camel_case",
    "tool_name",
    "tool_description",
    "is_valid_tool_name",
    "model_params",
    "parsed_docstring",
    "field_doc",
    "strip",
    "markers_of",
    "discriminator",
    "wire_name",
    "contains_self_reference",
    "literal_json_type",
    "merged_literal",
    "Discriminated",
    "find_discriminator",
    "record_members",
    "is_writable_type",
    "return_category",
    "INVOCATION_MODE",
]

#: The framework control ``invocation_mode="model_choice"`` adds (HPD's note).
INVOCATION_MODE = "invocationMode"

_ACRONYM_BOUNDARY = re.compile(r"([A-Z]+)([A-Z][a-z])")
_WORD_BOUNDARY = re.compile(r"([a-z0-9])([A-Z])")
_TOOL_NAME = re.compile(r"[A-Za-z0-9_-]{1,64}")


def snake_case(name: str) -> str:
    """``GetDocketAsync`` -> ``get_docket``, ``HTTPRequest`` -> ``http_request``, ``fetchURL`` -> ``fetch_url``."""
    s = name.lower()
    if s != name:  # only a name with capitals has word boundaries to mark (most are snake_case already)
        s = _ACRONYM_BOUNDARY.sub(r"\1_\2", name)
        s = _WORD_BOUNDARY.sub(r"\1_\2", s).lower()
    if s.endswith("_async") and len(s) > len("_async"):
        s = s[: -len("_async")]
    return s


def camel_case(name: str) -> str:
    """``old_text`` -> ``oldText``; leading underscores and existing capitals are kept."""
    stripped = name.lstrip("_")
    lead = name[: len(name) - len(stripped)]
    head, *rest = stripped.split("_")
    return lead + head + "".join(part[:1].upper() + part[1:] for part in rest)


def tool_name(tool: ToolModel) -> str:
    name = tool.options.name
    if name is not None:
        return name
    return snake_case(tool.function_name)


def is_valid_tool_name(name: str) -> bool:
    if len(name) <= 64 and name.isascii() and name.isidentifier():  # the usual name, told without the pattern
        return True
    return _TOOL_NAME.fullmatch(name) is not None and name.isascii()


#: ``docstrings.parse_docstring``, each distinct text parsed once (the schema writer, the
#: description and the binder all ask). The parser itself, not a function calling it: one
#: call less on every tool's first parse.
parsed_docstring: Callable[[str | None], docstrings.ParsedDocstring] = lru_cache(maxsize=1024)(
    docstrings.parse_docstring
)


def tool_description(tool: ToolModel) -> str:
    description = tool.options.description
    if description is not None:
        return description
    return parsed_docstring(tool.docstring).description({p.name for p in tool.params})


def model_params(tool: ToolModel) -> tuple[Param, ...]:
    """The parameters the model sees, in order (context and token parameters left out)."""
    return tuple(p for p in tool.params if p.kind == "normal")


def field_doc(record: Record, name: str) -> str | None:
    for doc in record.docstrings:
        found = docstrings.field_description(parsed_docstring(doc), name)
        if found is not None:
            return found
    return None


def strip(node: TypeNode) -> TypeNode:
    """The type under any ``Annotated`` and ``Nullable`` wrappers."""
    while isinstance(node, (Annotated, Nullable)):
        node = node.inner
    return node


def markers_of(node: TypeNode) -> tuple[Marker, ...]:
    """Every marker on the outer wrappers of ``node`` (``Annotated`` through ``Nullable``)."""
    found: tuple[Marker, ...] = ()
    while isinstance(node, (Annotated, Nullable)):
        if isinstance(node, Annotated):
            found += node.markers
        node = node.inner
    return found


def discriminator(node: TypeNode) -> str | None:
    """The field a ``Discriminator`` on the outer wrappers names (the last one written wins)."""
    found = None
    for m in markers_of(node):
        if m.constraints.discriminator is not None:
            found = m.constraints.discriminator
    return found


def wire_name(f: RecordField, naming: str | None) -> str:
    """A record property's name on the wire: ``JsonName`` wins, then ``naming``."""
    renamed = None
    for m in markers_of(f.type):
        if m.constraints.json_name is not None:
            renamed = m.constraints.json_name
    if renamed is not None:
        return renamed
    if naming == "camelCase":
        return camel_case(f.name)
    return f.name


def contains_self_reference(node: TypeNode) -> bool:
    """Whether a lowered type holds an OLT006 cycle (such records are never cached)."""
    if isinstance(node, SelfReference):
        return True
    if isinstance(node, (Annotated, Nullable)):
        return contains_self_reference(node.inner)
    if isinstance(node, ArrayType):
        return contains_self_reference(node.item)
    if isinstance(node, MapType):
        return contains_self_reference(node.value)
    if isinstance(node, Record):
        return any(contains_self_reference(f.type) for f in node.fields)
    if isinstance(node, UnionType):
        return any(contains_self_reference(m) for m in node.members)
    return False


_DEPTHS: BoundedCache[int, tuple[Record, int]] = BoundedCache()


def record_depth(node: TypeNode) -> int:
    """How many records deep ``node`` nests (0: no record). A level cut off by a front end
    (``Unsupported("too_deep")``) counts as one beyond ``MAX_RECORD_DEPTH``."""
    if isinstance(node, (Annotated, Nullable)):
        return record_depth(node.inner)
    if isinstance(node, ArrayType):
        return record_depth(node.item)
    if isinstance(node, MapType):
        return record_depth(node.value)
    if isinstance(node, UnionType):
        return max(record_depth(m) for m in node.members)
    if isinstance(node, Record):
        known = _DEPTHS.get(id(node))
        if known is not None and known[0] is node:
            return known[1]
        depth = 1 + max((record_depth(f.type) for f in node.fields), default=0)
        _DEPTHS.put(id(node), (node, depth))  # kept, so its id is not reused
        return depth
    if isinstance(node, Unsupported) and node.reason == "too_deep":
        return MAX_RECORD_DEPTH + 1
    return 0


def literal_json_type(value: object) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    return "string"


def merged_literal(node: UnionType) -> LiteralType | None:
    """A union whose members are all ``Literal`` is one ``Literal`` (duplicates dropped)."""
    members = [strip(m) for m in node.members]
    if not all(isinstance(m, LiteralType) for m in members):
        return None
    values: dict[tuple[type, str | int | bool], str | int | bool] = {}  # by (type, value): True is not 1
    for m in members:
        assert isinstance(m, LiteralType)
        for v in m.values:
            values.setdefault((type(v), v), v)
    return LiteralType(tuple(values.values()))


def record_members(node: UnionType) -> tuple[Record, ...] | None:
    """The members of a union of records, or None when some member is not a record."""
    members = tuple(strip(m) for m in node.members)
    if all(isinstance(m, Record) for m in members):
        return members  # type: ignore[return-value]
    return None


@dataclass(frozen=True)
class Discriminated:
    """A union of records with its discriminator: the Python field name and each tag."""

    field: str
    members: tuple[Record, ...]
    tags: tuple[str, ...]


def _single_tag(f: RecordField) -> str | None:
    t = strip(f.type)
    if isinstance(f.type, Nullable) or (isinstance(f.type, Annotated) and isinstance(f.type.inner, Nullable)):
        return None
    if isinstance(t, LiteralType) and len(t.values) == 1 and isinstance(t.values[0], str):
        return t.values[0]
    return None


def _tags_for(field_name: str, members: tuple[Record, ...]) -> tuple[str, ...] | None:
    tags: list[str] = []
    for record in members:
        f = next((f for f in record.fields if f.name == field_name), None)
        tag = _single_tag(f) if f is not None else None
        if tag is None or tag in tags:
            return None
        tags.append(tag)
    return tuple(tags)


def find_discriminator(
    union: UnionType, explicit: str | None
) -> Discriminated | L["no_records", "none", "ambiguous", "explicit_invalid"]:
    """The union's discriminator, or why there is none (for OLT012's message)."""
    members = record_members(union)
    if members is None:
        return "no_records"
    if explicit is not None:
        tags = _tags_for(explicit, members)
        return Discriminated(explicit, members, tags) if tags is not None else "explicit_invalid"
    candidates: list[tuple[str, tuple[str, ...]]] = []
    for f in members[0].fields:
        tags = _tags_for(f.name, members)
        if tags is not None:
            candidates.append((f.name, tags))
    if len(candidates) == 1:
        return Discriminated(candidates[0][0], members, candidates[0][1])
    return "none" if not candidates else "ambiguous"


_WRITABLE_SCALARS = frozenset({ScalarKind.BOOL, ScalarKind.INT, ScalarKind.FLOAT, ScalarKind.STR, ScalarKind.CHAR})


def is_writable_type(node: TypeNode) -> bool:
    """Whether defaults of this type are written (so the static side must read them)."""
    t = strip(node)
    if isinstance(t, UnionType):
        return merged_literal(t) is not None
    return isinstance(t, (EnumType, LiteralType)) or (isinstance(t, Scalar) and t.kind in _WRITABLE_SCALARS)


def return_category(tool: ToolModel) -> L["none", "text", "parts", "json", "value", "unannotated"]:
    """How a tool's result is converted, and whether it has an output schema (``value``)."""
    returns = tool.returns
    if returns.kind != "type" or returns.type is None:
        return "none" if returns.kind == "type" else returns.kind
    t = strip(returns.type)
    if isinstance(t, Scalar) and t.kind in (ScalarKind.STR, ScalarKind.CHAR):
        return "text"  # Char is Annotated[str, ...]: text like any annotated str
    if isinstance(t, JsonType):
        return "json"
    return "value"
