"""Tools served to MCP clients, with services, an approval and a background job (the ``mcp`` extra:
``pip install -e '.[mcp]'`` in a clone).

    onellm serve-mcp --services mcp_server:open_reports examples/mcp_server.py              # stdio
    onellm serve-mcp --services mcp_server:open_reports --http 8765 examples/mcp_server.py  # HTTP, 127.0.0.1:8765/mcp
    python examples/mcp_server.py     # a session with the mcp client against the command above (stdio)

``open_reports`` is an async context manager: the server enters it once at start and exits
it at shutdown, and what it yields (a ``Reports`` store) is ``ToolContext.services`` in every
call. ``delete_report`` needs approval: the client is asked through MCP elicitation, and the
tool runs only if the user accepts. ``export`` may run in the background when the model asks
(``"invocationMode": "background"``), so the server offers ``read_job`` and ``stop_job`` too.
Bad arguments come back as ``isError`` results with onellm's text. ``docs/mcp.md`` shows and
explains the session's output.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sys
import zlib
from collections.abc import AsyncGenerator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal

from onellm_runtime import Description, ImagePart, Range, ToolContext, tool


@dataclass
class Reports:
    """The services: a report store (a stand-in for a database connection)."""

    names: list[str] = field(default_factory=lambda: ["q1.pdf", "q2.pdf", "q3.pdf"])


@contextlib.asynccontextmanager
async def open_reports() -> AsyncGenerator[Reports, None]:
    """Entered once when the server starts, exited when it stops."""
    print("reports opened", file=sys.stderr)
    try:
        yield Reports()
    finally:
        print("reports closed", file=sys.stderr)


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
def list_reports(context: ToolContext[Reports]) -> list[str]:
    """The reports in the store."""
    return context.services.names


@tool(requires_approval=True)
def delete_report(name: str, context: ToolContext[Reports]) -> str:
    """Delete a report from the store (asks the user first)."""
    context.services.names.remove(name)
    return f"deleted {name}"


@tool(invocation_mode="model_choice")
async def export(context: ToolContext[Reports], pages: Annotated[int, Range(1, 100)] = 2, seconds: float = 0.0) -> str:
    """Export every report as one document, a page at a time.

    Args:
        pages: How many pages to write.
        seconds: How long each page takes.
    """
    for page in range(1, pages + 1):
        await asyncio.sleep(seconds)
        context.progress(page, pages, f"page {page}")
    return f"exported {len(context.services.names)} reports on {pages} pages"


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


async def demo() -> None:
    """One session with the ``mcp`` package's client against ``onellm serve-mcp`` over stdio."""
    from mcp import Client
    from mcp.client.stdio import StdioServerParameters
    from mcp_types import ElicitRequestParams, ElicitResult

    here = Path(__file__).resolve().parent
    command = [
        "-m",
        "onellm_runtime",
        "serve-mcp",
        "--services",
        "mcp_server:open_reports",
        str(here / "mcp_server.py"),
    ]
    print("$ onellm serve-mcp --services mcp_server:open_reports examples/mcp_server.py")

    async def decline(context: Any, params: ElicitRequestParams) -> ElicitResult:
        print(f"  asked: {params.message!r} -> decline")
        return ElicitResult(action="decline")

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        print(f"  progress {progress:g}/{total or 0:g}: {message}")

    async def call(client: Client, name: str, arguments: dict[str, object], *, shown: bool = True) -> str:
        """Call a tool and print the call and its answer (``shown=False``: only return the answer's text)."""
        if shown:
            print(f"call {name} {json.dumps(arguments)}")
        background = arguments.get("invocationMode") == "background"  # its progress outlives the call
        result = await client.call_tool(name, arguments, progress_callback=None if background else on_progress)
        text = ""
        for block in result.model_dump(mode="json", by_alias=True, exclude_none=True)["content"]:
            text = (
                block.get("text")
                or f"<{block['type']} {block.get('mimeType')}, {len(block.get('data', ''))} base64 chars>"
            )
            if shown:
                print(f"  {'error' if result.is_error else 'result'}: {text}")
        return text

    server = StdioServerParameters(command=sys.executable, args=command, cwd=str(here))
    async with Client(server, elicitation_callback=decline) as client:
        listed = await client.list_tools()
        print("tools:", ", ".join(t.name for t in listed.tools))
        await call(client, "word_count", {"text": "the cat and the hat", "unique": True})
        await call(client, "word_count", {"text": 42})
        await call(client, "list_reports", {})
        await call(client, "delete_report", {"name": "q3.pdf"})
        await call(client, "list_reports", {})
        await call(client, "export", {"pages": 2})
        running = await call(client, "export", {"pages": 3, "invocationMode": "background"})
        job = {"job": json.loads(running)["job"]}
        while (answer := await call(client, "read_job", job, shown=False)) == running:
            await asyncio.sleep(0.1)  # while the job runs, read_job answers its handle (not shown)
        print(f"call read_job {json.dumps(job)}\n  result: {answer}")
        slow = await call(client, "export", {"pages": 50, "seconds": 1, "invocationMode": "background"})
        await call(client, "stop_job", {"job": json.loads(slow)["job"]})
        await call(client, "read_job", {"job": json.loads(slow)["job"]})
        await call(client, "render_badge", {"status": "passing"})


if __name__ == "__main__":
    asyncio.run(demo())
