"""What an adapter module gives the registry: its ``ADAPTER``, an ``Adapter``.

The provider's row (``provider_names.PROVIDERS``) names the module; the module's ``ADAPTER``
holds the functions the shared code calls for it: the tool forms (``provider_definitions``,
the lock) and, per reply shape, the call reader and the result writer (``dispatch``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ._calls import FoundCall
from ._common import ToolDefinition, ToolLike

if TYPE_CHECKING:
    from ..results import ToolResult
    from ..tool import Tool

__all__ = ["Adapter", "Reply", "Written"]

#: A result writer's answer: the API's tool-result item, and the warnings for media it could not carry.
Written = tuple[dict[str, Any], list[str]]


@dataclass(frozen=True, slots=True)
class Reply:
    """One reply shape ``dispatch`` reads (its ``provider=`` name) and answers."""

    name: str
    #: The tool calls of a reply given as plain JSON (``_calls.py``), in order.
    find: Callable[[Any], list[FoundCall]]
    #: A call's result as the API's tool-result item: (call id, tool name, the tool or None, result).
    write: Callable[[str, str, Tool[..., Any] | None, ToolResult], Written]
    #: The API sends arguments as JSON text (bytes are read as the same text); else as an object.
    text_arguments: bool = False
    #: The item of a result made of text alone (``_outputs.text_only``, most results), from the
    #: call id, that text and whether it is an error: what ``write`` makes of such a result, with
    #: no warning to return. None: ``write`` writes every result (the item is not text alone).
    write_text: Callable[[str, str, bool], dict[str, Any]] | None = None


@dataclass(frozen=True, slots=True)
class Adapter:
    """A provider's functions, with the defaults a list (``onellm schemas --provider``) and the
    lock use."""

    #: One tool's definition in the provider's default form, as the lock records it.
    form: Callable[[ToolLike], ToolDefinition]
    #: The reply shapes ``dispatch`` answers for this provider (none: it is not dispatched).
    replies: tuple[Reply, ...] = ()
    #: Every tool's definition for one request, where a limit spans the list; None: ``form``
    #: of each tool in turn.
    definitions: Callable[[Sequence[ToolLike]], list[ToolDefinition]] | None = None
