"""Tools and services served by ``onellm serve-mcp ... --services`` in ``test_mcp_deploy``.

Each services form writes what happens to it, one line at a time, to the file named by
``ONELLM_TEST_SERVICES_LOG`` (the test reads it back after the server has exited).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from types import TracebackType

from onellm_runtime import ToolContext, tool

#: Appended to by ``remove`` each time it runs (read back through ``removed``).
REMOVED: list[str] = []


def _note(line: str) -> None:
    with open(os.environ["ONELLM_TEST_SERVICES_LOG"], "a", encoding="utf-8") as log:
        log.write(line + "\n")


@dataclass
class Deps:
    region: str
    calls: list[str] = field(default_factory=lambda: [])


def make_deps() -> Deps:
    """A factory: called once at start."""
    _note("factory called")
    return Deps("eu-factory")


@contextlib.asynccontextmanager
async def lifetime() -> AsyncIterator[Deps]:
    """An async context manager (through its factory): entered at start, exited at shutdown."""
    _note("async entered")
    try:
        yield Deps("eu-async")
    finally:
        _note("async exited")


class SyncLifetime:
    """A sync context manager object: entered at start, exited at shutdown."""

    def __enter__(self) -> Deps:
        _note("sync entered")
        return Deps("eu-sync")

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, tb: TracebackType | None) -> None:
        _note("sync exited")


SYNC_LIFETIME = SyncLifetime()


@tool
def region(context: ToolContext[Deps]) -> str:
    """The region the services were made for, and how many calls the same services object saw."""
    context.services.calls.append("region")
    return f"{context.services.region} #{len(context.services.calls)}"


@tool(requires_approval=True)
def remove(path: str) -> str:
    """Remove a file (a stand-in: it records the path)."""
    REMOVED.append(path)
    return f"removed {path}"


@tool
def removed() -> list[str]:
    """The paths ``remove`` ran for."""
    return REMOVED


@tool(invocation_mode="model_choice")
async def build(target: str, context: ToolContext, seconds: float = 0.0) -> str:
    """Build a target, reporting each step; waits ``seconds`` first (bounded by the test)."""
    context.progress(1, 2, f"compiling {target}")
    await asyncio.sleep(seconds)
    context.progress(2, 2, f"linking {target}")
    return f"built {target}"


@tool
def echo_arguments(note: str, context: ToolContext) -> str:
    """The call's argument document as the server received it (``ToolContext.arguments``)."""
    return repr(context.arguments)
