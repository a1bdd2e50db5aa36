"""JSON-RPC 2.0 over stdio, framed as the Language Server Protocol's base protocol says.

Each message is a header part (``Content-Length: N``, optionally ``Content-Type``, each line
ended by ``\\r\\n``), an empty line, then N bytes of UTF-8 JSON. ``onellm lsp`` serves a
handful of messages, so it speaks this with the standard library rather than importing an
LSP framework (which would cost the server's start most of its time).

What arrives and what is answered:

| what arrives | answer |
|---|---|
| a request (``id`` and ``method``) | its handler's result, or the ``RpcError`` it raised |
| a notification (``method``, no ``id``) | none; an error is logged by the handler's owner |
| a response (``id``, no ``method``) | none (the server sends no requests) |
| a header without a ``Content-Length`` number | Parse error, ``id`` null; reading goes on at the next ``Content-Length`` |
| a body that is not JSON (or not UTF-8) | Parse error, ``id`` null |
| JSON that is no message (an array, no ``method``, ``jsonrpc`` not ``"2.0"``) | Invalid Request, with its ``id`` if it had one |
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import sys
import threading
from dataclasses import dataclass
from typing import Any, BinaryIO, Protocol, cast

__all__ = [
    "PARSE_ERROR",
    "INVALID_REQUEST",
    "METHOD_NOT_FOUND",
    "INVALID_PARAMS",
    "INTERNAL_ERROR",
    "SERVER_NOT_INITIALIZED",
    "Connection",
    "Frames",
    "Handler",
    "RpcError",
    "encode",
]

# JSON-RPC 2.0's error codes, and the LSP's own.
PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603
SERVER_NOT_INITIALIZED = -32002

#: A header part longer than this without its ending empty line is not a header.
MAX_HEADER_BYTES = 8192
#: The one header the base protocol needs (``Content-Type`` may come too, and says UTF-8 JSON).
_LENGTH = re.compile(rb"^content-length:[ \t]*(\d{1,15})[ \t]*\r?$", re.IGNORECASE | re.MULTILINE)
_HEADER_NAME = b"content-length:"
_NEXT_HEADER = re.compile(re.escape(_HEADER_NAME), re.IGNORECASE)


class RpcError(Exception):
    """A request's failure, answered as a JSON-RPC error object."""

    def __init__(self, code: int, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def encode(message: dict[str, Any]) -> bytes:
    """One framed message."""
    body = json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def _error(id_: object, code: int, message: str) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": id_, "error": {"code": code, "message": message}}


@dataclass(frozen=True)
class Bad:
    """Bytes that were no message: the error to answer (``id`` is None where none could be read)."""

    id: int | str | None
    code: int
    message: str


class Frames:
    """Splits the bytes read, however they were cut, into messages (or the errors they make)."""

    def __init__(self) -> None:
        self._buffer = bytearray()
        #: The body length of the header read, while its body has not all arrived.
        self._length: int | None = None

    def feed(self, data: bytes) -> list[dict[str, Any] | Bad]:
        self._buffer += data
        found: list[dict[str, Any] | Bad] = []
        while True:
            if self._length is None:
                end = self._buffer.find(b"\r\n\r\n")
                if end < 0:
                    if len(self._buffer) > MAX_HEADER_BYTES:
                        found.append(Bad(None, PARSE_ERROR, f"no header end within {MAX_HEADER_BYTES} bytes"))
                        self._skip_to_next_header(1)
                        continue
                    return found
                header = bytes(self._buffer[:end])
                length = _LENGTH.search(header)
                if length is None:
                    found.append(Bad(None, PARSE_ERROR, f"a header without a Content-Length: {header[:200]!r}"))
                    self._skip_to_next_header(1)
                    continue
                del self._buffer[: end + 4]
                self._length = int(length.group(1))
            if len(self._buffer) < self._length:
                return found
            body = bytes(self._buffer[: self._length])
            del self._buffer[: self._length]
            self._length = None
            found.append(_message(body))

    def _skip_to_next_header(self, start: int) -> None:
        """Drop what cannot be read, up to the next ``Content-Length`` from ``start`` (where a message may
        start); without one, all but an end that may be the start of one still to come."""
        at = _NEXT_HEADER.search(self._buffer, start)
        if at is not None:
            del self._buffer[: at.start()]
            return
        tail = bytes(self._buffer[-len(_HEADER_NAME) :]).lower()
        keep = next((n for n in range(len(tail), 0, -1) if _HEADER_NAME.startswith(tail[-n:])), 0)
        del self._buffer[: len(self._buffer) - keep]


def _message(body: bytes) -> dict[str, Any] | Bad:
    try:
        parsed: object = json.loads(body.decode("utf-8"))
    except (ValueError, RecursionError) as e:  # not UTF-8, not JSON, a number past int's digits, nesting too deep
        return Bad(None, PARSE_ERROR, f"the message is not JSON that can be read: {type(e).__name__}: {str(e)[:200]}")
    if not isinstance(parsed, dict):
        return Bad(None, INVALID_REQUEST, "a message is a JSON object (batches are not part of the LSP)")
    message = cast("dict[str, Any]", parsed)
    id_: object = message.get("id")
    if not (id_ is None or isinstance(id_, str) or (isinstance(id_, int) and not isinstance(id_, bool))):
        return Bad(None, INVALID_REQUEST, f"an id is a number or a string, not {json.dumps(id_)[:100]}")
    if message.get("jsonrpc") != "2.0":
        return Bad(id_, INVALID_REQUEST, 'a message has "jsonrpc": "2.0"')
    method: object = message.get("method")
    if method is not None and not isinstance(method, str):
        return Bad(id_, INVALID_REQUEST, "a method is a string")
    if method is None and "id" not in message:
        return Bad(None, INVALID_REQUEST, "a message without a method or an id")
    return message


class Handler(Protocol):
    """What the connection hands each message to (on the event loop's thread)."""

    def request(self, method: str, params: Any) -> Any:
        """The result of a request; raises ``RpcError`` to answer an error."""

    def notification(self, method: str, params: Any) -> None: ...

    def log_error(self, message: str) -> None:
        """Report a failure that has no request to answer."""


class Connection:
    """The server's side of stdio: a thread reads and splits messages, the event loop handles them.

    Reading blocks in its own thread (portable, where the event loop's pipes are not on every
    platform); handling and writing happen on the loop, one message at a time, in order.
    """

    def __init__(self, handler: Handler, reader: BinaryIO | None = None, writer: BinaryIO | None = None) -> None:
        self.handler = handler
        self._reader = reader if reader is not None else sys.stdin.buffer
        self._writer = writer if writer is not None else sys.stdout.buffer
        self._closed: asyncio.Future[None] | None = None

    async def serve(self) -> None:
        """Handle messages until the input ends or ``close`` is called."""
        loop = asyncio.get_running_loop()
        self._closed = loop.create_future()
        closed = self._closed

        def deliver(messages: list[dict[str, Any] | Bad]) -> None:
            for message in messages:
                if closed.done():
                    return
                self._receive(message)

        def ended() -> None:
            if not closed.done():
                closed.set_result(None)

        def read() -> None:
            frames, fd = Frames(), self._reader.fileno()
            try:
                while data := os.read(fd, 65536):
                    messages = frames.feed(data)
                    if messages:
                        loop.call_soon_threadsafe(deliver, messages)
                loop.call_soon_threadsafe(ended)
            except Exception:  # the input broke, or the server ended first (its loop closed): the server ends
                with contextlib.suppress(RuntimeError):
                    loop.call_soon_threadsafe(ended)

        threading.Thread(target=read, name="onellm-lsp-stdin", daemon=True).start()
        await closed

    def close(self) -> None:
        if self._closed is not None and not self._closed.done():
            self._closed.set_result(None)

    def notify(self, method: str, params: Any) -> None:
        self._write({"jsonrpc": "2.0", "method": method, "params": params})

    def _write(self, message: dict[str, Any]) -> None:
        try:
            self._writer.write(encode(message))
            self._writer.flush()
        except (OSError, ValueError):  # the client has gone: reading ends too
            self.close()

    def _receive(self, message: dict[str, Any] | Bad) -> None:
        if isinstance(message, Bad):
            self._write(_error(message.id, message.code, message.message))
            return
        method, params = message.get("method"), message.get("params")
        if method is None:
            return  # a response: the server sends no requests
        if "id" not in message:
            self._notified(method, params)
            return
        id_ = message["id"]
        try:
            result = self.handler.request(method, params)
        except RpcError as e:
            self._write(_error(id_, e.code, e.message))
        except Exception as e:  # a failure of the handler: answered, and the server goes on
            self._write(_error(id_, INTERNAL_ERROR, f"{method} failed: {e!r}"))
        else:
            self._write({"jsonrpc": "2.0", "id": id_, "result": result})

    def _notified(self, method: str, params: Any) -> None:
        try:
            self.handler.notification(method, params)
        except Exception as e:  # nothing to answer: reported, and the server goes on
            self.handler.log_error(f"{method} failed: {e!r}")
