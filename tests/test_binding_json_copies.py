"""JSON values (``JsonValue``, ``JsonArray``, ``JsonObject``) bound inside a record, whose
constructor changes them: the error result is exactly the faults of the document as sent
(CONTRACT.md, "Errors become results"), and a caller's ``Mapping`` keeps its own containers.

A fault in a later argument sends the call to the binder's collecting pass, which reads the
same document again after the first pass's constructors ran; each record below changes its
JSON value in ``__post_init__`` so that, were the document's own list handed to it, that pass
would find a fault the model never sent. Messages are written by hand from the message table
in ``onellm_runtime/binding/__init__.py``.
"""

from __future__ import annotations

import asyncio
import copy
import json
from dataclasses import dataclass
from typing import Annotated, Any

import pytest

from onellm_runtime import ArgumentError, JsonArray, JsonObject, JsonValue, MaxLength, MinLength, Tool, ToolInvoker


@dataclass
class Appends:
    """Adds an item past the array's bound."""

    data: Annotated[JsonArray, MaxLength(3)]

    def __post_init__(self) -> None:
        self.data.append(0)


@dataclass
class Clears:
    """Empties an array that must hold an item."""

    data: Annotated[JsonArray, MinLength(1)]

    def __post_init__(self) -> None:
        self.data.clear()


@dataclass
class AddsToValue:
    """Adds a non-JSON item to the list a ``JsonValue`` holds."""

    data: JsonValue

    def __post_init__(self) -> None:
        assert isinstance(self.data, list)
        self.data.append({1, 2})


@dataclass
class AddsToNested:
    """Adds a NaN to a list nested in a ``JsonObject``."""

    data: JsonObject

    def __post_init__(self) -> None:
        tags = self.data["tags"]
        assert isinstance(tags, list)
        tags.append(float("nan"))


@dataclass
class ClearsObject:
    """Empties its object and a list nested in it."""

    data: JsonObject

    def __post_init__(self) -> None:
        tags = self.data["tags"]
        assert isinstance(tags, list)
        tags.clear()
        self.data.clear()


def appends(g: Appends, n: int) -> None:
    """A record that grows its array."""


def clears(g: Clears, n: int) -> None:
    """A record that empties its array."""


def adds_to_value(g: AddsToValue, n: int) -> None:
    """A record that adds to its JSON value."""


def adds_to_nested(g: AddsToNested, n: int) -> None:
    """A record that adds to a list inside its object."""


def clears_object(g: ClearsObject, n: int) -> None:
    """A record that empties its object."""


def appends_in_list(gs: list[Appends], n: int) -> None:
    """Records in an array (the array's own loop binds them)."""


N_IS_TEXT = "Argument 'n' must be an integer, got string \"x\"."

# (tool, arguments as sent with a fault only in n)
CHANGED_BY_CONSTRUCTOR: list[tuple[Any, dict[str, Any]]] = [
    (appends, {"g": {"data": [1, "a", None]}, "n": "x"}),
    (clears, {"g": {"data": [1, "a"]}, "n": "x"}),
    (adds_to_value, {"g": {"data": [1, [2]]}, "n": "x"}),
    (adds_to_nested, {"g": {"data": {"tags": ["a"], "k": {"m": []}}}, "n": "x"}),
    (clears_object, {"g": {"data": {"tags": ["a"]}}, "n": "x"}),
    (appends_in_list, {"gs": [{"data": [1]}, {"data": [1, 2, 3]}], "n": "x"}),
]


def _ids(case: tuple[Any, dict[str, Any]]) -> str:
    return str(case[0].__name__)


def _error(fn: Any, arguments: object) -> str:
    result = asyncio.run(ToolInvoker().invoke(Tool.create(fn), arguments))  # type: ignore[arg-type]
    assert result.is_error
    assert result.error is not None
    return result.error


@pytest.mark.parametrize("case", CHANGED_BY_CONSTRUCTOR, ids=_ids)
def test_a_raw_document_is_reported_as_sent(case: tuple[Any, dict[str, Any]]) -> None:
    fn, arguments = case
    assert _error(fn, json.dumps(arguments)) == N_IS_TEXT


@pytest.mark.parametrize("case", CHANGED_BY_CONSTRUCTOR, ids=_ids)
def test_a_raw_document_is_reported_as_sent_for_a_provider(case: tuple[Any, dict[str, Any]]) -> None:
    # A provider's adapter makes the reader's pairs into dicts first; the lists stay the reader's.
    fn, arguments = case
    t = Tool.create(fn)
    with pytest.raises(ArgumentError) as info:
        t.bind(json.dumps(arguments), "anthropic")
    assert str(info.value) == N_IS_TEXT


@pytest.mark.parametrize("case", CHANGED_BY_CONSTRUCTOR, ids=_ids)
def test_a_callers_mapping_is_reported_as_sent_and_left_unchanged(case: tuple[Any, dict[str, Any]]) -> None:
    fn, arguments = case
    sent = copy.deepcopy(arguments)
    assert _error(fn, arguments) == N_IS_TEXT
    assert arguments == sent


def _containers(value: object) -> list[int]:
    """The ids of every list and dict in ``value``."""
    if isinstance(value, list):
        return [id(value), *(i for x in value for i in _containers(x))]
    if isinstance(value, dict):
        return [id(value), *(i for x in value.values() for i in _containers(x))]
    return []


@dataclass
class Holds:
    data: JsonValue


def holds(h: Holds, free: JsonValue) -> None:
    """A JSON value inside a record, and one outside every record."""


def test_a_callers_containers_are_never_the_bound_value() -> None:
    # As with a caller's list of scalars, a caller's containers are copied, inside a record
    # or not: the caller may change them after the call.
    inside: list[Any] = [1, {"k": [2, {"m": [3]}]}]
    outside: dict[str, Any] = {"a": [1, [2]], "b": {"c": []}}
    bound = Tool.create(holds).bind({"h": {"data": inside}, "free": outside})
    h, free = bound["h"], bound["free"]
    assert isinstance(h, Holds)
    assert h.data == inside and free == outside
    assert not set(_containers(h.data)) & set(_containers(inside))
    assert not set(_containers(free)) & set(_containers(outside))
