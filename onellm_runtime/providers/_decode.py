"""Reading back what an adapter re-encoded: a dictionary sent as ``{"key", "value"}`` entries.

OpenAI strict, Anthropic strict and Gemini's OpenAPI form cannot express ``dict[str, T]``,
so the adapters write it as a list of entries. Before binding with ``provider="openai"``,
``"anthropic"`` or ``"gemini"``, the binder runs the tool's decoder over the parsed
arguments: every such list, where the model of the tool has a dictionary, becomes the
object it stands for; nothing else is touched (the binder then checks everything as usual).
An object is still accepted where a dictionary is (a tool sent non-strict keeps the
canonical form), and the two cannot be confused: one is a JSON array, the other an object.

The decoder is compiled once per tool from the same type model the schema was written
from, into closures that visit only the paths that can hold a dictionary; a tool without
dictionaries has no decoder at all (``None``).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import cast

from ..core import rules
from ..core.model import Annotated, ArrayType, MapType, Nullable, Record, ToolModel, TypeNode, UnionType
from ..provider_names import PROVIDERS

__all__ = ["PAIR_PROVIDERS", "Decoder", "compile_decoder", "key_path", "DecodeError"]

#: The providers whose adapters may write a dictionary as a list of entries (``Provider.entry_pairs``).
PAIR_PROVIDERS = frozenset(p.name for p in PROVIDERS if p.entry_pairs)

_Node = Callable[[object, str], object]
Decoder = Callable[[Mapping[str, object]], Mapping[str, object]]


class DecodeError(ValueError):
    """A malformed list of entries; the binder reports it as an ``ArgumentError``."""

    def __init__(self, message: str, path: str) -> None:
        super().__init__(message)
        self.path = path


def key_path(path: str, key: str) -> str:
    """``environment.CI``, or ``environment["a.b"]`` for a key that is not an identifier."""
    if key.isidentifier() and key.isascii():
        return f"{path}.{key}" if path else key
    return f"{path}[{json.dumps(key, ensure_ascii=False)}]"


def _kind(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    if isinstance(value, Mapping):
        return "object"
    return "number"


def _fail(path: str, text: str) -> DecodeError:
    return DecodeError(f"Argument '{path}' {text}", path)


def _entries(value: list[object], path: str, inner: _Node | None) -> dict[str, object]:
    out: dict[str, object] = {}
    first: dict[str, int] = {}
    for i, item in enumerate(value):
        at = f"{path}[{i}]"
        if not isinstance(item, Mapping):
            raise _fail(at, f'must be an object with "key" and "value", got {_kind(item)}.')
        entry = cast("Mapping[str, object]", item)
        for name in entry:
            if name not in ("key", "value"):
                raise _fail(key_path(at, str(name)), 'is not allowed; an entry has only "key" and "value".')
        if "key" not in entry:
            raise _fail(f"{at}.key", "is required.")
        if "value" not in entry:
            raise _fail(f"{at}.value", "is required.")
        key = entry["key"]
        if not isinstance(key, str):
            raise _fail(f"{at}.key", f"must be a string, got {_kind(key)}.")
        if key in first:
            raise _fail(
                f"{at}.key",
                f"repeats the key {json.dumps(key, ensure_ascii=False)} already given at {path}[{first[key]}].",
            )
        first[key] = i
        found = entry["value"]
        out[key] = found if inner is None else inner(found, f"{at}.value")
    return out


def _map(node: MapType, naming: str | None) -> _Node:
    inner = _compile(node.value, naming)

    def decode(value: object, path: str) -> object:
        if isinstance(value, list):
            return _entries(cast("list[object]", value), path, inner)
        if inner is not None and isinstance(value, Mapping):
            return {k: inner(v, key_path(path, k)) for k, v in cast("Mapping[str, object]", value).items()}
        return value

    return decode


def _array(node: ArrayType, naming: str | None) -> _Node | None:
    inner = _compile(node.item, naming)
    if inner is None:
        return None

    def decode(value: object, path: str) -> object:
        if isinstance(value, list):
            return [inner(v, f"{path}[{i}]") for i, v in enumerate(cast("list[object]", value))]
        return value

    return decode


def _fields(fields: Mapping[str, _Node]) -> _Node:
    def decode(value: object, path: str) -> object:
        if not isinstance(value, Mapping):
            return value
        out = dict(cast("Mapping[str, object]", value))
        for name, inner in fields.items():
            if name in out:
                out[name] = inner(out[name], key_path(path, name))
        return out

    return decode


def _record(node: Record, naming: str | None) -> _Node | None:
    fields: dict[str, _Node] = {}
    for f in node.fields:
        inner = _compile(f.type, naming)
        if inner is not None:
            fields[rules.wire_name(f, naming)] = inner
    return _fields(fields) if fields else None


def _union(node: UnionType, naming: str | None, explicit: str | None) -> _Node | None:
    found = rules.find_discriminator(node, explicit)
    if isinstance(found, str):
        return None  # a merged Literal: nothing inside
    branches: dict[str, _Node] = {}
    wire = found.field
    for member, tag in zip(found.members, found.tags, strict=True):
        inner = _record(member, naming)
        if inner is not None:
            branches[tag] = inner
        for f in member.fields:
            if f.name == found.field:
                wire = rules.wire_name(f, naming)
    if not branches:
        return None

    def decode(value: object, path: str) -> object:
        if not isinstance(value, Mapping):
            return value
        record = cast("Mapping[str, object]", value)
        tag = record.get(wire)
        if isinstance(tag, str) and tag in branches:
            return branches[tag](record, path)
        return record

    return decode


def _compile(node: TypeNode, naming: str | None) -> _Node | None:
    if isinstance(node, Annotated):
        disc = rules.discriminator(node)
        inner = node.inner.inner if isinstance(node.inner, Nullable) else node.inner
        if isinstance(inner, UnionType):
            return _union(inner, naming, disc)
        return _compile(inner, naming)
    if isinstance(node, Nullable):
        return _compile(node.inner, naming)
    if isinstance(node, MapType):
        return _map(node, naming)
    if isinstance(node, ArrayType):
        return _array(node, naming)
    if isinstance(node, Record):
        return _record(node, naming)
    if isinstance(node, UnionType):
        return _union(node, naming, None)
    return None


def compile_decoder(tool: ToolModel) -> Decoder | None:
    """The tool's decoder for parsed arguments (a mapping), or None when nothing can be re-encoded.

    Raises ``DecodeError`` (message and path in the binder's words) for a malformed list.
    """
    fields: dict[str, _Node] = {}
    for p in rules.model_params(tool):
        inner = _compile(p.type, tool.options.naming)
        if inner is not None:
            fields[p.name] = inner
    if not fields:
        return None
    top = _fields(fields)

    def decode(arguments: Mapping[str, object]) -> Mapping[str, object]:
        return cast("Mapping[str, object]", top(arguments, ""))

    return decode
