"""A real LSP client session with ``onellm lsp`` over stdio (pygls's own client), for the tests and the benchmark."""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

from lsprotocol import types
from pygls.lsp.client import LanguageClient

__all__ = ["Session"]


class Session:
    """The client side: start the server, open/change documents, wait for each published version."""

    def __init__(self, debounce_ms: int = 300, *extra: str, options: dict[str, Any] | None = None) -> None:
        self.client = LanguageClient("onellm-test", "0")
        self.args = ["-m", "onellm_runtime", "lsp", *extra]
        self.options: dict[str, Any] = {"debounceMs": debounce_ms, **(options or {})}
        self.published: asyncio.Queue[types.PublishDiagnosticsParams] = asyncio.Queue()
        #: What the server logged (window/logMessage), in order.
        self.logs: asyncio.Queue[str] = asyncio.Queue()
        #: Every message the client saw, in order, for transcripts.
        self.transcript: list[tuple[str, Any]] = []

        @self.client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def on_diagnostics(params: types.PublishDiagnosticsParams) -> None:
            self.transcript.append(("textDocument/publishDiagnostics", params))
            self.published.put_nowait(params)

        @self.client.feature(types.WINDOW_LOG_MESSAGE)
        def on_log(params: types.LogMessageParams) -> None:
            self.transcript.append(("window/logMessage", params))
            self.logs.put_nowait(params.message)

    async def start(self, root: Path) -> types.InitializeResult:
        env = dict(os.environ)
        # The warm cache (onellm_mypy.warmcache) of the tests' servers: shared between them, not the user's.
        env.setdefault("ONELLM_LSP_CACHE_DIR", os.path.join(tempfile.gettempdir(), "onellm-lsp-test-cache"))
        await self.client.start_io(sys.executable, *self.args, cwd=str(root), env=env)
        params = types.InitializeParams(
            capabilities=types.ClientCapabilities(),
            root_uri=root.as_uri(),
            initialization_options=self.options,
        )
        self.transcript.append(("initialize", params))
        result = await self.client.initialize_async(params)
        self.transcript.append(("initialize result", result))
        self.client.initialized(types.InitializedParams())
        return result

    def open(self, path: Path, text: str) -> None:
        params = types.DidOpenTextDocumentParams(types.TextDocumentItem(path.as_uri(), "python", 1, text))
        self.transcript.append(("textDocument/didOpen", params))
        self.client.text_document_did_open(params)

    def change(self, path: Path, version: int, text: str) -> None:
        params = types.DidChangeTextDocumentParams(
            types.VersionedTextDocumentIdentifier(version, path.as_uri()),
            [types.TextDocumentContentChangeWholeDocument(text)],
        )
        self.transcript.append(("textDocument/didChange", params))
        self.client.text_document_did_change(params)

    async def log(self, startswith: str, timeout: float = 300) -> str:
        """The next log line that starts with ``startswith`` (others are skipped)."""
        while True:
            message = await asyncio.wait_for(self.logs.get(), timeout)
            if message.startswith(startswith):
                return message

    async def diagnostics(self, version: int, timeout: float = 300) -> types.PublishDiagnosticsParams:
        """The next publication for ``version`` (earlier versions' are skipped)."""
        while True:
            params = await asyncio.wait_for(self.published.get(), timeout)
            if params.version == version:
                return params

    async def code_actions(self, path: Path, diagnostic: types.Diagnostic) -> list[types.CodeAction]:
        params = types.CodeActionParams(
            types.TextDocumentIdentifier(path.as_uri()),
            diagnostic.range,
            types.CodeActionContext([diagnostic]),
        )
        self.transcript.append(("textDocument/codeAction", params))
        result = await self.client.text_document_code_action_async(params)
        self.transcript.append(("codeAction result", result))
        return [a for a in result or [] if isinstance(a, types.CodeAction)]

    async def stop(self) -> None:
        await self.client.shutdown_async(None)
        self.client.exit(None)
        await self.client.stop()
