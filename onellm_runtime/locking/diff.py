"""The changes between two locks, each classified as the contract's lock section says.

Inputs are contravariant: a change that narrows an input schema refuses a call a deployed
model makes (breaking), one that widens it is compatible. Outputs are covariant, and matter
for a tool whose result is read as a typed value (``ends_loop``): there a widening is breaking.
Descriptions, defaults, options and token estimates are listed as changed. Each breaking
change of a schema comes with a witness document (``compare.witness``).
"""

from __future__ import annotations

import enum
import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from ..core.options import MANIFEST_OPTIONS
from .compare import Effect, SchemaChange, compare, witness
from .lockfile import Budget, Entry, Lock

__all__ = ["Kind", "Change", "diff_locks", "budget_changes"]


class Kind(enum.Enum):
    """A change's class, in the order a report lists them."""

    BREAKING = "breaking"
    OVER_BUDGET = "over-budget"
    COMPATIBLE = "compatible"
    CHANGED = "changed"


@dataclass(frozen=True)
class Change:
    """One listed change: its class, the tool (module and name), the path below the tool
    (``filters.status``, ``return.total``; ``""`` for the tool itself), what changed, and a
    witness as JSON text: for a breaking input change a call accepted before and refused now,
    for a breaking output change a result the tool may return now that the old schema refused
    (``witness_note`` says which)."""

    kind: Kind
    module: str
    tool: str
    path: str
    text: str
    witness: str | None = None
    witness_note: str = "accepted before, refused now"

    @property
    def where(self) -> str:
        """The tool and path as a report shows them: ``search.filters.status``."""
        return f"{self.tool}.{self.path}" if self.path else self.tool


def _witness_text(value: Any) -> str | None:
    return None if value is None else json.dumps(value, ensure_ascii=False)


def _input_changes(module: str, name: str, old: Entry, new: Entry) -> Iterator[Change]:
    before, after = old["input_schema"], new["input_schema"]
    for c in compare(before, after, top="parameter"):
        if c.effect.narrows:
            shown = _witness_text(witness(c, before, after, narrowing=True))
            yield Change(Kind.BREAKING, module, name, c.path, c.text, shown)
        elif c.effect is Effect.WIDENED:
            yield Change(Kind.COMPATIBLE, module, name, c.path, c.text)
        else:
            yield Change(Kind.CHANGED, module, name, c.path, c.text)


def _output_kind(c: SchemaChange, typed: bool) -> Kind:
    if not typed or c.effect is Effect.ANNOTATION:
        return Kind.CHANGED
    return Kind.BREAKING if c.effect.widens else Kind.COMPATIBLE


def _output_changes(module: str, name: str, old: Entry, new: Entry) -> Iterator[Change]:
    before, after = old.get("output_schema"), new.get("output_schema")
    if before is None or after is None:
        if before != after:
            text = "output schema added" if before is None else "output schema removed"
            yield Change(Kind.CHANGED, module, name, "return", text)
        return
    typed = bool(old.get("ends_loop")) or bool(new.get("ends_loop"))
    for c in compare(before, after):
        path = "return" + (c.path if c.path[:1] in ("", "[", "{", "(") else f".{c.path}")
        kind = _output_kind(c, typed)
        shown = _witness_text(witness(c, before, after, narrowing=False)) if kind is Kind.BREAKING else None
        yield Change(kind, module, name, path, c.text, shown, "may be returned now, refused before")


def _shown(value: object) -> str:
    return json.dumps(value, ensure_ascii=False)


def _provider_changes(module: str, name: str, old: Entry, new: Entry) -> Iterator[Change]:
    before: Mapping[str, Mapping[str, Any]] = old.get("providers", {})
    after: Mapping[str, Mapping[str, Any]] = new.get("providers", {})
    tokens: list[str] = []
    for provider in dict.fromkeys([*before, *after]):
        a, b = before.get(provider, {}), after.get(provider, {})
        if "error" in b and "error" not in a:
            yield Change(Kind.BREAKING, module, name, "", f"{provider}: no form any more: {b['error']}")
        elif "error" in a and "error" not in b:
            yield Change(Kind.COMPATIBLE, module, name, "", f"{provider}: has a form now")
        if a.get("tokens") != b.get("tokens") and "tokens" in a and "tokens" in b:
            tokens.append(f"{provider} {a['tokens']} -> {b['tokens']}")
        if a.get("warnings", []) != b.get("warnings", []) and "error" not in b:
            yield Change(Kind.CHANGED, module, name, "", f"{provider}: warnings now {_shown(b.get('warnings', []))}")
    if tokens:
        yield Change(Kind.CHANGED, module, name, "", f"token estimate: {', '.join(tokens)}")


def _tool_changes(module: str, name: str, old: Entry, new: Entry) -> Iterator[Change]:
    if old.get("description") != new.get("description"):
        yield Change(Kind.CHANGED, module, name, "", "description changed")
    yield from _input_changes(module, name, old, new)
    yield from _output_changes(module, name, old, new)
    for option in MANIFEST_OPTIONS:
        if _shown(old.get(option)) != _shown(new.get(option)):
            text = f"{option} changed from {_shown(old.get(option))} to {_shown(new.get(option))}"
            yield Change(Kind.CHANGED, module, name, "", text)
    yield from _provider_changes(module, name, old, new)


def _pairs(old: Lock, new: Lock) -> Iterator[tuple[tuple[str, str] | None, tuple[str, str] | None]]:
    """Tools matched by module and name, then (a tool moved to another module) by a name that
    is unique on both sides; the rest removed or added."""
    left = [k for k in old.tools if k not in new.tools]
    right = [k for k in new.tools if k not in old.tools]
    by_name_left = {n: [k for k in left if k[1] == n] for _, n in left}
    by_name_right = {n: [k for k in right if k[1] == n] for _, n in right}
    moved = {
        ks[0]: by_name_right[n][0]
        for n, ks in by_name_left.items()
        if len(ks) == 1 and len(by_name_right.get(n, [])) == 1
    }
    for key in old.tools:
        if key in new.tools:
            yield key, key
        elif key in moved:
            yield key, moved[key]
        else:
            yield key, None
    for key in right:
        if key not in moved.values():
            yield None, key


def diff_locks(old: Lock, new: Lock) -> list[Change]:
    """Every change from ``old`` to ``new``, tool by tool in the old lock's order (added tools last)."""
    changes: list[Change] = []
    for before, after in _pairs(old, new):
        if after is None:
            assert before is not None
            changes.append(Change(Kind.BREAKING, before[0], before[1], "", "tool removed"))
        elif before is None:
            changes.append(Change(Kind.COMPATIBLE, after[0], after[1], "", "tool added"))
        else:
            if before[0] != after[0]:
                changes.append(Change(Kind.CHANGED, after[0], after[1], "", f"moved from module {before[0]}"))
            changes += _tool_changes(after[0], after[1], old.tools[before], new.tools[after])
    return changes


def budget_changes(found: list[Budget]) -> list[Change]:
    """Budgets exceeded, as listed changes."""
    return [
        Change(
            Kind.OVER_BUDGET,
            b.module,
            b.tool or "(all tools)",
            "",
            f"{b.provider} form: {b.tokens} tokens, over "
            + (f"--max-tokens {b.limit}" if b.tool else f"--max-total-tokens {b.limit}"),
        )
        for b in found
    ]
