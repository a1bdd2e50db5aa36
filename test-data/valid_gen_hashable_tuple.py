"""Sets of tuples: ``tuple[T, ...]`` binds as a tuple, hashable when its items are.

A checker that calls every ``tuple[T, ...]`` unhashable refuses ``set[tuple[int, ...]]``
with OLT002; both sides accept it, since each item is a tuple of hashable values.
Annotations are evaluated eagerly (no ``from __future__ import annotations``).
"""

from dataclasses import dataclass

from onellm_runtime import tool


@dataclass(frozen=True)
class Cell:
    row: int
    col: int


@tool
def mark_cells(
    paths: set[tuple[int, ...]],
    groups: frozenset[tuple[Cell, ...]],
    nested: set[tuple[tuple[str, ...], ...]] | None = None,
) -> None:
    """Mark groups of cells."""
