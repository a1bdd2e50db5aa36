"""The peers, imported only when present: a missing peer is skipped and said so.

Install them with ``pip install -e '.[bench]'``. ``--without NAME,...`` treats installed
peers as missing (the smoke test uses it to check the skip path).
"""

from __future__ import annotations

import importlib
import importlib.metadata
from dataclasses import dataclass
from typing import Any

__all__ = ["PEERS", "Peer", "Peers"]


@dataclass(frozen=True)
class Peer:
    key: str
    #: The distribution to install (and read the version of).
    dist: str
    #: The module imported to use it.
    module: str
    #: What a user of the peer imports, for the import-time section.
    import_stmt: str
    #: After ``import_stmt``: describe ``get_time`` (defined first) as a tool; "" if no such thing.
    first_tool: str = ""


PEERS: tuple[Peer, ...] = (
    Peer("pydantic", "pydantic", "pydantic", "from pydantic import TypeAdapter", "TypeAdapter(get_time).json_schema()"),
    Peer("openai-agents", "openai-agents", "agents", "from agents import function_tool", "function_tool(get_time)"),
    Peer(
        "mcp",
        "mcp",
        "mcp.server.mcpserver",
        "from mcp.server.mcpserver import MCPServer",
        "MCPServer('bench').add_tool(get_time)",
    ),
    Peer("pydantic-ai", "pydantic-ai-slim", "pydantic_ai", "from pydantic_ai import Tool", "Tool(get_time).tool_def"),
    Peer("msgspec", "msgspec", "msgspec", "import msgspec"),
)


class Peers:
    """Which peers this run uses; each is imported on first use."""

    def __init__(self, without: set[str]) -> None:
        unknown = without - {p.key for p in PEERS} - {"all"}
        if unknown:
            raise SystemExit(f"--without: unknown peer(s) {sorted(unknown)}; known: {[p.key for p in PEERS]}")
        self._without = {p.key for p in PEERS} if "all" in without else set(without)
        self._missing: dict[str, str] = {}
        self._modules: dict[str, Any] = {}

    def peer(self, key: str) -> Peer:
        return next(p for p in PEERS if p.key == key)

    def available(self, key: str) -> bool:
        """Whether ``key`` can be used; the first call imports it."""
        if key in self._modules:
            return True
        if key in self._missing:
            return False
        if key in self._without:
            self._missing[key] = "left out with --without"
            return False
        peer = self.peer(key)
        try:
            self._modules[key] = importlib.import_module(peer.module)
        except ImportError as e:
            self._missing[key] = f"not installed ({e.name or e}); pip install -e '.[bench]'"
            return False
        return True

    def why_missing(self, key: str) -> str:
        return self._missing.get(key, "")

    def version(self, key: str) -> str:
        try:
            return importlib.metadata.version(self.peer(key).dist)
        except importlib.metadata.PackageNotFoundError:
            return "?"

    def present(self) -> list[Peer]:
        return [p for p in PEERS if self.available(p.key)]

    def absent(self) -> list[Peer]:
        return [p for p in PEERS if not self.available(p.key)]
