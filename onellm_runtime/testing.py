"""Contract tests for a tool set, in a project's own test suite (docs/testing.md).

``refusal_cases(tool)`` derives from a tool's input schema the calls its binder must refuse,
each with its JSON text and the path its error must name (contract, "Tool-set manifests in
CI"); ``assert_refuses(tool)`` binds every one; ``assert_matches_lock(tools, path)`` holds the
runtime's manifest to a lock written by ``onellm lock``. Plain functions that raise
``AssertionError``: they work under pytest, unittest or a script.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

from .binding import ArgumentError
from .core.manifest import entry
from .locking.lockfile import Lock, build_lock, dumps_lock, read_lock
from .locking.values import Schema, accepts, examples, tag_of, types_of
from .tool import Tool

__all__ = ["RefusalCase", "refusal_cases", "assert_refuses", "assert_matches_lock"]

#: The kinds of calls ``refusal_cases`` derives, in the order it lists them for each place.
KINDS = (
    "unknown property",
    "required property missing",
    "duplicate key",
    "null not accepted",
    "numeric string for a number",
    "enum value in another letter case",
    "bound crossed",
    "field of another union branch",
    "discriminator missing",
    "discriminator unknown",
)

#: The framework control a ``model_choice`` tool's schema carries (the invoker takes it out).
_CONTROLS = frozenset({"invocationMode"})


@dataclass(frozen=True)
class RefusalCase:
    """A call the tool must refuse: what kind it is, its JSON text, the path its error names."""

    kind: str
    json: str
    path: str

    def __str__(self) -> str:
        return f"{self.kind} at {self.path!r}: {self.json}"


class _Pairs(list[tuple[str, Any]]):
    """An object written with its pairs as listed (so a key can be written twice)."""


def _dump(value: Any) -> str:
    if isinstance(value, _Pairs):
        return "{" + ", ".join(f"{json.dumps(k, ensure_ascii=False)}: {_dump(v)}" for k, v in value) + "}"
    if isinstance(value, dict):
        return _dump(_Pairs(value.items()))  # pyright: ignore[reportUnknownArgumentType,reportUnknownMemberType]
    if isinstance(value, list):
        return "[" + ", ".join(_dump(v) for v in value) + "]"  # pyright: ignore[reportUnknownVariableType]
    return json.dumps(value, ensure_ascii=False)


def _join(path: str, name: str) -> str:
    if not name.isidentifier():
        return f"{path}[{json.dumps(name, ensure_ascii=False)}]"
    return f"{path}.{name}" if path else name


def _branches(node: Schema) -> list[Schema]:
    branches: Sequence[Schema] = node.get("anyOf", ())
    return [b for b in branches if types_of(b) != frozenset({"null"})]


def _full(node: Schema) -> Any:
    """A value ``node`` accepts with every optional part present (so each part gets its cases)."""
    if "anyOf" in node:
        return _full(_branches(node)[0]) if _branches(node) else None
    types = types_of(node) or frozenset()
    props: Mapping[str, Schema] = node.get("properties", {})
    if "object" in types and props:
        record = {name: _full(schema) for name, schema in props.items()}
        if accepts(node, record):
            return record
    if "array" in types and "items" in node and node.get("maxItems", 1) > 0:
        item = _full(node["items"])
        others = [v for v in examples(node["items"]) if v != item]
        items = [item, *others[: max(node.get("minItems", 1), 1) - 1]]
        if accepts(node, items):
            return items
    found = [v for v in examples(node) if v is not None]
    return found[0] if found else None


def _numbers(node: Schema) -> bool:
    types = types_of(node) or frozenset()
    return bool(types & {"integer", "number"}) and "string" not in types and "enum" not in node


def _crossed(node: Schema, value: Any) -> Iterator[Any]:
    """Values just past each bound of ``node``, built from a value it accepts."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        if "minimum" in node:
            yield node["minimum"] - 1
        if "maximum" in node:
            yield node["maximum"] + 1
    if isinstance(value, str):
        text = value or "a"
        if node.get("minLength", 0) > 0:
            yield (text * node["minLength"])[: node["minLength"] - 1]
        if "maxLength" in node:
            yield (text * (node["maxLength"] + 1))[: node["maxLength"] + 1]
    if isinstance(value, list) and value:
        items: list[Any] = value  # pyright: ignore[reportUnknownVariableType]
        if node.get("minItems", 0) > 0:
            yield items[: node["minItems"] - 1]
        if "maxItems" in node:
            more = [v for v in examples(node.get("items", {})) if v not in items]
            longer = items + more
            while len(longer) < node["maxItems"] + 1:
                longer.append(longer[len(longer) % len(items)])
            yield longer[: node["maxItems"] + 1]


def _value_cases(node: Schema, value: Any, path: str) -> Iterator[tuple[str, Any, str]]:
    """(kind, the value put in place of ``value``, the path the error names) at one place."""
    if not accepts(node, None):
        yield "null not accepted", None, path
    if _numbers(node):
        yield "numeric string for a number", str(value if isinstance(value, (int, float)) else 1), path
    members: list[Any] = list(node.get("enum", ()))
    for m in members:
        if isinstance(m, str) and m.swapcase() != m and m.swapcase() not in members:
            yield "enum value in another letter case", m.swapcase(), path
    for crossed in _crossed(node, value):
        if not accepts(node, crossed):
            yield "bound crossed", crossed, path


