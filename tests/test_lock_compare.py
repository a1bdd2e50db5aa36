"""The schema differ, one row per keyword of the contract's list (``locking/compare.py``).

Each row: an old and a new fragment, and every change the differ must list (path, text,
effect). A narrowing must come with a witness that ``jsonschema`` (the referee, formats
asserted) accepts under the old fragment and refuses under the new; a widening with one the
new accepts and the old refuses.
"""

from __future__ import annotations

import base64
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from onellm_runtime.core.schema import KEYWORD_ORDER
from onellm_runtime.locking.compare import RULES, Effect, compare, witness

N, W, B, A = Effect.NARROWED, Effect.WIDENED, Effect.BOTH, Effect.ANNOTATION

S: dict[str, Any] = {"type": "string"}
INT: dict[str, Any] = {"type": "integer"}


def obj(props: dict[str, Any], required: list[str] | None = None, **more: Any) -> dict[str, Any]:
    node: dict[str, Any] = {"type": "object", "properties": props}
    if required:
        node["required"] = required
    return {**node, "additionalProperties": False, **more}


def branch(tag: str, **fields: Any) -> dict[str, Any]:
    return obj({"kind": {"type": "string", "enum": [tag]}, **fields}, ["kind", *fields])


# (keyword, old, new, [(path, text, effect)]) -- the fragments are the value of a parameter `p`.
ROWS: list[tuple[str, dict[str, Any], dict[str, Any], list[tuple[str, str, Effect]]]] = [
    ("type", S, INT, [("p", "type changed from string to integer", B)]),
    ("type", {"type": ["string", "null"]}, S, [("p", "null no longer accepted", N)]),
    ("type", S, {"type": ["string", "null"]}, [("p", "null now accepted", W)]),
    ("type", {"type": "number"}, INT, [("p", "type narrowed from number to integer", N)]),
    ("type", INT, {"type": "number"}, [("p", "type widened from integer to number", W)]),
    (
        "type",
        {"type": "array"},
        {},
        [("p", "null now accepted", W), ("p", "type boolean or integer or number or object or string now accepted", W)],
    ),
    ("format", S, {"type": "string", "format": "uuid"}, [("p", 'format "uuid" added', N)]),
    ("format", {"type": "string", "format": "date"}, S, [("p", 'format "date" removed', W)]),
    (
        "format",
        {"type": "string", "format": "date"},
        {"type": "string", "format": "date-time"},
        [("p", 'format changed from "date" to "date-time"', B)],
    ),
    (
        "description",
        {"type": "string", "description": "a"},
        {"type": "string", "description": "b"},
        [("p", "description changed", A)],
    ),
    ("description", S, {"type": "string", "description": "b"}, [("p", 'description "b" added', A)]),
    (
        "anyOf",
        {"anyOf": [branch("read", path=S), branch("stop")]},
        {"anyOf": [branch("read", path=S)]},
        [("p", "union branch 'stop' removed", N)],
    ),
    (
        "anyOf",
        {"anyOf": [branch("read", path=S)]},
        {"anyOf": [branch("read", path=S), branch("stop")]},
        [("p", "union branch 'stop' added", W)],
    ),
    (
        "anyOf",
        {"anyOf": [branch("read", path=S), {"type": "null"}]},
        {"anyOf": [branch("read", path=S)]},
        [("p", "null no longer accepted", N)],
    ),
    (
        "anyOf",
        {"anyOf": [branch("read", path=S), branch("stop")]},
        {"anyOf": [branch("read", path={"type": "string", "maxLength": 3}), branch("stop")]},
        [("p(read).path", "maxLength 3 added", N)],
    ),
    (
        "enum",
        {"type": "string", "enum": ["open", "closed"]},
        {"type": "string", "enum": ["open"]},
        [("p", 'enum member "closed" removed', N)],
    ),
    (
        "enum",
        {"type": "string", "enum": ["open"]},
        {"type": "string", "enum": ["open", "closed"]},
        [("p", 'enum member "closed" added', W)],
    ),
    ("enum", S, {"type": "string", "enum": ["open"]}, [("p", 'values limited to ["open"]', N)]),
    ("enum", {"type": "string", "enum": ["open"]}, S, [("p", 'enum ["open"] removed', W)]),
    (
        "enum",
        {"type": "string", "enum": ["open"]},
        {"type": "string", "maxLength": 2},
        [("p", 'enum member "open" no longer accepted', N), ("p", 'enum ["open"] removed', W)],
    ),
    ("enum", {"type": "boolean"}, {"type": "boolean", "enum": [True, False]}, []),
    ("enum", {"type": "integer", "minimum": 0, "maximum": 2}, {"type": "integer", "enum": [0, 1, 2]}, []),
    (
        "enum",
        {"type": "integer", "minimum": 0, "maximum": 2},
        {"type": "integer", "enum": [0, 3]},
        [("p", "values limited to [0, 3]", N), ("p", "enum member 3 added", W)],
    ),
    (
        "enum",
        {"type": "integer", "minimum": 0, "maximum": 2},
        {"type": "integer", "enum": [0, 2], "minimum": 0, "maximum": 2},
        [("p", "values limited to [0, 2]", N)],
    ),
    (
        "minimum",
        {"type": "integer", "minimum": 0},
        {"type": "integer", "minimum": 1},
        [("p", "minimum raised from 0 to 1", N)],
    ),
    (
        "minimum",
        {"type": "integer", "minimum": 1},
        {"type": "integer", "minimum": 0},
        [("p", "minimum lowered from 1 to 0", W)],
    ),
    ("minimum", INT, {"type": "integer", "minimum": -5}, [("p", "minimum -5 added", N)]),
    ("minimum", {"type": "number", "minimum": 0}, {"type": "number"}, [("p", "minimum 0 removed", W)]),
    ("minimum", {"type": "integer", "minimum": 0.5}, {"type": "integer", "minimum": 1}, []),
    (
        "minimum",
        {"type": "number", "minimum": 0.5},
        {"type": "number", "minimum": 0.75},
        [("p", "minimum raised from 0.5 to 0.75", N)],
    ),
    (
        "maximum",
        {"type": "integer", "maximum": 10},
        {"type": "integer", "maximum": 9},
        [("p", "maximum lowered from 10 to 9", N)],
    ),
    (
        "maximum",
        {"type": "integer", "maximum": 9},
        {"type": "integer", "maximum": 10},
        [("p", "maximum raised from 9 to 10", W)],
    ),
    ("minLength", S, {"type": "string", "minLength": 2}, [("p", "minLength 2 added", N)]),
    (
        "minLength",
        {"type": "string", "minLength": 2},
        {"type": "string", "minLength": 1},
        [("p", "minLength lowered from 2 to 1", W)],
    ),
    ("minLength", {"type": "string", "minLength": 0}, S, []),
    (
        "maxLength",
        {"type": "string", "maxLength": 5},
        {"type": "string", "maxLength": 4},
        [("p", "maxLength lowered from 5 to 4", N)],
    ),
    ("maxLength", {"type": "string", "maxLength": 5}, S, [("p", "maxLength 5 removed", W)]),
    ("pattern", S, {"type": "string", "pattern": "^[0-9]+$"}, [("p", 'pattern "^[0-9]+$" added', N)]),
    ("pattern", {"type": "string", "pattern": "^a"}, S, [("p", 'pattern "^a" removed', W)]),
    (
        "pattern",
        {"type": "string", "pattern": "^a"},
        {"type": "string", "pattern": "^b"},
        [("p", 'pattern changed from "^a" to "^b"', B)],
    ),
    (
        "contentEncoding",
        S,
        {"type": "string", "contentEncoding": "base64"},
        [("p", 'contentEncoding "base64" added', N)],
    ),
    (
        "contentEncoding",
        {"type": "string", "contentEncoding": "base64"},
        S,
        [("p", 'contentEncoding "base64" removed', W)],
    ),
    (
        "items",
        {"type": "array", "items": INT},
        {"type": "array", "items": {"type": "integer", "minimum": 0}},
        [("p[]", "minimum 0 added", N)],
    ),
    (
        "items",
        {"type": "array", "items": INT},
        {"type": "array", "items": S},
        [("p[]", "type changed from integer to string", B)],
    ),
    (
        "minItems",
        {"type": "array", "items": INT},
        {"type": "array", "items": INT, "minItems": 1},
        [("p", "minItems 1 added", N)],
    ),
    (
        "minItems",
        {"type": "array", "items": INT, "minItems": 2},
        {"type": "array", "items": INT},
        [("p", "minItems 2 removed", W)],
    ),
    (
        "maxItems",
        {"type": "array", "items": INT, "maxItems": 3},
        {"type": "array", "items": INT, "maxItems": 2},
        [("p", "maxItems lowered from 3 to 2", N)],
    ),
    (
        "maxItems",
        {"type": "array", "items": INT, "maxItems": 2},
        {"type": "array", "items": INT, "maxItems": 3},
        [("p", "maxItems raised from 2 to 3", W)],
    ),
    (
        "uniqueItems",
        {"type": "array", "items": INT},
        {"type": "array", "items": INT, "uniqueItems": True},
        [("p", "items must now be unique", N)],
    ),
    (
        "uniqueItems",
        {"type": "array", "items": INT, "uniqueItems": True},
        {"type": "array", "items": INT},
        [("p", "items need no longer be unique", W)],
    ),
    ("properties", obj({"a": S}), obj({"a": S, "b": INT}), [("p.b", "optional property added", W)]),
    ("properties", obj({"a": S}), obj({"a": S, "b": INT}, ["b"]), [("p.b", "required property added", B)]),
    ("properties", obj({"a": S, "b": INT}), obj({"a": S}), [("p.b", "property removed", B)]),
    ("properties", obj({"a": S}), obj({"a": INT}), [("p.a", "type changed from string to integer", B)]),
    ("required", obj({"a": S}), obj({"a": S}, ["a"]), [("p.a", "property made required", N)]),
    ("required", obj({"a": S}, ["a"]), obj({"a": S}), [("p.a", "property made optional", W)]),
    (
        "additionalProperties",
        {"type": "object", "additionalProperties": INT},
        {"type": "object", "additionalProperties": {"type": "integer", "maximum": 3}},
        [("p{}", "maximum 3 added", N)],
    ),
    (
        "additionalProperties",
        {"type": "object", "additionalProperties": INT},
        {"type": "object", "additionalProperties": False},
        [("p", "other properties no longer accepted", N)],
    ),
    (
        "additionalProperties",
        obj({}),
        {"type": "object", "properties": {}},
        [("p", "other properties now accepted", W)],
    ),
    (
        "default",
        {"type": "integer", "default": 1},
        {"type": "integer", "default": 2},
        [("p", "default changed from 1 to 2", A)],
    ),
    ("default", INT, {"type": "integer", "default": 2}, [("p", "default 2 added", A)]),
    ("default", {"type": "integer", "default": 1}, INT, [("p", "default 1 removed", A)]),
    (
        "default",
        {"type": "number", "default": 1},
        {"type": "number", "default": 1.0},
        [("p", "default changed from 1 to 1.0", A)],
    ),
]


