"""Streamable HTTP on loopback, bounded: connections, header and idle timeouts, screened bodies.

Each connection is in one of two states: *waiting* (no request in progress: just accepted,
or idle after a response) or *busy* (a request is being served, an SSE stream included).

| Bound | Rule |
|---|---|
| connections | at most ``max_connections`` open (and never more than half the process's open-file limit); over it, the connection that has waited longest is closed, the new one itself only when every other is busy. The listen backlog, which is also how many connections are accepted in one go before they are counted, is a quarter of that limit (at most 256), so a burst of connections cannot exhaust the open files either |
| header timeout | a new connection, and a kept-alive one from the first byte of its next request, must complete a request head within ``header_timeout`` seconds, else it is closed (a client sending half a header is cut off) |
| idle timeout | after a response, a connection that sends nothing is closed after ``idle_timeout`` seconds |
| body | a POST body must arrive within ``body_timeout`` seconds and is at most the SDK's body limit; it is screened like a stdio line (``_transport.screen``) before the SDK reads it |

So a client sending half a header on a thousand connections holds at most
``max_connections`` descriptors, and a normal client connecting after it is served: its
connection is the newest, and it leaves the waiting state as soon as its request head is in.
"""

from __future__ import annotations

import asyncio
import json
import sys
from collections import OrderedDict
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from ._frames import Refusal

__all__ = ["Limits", "guarded_protocol", "screened_app"]

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

#: The SDK's own limit on a request body (``mcp.server.transport_security``), in bytes.
BODY_LIMIT = 4 * 1024 * 1024

#: A body longer than this is screened in a thread: between the scan's C calls the loop runs.
SCREEN_OFF_LOOP_BYTES = 64 * 1024


def _open_file_limit() -> int | None:
    """The process's soft limit on open files (None where there is none, or no ``resource``)."""
    if sys.platform == "win32":
        return None
    import resource

    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    return None if soft == resource.RLIM_INFINITY else soft


class Limits:
    """The bounds of one HTTP server (the module's table), and the connections they hold."""

    def __init__(
        self,
        *,
        max_connections: int = 100,
        header_timeout: float = 10.0,
        idle_timeout: float = 30.0,
        body_timeout: float = 30.0,
    ) -> None:
        soft = _open_file_limit()
        ceiling = max_connections if soft is None else soft // 2
        self.max_connections = max(1, min(max_connections, ceiling))
        #: The listen backlog, which is also how many connections asyncio accepts in one go before
        #: any of them is counted here: a quarter of the open files, so a burst cannot exhaust them.
        self.accept_burst = 256 if soft is None else max(8, min(256, soft // 4))
        self.header_timeout = header_timeout
        self.idle_timeout = idle_timeout
        self.body_timeout = body_timeout
        self.open: set[Any] = set()
        #: The waiting connections, longest-waiting first.
        self.waiting: OrderedDict[Any, None] = OrderedDict()


def guarded_protocol(limits: Limits) -> type[asyncio.Protocol]:
    """uvicorn's h11 protocol, holding its connections to ``limits``."""
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class Guarded(H11Protocol):
        #: The connection's one timer, and when it closes the connection if it still waits then
        #: (loop time; None while a request is served). Waiting again moves the deadline, not the
        #: timer: a timer that fires before the deadline sets itself again for it, so a kept-alive
        #: connection makes a timer per timeout's length, not two per request.
        _timer: asyncio.TimerHandle | None = None
        _expires: float | None = None
        #: Waiting after a response, no byte of the next request yet: the idle timeout runs, not the header's.
        _idle = False

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            limits.open.add(self)
            self._wait(limits.header_timeout)
            if len(limits.open) > limits.max_connections:
                oldest = next(iter(limits.waiting), self)
                oldest._close()

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            cycle: Any = self.cycle  # None until the first request head is complete
            if cycle is not None and not cycle.response_complete:
                self._stop_waiting()
            elif self._idle and self in limits.waiting:  # the next request began: its head has the header timeout
                self._wait(limits.header_timeout)

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing():
                self._wait(limits.idle_timeout, idle=True)

        def connection_lost(self, exc: Exception | None) -> None:
            self._stop_waiting()
            self._stop_timer()
            limits.open.discard(self)
            super().connection_lost(exc)

        def _wait(self, seconds: float, *, idle: bool = False) -> None:
            """Wait (again) for a request head, closing the connection after ``seconds``."""
            limits.waiting.pop(self, None)
            limits.waiting[self] = None  # the longest-waiting first
            self._idle = idle
            expires = self._expires = self.loop.time() + seconds
            timer = self._timer
            if timer is not None and timer.when() > expires:  # a shorter timeout than the one the timer keeps
                timer.cancel()
                timer = None
            if timer is None:
                self._timer = self.loop.call_at(expires, self._expire)

        def _stop_waiting(self) -> None:
            limits.waiting.pop(self, None)
            self._expires = None

        def _stop_timer(self) -> None:
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None

        def _expire(self) -> None:
            self._timer = None
            expires = self._expires
            if expires is None or self not in limits.waiting:
                return
            if self.loop.time() < expires:  # it waited again since the timer was set: the deadline moved
                self._timer = self.loop.call_at(expires, self._expire)
                return
            self._close()

        def _close(self) -> None:
            self._stop_waiting()
            self._stop_timer()
            limits.open.discard(self)
            self.transport.abort()

    return Guarded


async def _answer(send: Send, status: int, body: dict[str, object]) -> None:
    data = json.dumps(body, separators=(",", ":")).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(data)).encode())]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": data})