def _object_cases(node: Schema, value: dict[str, Any], path: str, top: bool) -> Iterator[tuple[str, Any, str]]:
    props: Mapping[str, Schema] = node.get("properties", {})
    if node.get("additionalProperties", True) is False:
        unknown = next(n for n in ("unknown_property", "unknown_property_2") if n not in props)
        yield "unknown property", {**value, unknown: 1}, _join(path, unknown)
    for name in node.get("required", ()):
        if name in value:
            yield "required property missing", {k: v for k, v in value.items() if k != name}, _join(path, name)
    if value:
        first = next(iter(value))
        yield "duplicate key", _Pairs([*value.items(), (first, value[first])]), _join(path, first)
    for name, schema in props.items():
        if name in value and not (top and name in _CONTROLS):
            for kind, replaced, at in _cases(schema, value[name], _join(path, name)):
                yield kind, {**value, name: replaced}, at


def _union_cases(node: Schema, path: str) -> Iterator[tuple[str, Any, str]]:
    branches = _branches(node)
    for branch in branches:
        value = _full(branch)
        tag = tag_of(branch)
        if not isinstance(value, dict) or tag is None:
            continue
        name, _ = tag
        fields: dict[str, Any] = value  # pyright: ignore[reportUnknownVariableType]
        for other in branches:
            foreign = [p for p in other.get("properties", {}) if p not in branch.get("properties", {})]
            if other is not branch and foreign:
                yield (
                    "field of another union branch",
                    {**fields, foreign[0]: _full(other["properties"][foreign[0]])},
                    _join(path, foreign[0]),
                )
                break
        yield "discriminator missing", {k: v for k, v in fields.items() if k != name}, _join(path, name)
        yield "discriminator unknown", {**fields, name: "unknown_branch"}, _join(path, name)
        yield from _object_cases(branch, fields, path, top=False)  # the value's own cases are the union's


def _cases(node: Schema, value: Any, path: str, top: bool = False) -> Iterator[tuple[str, Any, str]]:
    if not top:
        yield from _value_cases(node, value, path)
    if "anyOf" in node:
        yield from _union_cases(node, path)
    elif isinstance(value, dict):
        yield from _object_cases(node, value, path, top)  # pyright: ignore[reportUnknownArgumentType]
    elif isinstance(value, list) and value and "items" in node:
        items: list[Any] = value  # pyright: ignore[reportUnknownVariableType]
        for kind, replaced, at in _cases(node["items"], items[0], f"{path}[0]"):
            yield kind, [replaced, *items[1:]], at


def refusal_cases(tool: Tool[Any, Any]) -> list[RefusalCase]:
    """The calls ``tool`` must refuse, derived from its input schema: at the top and in each
    record (and the first item of each array), each kind the schema allows (``KINDS``)."""
    schema = tool.input_schema
    base = _full(schema)
    return [RefusalCase(kind, _dump(doc), path) for kind, doc, path in _cases(schema, base, "", top=True)]


def assert_refuses(tool: Tool[Any, Any]) -> None:
    """Bind every refusal case; fail naming the first one accepted, or refused at another path."""
    base = _dump(_full(tool.input_schema))
    try:
        tool.bind(base)
    except ArgumentError as e:
        raise AssertionError(f"Tool {tool.name!r}: the cases' base call {base} is refused itself: {e}") from None
    for case in refusal_cases(tool):
        try:
            tool.bind(case.json)
        except ArgumentError as e:
            if e.path != case.path:
                raise AssertionError(f"Tool {tool.name!r} refused {case} at {e.path!r} instead ({e})") from None
            continue
        raise AssertionError(f"Tool {tool.name!r} accepted a call it must refuse: {case}")


def _runtime_lock(tools: Iterable[Tool[Any, Any]] | Mapping[str, Tool[Any, Any]]) -> Lock:
    if isinstance(tools, Mapping):
        listed = list(cast("Mapping[str, Tool[Any, Any]]", tools).values())
    else:
        listed = list(tools)
    entries = [entry(t.__module__, t.__qualname__, t.model) for t in listed]
    return read_lock(dumps_lock(build_lock(entries)), "the runtime's manifest")


def assert_matches_lock(tools: Iterable[Tool[Any, Any]] | Mapping[str, Tool[Any, Any]], path: str) -> None:
    """Fail, listing every change, unless ``tools`` (a ``ToolSet``, or any iterable of tools)
    are exactly as the lock at ``path`` has them (the lock's other modules are not compared)."""
    from .locking.diff import Kind, diff_locks

    current = _runtime_lock(tools)
    with open(path, encoding="utf-8") as f:
        locked = read_lock(f.read(), path)
    modules = {module for module, _ in current.tools}
    mine = Lock(locked.document, {k: v for k, v in locked.tools.items() if k[0] in modules})
    changes = sorted(diff_locks(mine, current), key=lambda c: list(Kind).index(c.kind))
    if changes:
        lines = [f"  {c.kind.value}: {c.where}: {c.text}  [{c.module}]" for c in changes]
        raise AssertionError(
            f"The tools differ from {path} ({len(changes)} change{'s' if len(changes) != 1 else ''}):\n"
            + "\n".join(lines)
            + "\nWrite the lock again with `onellm lock` if the change is meant."
        )
