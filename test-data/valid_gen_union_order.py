"""A union's members keep the order written, whatever else the process evaluated first.

The case: like a Literal's values (see
``valid_gen_literal_order.py``), a union's members lose their order inside a construct
``typing`` caches by equality, since ``Union[A, B] == Union[B, A]``: ``Union[Literal["t"],
Literal["p"]] | None`` after ``Union[Literal["p"], Literal["t"]] | None`` is the first
object, and a runtime reading only the objects would write ``["p", "t"]`` where mypy reads
``["t", "p"]``; the same reorders a record union's ``anyOf``. Each union is first written in one order
(``first_order``, evaluated first), then in the other: ``Optional``, ``X | None``, ``List``,
and through an alias of a union. Annotations are evaluated eagerly (no ``from __future__
import annotations``).
"""

from dataclasses import dataclass
from typing import List, Optional, Union

from typing_extensions import Literal

from onellm_runtime import tool


@dataclass
class Open:
    kind: Literal["open"]
    path: str


@dataclass
class Close:
    kind: Literal["close"]
    force: bool


Either = Union[Close, Open]


@tool
def first_order(
    a: Optional[Union[Open, Close]],
    b: Union[Literal["p"], Literal["t"]] | None,
    c: List[Union[Open, Close]],
) -> None:
    """Members in one order."""


@tool
def other_order(
    a: Optional[Union[Close, Open]],
    b: Union[Literal["t"], Literal["p"]] | None,
    c: List[Union[Close, Open]],
    d: Optional[Either],
) -> None:
    """Members in the other order."""
