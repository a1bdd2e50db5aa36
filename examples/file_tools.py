"""File tools with a closed operation union, as HPD's note recommends.

``manage_job`` performs one of three mutually exclusive operations; each has its own
record, told apart by the ``action`` field, so a model cannot send ``command`` to a
``read`` request. Run ``onellm schemas examples/file_tools.py`` to see the schemas.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Annotated, Literal, NamedTuple

from onellm_runtime import CancellationToken, Description, Length, ToolInvoker, tool


class Replacement(NamedTuple):
    """One edit.

    Attributes:
        old_text: Text to find, exactly as it appears.
        new_text: Text to put in its place.
    """

    old_text: str
    new_text: str


@tool(naming="camelCase")
def replace_many(
    path: str,
    replacements: Annotated[Sequence[Replacement], Length(1, 50)],
    include_globs: list[str] | None = None,
) -> str:
    """Apply several exact replacements to one file.

    Args:
        path: The file to edit, relative to the workspace.
        replacements: The edits, applied in order.
        include_globs: Only touch files matching these globs.
    """
    return f"{len(replacements)} replacement(s) planned for {path}"


@dataclass(frozen=True)
class StartJob:
    """Start a command.

    Attributes:
        command: The shell command to run.
        environment: Extra environment variables.
    """

    action: Literal["start"]
    command: str
    environment: dict[str, str] | None = None


@dataclass(frozen=True)
class ReadJob:
    """Read a job's output.

    Attributes:
        handle_id: The handle ``start`` returned.
        tail: How many lines from the end.
    """

    action: Literal["read"]
    handle_id: str
    tail: int = 50


@dataclass(frozen=True)
class StopJob:
    """Stop a job.

    Attributes:
        handle_id: The handle ``start`` returned.
    """

    action: Literal["stop"]
    handle_id: str


@tool(timeout_seconds=30)
async def manage_job(
    request: Annotated[StartJob | ReadJob | StopJob, Description("What to do with a job.")],
    cancellation: CancellationToken,
) -> str:
    """Start, read or stop a background job."""
    if isinstance(request, StartJob):
        return f"started {request.command!r} as job-1"
    if isinstance(request, ReadJob):
        return f"last {request.tail} lines of {request.handle_id}: (empty)"
    return f"stopped {request.handle_id}"


async def _demo() -> None:
    invoker = ToolInvoker()
    for arguments in (
        '{"request": {"action": "start", "command": "make test", "environment": {"CI": "true"}}}',
        '{"request": {"action": "read", "handle_id": "job-1"}}',
        '{"request": {"action": "read", "handle_id": "job-1", "command": "rm -rf /"}}',
        '{"request": {"action": "Read", "handle_id": "job-1"}}',
    ):
        result = await invoker.invoke(manage_job, arguments)
        print(arguments, "->", "ERROR:" if result.is_error else "", result.text)


if __name__ == "__main__":
    asyncio.run(_demo())
