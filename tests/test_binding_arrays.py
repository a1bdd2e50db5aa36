"""Arrays of records, of discriminated-union items and of plain scalars: the binder's fast
passes over a whole array (``Body.many``, ``union_check``'s ``many``, the bulk tests of
scalar lists) against the contract (Binding: arrays, records, unions; the message table in
``onellm_runtime/binding/__init__.py``).

Each item of such an array may leave the plain case anywhere in the array (first, middle,
last, several): the messages and paths below are written by hand, and are the ones an item
checked on its own gets. The last tests pin the structure the speed rests on: a plain
record item, or union item, costs no Python call.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from types import FrameType
from typing import Annotated, Any, Literal, Optional, Union

import pytest

from onellm_runtime import ArgumentError, MaxLength, Tool


@dataclass
class Point:
    x: int
    y: int


@dataclass
class Add:
    op: Literal["add"]
    amount: int


@dataclass
class Remove:
    op: Literal["remove"]
    key: str


SEEN: list[int] = []


@dataclass
class Checked:
    n: int

    def __post_init__(self) -> None:
        SEEN.append(self.n)
        if self.n == 7:
            raise ValueError("seven")


def points(xs: list[Point]) -> None:
    """Records."""


def steps(xs: list[Union[Add, Remove]]) -> None:
    """Union items."""


def maybe_points(xs: list[Optional[Point]]) -> None:
    """Records or null."""


def checked(xs: list[Checked]) -> None:
    """Records with a __post_init__."""


def names(xs: list[str]) -> None:
    """Strings."""


def ids(xs: list[int]) -> None:
    """Integers."""


def outcome(fn: Any, arguments: object) -> object:
    try:
        return Tool.create(fn).bind(arguments)["xs"]  # type: ignore[arg-type]
    except ArgumentError as e:
        return str(e)


P = {"x": 1, "y": 2}

CASES: list[tuple[str, Any, list[object], object]] = [
    ("records, every member in order", points, [P] * 3, [Point(1, 2)] * 3),
    ("records, one in another order", points, [P, {"y": 2, "x": 1}, P], [Point(1, 2)] * 3),
    ("record missing a member", points, [P, {"x": 1}, P], "Argument 'xs[1].y' is required."),
    (
        "record with an unknown member",
        points,
        [P, P, {"x": 1, "y": 2, "z": 3}],
        "Argument 'xs[2].z' is not a known property; known properties: x, y.",
    ),
    (
        "records with wrong values",
        points,
        [{"x": "1", "y": 2}, P, {"x": 1, "y": None}],
        "Argument 'xs[0].x' must be an integer, got string \"1\".\nArgument 'xs[2].y' must be an integer, got null.",
    ),
    (
        "items that are no object",
        points,
        [P, [1, 2], None],
        "Argument 'xs[1]' must be an object, got array.\nArgument 'xs[2]' must be an object, got null.",
    ),
    ("records or null", maybe_points, [P, None, P], [Point(1, 2), None, Point(1, 2)]),
    (
        "record refused by __post_init__",
        checked,
        [{"n": 1}, {"n": 7}],
        "Argument 'xs[1]' is not valid: ValueError: seven",
    ),
    (
        "union items, tag first or not",
        steps,
        [{"op": "add", "amount": 1}, {"key": "k", "op": "remove"}],
        [Add("add", 1), Remove("remove", "k")],
    ),
    (
        "union item with another branch's member",
        steps,
        [{"op": "add", "amount": 1}, {"op": "remove", "amount": 2}],
        "Argument 'xs[1].amount' is not a field of 'remove' (it belongs to 'add'); 'remove' takes: op, key.\n"
        "Argument 'xs[1].key' is required.",
    ),
    (
        "union items with bad tags",
        steps,
        [{"op": "mul", "amount": 2}, {"op": 1}, {"amount": 1}, {"op": "add", "amount": 1}],
        "Argument 'xs[0].op' must be one of: add, remove; got \"mul\".\n"
        "Argument 'xs[1].op' must be one of: add, remove; got 1.\n"
        "Argument 'xs[2].op' is required; it must be one of: add, remove.",
    ),
    ("long list of strings", names, ["a"] * 20 + ["é"], ["a"] * 20 + ["é"]),
    ("long list of strings, an integer", names, ["a"] * 20 + [1], "Argument 'xs[20]' must be a string, got integer 1."),
    (
        "long list of strings, a lone surrogate",
        names,
        ["a"] * 20 + ["\ud800"],
        "Argument 'xs[20]' contains a lone surrogate (\\ud800), which is not valid Unicode.",
    ),
]


@pytest.mark.parametrize(("label", "fn", "items", "expected"), CASES, ids=[c[0] for c in CASES])
def test_arrays_bind_as_their_items_do(label: str, fn: Any, items: list[object], expected: object) -> None:
    raw = json.dumps({"xs": items})
    assert outcome(fn, raw) == expected
    assert outcome(fn, json.loads(raw)) == expected  # the mapping entrance: item by item


def test_a_duplicate_member_inside_an_item_is_reported_at_its_path() -> None:
    raw = '{"xs": [{"x": 1, "y": 2}, {"x": 1, "y": 2, "x": 3}]}'
    assert outcome(points, raw) == "Argument 'xs[1].x' is given more than once."


def test_each_record_is_constructed_once_when_every_item_binds() -> None:
    numbers = list(range(10, 30))
    expected = [Checked(n) for n in numbers]
    SEEN.clear()
    assert outcome(checked, json.dumps({"xs": [{"n": n} for n in numbers]})) == expected
    assert SEEN == numbers


def test_every_bind_gives_lists_of_its_own() -> None:
    t = Tool.create(ids)
    raw = json.dumps({"xs": list(range(20))})
    first, second = t.bind(raw)["xs"], t.bind(raw)["xs"]
    assert isinstance(first, list) and isinstance(second, list)
    first.append(99)
    assert second == list(range(20))
    given = {"xs": list(range(20))}
    bound = t.bind(given)["xs"]
    assert bound == given["xs"] and bound is not given["xs"]  # a caller's list is copied


@dataclass
class Grows:
    ids: Annotated[list[int], MaxLength(20)]

    def __post_init__(self) -> None:
        self.ids.append(0)


def grows(g: Grows, n: int) -> None:
    """A record whose constructor changes its list."""


def test_a_list_a_constructor_changes_is_not_the_document_a_second_pass_reads() -> None:
    # The fault in n sends the call to the collecting pass, which reads g's list again: it
    # must find the 20 items sent, not the 21 the first pass's __post_init__ left in its list.
    raw = json.dumps({"g": {"ids": list(range(20))}, "n": "x"})
    assert outcome_of(grows, raw) == "Argument 'n' must be an integer, got string \"x\"."


def outcome_of(fn: Any, arguments: str) -> object:
    try:
        return Tool.create(fn).bind(arguments)
    except ArgumentError as e:
        return str(e)


def _python_calls(t: Tool[..., Any], raw: str) -> int:
    """How many Python-level function calls binding ``raw`` makes."""
    count = 0

    def profile(frame: FrameType, event: str, arg: object) -> None:
        nonlocal count
        if event == "call":
            count += 1

    t.bind(raw)  # compiled outside the count
    sys.setprofile(profile)
    try:
        t.bind(raw)
    finally:
        sys.setprofile(None)
    return count


def test_a_plain_record_item_costs_no_python_call() -> None:
    t = Tool.create(points)
    few = _python_calls(t, json.dumps({"xs": [P] * 10}))
    many = _python_calls(t, json.dumps({"xs": [P] * 100}))
    assert many == few


def test_a_plain_union_item_costs_no_python_call() -> None:
    t = Tool.create(steps)
    items = [{"op": "add", "amount": 1}, {"op": "remove", "key": "k"}]
    few = _python_calls(t, json.dumps({"xs": items * 5}))
    many = _python_calls(t, json.dumps({"xs": items * 50}))
    assert many == few
