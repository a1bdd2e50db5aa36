"""Semantic Kernel plugin habits (``@kernel_function``) that the contract refuses: a
``pathlib.Path`` parameter (the fix is ``str``), a plain class as a parameter (the fix is a
record kind), exclusive bounds on a float, a non-integer exclusive bound on an integer.

Uses ``from __future__ import annotations``: every annotation is a string, resolved later.
See ../README.md for the ``# expect:`` convention.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import annotated_types as at

from onellm_runtime import tool


class KernelArguments:
    """A plain class holding named values, as Semantic Kernel's own is."""

    def __init__(self, **values: str) -> None:
        self.values = values


class FilesPlugin:
    @tool(description="Reads a file")
    def read(
        self,
        path: Annotated[Path, "The file to read"],  # expect: OLT005
    ) -> str:
        return ""

    @tool(description="Runs a prompt with arguments")
    def run(
        self,
        arguments: KernelArguments,  # expect: OLT005
    ) -> str:
        return ""


class ScoringPlugin:
    @tool(description="Scores an answer")
    def score(
        self,
        confidence: Annotated[float, "How sure, between 0 and 1", at.Interval(gt=0, lt=1)],  # expect: OLT013
    ) -> int:
        return 0

    @tool(description="Picks an answer by rank")
    def pick(
        self,
        rank: Annotated[int, "Rank from the top", at.Lt(1.5)],  # expect: OLT013
    ) -> str:
        return ""
