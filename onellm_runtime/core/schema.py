"""The model -> JSON Schema 2020-12, with the contract's fixed keyword order.

Only called on a model that ``diagnostics.check_tool`` found clean. Every fragment is a
fresh dict whose keys are in ``KEYWORD_ORDER``, so ``json.dumps`` of a schema is the same
bytes on both sides.
"""

from __future__ import annotations

import marshal
from typing import Any, cast

from . import rules
from .caches import BoundedCache
from .model import (
    Annotated,
    ArrayType,
    Default,
    EnumType,
    JsonType,
    LiteralType,
    MapType,
    Marker,
    Nullable,
    Record,
    Scalar,
    ScalarKind,
    ToolModel,
    TypeNode,
    UnionType,
)
from .scalars import TIMEDELTA_PATTERN

__all__ = ["KEYWORD_ORDER", "TIMEDELTA_PATTERN", "fragment", "input_schema", "output_schema", "record_schema"]

Schema = dict[str, Any]

KEYWORD_ORDER = (
    "type",
    "format",
    "description",
    "anyOf",
    "enum",
    "minimum",
    "maximum",
    "minLength",
    "maxLength",
    "pattern",
    "contentEncoding",
    "items",
    "minItems",
    "maxItems",
    "uniqueItems",
    "properties",
    "required",
    "additionalProperties",
    "default",
)
_RANK = {k: i for i, k in enumerate(KEYWORD_ORDER)}

#: Each scalar kind's fragment, from its row (copied before use: callers change fragments).
_SCALARS: dict[ScalarKind, Schema] = {kind: dict(kind.row.fragment) for kind in ScalarKind}

_INVOCATION_MODE_PROPERTY: Schema = {"type": "string", "enum": ["wait", "background"], "default": "wait"}


def _ordered(kw: Schema) -> Schema:
    if len(kw) < 2:
        return kw
    return {k: kw[k] for k in sorted(kw, key=_RANK.__getitem__)}


def _nullable(frag: Schema) -> Schema:
    if "anyOf" in frag:
        frag["anyOf"] = [*frag["anyOf"], {"type": "null"}]
    elif "type" in frag:
        t = frag["type"]
        if isinstance(t, list):
            if "null" not in t:
                frag["type"] = [*t, "null"]
        elif t != "null":
            frag["type"] = [t, "null"]
        if "enum" in frag and None not in frag["enum"]:
            frag["enum"] = [*frag["enum"], None]
    return frag


#: Each constraint's keyword on a string or number, and on an array.
_KEYWORDS: dict[str, tuple[str, str]] = {
    "minimum": ("minimum", "minimum"),
    "maximum": ("maximum", "maximum"),
    "min_length": ("minLength", "minItems"),
    "max_length": ("maxLength", "maxItems"),
    "pattern": ("pattern", "pattern"),
    "format": ("format", "format"),
}


def _apply(frag: Schema, layer: tuple[Marker, ...]) -> Schema:
    """``frag`` with what one ``Annotated``'s markers set written over it, in keyword order
    (as ``markers.merged`` merges them: the last marker setting a keyword wins, a
    description goes by its row's rank first)."""
    is_array = frag.get("type") == "array"
    description: str | None = None
    rank = 0
    for m in layer:
        for name, value in m.constraints.items():
            keyword = _KEYWORDS.get(name)
            if keyword is not None:
                frag[keyword[is_array]] = value
            elif name == "description" and (description is None or m.spec.description_rank <= rank):
                description, rank = cast(str, value), m.spec.description_rank
    if description is not None:
        frag["description"] = description
    return _ordered(frag)


