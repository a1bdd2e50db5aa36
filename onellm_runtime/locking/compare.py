"""Compare two schema fragments keyword by keyword: what a change narrows or widens.

The vocabulary is the contract's closed keyword list (``core.schema.KEYWORD_ORDER``), so
"every value valid under the old fragment is valid under the new" is decided one keyword at a
time: ``RULES`` has one row per keyword, and a test holds its keys to that list. A change that
refuses some value the old fragment accepted *narrows* (breaking in an input schema); one that
accepts a value the old refused *widens* (breaking in an output schema, which is read, not
written, by the model's side); a description or a default is an *annotation*. A pattern, a
format or an encoding that changes both narrows and widens: the contract counts any change
of them as breaking, without deciding regular-language inclusion.

Every narrowing or widening carries the two local fragments and the steps that lead to them,
so ``witness`` can show a document the change decides: accepted before and refused after.
"""

from __future__ import annotations

import enum
import json
import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, cast

from ..core.schema import KEYWORD_ORDER
from .values import Schema, accepts, examples, same_value, tag_of, types_of

__all__ = ["Effect", "Step", "SchemaChange", "compare", "witness", "RULES", "Rule"]

NUMBERS = frozenset({"integer", "number"})
ALL = frozenset({"null", "boolean", "integer", "number", "string", "array", "object"})

#: At most this many integers are listed when an enum is put on a bounded integer range.
_ENUMERABLE = 1000


class Effect(enum.Enum):
    """What a change does to the set of values a fragment accepts."""

    NARROWED = "narrowed"
    WIDENED = "widened"
    BOTH = "narrowed and widened"
    ANNOTATION = "annotation"

    @property
    def narrows(self) -> bool:
        return self in (Effect.NARROWED, Effect.BOTH)

    @property
    def widens(self) -> bool:
        return self in (Effect.WIDENED, Effect.BOTH)


@dataclass(frozen=True)
class Step:
    """One step from a fragment to a part of it: a property, the items, a map's values, or a
    union branch (its index on each side, -1 where that side is not a union)."""

    kind: Literal["property", "items", "values", "branch"]
    name: str = ""
    old_index: int = -1
    new_index: int = -1

    def written(self, first: bool) -> str:
        if self.kind == "property":
            return self.name if first else f".{self.name}"
        return {"items": "[]", "values": "{}", "branch": f"({self.name})"}[self.kind]


def path_text(steps: Sequence[Step]) -> str:
    """Steps as a path: ``filters.status``, ``tags[]``, ``environment{}``, ``request(read).path``."""
    return "".join(step.written(i == 0) for i, step in enumerate(steps))


@dataclass(frozen=True)
class SchemaChange:
    """One change: where (``path``, below the fragment compared), what, and its effect.

    ``old`` and ``new`` are the fragments at ``steps`` that a witness is drawn from (for a
    property added or made required, the record holding it).
    """

    path: str
    text: str
    effect: Effect
    steps: tuple[Step, ...]
    old: Schema
    new: Schema


@dataclass(frozen=True)
class _Walk:
    """Where the comparison is: the steps so far, and what a property is called there."""

    steps: tuple[Step, ...]
    member: str  # "parameter" at the input's top, "property" elsewhere

    def at(self, step: Step) -> _Walk:
        return _Walk((*self.steps, step), "property")

    def change(self, text: str, effect: Effect, old: Schema, new: Schema, *, below: Step | None = None) -> SchemaChange:
        shown = (*self.steps, below) if below is not None else self.steps
        return SchemaChange(path_text(shown), text, effect, self.steps, old, new)


RuleFn = Callable[[Schema, Schema, _Walk], Iterator[SchemaChange]]


@dataclass(frozen=True)
class Rule:
    """A keyword's row: the JSON types whose values it shapes (None: all), and its comparison."""

    types: frozenset[str] | None
    compare: RuleFn


def _expanded(types: frozenset[str] | None) -> frozenset[str]:
    found = ALL if types is None else types
    return found | {"integer"} if "number" in found else found


def _shown(value: object) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 60 else text[:59] + "…"


# ---------------------------------------------------------------------------- rules


