"""The differ held to its word (``locking/compare.py``), for generated pairs of fragments.

A pair whose changes include no narrowing is "compatible": every document drawn valid under
the old fragment is valid under the new. Each narrowing is "breaking" and shows a witness
that the old accepts and the new refuses. ``jsonschema`` is the referee, formats asserted;
``contentEncoding``, which it reads as an annotation, is checked as the binder reads it.
"""

from __future__ import annotations

import base64
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator
from schema_strategy import fragment_pairs, from_schema

from onellm_runtime.locking.compare import compare, witness


def _root(fragment: dict[str, Any]) -> dict[str, Any]:
    return {"type": "object", "properties": {"p": fragment}, "required": ["p"], "additionalProperties": False}


def _encodings_hold(node: Any, value: Any) -> bool:
    """Every string under a ``contentEncoding: base64`` node (that the value reaches) decodes."""
    if not isinstance(node, dict):
        return True
    if node.get("contentEncoding") == "base64" and isinstance(value, str):
        try:
            base64.b64decode(value, validate=True)
        except ValueError:
            return False
    if isinstance(value, list):
        return all(_encodings_hold(node.get("items"), v) for v in value)
    if isinstance(value, dict):
        props = node.get("properties", {})
        branches = node.get("anyOf", [])
        if branches:
            return any(_encodings_hold(b, value) for b in branches if _valid(b, value, encodings=False))
        extra = node.get("additionalProperties")
        return all(_encodings_hold(props.get(k, extra), v) for k, v in value.items())
    return True


def _valid(schema: dict[str, Any], doc: Any, *, encodings: bool = True) -> bool:
    checker = Draft202012Validator.FORMAT_CHECKER
    return Draft202012Validator(schema, format_checker=checker).is_valid(doc) and (
        not encodings or _encodings_hold(schema, doc)
    )


_SETTINGS = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow, HealthCheck.filter_too_much]}


@settings(max_examples=100, **_SETTINGS)
@given(pair=fragment_pairs(), data=st.data())
def test_compatible_means_old_documents_stay_valid_and_breaking_shows_a_witness(
    pair: tuple[dict[str, Any], dict[str, Any]], data: st.DataObject
) -> None:
    _holds_to_its_word(pair, data)


@pytest.mark.slow
@settings(max_examples=1500, **_SETTINGS)
@given(pair=fragment_pairs(), data=st.data())
def test_the_same_over_many_more_pairs(pair: tuple[dict[str, Any], dict[str, Any]], data: st.DataObject) -> None:
    _holds_to_its_word(pair, data)


def _holds_to_its_word(pair: tuple[dict[str, Any], dict[str, Any]], data: st.DataObject) -> None:
    """A "compatible" verdict keeps every old document valid; every "breaking" one comes with a
    document valid before and refused after."""
    old, new = _root(pair[0]), _root(pair[1])
    changes = compare(old, new, top="parameter")
    narrowing = [c for c in changes if c.effect.narrows]
    for c in narrowing:
        doc = witness(c, old, new, narrowing=True)
        assert doc is not None, f"{c.path}: {c.text}: no witness"
        assert _valid(old, doc), f"{c.path}: {c.text}: witness {doc} is not valid before"
        assert not _valid(new, doc), f"{c.path}: {c.text}: witness {doc} is still valid"
    if not narrowing:
        for _ in range(5):
            doc = data.draw(from_schema(old))
            assert _valid(new, doc), f"compatible {[(c.path, c.text) for c in changes]}, but {doc} is refused now"
