"""Tools served to MCP clients: ``onellm serve-mcp examples/mcp_server.py``
(needs the ``mcp`` extra: ``pip install -e '.[mcp]'`` in a clone).

Any MCP client (Claude Desktop, an IDE, the ``mcp`` package's ``Client``) lists these tools
exactly as ``mcp_tool(t)`` writes them, and every call is bound strictly: a bad argument
comes back as an ``isError`` result with onellm's text. ``render_badge`` returns an image,
sent as MCP ``ImageContent``; ``scan`` reports progress and a log line through its
``ToolContext``, which the client receives as notifications.

    onellm serve-mcp examples/mcp_server.py              # stdio (what desktop clients start)
    onellm serve-mcp --http 8765 examples/mcp_server.py  # streamable HTTP on 127.0.0.1:8765/mcp
    python examples/mcp_server.py                        # a demo session with the mcp client, in process

``docs/loop.md`` shows the demo's output.
"""

from __future__ import annotations

import asyncio
import json
import zlib
from typing import Annotated, Literal

from onellm_runtime import Description, ImagePart, Range, ToolContext, tool


@tool
def word_count(text: str, unique: bool = False) -> int:
    """Count the words of a text.

    Args:
        text: The text to count.
        unique: Count each distinct word once.
    """
    words = text.lower().split()
    return len(set(words)) if unique else len(words)


@tool
def scan(paths: list[str], context: ToolContext, depth: Annotated[int, Range(1, 5)] = 1) -> dict[str, int]:
    """Scan some paths for TODO markers (a stand-in: it counts the letters of each path).

    Args:
        paths: The paths to scan.
        depth: How deep to descend into directories.
    """
    found: dict[str, int] = {}
    for i, path in enumerate(paths, 1):
        found[path] = len(path) * depth
        context.progress(i, len(paths), f"scanned {path}")
    context.log(f"scanned {len(paths)} path(s)", "info")
    return found


def _png(width: int, height: int, rgb: tuple[int, int, int]) -> bytes:
    """A solid-colour PNG, written with the standard library."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return len(data).to_bytes(4, "big") + body + zlib.crc32(body).to_bytes(4, "big")

    row = b"\x00" + bytes(rgb) * width
    header = width.to_bytes(4, "big") + height.to_bytes(4, "big") + b"\x08\x02\x00\x00\x00"
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(row * height))
        + chunk(b"IEND", b"")
    )


@tool
def render_badge(
    status: Literal["passing", "failing"], size: Annotated[int, Description("Width in pixels.")] = 8
) -> ImagePart:
    """Render a build badge as a PNG image."""
    colour = (40, 167, 69) if status == "passing" else (203, 36, 49)
    return ImagePart(_png(size, size // 2 or 1, colour), "image/png")


TOOLS = [word_count, scan, render_badge]


async def demo() -> None:
    """One session with the ``mcp`` package's client, connected in process."""
    from mcp import Client
    from mcp_types import LoggingMessageNotificationParams

    from onellm_runtime.mcp import server

    async def on_log(params: LoggingMessageNotificationParams) -> None:
        print(f"  log [{params.level}] {params.logger}: {params.data}")

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        print(f"  progress {progress:g}/{total or 0:g}: {message}")

    async with Client(server(TOOLS), log_level="info", logging_callback=on_log) as client:
        listed = await client.list_tools()
        print("tools:", ", ".join(t.name for t in listed.tools))
        calls: list[tuple[str, dict[str, object]]] = [
            ("word_count", {"text": "the cat and the hat", "unique": True}),
            ("word_count", {"text": 42}),
            ("scan", {"paths": ["src", "docs"], "depth": 2}),
            ("render_badge", {"status": "passing"}),
        ]
        for name, arguments in calls:
            print(f"call {name} {json.dumps(arguments)}")
            result = await client.call_tool(name, arguments, progress_callback=on_progress)
            for block in result.model_dump(mode="json", by_alias=True, exclude_none=True)["content"]:
                shown = (
                    block.get("text")
                    or f"<{block['type']} {block.get('mimeType')}, {len(block.get('data', ''))} base64 chars>"
                )
                print(f"  {'error' if result.is_error else 'result'}: {shown}")
            if result.structured_content is not None:
                print(f"  structuredContent: {json.dumps(result.structured_content)}")


if __name__ == "__main__":
    asyncio.run(demo())