def _fractions(node: Schema) -> bool:
    """Whether a ``number`` fragment accepts a number with a fraction (not only integers)."""
    if "enum" in node:
        return any(isinstance(m, float) and not m.is_integer() for m in node["enum"])
    lo, hi = node.get("minimum"), node.get("maximum")
    return lo is None or hi is None or hi > lo or (hi == lo and not float(lo).is_integer())


def _type(old: Schema, new: Schema, at: _Walk) -> Iterator[SchemaChange]:
    before, after = _expanded(types_of(old)), _expanded(types_of(new))
    lost = [t for t in sorted(before - after) if not (t == "integer" and "integer" in after)]
    gained = [t for t in sorted(after - before)]
    if "number" in lost and "integer" in after:
        lost.remove("number")
        if _fractions(old):
            yield at.change("type narrowed from number to integer", Effect.NARROWED, old, new)
    if "number" in gained and "integer" in before:
        gained.remove("number")
        if _fractions(new):
            yield at.change("type widened from integer to number", Effect.WIDENED, old, new)
    gained = [t for t in gained if t != "integer" or "number" not in before]
    if "null" in lost:
        lost.remove("null")
        yield at.change("null no longer accepted", Effect.NARROWED, old, new)
    if "null" in gained:
        gained.remove("null")
        yield at.change("null now accepted", Effect.WIDENED, old, new)
    if lost and gained:
        yield at.change(f"type changed from {' or '.join(lost)} to {' or '.join(gained)}", Effect.BOTH, old, new)
    elif lost:
        yield at.change(f"type {' or '.join(lost)} no longer accepted", Effect.NARROWED, old, new)
    elif gained:
        yield at.change(f"type {' or '.join(gained)} now accepted", Effect.WIDENED, old, new)


def _members(node: Schema) -> list[object]:
    return [m for m in node.get("enum", ()) if m is not None]


def _finite_values(node: Schema) -> list[object] | None:
    """Every non-null value a fragment without ``enum`` accepts, when there are few; else None."""
    types = _expanded(types_of(node)) - {"null"}
    if types <= {"boolean"}:
        return [v for v in (False, True) if "boolean" in types and accepts(node, v)]
    if types <= {"boolean", "integer"} and "minimum" in node and "maximum" in node:
        lo, hi = math.ceil(node["minimum"]), math.floor(node["maximum"])
        if hi - lo <= _ENUMERABLE:
            booleans = [v for v in (False, True) if "boolean" in types]
            return [*booleans, *range(lo, hi + 1)]
    return None


def _enum(old: Schema, new: Schema, at: _Walk) -> Iterator[SchemaChange]:
    before, after = _members(old), _members(new)
    if "enum" in old and "enum" in new:
        for m in before:
            if not any(same_value(m, n) for n in after):
                yield at.change(f"enum member {_shown(m)} removed", Effect.NARROWED, old, new)
        for m in after:
            if not any(same_value(m, n) for n in before):
                yield at.change(f"enum member {_shown(m)} added", Effect.WIDENED, old, new)
    elif "enum" in new:
        values = _finite_values(old)
        outside = True if values is None else any(not any(same_value(v, n) for n in after) for v in values)
        if outside:
            yield at.change(f"values limited to {_shown(after)}", Effect.NARROWED, old, new)
        bare = dict(old)
        for m in after:
            if not accepts(bare, m):
                yield at.change(f"enum member {_shown(m)} added", Effect.WIDENED, old, new)
    else:
        values = _finite_values(new)
        bare = dict(new)
        for m in before:
            if not accepts(bare, m):
                yield at.change(f"enum member {_shown(m)} no longer accepted", Effect.NARROWED, old, new)
        if values is None or any(not any(same_value(v, m) for m in before) for v in values):
            yield at.change(f"enum {_shown(before)} removed", Effect.WIDENED, old, new)


def _integer_only(node: Schema) -> bool:
    types = types_of(node)
    return types is not None and "integer" in types and "number" not in types


