"""What both transports do with a frame before the SDK serves it: ``screen``; and, for stdio, the
lines the SDK's stdio transport reads, each screened first (``ScreenedLines``).

A frame is read by ``_frames.read_frame`` (the arguments kept as written, repeated members
refused), then parsed as the SDK will parse it; a frame the SDK would refuse gets its error
answer here, with the request's id, because the SDK cannot answer a frame it could not read.
"""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator
from typing import Any

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
        import anyio
        from mcp.shared.message import SessionMessage
        from mcp_types import JSONRPCError

        await self._ready.wait()
        async for line in anyio.wrap_file(sys.stdin.buffer):
            frame = screen(line)
            if isinstance(frame, Refusal):
                await self._answers.send(SessionMessage(JSONRPCError.model_validate(frame.answer())))
            elif frame is not None:
                yield frame
