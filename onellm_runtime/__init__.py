"""onellm_runtime: Python functions as LLM tools, with exact schemas and a strict binder.

Everything but ``tool`` and ``Tool`` is imported on first use (the markers, results and
context types, the binder, the invoker), so ``import onellm_runtime`` stays light for CLIs
and serverless functions that only describe tools, and for the mypy plugin, which loads on
every mypy run and reads only ``core.codes`` then. (No ``from __future__ import annotations``
here: it would bind the name ``annotations``, which must stay the submodule's.)
"""

from typing import TYPE_CHECKING, Any

from .tool import Tool, ToolDefinitionError, tool, tools_of

if TYPE_CHECKING:
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
    from .binding import ArgumentError
    from .context import CancellationToken, CostLine, ToolCancelledError, ToolContext
    from .invoking.invoker import ToolInvoker
    from .invoking.jobs import Job, JobRegistry, job_tools
    from .results import FilePart, ImagePart, JsonPart, Part, TextPart, ToolResult
    from .toolset import ToolSet

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
    "ToolSet",
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
    "Char": "aliases",
    "Int8": "aliases",
    "Int16": "aliases",
    "Int32": "aliases",
    "Int64": "aliases",
    "JsonArray": "aliases",
    "JsonObject": "aliases",
    "JsonValue": "aliases",
    "UInt8": "aliases",
    "UInt16": "aliases",
    "UInt32": "aliases",
    "UInt64": "aliases",
    "Description": "annotations",
    "Discriminator": "annotations",
    "Email": "annotations",
    "JsonName": "annotations",
    "Length": "annotations",
    "MaxLength": "annotations",
    "MinLength": "annotations",
    "Pattern": "annotations",
    "Range": "annotations",
    "StringLength": "annotations",
    "Url": "annotations",
    "CancellationToken": "context",
    "CostLine": "context",
    "ToolCancelledError": "context",
    "ToolContext": "context",
    "FilePart": "results",
    "ImagePart": "results",
    "JsonPart": "results",
    "Part": "results",
    "TextPart": "results",
    "ToolResult": "results",
    "ToolSet": "toolset",
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
