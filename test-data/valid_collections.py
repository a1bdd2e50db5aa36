"""Every collection spelling, dictionaries, the JSON types, NewType and nested Annotated.

Annotations are evaluated eagerly (no ``from __future__ import annotations``).
"""

import typing
from collections.abc import (
    Collection,
    Iterable,
    Mapping,
    MutableMapping,
    MutableSequence,
    MutableSet,
    Sequence,
)
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from typing import Annotated, Dict, FrozenSet, List, NewType, Set, Tuple

from onellm_runtime import Description, JsonArray, JsonObject, JsonValue, MaxLength, tool

UserId = NewType("UserId", str)
Count = NewType("Count", int)


@tool
def sequences(
    a: list[int],
    b: Sequence[int],
    c: MutableSequence[int],
    d: Iterable[int],
    e: Collection[int],
    f: tuple[int, ...],
    g: List[int],
    h: typing.Sequence[int],
    i: Tuple[int, ...],
) -> str:
    """Every array spelling."""
    return ""


@tool
def sets(
    a: set[str],
    b: frozenset[str],
    c: AbstractSet[str],
    d: MutableSet[str],
    e: Set[str],
    f: FrozenSet[str],
    g: typing.AbstractSet[str],
) -> str:
    """Every set spelling: uniqueItems."""
    return ""


@tool
def mappings(
    a: dict[str, int],
    b: Mapping[str, int],
    c: MutableMapping[str, int],
    d: Dict[str, int],
    e: typing.Mapping[str, list[str]],
    f: dict[UserId, float],
) -> str:
    """Dictionaries with string keys."""
    return ""


@tool
def json_types(value: JsonValue, obj: JsonObject, arr: JsonArray, values: list[JsonValue]) -> str:
    """Any JSON value, object, array."""
    return ""


@tool
def new_types(user: UserId, count: Count, users: list[UserId]) -> str:
    """A NewType has its base type's fragment."""
    return ""


@tool
def nested(
    grid: list[list[int]],
    index: dict[str, list[int]],
    names: list[Annotated[str, MaxLength(10), Description("One name.")]],
    groups: dict[str, set[int]],
) -> str:
    """Collections nest, and Annotated applies where it is written."""
    return ""


@tool
def returns_list() -> list[int]:
    return []


@tool
def returns_map() -> dict[str, float]:
    return {}


@tool
def returns_json_value() -> JsonValue:
    return None


@tool
def returns_json_object() -> JsonObject:
    return {}


@tool
def returns_json_array() -> JsonArray:
    return []


@tool
def returns_user() -> UserId:
    return UserId("x")


@tool
def returns_count() -> Count:
    return Count(1)


@tool
def forward_refs(items: list["Later"], by_name: dict[str, "Later"], maybe: typing.Optional[list["Later"]]) -> str:
    """String forward references inside collections resolve once the record exists."""
    return ""


@dataclass
class Later:
    name: str
