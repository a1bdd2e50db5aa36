"""The provider names a caller may pass as ``provider=`` to ``bind`` and ``invoke``.

Kept apart from the adapters (``onellm_runtime.providers``) so that checking a name does not
import them.
"""

from __future__ import annotations

__all__ = ["PROVIDER_NAMES", "check_provider"]

PROVIDER_NAMES = ("openai", "anthropic", "gemini", "mcp")


def check_provider(provider: object) -> None:
    """Raise ``ValueError`` unless ``provider`` is None or one of ``PROVIDER_NAMES``.

    A misspelt name is the calling program's mistake, not the model's: ignoring it would
    bind without the provider's re-encodings, so it is refused at once.
    """
    if provider is not None and (type(provider) is not str or provider not in PROVIDER_NAMES):
        raise ValueError(f"provider must be None or one of {', '.join(PROVIDER_NAMES)}, not {provider!r}")
