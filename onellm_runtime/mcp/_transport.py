"""What both transports do with a frame before the SDK serves it: ``screen``.

A frame is read by ``_frames.read_frame`` (the arguments kept as written, repeated members
refused), then parsed as the SDK will parse it; a frame the SDK would refuse gets its error
answer here, with the request's id, because the SDK cannot answer a frame it could not read.
"""

from __future__ import annotations

from ._frames import INVALID_REQUEST, PARSE_ERROR, Refusal, read_frame

__all__ = ["screen"]


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