def _bound(keyword: str, lower: bool) -> RuleFn:
    def compare(old: Schema, new: Schema, at: _Walk) -> Iterator[SchemaChange]:
        a, b = old.get(keyword), new.get(keyword)
        if _integer_only(old) or _integer_only(new):  # only integers are compared: their bounds
            a = None if a is None else (math.ceil(a) if lower else math.floor(a))
            b = None if b is None else (math.ceil(b) if lower else math.floor(b))
        if a == b:
            return
        far = -math.inf if lower else math.inf
        before, after = far if a is None else a, far if b is None else b
        inward = after > before if lower else after < before
        if b is None:
            text = f"{keyword} {_shown(a)} removed"
        elif a is None:
            text = f"{keyword} {_shown(b)} added"
        else:
            text = f"{keyword} {'raised' if after > before else 'lowered'} from {_shown(a)} to {_shown(b)}"
        yield at.change(text, Effect.NARROWED if inward else Effect.WIDENED, old, new)

    return compare


def _count(keyword: str, lower: bool) -> RuleFn:
    def compare(old: Schema, new: Schema, at: _Walk) -> Iterator[SchemaChange]:
        a, b = old.get(keyword), new.get(keyword)
        before = a if a is not None else (0 if lower else math.inf)
        after = b if b is not None else (0 if lower else math.inf)
        if before == after:
            return
        inward = after > before if lower else after < before
        if b is None or (lower and b == 0):
            text = f"{keyword} {a} removed"
        elif a is None:
            text = f"{keyword} {b} added"
        else:
            text = f"{keyword} {'raised' if after > before else 'lowered'} from {a} to {b}"
        yield at.change(text, Effect.NARROWED if inward else Effect.WIDENED, old, new)

    return compare


def _constraint(keyword: str) -> RuleFn:
    """``pattern``, ``format``, ``contentEncoding``: added narrows, removed widens, changed does both."""

    def compare(old: Schema, new: Schema, at: _Walk) -> Iterator[SchemaChange]:
        a, b = old.get(keyword), new.get(keyword)
        if a == b:
            return
        if a is None:
            yield at.change(f"{keyword} {_shown(b)} added", Effect.NARROWED, old, new)
        elif b is None:
            yield at.change(f"{keyword} {_shown(a)} removed", Effect.WIDENED, old, new)
        else:
            yield at.change(f"{keyword} changed from {_shown(a)} to {_shown(b)}", Effect.BOTH, old, new)

    return compare


def _unique(old: Schema, new: Schema, at: _Walk) -> Iterator[SchemaChange]:
    a, b = bool(old.get("uniqueItems")), bool(new.get("uniqueItems"))
    shortest = max(old.get("maxItems", 2), new.get("maxItems", 2))
    if a != b and shortest >= 2:  # arrays of one item or none are unique whatever the keyword says
        yield at.change(
            "items must now be unique" if b else "items need no longer be unique",
            Effect.NARROWED if b else Effect.WIDENED,
            old,
            new,
        )


def _reached(effect: Effect, narrows: bool, widens: bool) -> Effect | None:
    """An item's change as its array sees it: a narrowing counts only where the old array can
    hold an item, a widening only where the new one can."""
    if effect is Effect.ANNOTATION:
        return effect
    kept = (effect.narrows and narrows, effect.widens and widens)
    return {(True, True): Effect.BOTH, (True, False): Effect.NARROWED, (False, True): Effect.WIDENED}.get(kept)


def _items(old: Schema, new: Schema, at: _Walk) -> Iterator[SchemaChange]:
    narrows, widens = old.get("maxItems") != 0, new.get("maxItems") != 0
    for c in _walk(old.get("items", {}), new.get("items", {}), at.at(Step("items"))):
        effect = _reached(c.effect, narrows, widens)
        if effect is not None:
            yield SchemaChange(c.path, c.text, effect, c.steps, c.old, c.new)


def _extra(node: Schema) -> Schema | None:
    """What an object accepts beside its properties: a fragment, or None for nothing."""
    extra = node.get("additionalProperties", True)
    if extra is False:
        return None
    return {} if extra is True else extra


