"""Sets of tuples: ``tuple[T, ...]`` binds as a tuple, hashable when its items are.

Found by the generated-signatures differential (issue 8): the shared checker called every
``tuple[T, ...]`` unhashable, so ``set[tuple[int, ...]]`` was refused with OLT002.
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