def screened_app(app: ASGIApp, path: str, limits: Limits) -> ASGIApp:
    """``app`` with each POST body to ``path`` read within the body timeout and screened first."""
    from ._transport import screen

    async def guarded(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "POST" or scope["path"].rstrip("/") != path.rstrip("/"):
            await app(scope, receive, send)
            return
        chunks: list[bytes] = []
        size = 0
        try:
            async with _deadline(limits):
                while True:
                    message = await receive()
                    if message["type"] == "http.disconnect":
                        return
                    chunk: bytes = message.get("body", b"")
                    size += len(chunk)
                    if size > BODY_LIMIT:
                        await _answer(send, 413, {"error": f"the body is over {BODY_LIMIT} bytes"})
                        return
                    chunks.append(chunk)
                    if not message.get("more_body", False):
                        break
        except TimeoutError:
            await _answer(send, 408, {"error": f"the body did not arrive within {limits.body_timeout:g} s"})
            return
        body = b"".join(chunks)
        if len(body) > SCREEN_OFF_LOOP_BYTES:
            frame = await asyncio.get_running_loop().run_in_executor(None, screen, body)
        else:
            frame = screen(body)
        if isinstance(frame, Refusal):
            await _answer(send, 400, frame.answer())
            return
        body = (frame or "").encode()  # the rewritten frame
        headers = [(k, v) for k, v in scope["headers"] if k != b"content-length"]
        headers.append((b"content-length", str(len(body)).encode()))
        delivered = False

        async def replay() -> Message:
            nonlocal delivered
            if not delivered:
                delivered = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await app({**scope, "headers": headers}, replay, send)

    return guarded


class _deadline:
    """The body timeout: a timer that cancels the task, raising ``TimeoutError`` (``asyncio.timeout``
    is not in Python 3.10)."""

    def __init__(self, limits: Limits) -> None:
        self._seconds = limits.body_timeout
        self._handle: asyncio.TimerHandle | None = None
        self._fired = False

    async def __aenter__(self) -> None:
        task = asyncio.current_task()
        assert task is not None

        def fire() -> None:
            self._fired = True
            task.cancel()

        self._handle = asyncio.get_running_loop().call_later(self._seconds, fire)

    async def __aexit__(self, kind: type[BaseException] | None, error: BaseException | None, tb: object) -> bool:
        assert self._handle is not None
        self._handle.cancel()
        if self._fired and kind is asyncio.CancelledError:
            raise TimeoutError
        return False
