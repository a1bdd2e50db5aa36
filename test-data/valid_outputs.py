"""Return types: which ones have an output schema, and what it is.

Annotations are evaluated eagerly (no ``from __future__ import annotations``).
"""

from collections.abc import Awaitable, Coroutine, Sequence
from dataclasses import dataclass
from typing import Annotated, Any, Optional

from onellm_runtime import (
    Description,
    JsonObject,
    JsonPart,
    Part,
    TextPart,
    ToolResult,
    tool,
)


@dataclass
class Report:
    """A report.

    Attributes:
        title: Its title.
    """

    title: str
    pages: int = 1


@tool
def returns_none(x: int) -> None:
    """Nothing comes back."""


@tool
async def nothing_async(x: int) -> None:
    """Nothing comes back, asynchronously."""


@tool
def returns_text_part() -> TextPart:
    return TextPart("x")


@tool
def returns_part() -> Part:
    return JsonPart(1)


@tool
def returns_parts() -> list[Part]:
    return []


@tool
def returns_part_sequence() -> Sequence[TextPart]:
    return []


@tool
def returns_tool_result() -> ToolResult:
    return ToolResult()


@tool
def returns_unannotated(x: int):  # type: ignore[no-untyped-def]
    """No return annotation: no output schema."""
    return x


@tool
def returns_described_text() -> Annotated[str, Description("Still text.")]:
    return ""


@tool
def returns_optional_object() -> Optional[JsonObject]:
    return None


@tool
def returns_texts() -> list[str]:
    return []


@tool
async def report_async() -> Report:
    """An async def's result type is unwrapped."""
    return Report("x")


@tool
def returns_awaitable() -> Awaitable[int]:
    """Awaitable[T] is unwrapped too."""
    raise NotImplementedError


@tool
def returns_coroutine() -> Coroutine[Any, Any, list[Report]]:
    raise NotImplementedError