def _root(fragment: dict[str, Any]) -> dict[str, Any]:
    return obj({"p": fragment}, ["p"])


def _accepted(schema: dict[str, Any], doc: Any) -> bool:
    if not Draft202012Validator(schema, format_checker=Draft202012Validator.FORMAT_CHECKER).is_valid(doc):
        return False
    encoded = schema["properties"]["p"].get("contentEncoding") == "base64" and isinstance(doc.get("p"), str)
    if encoded:  # jsonschema does not assert contentEncoding; the binder does
        try:
            base64.b64decode(doc["p"], validate=True)
        except ValueError:
            return False
    return True


def test_one_rule_per_keyword_in_the_contracts_order() -> None:
    assert tuple(RULES) == KEYWORD_ORDER


def test_every_keyword_has_rows() -> None:
    assert sorted(set(KEYWORD_ORDER) - {row[0] for row in ROWS}) == []


@pytest.mark.parametrize(("keyword", "old", "new", "expected"), ROWS, ids=[f"{r[0]}-{i}" for i, r in enumerate(ROWS)])
def test_row(keyword: str, old: dict[str, Any], new: dict[str, Any], expected: list[tuple[str, str, Effect]]) -> None:
    before, after = _root(old), _root(new)
    changes = compare(before, after, top="parameter")
    assert [(c.path, c.text, c.effect) for c in changes] == expected
    for c in changes:
        if c.effect.narrows:
            doc = witness(c, before, after, narrowing=True)
            assert doc is not None, c.text
            assert _accepted(before, doc) and not _accepted(after, doc), (c.text, doc)
        if c.effect.widens and c.effect is not Effect.BOTH:
            doc = witness(c, before, after, narrowing=False)
            assert doc is not None, c.text
            assert _accepted(after, doc) and not _accepted(before, doc), (c.text, doc)