def _properties(old: Schema, new: Schema, at: _Walk) -> Iterator[SchemaChange]:
    before: Mapping[str, Schema] = old.get("properties", {})
    after: Mapping[str, Schema] = new.get("properties", {})
    new_required = set(new.get("required", ()))
    for name, schema in before.items():
        step = Step("property", name)
        if name in after:
            yield from _walk(schema, after[name], at.at(step))
            continue
        extra = _extra(new)
        if extra is None:
            # a caller's value is refused; a reader (outputs) no longer gets a property it expected
            yield at.change(f"{at.member} removed", Effect.BOTH, old, new, below=step)
        else:
            yield from _walk(schema, extra, at.at(step))
    for name, schema in after.items():
        if name in before:
            continue
        step = Step("property", name)
        kind = "required" if name in new_required else "optional"
        extra = _extra(old)
        if extra is None:
            effect = Effect.BOTH if name in new_required else Effect.WIDENED
            yield at.change(f"{kind} {at.member} added", effect, old, new, below=step)
        else:
            if name in new_required:
                yield at.change(f"{at.member} made required", Effect.NARROWED, old, new, below=step)
            yield from _walk(extra, schema, at.at(step))


def _required(old: Schema, new: Schema, at: _Walk) -> Iterator[SchemaChange]:
    before: Mapping[str, Schema] = old.get("properties", {})
    after: Mapping[str, Schema] = new.get("properties", {})
    old_required, new_required = set(old.get("required", ())), set(new.get("required", ()))
    for name in [n for n in after if n in before]:
        step = Step("property", name)
        if name in new_required and name not in old_required:
            yield at.change(f"{at.member} made required", Effect.NARROWED, old, new, below=step)
        elif name in old_required and name not in new_required:
            yield at.change(f"{at.member} made optional", Effect.WIDENED, old, new, below=step)


def _additional(old: Schema, new: Schema, at: _Walk) -> Iterator[SchemaChange]:
    a, b = _extra(old), _extra(new)
    if a is None and b is None:
        return
    if b is None:
        yield at.change("other properties no longer accepted", Effect.NARROWED, old, new)
    elif a is None:
        yield at.change("other properties now accepted", Effect.WIDENED, old, new)
    else:
        yield from _walk(a, b, at.at(Step("values")))


def _annotation(keyword: str) -> RuleFn:
    def compare(old: Schema, new: Schema, at: _Walk) -> Iterator[SchemaChange]:
        if keyword in old and keyword in new:
            if not same_value(old[keyword], new[keyword]) or type(old[keyword]) is not type(new[keyword]):
                shown = "" if keyword == "description" else f" from {_shown(old[keyword])} to {_shown(new[keyword])}"
                yield at.change(f"{keyword} changed{shown}", Effect.ANNOTATION, old, new)
        elif keyword in new:
            yield at.change(f"{keyword} {_shown(new[keyword])} added", Effect.ANNOTATION, old, new)
        elif keyword in old:
            yield at.change(f"{keyword} {_shown(old[keyword])} removed", Effect.ANNOTATION, old, new)

    return compare


def _without_null(node: Schema) -> Schema:
    """A fragment with null taken out of its ``type`` and ``enum`` (its non-null part)."""
    out = dict(node)
    t = node.get("type")
    if isinstance(t, list):
        rest = [x for x in t if x != "null"]  # pyright: ignore[reportUnknownVariableType]
        out["type"] = rest[0] if len(rest) == 1 else rest  # pyright: ignore[reportUnknownArgumentType]
    if "enum" in node:
        out["enum"] = [m for m in node["enum"] if m is not None]
    return out


def _branches(node: Schema) -> list[tuple[int, Schema]]:
    """The non-null branches of a union, or the fragment itself (index -1) when it is not one."""
    if "anyOf" not in node:
        return [(-1, _without_null(node))]
    branches: Sequence[Schema] = node["anyOf"]
    return [(i, b) for i, b in enumerate(branches) if types_of(b) != frozenset({"null"})]


def _label(index: int, branch: Schema) -> str:
    tag = tag_of(branch)
    return str(tag[1]) if tag is not None else f"#{max(index, 0)}"