def fragment(node: TypeNode, naming: str | None) -> Schema:
    """The schema fragment of a (checked) type."""
    if isinstance(node, Scalar):
        frag: Schema = dict(_SCALARS[node.kind])
        if node.minimum is not None:
            frag["minimum"] = node.minimum
            frag["maximum"] = node.maximum
        return frag
    if isinstance(node, Annotated):
        inner = node.inner
        nullable = isinstance(inner, Nullable)
        base = inner.inner if isinstance(inner, Nullable) else inner
        if isinstance(base, UnionType):
            frag = _union(base, naming, rules.discriminator(node))
        else:
            frag = fragment(base, naming)
        frag = _apply(frag, node.markers)
        return _nullable(frag) if nullable else frag
    if isinstance(node, Nullable):
        return _nullable(fragment(node.inner, naming))
    if isinstance(node, EnumType):
        return {"type": "string", "enum": list(node.wire)}
    if isinstance(node, LiteralType):
        return {"type": rules.literal_json_type(node.values[0]), "enum": list(node.values)}
    if isinstance(node, ArrayType):
        frag = {"type": "array", "items": fragment(node.item, naming)}
        if node.unique:
            frag["uniqueItems"] = True
        return frag
    if isinstance(node, MapType):
        return {"type": "object", "additionalProperties": fragment(node.value, naming)}
    if isinstance(node, JsonType):
        return {} if node.kind == "value" else {"type": node.kind}
    if isinstance(node, Record):
        return record_schema(node, naming)
    if isinstance(node, UnionType):
        return _union(node, naming, None)
    raise TypeError(f"no schema for {node!r}; check the tool with diagnostics.check_tool first")


def _union(node: UnionType, naming: str | None, explicit: str | None) -> Schema:
    literal = rules.merged_literal(node)
    if literal is not None:
        return fragment(literal, naming)
    found = rules.find_discriminator(node, explicit)
    if isinstance(found, str):
        raise TypeError(f"union {node!r} has no discriminator; check the tool first")
    return {
        "anyOf": [record_schema(member, naming, (found.field, tag)) for member, tag in zip(found.members, found.tags)]
    }


def _property(node: TypeNode, naming: str | None, doc: str | None, default: Default) -> Schema:
    frag = fragment(node, naming) if doc is None else _described(node, naming, doc)
    if default.state == "value":
        frag["default"] = default.value  # the last keyword: appending keeps the order
    return frag


def _described(node: TypeNode, naming: str | None, doc: str) -> Schema:
    """``fragment(node)`` with ``doc`` as its description, unless the fragment has one.

    The commonest documented types (a scalar, an optional scalar, an enum) are written
    with the description in its place at once, rather than written and then copied.
    """
    if type(node) is Scalar:
        if node.minimum is None:
            frag = _DESCRIBED[node.kind].copy()  # (a copy: the table is not changed)
            frag["description"] = doc  # the key is in its place already: setting it keeps the order
            return frag
    elif type(node) is Nullable:
        inner = node.inner
        if type(inner) is Scalar and inner.minimum is None:  # fragment's own _nullable(scalar) path
            frag = _DESCRIBED[inner.kind].copy()
            frag["description"] = doc
            return _nullable(frag)  # changes the type's value only: no key moves
    elif type(node) is EnumType:
        return {"type": "string", "description": doc, "enum": list(node.wire)}
    frag = fragment(node, naming)
    return frag if "description" in frag else _with_description(frag, doc)


def _with_description(frag: Schema, text: str) -> Schema:
    """``frag`` (in keyword order, as every fragment is) with ``description`` in its place.

    Only ``type`` and ``format`` come before it, so those are copied first and the rest
    follow in the order they already have; cheaper than sorting, and the same result.
    """
    out: Schema = {}
    if "type" in frag:
        out["type"] = frag["type"]
    if "format" in frag:
        out["format"] = frag["format"]
    out["description"] = text
    out.update(frag)  # keys already copied keep their place
    return out


#: Each scalar kind's fragment with a ``description`` key in its place (a placeholder value):
#: a copy with the key set is that fragment described.
_DESCRIBED: dict[ScalarKind, Schema] = {kind: _with_description(frag, "") for kind, frag in _SCALARS.items()}


