"""Tools served by ``onellm serve-mcp`` in the MCP end-to-end tests (``test_mcp_server``)."""

from __future__ import annotations

import asyncio
from typing import Annotated

from onellm_runtime import ImagePart, MaxLength, ToolContext, tool

#: Appended to by the waiting tools when their call is cancelled (read back through ``cancelled_count``).
CANCELLED: list[str] = []


@tool
def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


@tool
def shout(text: Annotated[str, MaxLength(10)]) -> str:
    """Upper-case a short text."""
    return text.upper()


@tool
def explode(reason: str) -> str:
    """Always fails."""
    raise RuntimeError(reason)


@tool
def snap() -> ImagePart:
    """A one-pixel picture."""
    return ImagePart(b"\x89PNG\r\n\x1a\n", "image/png")


@tool
def crawl(pages: int, context: ToolContext) -> str:
    """Crawl some pages, reporting progress (a sync tool: it reports from a worker thread)."""
    for page in range(1, pages + 1):
        context.progress(page, pages, f"page {page}")
    context.log(f"crawled {pages} pages", "info")
    return f"{pages} pages"


@tool
async def wait_forever(context: ToolContext) -> str:
    """Waits until cancelled (bounded: 60 s)."""
    context.progress(0, None, "started")
    try:
        await asyncio.sleep(60)
    except asyncio.CancelledError:
        CANCELLED.append(context.call_id or "cancelled")
        raise
    return "not cancelled"


@tool
def wait_in_thread(context: ToolContext) -> str:
    """A plain function waiting on its cancellation token (bounded: 60 s)."""
    context.progress(0, None, "started")
    if context.cancellation.wait(60):
        CANCELLED.append("thread")
        return "cancelled"
    return "not cancelled"


@tool
def cancelled_count() -> int:
    """How many waiting calls were cancelled."""
    return len(CANCELLED)
