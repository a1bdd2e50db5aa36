"""Provider adapters: a tool's definition for one API, as plain JSON-ready dicts.

``openai_tool``, ``anthropic_tool``, ``gemini_tool`` and ``mcp_tool`` down-convert the
canonical schema (CONTRACT.md) for what each API accepts (PROVIDERS.md): a keyword the API
refuses moves into the description in plain words, a type it cannot express is re-encoded
reversibly (read back by ``tool.bind(..., provider=...)``), and only what has no strict form
is sent non-strict, with a ``ProviderWarning`` that is also kept on the returned
``ToolDefinition.warnings``. See ``docs/providers.md``.

``dispatch`` runs the tool calls of a provider's reply and answers them in that API's
tool-result shape (``docs/loop.md``).

Imported only when used (``import onellm_runtime`` does not import it), and it imports no
provider SDK.
"""

from __future__ import annotations

from ._anthropic import AnthropicLimits, anthropic_tool, anthropic_tools, check_anthropic_limits
from ._common import ProviderError, ProviderWarning, ToolDefinition, ToolLike, ToolsLike, offered
from ._decode import PAIR_PROVIDERS, compile_decoder
from ._dispatch import Approver, Dispatch, DispatchedCall, DispatchProvider, dispatch, unknown_tool_message
from ._gemini import gemini_tool
from ._mcp import mcp_result, mcp_structured_content, mcp_tool
from ._openai import openai_tool
from ._outputs import MEDIA, anthropic_result, chat_result, gemini_result, responses_result
from .registry import ADAPTERS

__all__ = [
    "AnthropicLimits",
    "Approver",
    "Dispatch",
    "DispatchProvider",
    "DispatchedCall",
    "MEDIA",
    "PAIR_PROVIDERS",
    "ProviderError",
    "ProviderWarning",
    "ToolDefinition",
    "ToolLike",
    "ToolsLike",
    "anthropic_result",
    "anthropic_tool",
    "anthropic_tools",
    "chat_result",
    "check_anthropic_limits",
    "compile_decoder",
    "dispatch",
    "gemini_result",
    "gemini_tool",
    "mcp_result",
    "mcp_structured_content",
    "mcp_tool",
    "openai_tool",
    "provider_definitions",
    "responses_result",
    "unknown_tool_message",
]


def provider_definitions(provider: str, tools: ToolsLike) -> list[ToolDefinition]:
    """Every tool's definition for one request to ``provider`` (the ``onellm schemas --provider`` output).

    OpenAI: the Responses shape, strict; Anthropic: strict, with the request's limits
    applied across the list; Gemini: the JSON Schema form; MCP: the ``tools/list`` entries.
    ``tools`` are a ``ToolSet``, ``Tool`` objects (two with one name raise
    ``ToolDefinitionError``, OLT007) or manifest entries (a listing: passed as they are).
    """
    items = offered(tools)
    adapter = ADAPTERS.get(provider)
    if adapter is None:
        raise ValueError(f"provider must be one of {', '.join(ADAPTERS)}, not {provider!r}")
    if adapter.definitions is not None:
        return adapter.definitions(items)
    return [adapter.form(t) for t in items]
