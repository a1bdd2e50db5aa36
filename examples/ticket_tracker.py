"""A ticket tracker offered to a model as a class of tools.

Run ``onellm schemas examples/ticket_tracker.py`` to see what the model reads, and
``python examples/ticket_tracker.py`` to watch a model's calls bound and invoked.
"""

from __future__ import annotations

import asyncio
import enum
import itertools
from dataclasses import dataclass, field
from datetime import date
from typing import Annotated, Literal

from onellm_runtime import (
    Description,
    MaxLength,
    Pattern,
    Range,
    ToolContext,
    ToolInvoker,
    tool,
    tools_of,
)


class Priority(enum.Enum):
    Low = "low"
    Normal = "normal"
    Urgent = "urgent"


@dataclass(frozen=True)
class Ticket:
    """A ticket as the tracker stores it.

    Attributes:
        ticket_id: The tracker's id, such as ``T-12``.
        title: One line that says what is wrong.
        priority: How soon it needs attention.
        labels: Free-form labels.
        due: The day it is due, if any.
    """

    ticket_id: str
    title: str
    priority: Priority
    labels: frozenset[str] = frozenset()
    due: date | None = None


@dataclass(frozen=True)
class Filter:
    """Which tickets to list.

    Attributes:
        priority: Only tickets of this priority.
        label: Only tickets carrying this label.
    """

    priority: Priority | None = None
    label: str | None = None


@dataclass
class TicketTracker:
    """An in-memory tracker; a real one would talk to a database."""

    tickets: dict[str, Ticket] = field(default_factory=dict[str, Ticket])
    _ids: itertools.count[int] = field(default_factory=lambda: itertools.count(1))

    @tool(naming="camelCase")
    def open_ticket(
        self,
        title: Annotated[str, MaxLength(120)],
        priority: Priority = Priority.Normal,
        labels: set[str] | None = None,
        due: date | None = None,
    ) -> Ticket:
        """Open a new ticket.

        Args:
            title: One line that says what is wrong.
            priority: How soon it needs attention.
            labels: Labels to attach.
            due: The day it is due.
        """
        ticket = Ticket(f"T-{next(self._ids)}", title, priority, frozenset(labels or ()), due)
        self.tickets[ticket.ticket_id] = ticket
        return ticket

    @tool
    def list_tickets(
        self,
        where: Filter | None = None,
        limit: Annotated[int, Range(1, 100), Description("How many tickets at most.")] = 20,
    ) -> list[Ticket]:
        """List tickets, newest first."""
        found = [
            t
            for t in reversed(self.tickets.values())
            if where is None
            or (
                (where.priority is None or t.priority == where.priority)
                and (where.label is None or where.label in t.labels)
            )
        ]
        return found[:limit]

    @tool(requires_approval=True)
    def close_ticket(
        self,
        ticket_id: Annotated[str, Pattern(r"^T-\d+$")],
        resolution: Literal["fixed", "wont_fix", "duplicate"],
        context: ToolContext,
    ) -> str:
        """Close a ticket. A person approves every closure.

        Args:
            ticket_id: The ticket to close, such as ``T-12``.
            resolution: Why it is closed.
        """
        ticket = self.tickets.pop(ticket_id, None)
        if ticket is None:
            raise KeyError(f"no ticket {ticket_id}")
        context.add_cost("tracker_api_calls", 1)
        return f"Closed {ticket_id} ({resolution})."


async def _demo() -> None:
    tracker = TicketTracker()
    tools = {t.name: t for t in tools_of(tracker)}
    invoker = ToolInvoker()
    calls = [
        ("open_ticket", '{"title": "Login page is blank", "priority": "urgent", "labels": ["web"]}'),
        ("open_ticket", '{"title": "Typo in footer", "priority": "Low"}'),
        ("list_tickets", '{"where": {"priority": "urgent"}}'),
        ("close_ticket", '{"ticket_id": "T-1", "resolution": "fixed"}'),
    ]
    for name, arguments in calls:
        result = await invoker.invoke(tools[name], arguments)
        print(f"{name}({arguments}) ->", "ERROR:" if result.is_error else "", result.text)
    approved = await invoker.invoke(tools["close_ticket"], '{"ticket_id": "T-1", "resolution": "fixed"}', approved=True)
    print("close_ticket, approved ->", approved.text)


if __name__ == "__main__":
    asyncio.run(_demo())
