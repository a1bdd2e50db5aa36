"""The decoder that reads back a dictionary written as ``{"key", "value"}`` entries.

Exercised directly on parsed arguments (the binder runs it before binding, for
``provider="openai"``, ``"anthropic"`` and ``"gemini"``). Expected values and error texts
are written by hand.
"""

from __future__ import annotations

from typing import Any, Mapping

import provider_tools as T
import pytest

from onellm_runtime import Tool
from onellm_runtime.providers import compile_decoder
from onellm_runtime.providers._decode import DecodeError, key_path


def decode(t: Tool[..., Any], arguments: Mapping[str, object]) -> Mapping[str, object]:
    decoder = compile_decoder(t.model)
    assert decoder is not None
    return decoder(arguments)


def test_a_tool_without_dictionaries_has_no_decoder() -> None:
    assert compile_decoder(T.search.model) is None
    assert compile_decoder(T.scalars.model) is None
    assert compile_decoder(T.json_types.model) is None  # JSON types are never re-encoded


def test_entries_become_the_dictionary_in_order() -> None:
    got = decode(
        T.configure, {"env": [{"key": "B", "value": "2"}, {"value": "1", "key": "A"}], "data": "", "home": "x"}
    )
    assert got == {"env": {"B": "2", "A": "1"}, "data": "", "home": "x"}
    assert list(got["env"]) == ["B", "A"]  # type: ignore[arg-type]


def test_an_object_is_left_as_it_is() -> None:
    args = {"env": {"A": "1"}, "data": "", "home": "x"}
    assert decode(T.configure, args) == args


def test_nested_dictionaries_and_nulls() -> None:
    got = decode(
        T.collections,
        {
            "nested": [{"key": "a", "value": [{"key": "b", "value": True}]}, {"key": "c", "value": {"d": False}}],
            "mapping": [{"key": "m", "value": [1, 2]}],
            "env": [],
            "maybe_env": None,
        },
    )
    assert got == {
        "nested": {"a": {"b": True}, "c": {"d": False}},
        "mapping": {"m": [1, 2]},
        "env": {},
        "maybe_env": None,
    }


def test_dictionaries_inside_records_by_wire_name() -> None:
    # parameter names are never rewritten; record fields follow naming="camelCase"
    item = {"sku": "ABC-1", "qty": None}
    got = decode(
        T.records,
        {
            "renamed": {"oldText": "x", "extras": [{"key": "k", "value": 1}]},
            "by_name": [{"key": "first", "value": item}],
            "lines": [item],
        },
    )
    assert got == {"renamed": {"oldText": "x", "extras": {"k": 1}}, "by_name": {"first": item}, "lines": [item]}


def test_dictionaries_inside_union_branches() -> None:
    tag = {"kind": "tag", "labels": [{"key": "a", "value": "b"}]}
    move = {"kind": "move", "to": {"x": 1, "y": 2}}
    got = decode(T.unions, {"op": tag, "maybe_op": move, "ops": [move, tag, {"kind": "nope", "labels": []}]})
    assert got == {
        "op": {"kind": "tag", "labels": {"a": "b"}},
        "maybe_op": move,
        "ops": [move, {"kind": "tag", "labels": {"a": "b"}}, {"kind": "nope", "labels": []}],
    }


def test_methods_decode_without_self() -> None:
    got = decode(T.Shelf.put, {"item": {"sku": "ABC-1"}, "where": [{"key": "shelf", "value": 3}]})
    assert got == {"item": {"sku": "ABC-1"}, "where": {"shelf": 3}}


def test_anything_else_is_left_for_the_binder_to_refuse() -> None:
    args = {"env": "A=1", "data": 1, "home": None, "extra": [{"key": "a", "value": 1}]}
    assert decode(T.configure, args) == args


@pytest.mark.parametrize(
    ("env", "path", "message"),
    [
        (["A=1"], "env[0]", 'Argument \'env[0]\' must be an object with "key" and "value", got string.'),
        ([None], "env[0]", 'Argument \'env[0]\' must be an object with "key" and "value", got null.'),
        ([{"key": "A"}], "env[0].value", "Argument 'env[0].value' is required."),
        ([{"value": "1"}], "env[0].key", "Argument 'env[0].key' is required."),
        ([{"key": 1, "value": "1"}], "env[0].key", "Argument 'env[0].key' must be a string, got number."),
        (
            [{"key": "A", "value": "1", "note": "x"}],
            "env[0].note",
            'Argument \'env[0].note\' is not allowed; an entry has only "key" and "value".',
        ),
        (
            [{"key": "A", "value": "1"}, {"key": "B", "value": "2"}, {"key": "A", "value": "3"}],
            "env[2].key",
            "Argument 'env[2].key' repeats the key \"A\" already given at env[0].",
        ),
    ],
)
def test_malformed_entries(env: object, path: str, message: str) -> None:
    with pytest.raises(DecodeError) as e:
        decode(T.configure, {"env": env})
    assert (e.value.path, str(e.value)) == (path, message)


def test_error_paths_inside_nested_entries() -> None:
    with pytest.raises(DecodeError) as e:
        decode(
            T.collections, {"nested": [{"key": "a", "value": [{"key": "b", "value": True}, {"key": "b", "value": 0}]}]}
        )
    assert (
        str(e.value) == "Argument 'nested[0].value[1].key' repeats the key \"b\" already given at nested[0].value[0]."
    )
    with pytest.raises(DecodeError) as e:
        decode(T.collections, {"nested": {"a.b": [{"key": True, "value": True}]}})
    assert str(e.value) == "Argument 'nested[\"a.b\"][0].key' must be a string, got boolean."


def test_key_paths() -> None:
    assert key_path("environment", "CI") == "environment.CI"
    assert key_path("environment", "a.b") == 'environment["a.b"]'
    assert key_path("", "x") == "x"
    assert key_path("e", "é") == 'e["é"]'
