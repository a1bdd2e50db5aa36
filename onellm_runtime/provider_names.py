"""The providers: one row each, and the names a caller may pass as ``provider=``.

This is the one table of providers. A row names the provider, the module of
``onellm_runtime.providers`` that holds its adapter (its tool form, call readers and result
writers: ``providers/registry.py`` loads it), and what the binder changes for it. Kept apart
from the adapters so that checking a name does not import them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

__all__ = ["NULL_MEANS_ABSENT", "PROVIDERS", "PROVIDER_NAMES", "DispatchProvider", "Provider", "check_provider"]


@dataclass(frozen=True, slots=True)
class Provider:
    """One provider: its ``provider=`` name, its adapter module and its binding rules."""

    #: The name ``bind``, ``invoke``, ``onellm schemas --provider`` and the lock use.
    name: str
    #: The module in ``onellm_runtime.providers`` whose ``ADAPTER`` holds its forms and replies.
    adapter: str
    #: Its strict form may send ``dict[str, T]`` as ``{"key", "value"}`` entries: the binder
    #: decodes them back (``providers/_decode.py``).
    entry_pairs: bool
    #: Its strict form makes every optional parameter required and nullable: the binder reads
    #: null for an optional parameter that is not nullable as "not given".
    null_means_absent: bool


PROVIDERS = (
    Provider("openai", "_openai", entry_pairs=True, null_means_absent=True),
    Provider("anthropic", "_anthropic", entry_pairs=True, null_means_absent=False),
    Provider("gemini", "_gemini", entry_pairs=True, null_means_absent=False),
    Provider("mcp", "_mcp", entry_pairs=False, null_means_absent=False),
)

PROVIDER_NAMES = tuple(p.name for p in PROVIDERS)
#: The providers whose optional parameters arrive as null when not given (the binder's rule).
NULL_MEANS_ABSENT = frozenset(p.name for p in PROVIDERS if p.null_means_absent)

#: The reply shapes ``dispatch`` answers, as its ``provider=`` (each adapter's ``replies``;
#: ``"openai"`` is the Responses API, ``"openai-chat"`` Chat Completions). A ``Literal`` is
#: written out, not derived: ``tests/test_providers_registry.py`` holds it to the adapters.
DispatchProvider = Literal["openai", "openai-chat", "anthropic", "gemini", "mcp"]


def check_provider(provider: object) -> None:
    """Raise ``ValueError`` unless ``provider`` is None or one of ``PROVIDER_NAMES``.

    A misspelt name is the calling program's mistake, not the model's: ignoring it would
    bind without the provider's re-encodings, so it is refused at once.
    """
    if provider is not None and (type(provider) is not str or provider not in PROVIDER_NAMES):
        raise ValueError(f"provider must be None or one of {', '.join(PROVIDER_NAMES)}, not {provider!r}")
