"""What the runtime hands a tool besides its arguments: the context and the cancellation token."""

from __future__ import annotations

import threading
import warnings
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Generic, Literal, Protocol, cast

from typing_extensions import TypeVar

__all__ = ["Clock", "CostLine", "CancellationToken", "LogLevel", "ToolCancelledError", "ToolContext", "ToolEvent"]

#: The services a context carries: the caller's type, or the untyped mapping by default.
Deps = TypeVar("Deps", default=Mapping[str, Any])

#: The argument document of a call as the invoker received it (``ToolContext.arguments``).
ArgumentDocument = str | bytes | Mapping[str, object]

#: The levels of ``ToolContext.log`` (MCP's logging levels, the common ones).
LogLevel = Literal["debug", "info", "warning", "error"]


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


@dataclass(frozen=True)
class ToolEvent:
    """A progress or log line a tool reported through its context, as its listeners receive it.

    ``kind`` is ``"progress"`` (``progress`` and ``total`` set, ``message`` optional) or
    ``"log"`` (``level`` and ``message``).
    """

    kind: Literal["progress", "log"]
    tool_name: str
    call_id: str
    message: str = ""
    progress: float | None = None
    total: float | None = None
    level: LogLevel = "info"


#: Receives a context's events, in the thread the tool reported them from.
Listener = Callable[[ToolEvent], object]


class ToolContext(Generic[Deps]):
    """Per-call information and services, injected into a ``ToolContext`` parameter.

    ``ToolContext[MyDeps]`` types ``services`` as the caller's own object; a bare
    ``ToolContext`` carries the untyped ``Mapping[str, Any]``.
    """

    def __init__(
        self,
        call_id: str = "",
        services: Deps | None = None,
        clock: Clock | None = None,
        *,
        tool_name: str = "",
        cancellation: CancellationToken | None = None,
        listeners: Iterable[Listener] = (),
    ) -> None:
        self.call_id = call_id
        self.services: Deps = cast(Deps, services if services is not None else {})
        self.clock = clock
        self.tool_name: str = tool_name
        self.cancellation: CancellationToken = cancellation if cancellation is not None else CancellationToken()
        self.costs: list[CostLine] = []
        self._lock = threading.Lock()
        self._listeners: list[Listener] = list(listeners)
        self._arguments: ArgumentDocument | None = None

    @property
    def arguments(self) -> ArgumentDocument | None:
        """The call's argument document exactly as the invoker received it, before binding.

        The ``str`` or ``bytes`` of a raw document (an MCP call's arguments as the client
        wrote them), or a read-only view of a ``Mapping``; None until the invoker runs a call
        with this context. For tools that log or forward the raw call.
        """
        return self._arguments

    def _receive(self, arguments: ArgumentDocument) -> None:
        """Set by the invoker when a call with this context starts (``arguments`` has no setter)."""
        self._arguments = arguments if isinstance(arguments, (str, bytes)) else MappingProxyType(arguments)

    def subscribe(self, listener: Listener) -> None:
        """Have ``listener`` receive this call's progress and log events from now on."""
        with self._lock:
            self._listeners.append(listener)

    def progress(self, progress: float, total: float | None = None, message: str = "") -> None:
        """Report how far the call has come (``progress`` of ``total``, when known)."""
        self._emit(ToolEvent("progress", self.tool_name, self.call_id, message, progress, total))

    def log(self, message: str, level: LogLevel = "info") -> None:
        """Report a log line for whoever follows the call (an MCP client gets a log notification)."""
        self._emit(ToolEvent("log", self.tool_name, self.call_id, message, level=level))

    def _emit(self, event: ToolEvent) -> None:
        with self._lock:
            listeners = tuple(self._listeners)
        for listener in listeners:
            try:
                listener(event)
            except Exception as e:  # a listener's fault is not the tool's: the call goes on, and it is said
                warnings.warn(f"a ToolContext listener raised {type(e).__name__}: {e}", RuntimeWarning, stacklevel=3)

    def add_cost(self, label: str, amount: float, unit: str = "") -> None:
        """Record a cost line; it is kept on the result on every path, errors included."""
        with self._lock:
            self.costs.append(CostLine(label, amount, unit))