def _discriminated(branches: Sequence[tuple[int, Schema]]) -> bool:
    """Whether every branch has a tag, under one property name (as onellm writes unions)."""
    tags = [tag_of(x) for _, x in branches]
    return all(t is not None for t in tags) and len({t[0] for t in tags if t is not None}) == 1


def _any_of(old: Schema, new: Schema, at: _Walk) -> Iterator[SchemaChange]:
    """Union branches paired by their discriminator's value; without one, each branch is held
    to the other side's branches whole (a branch no branch there holds is removed or added)."""
    a, b = accepts(old, None), accepts(new, None)
    if a and not b:
        yield at.change("null no longer accepted", Effect.NARROWED, old, new)
    elif b and not a:
        yield at.change("null now accepted", Effect.WIDENED, old, new)
    before, after = _branches(old), _branches(new)
    if _discriminated([*before, *after]):
        after_tags = {tag_of(x): (i, x) for i, x in after}
        before_tags = {tag_of(x) for _, x in before}
        for pos, (i, x) in enumerate(before):
            match = after_tags.get(tag_of(x))
            if match is None:
                yield at.change(f"union branch {_label(pos, x)!r} removed", Effect.NARROWED, old, new)
            else:
                yield from _walk(x, match[1], at.at(Step("branch", _label(pos, x), i, match[0])))
        for pos, (_, x) in enumerate(after):
            if tag_of(x) not in before_tags:
                yield at.change(f"union branch {_label(pos, x)!r} added", Effect.WIDENED, old, new)
        return
    for pos, (_, x) in enumerate(before):
        if not any(not any(c.effect.narrows for c in compare(x, y)) for _, y in after):
            yield at.change(f"union branch {_label(pos, x)!r} no longer accepted", Effect.NARROWED, old, new)
    for pos, (_, y) in enumerate(after):
        if not any(not any(c.effect.widens for c in compare(x, y)) for _, x in before):
            yield at.change(f"union branch {_label(pos, y)!r} added", Effect.WIDENED, old, new)


#: One row per keyword of the contract's list, in its order.
RULES: dict[str, Rule] = {
    "type": Rule(None, _type),
    "format": Rule(frozenset({"string"}), _constraint("format")),
    "description": Rule(None, _annotation("description")),
    "anyOf": Rule(None, _any_of),
    "enum": Rule(None, _enum),
    "minimum": Rule(NUMBERS, _bound("minimum", lower=True)),
    "maximum": Rule(NUMBERS, _bound("maximum", lower=False)),
    "minLength": Rule(frozenset({"string"}), _count("minLength", lower=True)),
    "maxLength": Rule(frozenset({"string"}), _count("maxLength", lower=False)),
    "pattern": Rule(frozenset({"string"}), _constraint("pattern")),
    "contentEncoding": Rule(frozenset({"string"}), _constraint("contentEncoding")),
    "items": Rule(frozenset({"array"}), _items),
    "minItems": Rule(frozenset({"array"}), _count("minItems", lower=True)),
    "maxItems": Rule(frozenset({"array"}), _count("maxItems", lower=False)),
    "uniqueItems": Rule(frozenset({"array"}), _unique),
    "properties": Rule(frozenset({"object"}), _properties),
    "required": Rule(frozenset({"object"}), _required),
    "additionalProperties": Rule(frozenset({"object"}), _additional),
    "default": Rule(None, _annotation("default")),
}

assert tuple(RULES) == KEYWORD_ORDER, "one row per keyword of the contract's list, in its order"

#: The rows that still apply beside ``anyOf`` (the branches carry everything else).
_UNION_ROWS = ("description", "anyOf", "default")
#: The rows that apply where either side lists its values (``enum`` then decides alone: each
#: member is held to the other side whole, so its bounds are never compared on their own).
_ENUM_ROWS = ("type", "description", "enum", "default")


def _walk(old: Schema, new: Schema, at: _Walk) -> Iterator[SchemaChange]:
    union = "anyOf" in old or "anyOf" in new
    shared = _expanded(types_of(old)) & _expanded(types_of(new))
    for keyword, rule in RULES.items():
        if union and keyword not in _UNION_ROWS:
            continue
        if not union and keyword == "anyOf":
            continue
        if ("enum" in old or "enum" in new) and keyword not in _ENUM_ROWS:
            continue
        if keyword != "type" and keyword not in old and keyword not in new:
            continue
        if rule.types is not None and not (rule.types & shared):
            continue
        yield from rule.compare(old, new, at)


