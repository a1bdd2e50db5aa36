"""onellm_runtime: Python functions as LLM tools, with exact schemas and a strict binder.

The binder and the invoker are imported on first use, so ``import onellm_runtime`` stays
light for CLIs and serverless functions that only describe tools.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .aliases import (
    Char,
    Int8,
    Int16,
    Int32,
    Int64,
    JsonArray,
    JsonObject,
    JsonValue,
    UInt8,
    UInt16,
    UInt32,
    UInt64,
)
from .annotations import (
    Description,
    Discriminator,
    Email,
    JsonName,
    Length,
    MaxLength,
    MinLength,
    Pattern,
    Range,
    StringLength,
    Url,
)
from .context import CancellationToken, CostLine, ToolCancelledError, ToolContext
from .results import FilePart, ImagePart, JsonPart, Part, TextPart, ToolResult
from .tool import Tool, ToolDefinitionError, tool, tools_of

if TYPE_CHECKING:
    from .binding import ArgumentError
    from .invoking.invoker import ToolInvoker
    from .invoking.jobs import Job, JobRegistry, job_tools

__version__ = "0.1.0"

__all__ = [
    "ArgumentError",
    "CancellationToken",
    "Char",
    "CostLine",
    "Description",
    "Discriminator",
    "Email",
    "FilePart",
    "ImagePart",
    "Int8",
    "Int16",
    "Int32",
    "Int64",
    "Job",
    "JobRegistry",
    "JsonArray",
    "JsonName",
    "JsonObject",
    "JsonPart",
    "JsonValue",
    "Length",
    "MaxLength",
    "MinLength",
    "Part",
    "Pattern",
    "Range",
    "StringLength",
    "TextPart",
    "Tool",
    "ToolCancelledError",
    "ToolContext",
    "ToolDefinitionError",
    "ToolInvoker",
    "ToolResult",
    "UInt8",
    "UInt16",
    "UInt32",
    "UInt64",
    "Url",
    "job_tools",
    "tool",
    "tools_of",
]

_LAZY = {
    "ArgumentError": "binding",
    "ToolInvoker": "invoking.invoker",
    "Job": "invoking.jobs",
    "JobRegistry": "invoking.jobs",
    "job_tools": "invoking.jobs",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'onellm_runtime' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value
