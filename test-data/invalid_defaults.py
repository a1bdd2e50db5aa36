"""Defaults the static side cannot read (OLT014, static only: the runtime writes what it sees).

Annotations are evaluated eagerly (no ``from __future__ import annotations``).
See README.md for the ``# expect:`` convention. Tools without a comment are fine on both sides.
"""

import datetime
import enum
from dataclasses import dataclass
from types import SimpleNamespace

from onellm_runtime import tool


def compute() -> int:
    return 5


class Color(enum.Enum):
    RED = "r"


LIMIT = 10
LIMIT = 20  # bound twice: the static side cannot know which value a default sees
settings = SimpleNamespace(page=25)


@dataclass
class Query:
    text: str
    limit: int = compute()


@tool
def computed(
    a: int = compute(),  # expect-static: OLT014
    c: int = LIMIT,  # expect-static: OLT014
    d: int = settings.page,  # expect-static: OLT014
    e: str = str(Color.RED.name),  # expect-static: OLT014
) -> str:
    return ""


@tool
def in_record(
    q: Query,  # expect-static: OLT014
) -> str:
    return ""


@tool
def not_written_anyway(day: datetime.date = datetime.date.today(), items: tuple[int, ...] = tuple(range(3))) -> str:
    """Defaults of types that are never written need not be read."""
    return ""


@tool
def unwritable(
    huge: int = 10**5000,  # expect-static: OLT014
    missing: float = float("nan"),  # expect-static: OLT014
) -> str:
    """The runtime writes neither default (json.dumps cannot) and applies both; ``**`` and calls are not read statically."""
    return ""