def record_schema(record: Record, naming: str | None, tag: tuple[str, str] | None = None) -> Schema:
    """A record's closed object; ``tag`` is (discriminator field, this member's tag) in a union.

    Written once per record (and ``naming``), then copied: see ``_RECORD_SCHEMAS``.
    """
    if tag is not None:
        return _record_schema(record, naming, tag)
    key = (id(record), naming)
    hit = _RECORD_SCHEMAS.get(key)
    if hit is not None and hit[0] is record:
        return marshal.loads(hit[1]) if hit[1] is not None else _record_schema(record, naming, None)
    out = _record_schema(record, naming, None)
    try:
        frozen: bytes | None = marshal.dumps(out, 4 if _is_tree(out, set()) else 2)
    except ValueError:  # a value marshal does not take as it is (a bound of a float subclass ...)
        frozen = None
    _RECORD_SCHEMAS.put(key, (record, frozen))
    return out


#: Each record's schema as written, by the record's identity and ``naming`` (the record is
#: kept, so its id cannot be reused): a record's schema depends on nothing else, and many
#: tools share a record (the front ends hand out one ``Record`` per class). Kept as
#: ``marshal`` bytes: loading them is a new deep copy at C speed, several times cheaper
#: than writing the schema again, and every tool gets dicts and lists of its own to change.
#: Version 4 shares what was one object when written (interned keys such as "type", a
#: description met twice), so copies cost no more memory than schemas written anew; it
#: would share a dict or list met twice too, so a schema holding one (none does today) is
#: kept as version 2, which shares nothing. Bounded, like the checker's cache of clean records.
_RECORD_SCHEMAS: BoundedCache[tuple[int, str | None], tuple[Record, bytes | None]] = BoundedCache()


def _is_tree(value: object, seen: set[int]) -> bool:
    """Whether no dict or list occurs twice in ``value`` (each has one place to be changed)."""
    if not isinstance(value, (dict, list)):
        return True
    container = cast("dict[str, object] | list[object]", value)
    if id(container) in seen:
        return False
    seen.add(id(container))
    children = container.values() if isinstance(container, dict) else container
    return all(_is_tree(child, seen) for child in children)


def _record_schema(record: Record, naming: str | None, tag: tuple[str, str] | None) -> Schema:
    properties: Schema = {}
    required: list[str] = []
    for f in record.fields:
        name = rules.wire_name(f, naming)
        if tag is not None and f.name == tag[0]:
            properties[name] = {"type": "string", "enum": [tag[1]]}
            required.append(name)
            continue
        properties[name] = _property(f.type, naming, rules.field_doc(record, f.name), f.default)
        if f.required:
            required.append(name)
    out: Schema = {"type": "object", "properties": properties}
    if required:
        out["required"] = required
    out["additionalProperties"] = False
    return out


def input_schema(tool: ToolModel) -> Schema:
    """The closed object a model fills in to call the tool."""
    properties: Schema = {}
    required: list[str] = []
    docs = rules.parsed_docstring(tool.docstring).params  # what rules.param_doc reads
    naming = tool.options.naming
    for p in tool.params:
        if p.kind != "normal":  # rules.model_params: context and token parameters are not sent
            continue
        properties[p.name] = _property(p.type, naming, docs.get(p.name), p.default)
        if p.default.state == "none":  # not Default.present
            required.append(p.name)
    if tool.options.invocation_mode == "model_choice":
        properties[rules.INVOCATION_MODE] = dict(_INVOCATION_MODE_PROPERTY)
    out: Schema = {"type": "object", "properties": properties}
    if required:
        out["required"] = required
    out["additionalProperties"] = False
    return out


def output_schema(tool: ToolModel) -> Schema | None:
    """The fragment of the return type, when the result is a typed value (not text or parts)."""
    if rules.return_category(tool) != "value":
        return None
    assert tool.returns.type is not None
    return fragment(tool.returns.type, tool.options.naming)
