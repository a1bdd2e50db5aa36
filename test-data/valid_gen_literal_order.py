"""A Literal's values keep the order written, whatever else the process evaluated first.

The case: ``typing`` caches ``Optional[...]``,
``Union[...]``, ``Annotated[...]`` and its generics (``List[...]``) by their arguments'
equality, and ``Literal["a", "b"] == Literal["b", "a"]``, so ``Optional[Literal["b", "a"]]``
evaluated after ``Optional[Literal["a", "b"]]`` is the first object, and a runtime reading
only the objects would write ``["a", "b"]``. mypy reads the order written. Each set below is
first written in one order (``first_order``, evaluated first as the module is imported), then
in the other, spelled every way: ``Optional``, ``Union[..., None]``, ``X | None``, ``List``,
``Annotated``, a module alias, aliases imported from another module (by name and through the
module), a record field, and a return type (also one inside ``Awaitable[...]``, whose Literal
object was first met as a whole annotation of its own). Annotations are evaluated eagerly (no ``from
__future__ import annotations``): the order of evaluation is the order of the source.
"""

from dataclasses import dataclass
from typing import Awaitable, List, Optional, Union

from typing_extensions import Annotated, Literal

import _literal_order_aliases as aliases
from _literal_order_aliases import Direction
from onellm_runtime import Description, tool

Size = Optional[Literal["large", "small"]]


@tool
def first_order(
    a: Optional[Literal["x", "y"]],
    b: Union[Literal["x", "y"], None],
    c: Literal["x", "y"] | None,
    d: List[Literal[1, 2, 3]],
    e: Annotated[Literal["x", "y"], Description("Pick one.")],
    f: Optional[Literal["asc", "desc"]],
    g: Optional[Literal["small", "large"]],
) -> Optional[Literal["x", "y"]]:
    """Read the values in one order."""
    return None


@dataclass
class Filter:
    side: Optional[Literal["y", "x"]]
    size: Size = None


@tool
def other_order(
    a: Optional[Literal["y", "x"]],
    b: Union[Literal["y", "x"], None],
    c: Literal["y", "x"] | None,
    d: List[Literal[3, 2, 1]],
    e: Annotated[Literal["y", "x"], Description("Pick one.")],
    size: Size,
    direction: Direction,
    steps: aliases.Steps,
    filter: Filter,
) -> Optional[Literal["y", "x"]]:
    """Read the values in the other order."""
    return None


@tool
def plain_first(level: Literal["low", "high"]) -> Awaitable[Literal["low", "high"]]:
    """A whole-annotation Literal (remembered as it is), then the same inside Awaitable."""
    raise NotImplementedError


@tool
def awaited_other(level: str) -> Awaitable[Literal["high", "low"]]:
    """The cached Awaitable holds the Literal object above: its order is read from here."""
    raise NotImplementedError
