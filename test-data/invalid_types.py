"""Faulty parameter types: OLT002 for every reason, OLT005, OLT006.

Uses ``from __future__ import annotations``. See README.md for the ``# expect:`` convention.
"""

from __future__ import annotations

import abc
import collections
import enum
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, Protocol

from typing_extensions import TypedDict

from onellm_runtime import tool

if TYPE_CHECKING:
    from decimal import Decimal


class Flags(enum.Flag):
    A = 1
    B = 2


class Named(Protocol):
    name: str


class Shape(abc.ABC):
    @abc.abstractmethod
    def area(self) -> float: ...


class Plain:
    def __init__(self, x: int) -> None:
        self.x = x


@dataclass
class Loose:
    value: Any
    other: object


@dataclass
class HasPlain:
    inner: Plain


@dataclass
class MutablePoint:
    x: int


@dataclass(frozen=True, eq=False)
class IdentityPoint:
    """Hashable, but equal only to itself: a set of these could not refuse two equal items."""

    x: int


@dataclass
class Node:
    name: str
    children: list[Node]


@dataclass
class Ping:
    pong: Pong | None


@dataclass
class Pong:
    ping: Ping


class Tree(TypedDict):
    label: str
    kids: dict[str, Tree]


@dataclass
class Cat:
    kind: Literal["cat"]


@tool
def any_and_object(
    a: Any,  # expect: OLT002
    b: object,  # expect: OLT002
    ok: int,
) -> str:
    return ""


@tool
def missing_annotation(
    x,  # expect: OLT002
    y: int,
) -> str:
    return ""


@tool
def callables(
    f: Callable[[int], int],  # expect: OLT002
) -> str:
    return ""


@tool
def protocols(
    n: Named,  # expect: OLT002
    s: Shape,  # expect: OLT002
) -> str:
    return ""


@tool
def bare_collections(
    a: list,  # expect: OLT002
    b: dict,  # expect: OLT002
    c: set,  # expect: OLT002
    d: tuple,  # expect: OLT002
) -> str:
    return ""


@tool
def bad_keys(
    a: dict[int, str],  # expect: OLT002
    b: dict[tuple[str, ...], str],  # expect: OLT002
) -> str:
    return ""


@tool
def fixed_tuples(
    a: tuple[int, str],  # expect: OLT002
    b: tuple[int],  # expect: OLT002
) -> str:
    return ""


@tool
def flags(
    f: Flags,  # expect: OLT002
    fs: set[Flags],  # expect: OLT002
) -> str:
    return ""


@tool
def mixed_literal(
    x: Literal["a", 1],  # expect: OLT002
    y: Literal["a"] | Literal[True],  # expect: OLT002
) -> str:
    return ""


@tool
def unions(
    a: int | str,  # expect: OLT002
    b: Cat | str,  # expect: OLT002
    c: int | str | None,  # expect: OLT002
) -> str:
    return ""


@tool
def unhashable_items(
    a: set[list[int]],  # expect: OLT002
    b: frozenset[MutablePoint],  # expect: OLT002
    c: set[dict[str, int]],  # expect: OLT002
    d: set[IdentityPoint],  # expect: OLT002
) -> str:
    return ""


@tool
def other_collections(
    a: collections.deque[int],  # expect: OLT002
    b: collections.Counter[str],  # expect: OLT002
) -> str:
    return ""


@tool
def unresolved(
    amount: Decimal,  # expect: OLT002
) -> str:
    return ""


@tool
def none_and_others(
    a: None,  # expect: OLT002
    b: complex,  # expect: OLT002
    c: type[int],  # expect: OLT002
) -> str:
    return ""


@tool
def star_args(
    *args: int,  # expect: OLT002
    **kwargs: str,  # expect: OLT002
) -> str:
    return ""


@tool
def inside_records(
    loose: Loose,  # expect: OLT002 OLT002
    many: list[Loose],  # expect: OLT002 OLT002
    table: dict[str, Callable[[], int]],  # expect: OLT002
) -> str:
    return ""


@tool
def plain_classes(
    a: Plain,  # expect: OLT005
    b: list[Plain],  # expect: OLT005
    c: HasPlain,  # expect: OLT005
) -> str:
    return ""


@tool
def self_references(
    node: Node,  # expect: OLT006
    ping: Ping,  # expect: OLT006
    tree: Tree,  # expect: OLT006
) -> str:
    return ""
