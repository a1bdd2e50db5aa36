"""What both transports do with a frame before the SDK serves it: ``screen``; and, for stdio, the
lines the SDK's stdio transport reads, each screened first (``ScreenedLines``).

A frame is read by ``_frames.read_frame`` (the arguments kept as written, repeated members
refused), then parsed as the SDK will parse it; a frame the SDK would refuse gets its error
answer here, with the request's id, because the SDK cannot answer a frame it could not read.
"""

from __future__ import annotations

import asyncio
import os
import threading
from collections.abc import AsyncIterator
from typing import Any, cast

from ._frames import INVALID_REQUEST, PARSE_ERROR, Refusal, read_frame

__all__ = ["ScreenedLines", "screen"]


def screen(raw: bytes | str) -> str | Refusal | None:
    """The frame to hand the SDK, the error to answer instead, or None (a blank line)."""
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError as e:
            return Refusal(None, PARSE_ERROR, f"Parse error: the frame is not UTF-8 (byte {e.start}).")
    read = read_frame(raw)
    if read is None or isinstance(read, Refusal):
        return read
    import mcp_types

    try:
        mcp_types.jsonrpc_message_adapter.validate_json(read.text, by_name=False)
    except Exception:
        if read.is_request:
            return Refusal(read.id, INVALID_REQUEST, "Invalid Request: the message does not fit JSON-RPC 2.0 and MCP.")
        return None  # a notification or a response nobody can be told about
    return read.text


#: What the reader thread hands the event loop for each line: the frame for the SDK or the error
#: to answer (a blank line is skipped); ``_END`` when standard input has ended.
_END = object()

#: How many screened lines may wait for the event loop before the reader thread waits too.
_WAITING_LINES = 16


def _read_lines(loop: asyncio.AbstractEventLoop, screened: asyncio.Queue[object], room: threading.Semaphore) -> None:
    """Standard input's lines, each screened, into ``screened``; ``_END`` at its end.

    Each line takes one of ``room``'s places, which the loop gives back as it takes the line:
    the thread waits while ``_WAITING_LINES`` lines wait, and hands a line over with one
    wake-up of the loop (no task or future per line).

    A daemon thread of its own, reading the descriptor with ``os.read``: a read blocked on a
    silent client must not keep the process (or a cancelled server) from ending, as a worker
    thread that is joined at exit would, and must hold no lock of ``sys.stdin``'s buffer, which
    the interpreter takes at exit. Screening here, not on the loop, leaves the loop free between
    the scan's C calls while a large frame is read.
    """

    def put(item: object) -> bool:
        room.acquire()
        try:
            loop.call_soon_threadsafe(screened.put_nowait, item)
        except RuntimeError:  # the loop has closed: nobody reads any more
            return False
        return True

    def put_line(line: bytes) -> bool:
        frame = screen(line)
        return frame is None or put(frame)

    partial: list[bytes] = []  # the pieces of a line not ended yet: joined once, when it ends
    while chunk := os.read(0, 1 << 16):
        start = 0
        while (end := chunk.find(b"\n", start)) != -1:
            partial.append(chunk[start:end])
            line, partial = b"".join(partial), []
            if not put_line(line):
                return
            start = end + 1
        if start < len(chunk):
            partial.append(chunk[start:])
    if partial:
        put_line(b"".join(partial))
    put(_END)


class ScreenedLines:
    """Standard input as the SDK's stdio transport reads it: each line screened first.

    A line the SDK could not answer (``_transport.screen``) is answered here, on the
    transport's own write stream, and not handed on.
    """

    def __init__(self) -> None:
        import anyio

        self._ready = anyio.Event()
        self._answers: Any = None

    def answer_on(self, write: Any) -> None:
        self._answers = write
        self._ready.set()

    def __aiter__(self) -> AsyncIterator[str]:
        return self._lines()

    async def _lines(self) -> AsyncIterator[str]:
        from mcp.shared.message import SessionMessage
        from mcp_types import JSONRPCError

        await self._ready.wait()
        screened: asyncio.Queue[object] = asyncio.Queue()  # bounded by ``room``
        room = threading.Semaphore(_WAITING_LINES)
        reader = threading.Thread(
            target=_read_lines, args=(asyncio.get_running_loop(), screened, room), name="onellm-mcp-stdin", daemon=True
        )
        reader.start()
        while (frame := await screened.get()) is not _END:
            room.release()
            if isinstance(frame, Refusal):
                await self._answers.send(SessionMessage(JSONRPCError.model_validate(frame.answer())))
            else:
                yield cast(str, frame)