def compare(old: Schema, new: Schema, *, top: str = "property") -> list[SchemaChange]:
    """Every change from ``old`` to ``new``; ``top`` names the root's properties in messages
    (``"parameter"`` for an input schema)."""
    return list(_walk(old, new, _Walk((), top)))


# ---------------------------------------------------------------------------- witnesses


def _probes(before: Schema, after: Schema) -> Iterator[object]:
    """Values just outside ``after``'s bounds, built from ``before``'s examples."""
    yield from examples(before)
    for key, delta in (("minimum", -1), ("maximum", 1)):
        if key in after:
            bound = after[key]
            yield from (math.floor(bound) + delta if delta > 0 else math.ceil(bound) + delta, bound + delta / 2)
    texts = [v for v in examples(before) if isinstance(v, str)][:4] or ["a"]
    for t in texts:  # the same lengths in other characters: for a pattern or a format put on
        yield from (c * len(t) for c in "0A- ")
    lists = [cast("list[object]", v) for v in examples(before) if isinstance(v, list)][:4]
    for key, delta in (("minLength", -1), ("maxLength", 1)):
        if key in after:
            n = max(after[key] + delta, 0)
            yield from ((t * (n // max(len(t), 1) + 1))[:n] if t else "a" * n for t in texts)
    for key, delta in (("minItems", -1), ("maxItems", 1)):
        if key in after and lists:
            n = max(after[key] + delta, 0)
            for items in lists:
                if items:
                    yield [items[i % len(items)] for i in range(n)]
                elif n == 0:
                    yield []


def _embed(root: Schema, steps: Sequence[Step], value: object, side: Literal["old", "new"]) -> object | None:
    """A document of ``root`` holding ``value`` at ``steps`` (the rest from ``root``'s first examples)."""
    if not steps:
        return value
    step, rest = steps[0], steps[1:]
    if step.kind == "branch":
        index = step.old_index if side == "old" else step.new_index
        branches: Sequence[Schema] = root.get("anyOf", ())
        return _embed(branches[index] if index >= 0 else root, rest, value, side)
    if step.kind == "items":
        item: Schema = root.get("items", {})
        child = _embed(item, rest, value, side)
        needed = max(root.get("minItems", 0) - 1, 0)
        if not root.get("uniqueItems"):
            return [child] * (needed + 1)
        others = [v for v in examples(item) if not same_value(v, child)]
        return [child, *others[:needed]] if len(others) >= needed else None
    found = [cast("dict[str, object]", v) for v in examples(root) if isinstance(v, dict)]
    if not found:
        return None
    base = found[0]
    props: Mapping[str, Schema] = root.get("properties", {})
    if step.kind == "values":
        extra = _extra(root) or {}
        name = next(k for k in ("key", "key_0", "key_1") if k not in props)
        return {**base, name: _embed(extra, rest, value, side)}
    child_schema = props.get(step.name, _extra(root) or {})
    return {**base, step.name: _embed(child_schema, rest, value, side)}


def witness(change: SchemaChange, old_root: Schema, new_root: Schema, *, narrowing: bool) -> Any:
    """A document ``old_root`` accepts and ``new_root`` refuses that shows ``change`` (with
    ``narrowing=False``, one the new accepts and the old refuses); None if none is found."""
    before, after = (change.old, change.new) if narrowing else (change.new, change.old)
    root_before, root_after = (old_root, new_root) if narrowing else (new_root, old_root)
    side: Literal["old", "new"] = "old" if narrowing else "new"
    tried = 0
    for local in _probes(before, after):
        if tried >= 64:
            break
        tried += 1
        if not accepts(before, local) or accepts(after, local):
            continue
        doc = _embed(root_before, change.steps, local, side)
        if doc is not None and accepts(root_before, doc) and not accepts(root_after, doc):
            return doc
    return None
