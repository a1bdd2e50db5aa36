"""The providers' adapters, loaded from the one table of providers (``provider_names.PROVIDERS``).

Each row names the module that holds the provider's ``ADAPTER``; everything that goes over
the providers reads them from here: ``provider_definitions`` and ``onellm schemas
--provider``, ``dispatch`` (the reply shapes), the lock (each provider's form).
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from types import MappingProxyType

from ..provider_names import PROVIDERS, Provider
from ._adapter import Adapter, Reply

__all__ = ["ADAPTERS", "REPLIES", "BINDING"]


def _load(row: Provider) -> Adapter:
    module = importlib.import_module(f"{__package__}.{row.adapter}")
    adapter: object = getattr(module, "ADAPTER", None)
    if not isinstance(adapter, Adapter):
        raise ImportError(f"provider {row.name!r}: {module.__name__} has no ADAPTER (an Adapter)")
    return adapter


#: Each provider's adapter, by ``provider=`` name, in the table's order.
ADAPTERS: Mapping[str, Adapter] = MappingProxyType({row.name: _load(row) for row in PROVIDERS})
#: Each reply shape ``dispatch`` answers, by its ``provider=`` name, in the table's order.
REPLIES: Mapping[str, Reply] = MappingProxyType(
    {reply.name: reply for adapter in ADAPTERS.values() for reply in adapter.replies}
)
#: The binder's ``provider=`` for each reply shape (Chat Completions binds as OpenAI does).
BINDING: Mapping[str, str] = MappingProxyType(
    {reply.name: name for name, adapter in ADAPTERS.items() for reply in adapter.replies}
)
