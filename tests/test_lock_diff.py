"""Lock against lock (``locking/diff.py``): the tool-level rows of the contract's classes, each
from two locks built by ``build_lock`` from hand-written manifest entries."""

from __future__ import annotations

import json
from typing import Any

import pytest

from onellm_runtime.locking.diff import Kind, diff_locks
from onellm_runtime.locking.lockfile import Lock, build_lock, dumps_lock, read_lock

B, C, X = Kind.BREAKING, Kind.COMPATIBLE, Kind.CHANGED


def tool(name: str = "search", module: str = "app", **changes: Any) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "module": module,
        "qualname": name,
        "name": name,
        "description": "Search.",
        "input_schema": {
            "type": "object",
            "properties": {"query": {"type": "string"}},
            "required": ["query"],
            "additionalProperties": False,
        },
        "output_schema": None,
        "ends_loop": False,
        "requires_approval": False,
        "parallel_safe": True,
        "timeout_seconds": 0,
    }
    return {**entry, **changes}


def lock(*entries: dict[str, Any]) -> Lock:
    return read_lock(dumps_lock(build_lock(entries)), "test")


RECORD = {
    "type": "object",
    "properties": {"total": {"type": "integer"}, "note": {"type": "string"}},
    "required": ["total", "note"],
    "additionalProperties": False,
}
WIDER = {**RECORD, "properties": {"total": {"type": "number"}, "note": {"type": "string"}}}
FEWER = {**RECORD, "properties": {"total": {"type": "integer"}}, "required": ["total"]}
NO_NAME = {"type": "object", "properties": {"9 bad name": {"type": "string"}}, "additionalProperties": False}

# (id, old tools, new tools, [(kind, where, text)] without the token estimate's line)
ROWS: list[tuple[str, list[dict[str, Any]], list[dict[str, Any]], list[tuple[Kind, str, str]]]] = [
    ("same", [tool()], [tool()], []),
    ("removed", [tool(), tool("fetch")], [tool()], [(B, "fetch", "tool removed")]),
    ("added", [tool()], [tool(), tool("fetch")], [(C, "fetch", "tool added")]),
    ("renamed", [tool()], [tool("find")], [(B, "search", "tool removed"), (C, "find", "tool added")]),
    ("moved", [tool()], [tool(module="other")], [(X, "search", "moved from module app")]),
    ("description", [tool()], [tool(description="Find.")], [(X, "search", "description changed")]),
    (
        "option",
        [tool()],
        [tool(requires_approval=True)],
        [(X, "search", "requires_approval changed from false to true")],
    ),
    ("timeout", [tool()], [tool(timeout_seconds=5)], [(X, "search", "timeout_seconds changed from 0 to 5")]),
    (
        "typed output widened",
        [tool(ends_loop=True, output_schema=RECORD)],
        [tool(ends_loop=True, output_schema=WIDER)],
        [(B, "search.return.total", "type widened from integer to number")],
    ),
    (
        "typed output property removed",
        [tool(ends_loop=True, output_schema=RECORD)],
        [tool(ends_loop=True, output_schema=FEWER)],
        [(B, "search.return.note", "property removed")],
    ),
    (
        "typed output narrowed",
        [tool(ends_loop=True, output_schema=WIDER)],
        [tool(ends_loop=True, output_schema=RECORD)],
        [(C, "search.return.total", "type narrowed from number to integer")],
    ),
    (
        "untyped output widened",
        [tool(output_schema=RECORD)],
        [tool(output_schema=WIDER)],
        [(X, "search.return.total", "type widened from integer to number")],
    ),
    ("output added", [tool()], [tool(output_schema=RECORD)], [(X, "search.return", "output schema added")]),
    (
        "a provider loses its form",
        [tool()],
        [tool(input_schema=NO_NAME)],
        [
            (B, "search.query", "parameter removed"),
            (C, "search.9 bad name", "optional parameter added"),
            (
                B,
                "search",
                "gemini: no form any more: Tool 'search': parameter '9 bad name' is not a Gemini parameter name"
                " (^[A-Za-z_][A-Za-z0-9_]{0,63}$)",
            ),
        ],
    ),
]


@pytest.mark.parametrize(("old", "new", "expected"), [r[1:] for r in ROWS], ids=[r[0] for r in ROWS])
def test_row(old: list[dict[str, Any]], new: list[dict[str, Any]], expected: list[tuple[Kind, str, str]]) -> None:
    changes = diff_locks(lock(*old), lock(*new))
    listed = [(c.kind, c.where, c.text) for c in changes if not c.text.startswith("token estimate:")]
    assert listed == expected


def test_a_breaking_input_change_has_a_witness_and_the_rest_none() -> None:
    old = tool(input_schema={**tool()["input_schema"], "properties": {"query": {"type": "string", "maxLength": 9}}})
    new = tool(input_schema={**tool()["input_schema"], "properties": {"query": {"type": "string", "maxLength": 3}}})
    change, *others = diff_locks(lock(old), lock(new))
    assert (change.kind, change.where, change.text) == (B, "search.query", "maxLength lowered from 9 to 3")
    assert change.witness is not None and len(json.loads(change.witness)["query"]) == 9
    assert all(c.kind is X and c.witness is None for c in others)


def test_token_estimates_change_on_one_line() -> None:
    (change,) = diff_locks(lock(tool()), lock(tool(description="Search every ticket, open or closed, by words.")))[1:]
    assert change.kind is X and change.text.startswith("token estimate: openai ")
    assert [part.split()[0] for part in change.text.removeprefix("token estimate: ").split(", ")] == [
        "openai",
        "anthropic",
        "gemini",
        "mcp",
    ]


def test_a_breaking_output_change_shows_a_result_the_old_schema_refused() -> None:
    (change, *_) = diff_locks(
        lock(tool(ends_loop=True, output_schema=RECORD)), lock(tool(ends_loop=True, output_schema=WIDER))
    )
    assert (change.kind, change.witness_note) == (B, "may be returned now, refused before")
    assert change.witness is not None
    assert json.loads(change.witness)["total"] % 1 != 0  # a number with a fraction: not an integer
