"""What every adapter shares: where a tool's schemas come from, what it returns, and how
it tells the caller about a change it had to make.

An adapter takes a ``Tool`` or a manifest entry (``onellm schemas`` output, which the static
side writes without importing code), so both sides convert through the same functions.
"""

from __future__ import annotations

import copy
import warnings
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Union, cast

from ._downconvert import Schema

if TYPE_CHECKING:
    from ..tool import Tool
    from ..toolset import ToolSet

__all__ = [
    "ProviderWarning",
    "ProviderError",
    "ToolDefinition",
    "ToolLike",
    "ToolsLike",
    "Source",
    "offered",
    "source_of",
    "output_schema_of",
    "warn",
    "NotStrict",
]


class ProviderWarning(UserWarning):
    """A tool is sent in a weaker form than asked (non-strict), and why.

    Issued with ``warnings.warn`` and also kept on the returned ``ToolDefinition.warnings``,
    so the change is visible whether or not the caller's warning filters show it.
    """


class ProviderError(ValueError):
    """The provider has no form at all for this tool (say, a JSON value in Gemini's
    OpenAPI ``Schema`` form, or a parameter name Gemini refuses)."""


class NotStrict(Exception):
    """Raised inside a strict conversion: this schema has no strict form (the reason says why)."""


class ToolDefinition(dict[str, Any]):
    """The API's tool definition: a plain ``dict`` (JSON-ready), plus what was changed.

    ``strict`` is whether the definition asks for strict decoding (None where the API has no
    such switch); ``warnings`` the ``ProviderWarning`` messages issued while building it.
    """

    strict: bool | None
    warnings: tuple[str, ...]

    def __init__(self, data: Mapping[str, Any], strict: bool | None, warnings: tuple[str, ...] = ()) -> None:
        super().__init__(data)
        self.strict = strict
        self.warnings = warnings


ToolLike = Union["Tool[Any, Any]", Mapping[str, Any]]
#: The tools of one request: a ``ToolSet`` (or a mapping of name to ``Tool``), or a list of
#: tools and definitions or manifest entries.
ToolsLike = Union["ToolSet", Mapping[str, "Tool[Any, Any]"], Iterable[ToolLike]]


def offered(tools: ToolsLike) -> list[ToolLike]:
    """The tools of one request, in order, the ``Tool`` objects among them made a ``ToolSet``
    at once: two with one name raise ``ToolDefinitionError`` (OLT007), never "last one wins".

    Definitions and manifest entries (dicts) are listings, passed as they are: ``onellm schemas``
    lists every tool of the modules it is given, each under its module.
    """
    from ..toolset import ToolSet, as_tool_set

    if isinstance(tools, Mapping):
        return list(as_tool_set(cast("Mapping[str, Tool[Any, Any]]", tools)).values())
    items = list(tools)
    ToolSet(*(t for t in items if not isinstance(t, Mapping)))
    return items


@dataclass(frozen=True)
class Source:
    """The parts of a tool an adapter reads (deep copies: never the tool's cached dicts)."""

    name: str
    description: str
    input_schema: Schema
    output_schema: Schema | None


def source_of(tool: ToolLike) -> Source:
    """A ``Tool`` (or a bound tool) or a manifest entry (``name``, ``description``, ``input_schema``...)."""
    output = copy.deepcopy(output_schema_of(tool))
    if isinstance(tool, Mapping):
        return Source(
            str(tool["name"]), str(tool.get("description") or ""), copy.deepcopy(dict(tool["input_schema"])), output
        )
    return Source(tool.name, tool.description, copy.deepcopy(tool.input_schema), output)


def output_schema_of(tool: ToolLike) -> Schema | None:
    """The tool's output schema as it holds it, not copied: to read, never to hand out."""
    return tool.get("output_schema") if isinstance(tool, Mapping) else tool.output_schema


def warn(message: str, stacklevel: int = 2) -> str:
    """Issue a ``ProviderWarning``; returns the message, to record on the definition.

    ``stacklevel`` counts from the function calling ``warn`` (2: its caller, the user's code).
    """
    warnings.warn(ProviderWarning(message), stacklevel=stacklevel + 1)
    return message
