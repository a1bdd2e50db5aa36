"""Tools as methods: self/cls never appear; static and class methods under @tool; inheritance.

Uses ``from __future__ import annotations``; ``Person`` is defined after the tools that use
it, so those tools are finished on first use.
"""

from __future__ import annotations

from dataclasses import dataclass

from onellm_runtime import ToolContext, tool


class Tickets:
    """A ticket tracker."""

    def __init__(self) -> None:
        self.titles: list[str] = []

    @tool
    def open(self, title: str, body: str = "") -> int:
        """Open a ticket.

        Args:
            title: One line.
            body: The details.
        """
        self.titles.append(title)
        return len(self.titles)

    @tool
    async def close_async(self, ticket: int) -> None:
        """Close a ticket."""

    @tool
    @staticmethod
    def version() -> str:
        """The tracker's version."""
        return "1"

    @tool
    @classmethod
    def kinds(cls, prefix: str) -> list[str]:
        """Ticket kinds starting with a prefix."""
        return [prefix]

    @tool(name="find")
    def search(self, ctx: ToolContext, query: str) -> str:
        """Find tickets."""
        return query

    @tool
    def assign(self, ticket: int, who: Person) -> str:
        """Assign a ticket to someone."""
        return who.name

    def helper(self) -> None:
        """Not a tool."""

    PAGE = 30

    @tool
    def list_open(self, page_size: int = PAGE) -> list[str]:
        """A class constant as a default."""
        return self.titles[:page_size]


class MoreTickets(Tickets):
    @tool
    def reopen(self, ticket: int) -> str:
        """Reopen a ticket."""
        return ""


@tool
def greet(person: Person) -> str:
    """A module-level tool whose record is defined further down."""
    return person.name


@dataclass
class Person:
    name: str
    email: str | None = None
