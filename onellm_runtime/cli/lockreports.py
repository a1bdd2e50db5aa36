"""The formats ``onellm diff`` and ``onellm lock --check`` write changes in, as ``onellm check`` does.

- ``text``: ``breaking: search.filters.status: enum member "closed" removed  [module]``, a
  witness indented below a breaking change;
- ``json``: a list of objects (kind, module, tool, path, change, witness, witness_note);
- ``github``: workflow commands: ``::error`` for breaking and over-budget, ``::notice`` for the rest,
  on the lock file;
- ``sarif``: one SARIF 2.1.0 log, a rule per kind, each result located in the lock file.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence

from ..locking.diff import Change, Kind
from .reports import DOCS_URL, github_escape_data, github_escape_property, sarif_log

__all__ = ["CHANGE_FORMATS", "summary"]

#: Kind -> what it means (SARIF's rule text) and how loud it is.
MEANINGS: dict[Kind, tuple[str, str]] = {
    Kind.BREAKING: (
        "A call a deployed model makes is refused now, or a typed result reader gets a value it did not expect",
        "error",
    ),
    Kind.OVER_BUDGET: ("A tool's definition, or a set's, is over its token budget", "error"),
    Kind.COMPATIBLE: ("Calls made before are still accepted; the set accepts more", "note"),
    Kind.CHANGED: ("A description, default, option or token estimate changed: what the model does may change", "note"),
}


def _message(c: Change) -> str:
    return f"{c.where}: {c.text}"


def text(changes: Sequence[Change], lock_path: str) -> str:
    lines: list[str] = []
    for c in changes:
        module = f"  [{c.module}]" if c.module else ""
        lines.append(f"{c.kind.value}: {_message(c)}{module}\n")
        if c.witness is not None:
            lines.append(f"    {c.witness_note}: {c.witness}\n")
    return "".join(lines)


def as_json(changes: Sequence[Change], lock_path: str) -> str:
    rows = [
        {
            "kind": c.kind.value,
            "module": c.module,
            "tool": c.tool,
            "path": c.path,
            "change": c.text,
            "witness": None if c.witness is None else json.loads(c.witness),
            "witness_note": None if c.witness is None else c.witness_note,
        }
        for c in changes
    ]
    return json.dumps(rows, indent=2, ensure_ascii=False) + "\n"


def github(changes: Sequence[Change], lock_path: str) -> str:
    lines: list[str] = []
    for c in changes:
        command = "error" if MEANINGS[c.kind][1] == "error" else "notice"
        title = f"onellm lock: {c.kind.value}"
        message = _message(c) + (f" (module {c.module})" if c.module else "")
        if c.witness is not None:
            message += f"\n{c.witness_note.capitalize()}: {c.witness}"
        properties = f"file={github_escape_property(lock_path)},title={github_escape_property(title)}"
        lines.append(f"::{command} {properties}::{github_escape_data(message)}\n")
    return "".join(lines)


def sarif(changes: Sequence[Change], lock_path: str) -> str:
    kinds = list(MEANINGS)
    rules = [
        {
            "id": kind.value,
            "name": kind.value,
            "shortDescription": {"text": MEANINGS[kind][0]},
            "helpUri": f"{DOCS_URL}ci.md#{kind.value}",
            "defaultConfiguration": {"level": MEANINGS[kind][1]},
        }
        for kind in kinds
    ]
    results = [
        {
            "ruleId": c.kind.value,
            "ruleIndex": kinds.index(c.kind),
            "level": MEANINGS[c.kind][1],
            "message": {"text": _message(c) + (f"\n{c.witness_note.capitalize()}: {c.witness}" if c.witness else "")},
            "locations": [
                {
                    "physicalLocation": {
                        "artifactLocation": {"uri": lock_path.replace("\\", "/"), "uriBaseId": "%SRCROOT%"}
                    },
                    "logicalLocations": [{"fullyQualifiedName": f"{c.module}.{c.where}" if c.module else c.where}],
                }
            ],
        }
        for c in changes
    ]
    return json.dumps(sarif_log(rules, results), indent=2, ensure_ascii=False) + "\n"


#: ``--format`` value -> the function that writes the changes.
CHANGE_FORMATS: dict[str, Callable[[Sequence[Change], str], str]] = {
    "text": text,
    "json": as_json,
    "github": github,
    "sarif": sarif,
}


def summary(changes: Sequence[Change]) -> str:
    """``3 changes: 1 breaking, 1 compatible, 1 changed`` (or ``no changes``)."""
    if not changes:
        return "no changes"
    counts = [f"{sum(c.kind is k for c in changes)} {k.value}" for k in Kind if any(c.kind is k for c in changes)]
    n = len(changes)
    return f"{n} change{'s' if n != 1 else ''}: {', '.join(counts)}"
