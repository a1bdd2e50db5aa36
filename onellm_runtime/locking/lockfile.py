"""The lock file: a tool set's manifest, each provider's form of each tool, and their token estimates.

Written by ``onellm lock`` (from the static manifest, or the runtime's with ``--runtime``) and
by ``onellm_runtime.testing.assert_matches_lock``; read by ``onellm diff`` and ``onellm lock
--check``. Everything in it is computed from the manifest entries, so the same code gives the
same bytes whichever side built the entries. The format is docs/ci.md's "The lock file".
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from ..providers import ProviderError
from ..providers.registry import ADAPTERS
from .tokens import ESTIMATOR, estimate_tokens

__all__ = [
    "VERSION",
    "FORMS",
    "Lock",
    "LockError",
    "build_lock",
    "dumps_lock",
    "read_lock",
    "Budget",
    "over_budget",
]

#: The lock format's version. A reader meets only this one; any other is refused (``LockError``).
VERSION = 1

Entry = Mapping[str, Any]

#: Each provider's form of one tool, as the lock records it (each adapter's ``form``: OpenAI's
#: Responses API strict, Anthropic strict, Gemini's JSON Schema form, MCP's ``tools/list`` entry).
FORMS: dict[str, Callable[[Entry], Mapping[str, Any]]] = {name: a.form for name, a in ADAPTERS.items()}


class LockError(ValueError):
    """A lock that cannot be read: not JSON, not a lock, or a version this onellm does not read."""


@dataclass(frozen=True)
class Lock:
    """A lock as read: its document, and the tools in it by ``(module, name)`` in file order."""

    document: Mapping[str, Any]
    tools: Mapping[tuple[str, str], Entry]


def _provider_record(entry: Entry, make: Callable[[Entry], Mapping[str, Any]]) -> dict[str, Any]:
    with warnings.catch_warnings(record=True) as caught:  # kept on the record instead
        warnings.simplefilter("always")
        try:
            form = make(entry)
        except ProviderError as e:
            return {"error": str(e)}
    record: dict[str, Any] = {"form": dict(form), "tokens": estimate_tokens(dict(form))}
    notes = list(getattr(form, "warnings", ())) or [str(w.message) for w in caught]
    if notes:
        record["warnings"] = notes
    return record


def build_lock(entries: Iterable[Entry]) -> dict[str, Any]:
    """The lock document of manifest entries (``onellm schemas`` order is kept)."""
    modules: dict[str, dict[str, Any]] = {}
    totals = dict.fromkeys(FORMS, 0)
    for entry in entries:
        providers = {name: _provider_record(entry, make) for name, make in FORMS.items()}
        for name, record in providers.items():
            totals[name] += record.get("tokens", 0)
        modules.setdefault(str(entry["module"]), {})[str(entry["name"])] = {**entry, "providers": providers}
    return {"version": VERSION, "estimator": ESTIMATOR, "total_tokens": totals, "modules": modules}


def dumps_lock(document: Mapping[str, Any]) -> str:
    """The lock as written: indented JSON, keys in the order built, non-ASCII kept, a final newline."""
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def read_lock(text: str, source: str) -> Lock:
    """A lock from its text; ``source`` names it in errors."""
    try:
        document = json.loads(text)
    except ValueError as e:
        raise LockError(f"{source} is not JSON: {e}") from None
    if not isinstance(document, dict) or "version" not in document:
        raise LockError(f'{source} is not an onellm lock (no "version" field)')
    version = document["version"]  # pyright: ignore[reportUnknownVariableType]
    if version != VERSION:
        raise LockError(
            f"{source} is a version {json.dumps(version)} lock; this onellm reads version {VERSION}: "
            "install the onellm that wrote it, or write the lock again with `onellm lock`"
        )
    modules = document.get("modules")  # pyright: ignore[reportUnknownMemberType,reportUnknownVariableType]
    if not isinstance(modules, dict):
        raise LockError(f'{source} is not an onellm lock (no "modules" object)')
    tools: dict[tuple[str, str], Entry] = {}
    for module, named in modules.items():  # pyright: ignore[reportUnknownVariableType]
        if not isinstance(named, dict):
            raise LockError(f"{source}: module {module!r} is not an object")
        for name, entry in named.items():  # pyright: ignore[reportUnknownVariableType]
            if not isinstance(entry, dict) or "input_schema" not in entry:
                raise LockError(f"{source}: tool {module}.{name} has no input_schema")
            tools[(str(module), str(name))] = entry  # pyright: ignore[reportUnknownArgumentType]
    return Lock(document, tools)  # pyright: ignore[reportUnknownArgumentType]


@dataclass(frozen=True)
class Budget:
    """A budget exceeded: by one tool's form (``tool`` set) or by a provider's whole set."""

    provider: str
    tokens: int
    limit: int
    module: str = ""
    tool: str = ""


def over_budget(lock: Lock, max_tokens: int | None, max_total_tokens: int | None) -> list[Budget]:
    """Each tool form over ``max_tokens`` and each provider's total over ``max_total_tokens``."""
    found: list[Budget] = []
    totals: dict[str, int] = {}
    for (module, name), entry in lock.tools.items():
        providers: Mapping[str, Mapping[str, Any]] = entry.get("providers", {})
        for provider, record in providers.items():
            tokens = int(record.get("tokens", 0))
            totals[provider] = totals.get(provider, 0) + tokens
            if max_tokens is not None and tokens > max_tokens:
                found.append(Budget(provider, tokens, max_tokens, module, name))
    if max_total_tokens is not None:
        found += [Budget(p, t, max_total_tokens) for p, t in totals.items() if t > max_total_tokens]
    return found
