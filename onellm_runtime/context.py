"""What the runtime hands a tool besides its arguments: the context and the cancellation token."""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any, Mapping, Protocol

__all__ = ["Clock", "CostLine", "CancellationToken", "ToolCancelledError", "ToolContext"]


class Clock(Protocol):
    """The time source timeouts are measured on; a test can hand in a fake one."""

    def monotonic(self) -> float: ...

    async def sleep(self, seconds: float) -> None: ...


@dataclass(frozen=True)
class CostLine:
    """One cost a tool reported (tokens, dollars, API calls...)."""

    label: str
    amount: float
    unit: str = ""


class ToolCancelledError(Exception):
    """Raised by ``CancellationToken.raise_if_cancelled`` inside a cancelled tool."""


class CancellationToken:
    """Cooperative cancellation for tools, set by the invoker on timeout or cancellation.

    A sync tool runs in a worker thread that cannot be interrupted; it checks this token.
    """

    __slots__ = ("_cancelled", "_event")

    def __init__(self) -> None:
        # A flag, and an Event only once some thread waits: one token per call, and most are
        # never waited on (an Event costs more to make than the rest of a call's bookkeeping).
        self._cancelled = False
        self._event: threading.Event | None = None

    @property
    def cancelled(self) -> bool:
        return self._cancelled

    def cancel(self) -> None:
        self._cancelled = True
        event = self._event
        if event is not None:
            event.set()

    def raise_if_cancelled(self) -> None:
        if self._cancelled:
            raise ToolCancelledError("the tool call was cancelled")

    def wait(self, timeout: float | None = None) -> bool:
        """Block a worker thread until cancelled (or ``timeout``); True when cancelled."""
        event = self._event
        if event is None:
            with _EVENT_LOCK:
                if self._event is None:
                    self._event = threading.Event()
                event = self._event
            if self._cancelled:  # a cancel() that ran before the Event existed
                event.set()
        return event.wait(timeout)


_EVENT_LOCK = threading.Lock()


class ToolContext:
    """Per-call information and services, injected into a ``ToolContext`` parameter."""

    def __init__(
        self,
        call_id: str = "",
        services: Mapping[str, Any] | None = None,
        clock: Clock | None = None,
        *,
        tool_name: str = "",
        cancellation: CancellationToken | None = None,
    ) -> None:
        self.call_id = call_id
        self.services: Mapping[str, Any] = services if services is not None else {}
        self.clock = clock
        self.tool_name: str = tool_name
        self.cancellation: CancellationToken = cancellation if cancellation is not None else CancellationToken()
        self.costs: list[CostLine] = []
        self._lock = threading.Lock()

    def add_cost(self, label: str, amount: float, unit: str = "") -> None:
        """Record a cost line; it is kept on the result on every path, errors included."""
        with self._lock:
            self.costs.append(CostLine(label, amount, unit))
