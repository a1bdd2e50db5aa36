"""``onellm lsp``: a language server that shows the OLT findings of the buffers an editor has open.

Pyright and Pylance have no plugins, so their users would see tool problems only in a
terminal. This server runs beside any type checker (it reports only the OLT codes and the
``onellm-unchecked`` note): on open and after each change (debounced), it checks the
buffer's in-memory text through a warm in-process mypy (``live.LiveChecker``) and publishes
the findings with their code, range and a link to the code's section of
``docs/diagnostics.md``. Where a fix is mechanical it offers a quick fix:

| finding | quick fix |
|---|---|
| OLT002 ``'Any' has no schema`` | ``Any`` -> ``JsonValue``, importing it from ``onellm_runtime`` if needed |
| OLT013 ``Range(a, b) has its minimum above its maximum`` | ``Range(b, a)`` |

Settings (``initializationOptions``, or the command line): ``debounceMs`` (300) and
``docsUrl`` (the page the code links point to; by default this checkout's
``docs/diagnostics.md`` when it exists).
"""

from __future__ import annotations

import argparse
import ast
import asyncio
import re
import sys
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path

from .live import LiveChecker, LiveDiagnostic

__all__ = ["OnellmServer", "main", "anchors", "quick_fixes", "DEFAULT_DEBOUNCE_MS"]

DEFAULT_DEBOUNCE_MS = 300
SOURCE = "onellm"
_DOCS = Path(__file__).resolve().parent.parent / "docs" / "diagnostics.md"


def _slug(heading: str) -> str:
    """A heading's anchor as GitHub and most Markdown renderers write it."""
    text = heading.strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(markdown: str) -> dict[str, str]:
    """Each code's section anchor in ``docs/diagnostics.md`` (``## OLT002: ...`` -> ``olt002-...``)."""
    found: dict[str, str] = {}
    for line in markdown.splitlines():
        if not line.startswith("## "):
            continue
        heading = line[3:]
        match = re.match(r"(OLT\d{3})\b", heading) or re.search(r"`(onellm-[a-z-]+)`", heading)
        if match is not None:
            found.setdefault(match.group(1), _slug(heading))
    return found


class OnellmServer(LanguageServer):
    """The server: open buffers, a debounce timer per buffer, one checker thread."""

    def __init__(self, debounce_ms: int = DEFAULT_DEBOUNCE_MS, docs_url: str | None = None) -> None:
        super().__init__("onellm", "0.1.0")
        self.debounce_ms = debounce_ms
        self.docs_url = docs_url
        self._anchors: dict[str, str] = {}
        if _DOCS.is_file():
            self._anchors = anchors(_DOCS.read_text(encoding="utf-8"))
            if self.docs_url is None:
                self.docs_url = _DOCS.as_uri()
        self.checker: LiveChecker | None = None
        # mypy is not thread-safe: every check runs on this one thread, in order.
        self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="onellm-check")
        self._pending: dict[str, asyncio.Task[None]] = {}
        #: What was last published per URI (to skip publishing the same list again).
        self._published: dict[str, list[types.Diagnostic]] = {}

    def link(self, code: str) -> types.CodeDescription | None:
        if self.docs_url is None:
            return None
        anchor = self._anchors.get(code)
        return types.CodeDescription(href=f"{self.docs_url}#{anchor}" if anchor else self.docs_url)

    def schedule(self, uri: str, delay_ms: int) -> None:
        """Check ``uri`` after ``delay_ms`` unless another change comes first."""
        old = self._pending.pop(uri, None)
        if old is not None:
            old.cancel()
        self._pending[uri] = asyncio.get_running_loop().create_task(self._check_later(uri, delay_ms))

    async def _check_later(self, uri: str, delay_ms: int) -> None:
        await asyncio.sleep(delay_ms / 1000)
        self._pending.pop(uri, None)
        document = self.workspace.text_documents.get(uri)
        path = to_fs_path(uri) if uri.startswith("file:") else None
        if document is None or path is None or not path.endswith(".py"):
            return
        version, text = document.version, document.source
        loop = asyncio.get_running_loop()
        try:
            found = await loop.run_in_executor(self._worker, self._check, path, text)
        except Exception as e:  # a crash in mypy or the plugin: say so, start afresh, keep serving
            self.window_log_message(types.LogMessageParams(types.MessageType.Error, f"onellm: check failed: {e!r}"))
            self._worker.submit(self._reset)
            return
        current = self.workspace.text_documents.get(uri)
        if found is None or current is None or current.version != version:
            return  # does not parse (the last findings stay), or edited meanwhile (the newer check publishes)
        for found_path, diagnostics in found.items():
            found_uri = uri if found_path == path else from_fs_path(found_path)
            if found_uri is None or (found_uri != uri and found_uri not in self.workspace.text_documents):
                continue
            self.publish(found_uri, [self.diagnostic(d) for d in diagnostics], version if found_uri == uri else None)

    def _check(self, path: str, text: str) -> dict[str, list[LiveDiagnostic]] | None:
        if self.checker is None:
            self.checker = LiveChecker()
        return self.checker.check(path, text)

    def _reset(self) -> None:
        """Drop the warm build (its state may be broken); the next check builds anew."""
        if self.checker is not None:
            self.checker.close()
            self.checker = None

    def diagnostic(self, d: LiveDiagnostic) -> types.Diagnostic:
        end = types.Position(d.end_line, d.end_column) if d.end_column >= 0 else types.Position(d.line + 1, 0)
        return types.Diagnostic(
            range=types.Range(types.Position(d.line, d.column), end),
            message=d.message,
            severity=types.DiagnosticSeverity.Error if d.severity == "error" else types.DiagnosticSeverity.Information,
            code=d.code,
            code_description=self.link(d.code),
            source=SOURCE,
        )

    def publish(self, uri: str, diagnostics: list[types.Diagnostic], version: int | None) -> None:
        if self._published.get(uri) == diagnostics and version is None:
            return
        self._published[uri] = diagnostics
        self.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=uri, diagnostics=diagnostics, version=version)
        )

    def forget(self, uri: str) -> None:
        task = self._pending.pop(uri, None)
        if task is not None:
            task.cancel()
        self._published.pop(uri, None)
        self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))

    def stop(self) -> None:
        self._worker.shutdown(wait=True, cancel_futures=True)
        if self.checker is not None:
            self.checker.close()


def _create(debounce_ms: int, docs_url: str | None) -> OnellmServer:
    server = OnellmServer(debounce_ms, docs_url)

    @server.feature(types.INITIALIZE)
    def initialize(ls: OnellmServer, params: types.InitializeParams) -> None:
        options = params.initialization_options
        if isinstance(options, dict):
            debounce = options.get("debounceMs")
            if isinstance(debounce, int) and debounce >= 0:
                ls.debounce_ms = debounce
            url = options.get("docsUrl")
            if isinstance(url, str) and url:
                ls.docs_url = url

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: OnellmServer, params: types.DidOpenTextDocumentParams) -> None:
        ls.schedule(params.text_document.uri, 0)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: OnellmServer, params: types.DidChangeTextDocumentParams) -> None:
        ls.schedule(params.text_document.uri, ls.debounce_ms)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: OnellmServer, params: types.DidCloseTextDocumentParams) -> None:
        ls.forget(params.text_document.uri)

    @server.feature(types.SHUTDOWN)
    def shutdown(ls: OnellmServer, params: None) -> None:
        ls.stop()

    @server.feature(
        types.TEXT_DOCUMENT_CODE_ACTION,
        types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix]),
    )
    def code_action(ls: OnellmServer, params: types.CodeActionParams) -> list[types.CodeAction]:
        document = ls.workspace.text_documents.get(params.text_document.uri)
        if document is None:
            return []
        return quick_fixes(params.text_document.uri, document.source, params.context.diagnostics)

    return server


# -- quick fixes ---------------------------------------------------------------------

_ANY = re.compile(r"\b(?:typing\.|typing_extensions\.|t\.)?Any\b")
_RANGE = re.compile(r"Range\((\s*[^,()]+?\s*),(\s*[^,()]+?\s*)\)")


def quick_fixes(uri: str, text: str, diagnostics: Sequence[types.Diagnostic]) -> list[types.CodeAction]:
    """The mechanical fixes for the OLT findings among ``diagnostics`` (those the editor sends for a range)."""
    lines = text.splitlines(keepends=True)
    actions: list[types.CodeAction] = []
    for d in diagnostics:
        if d.source != SOURCE:
            continue
        edits: list[types.TextEdit] | None = None
        title = ""
        if d.code == "OLT002" and "'Any' has no schema" in d.message:
            edits = _any_to_json_value(text, lines, d.range)
            title = "Use JsonValue (any JSON value) instead of Any"
        elif d.code == "OLT013" and "has its minimum above its maximum" in d.message:
            edits = _swap_range(lines, d.range)
            title = "Swap the Range bounds"
        if edits:
            actions.append(
                types.CodeAction(
                    title=title,
                    kind=types.CodeActionKind.QuickFix,
                    diagnostics=[d],
                    is_preferred=True,
                    edit=types.WorkspaceEdit(changes={uri: edits}),
                )
            )
    return actions


def _one_line_match(lines: list[str], r: types.Range, pattern: re.Pattern[str]) -> tuple[int, re.Match[str]] | None:
    """The only match of ``pattern`` on the diagnostic's first line, inside its range."""
    if r.start.line >= len(lines):
        return None
    line = lines[r.start.line]
    end = r.end.character if r.end.line == r.start.line else len(line)
    matches = [m for m in pattern.finditer(line) if m.start() >= r.start.character and m.end() <= end]
    return (r.start.line, matches[0]) if len(matches) == 1 else None


def _any_to_json_value(text: str, lines: list[str], r: types.Range) -> list[types.TextEdit] | None:
    found = _one_line_match(lines, r, _ANY)
    if found is None:
        return None
    line, m = found
    edits = [types.TextEdit(types.Range(types.Position(line, m.start()), types.Position(line, m.end())), "JsonValue")]
    parsed, imported = _json_value_import(text)
    if not parsed:
        return None  # the buffer does not parse: no safe place for the import
    if imported is not None:
        edits.append(imported)
    return edits


def _json_value_import(text: str) -> tuple[bool, types.TextEdit | None]:
    """Whether the buffer parses, and the edit that imports ``JsonValue`` (None: already imported)."""
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return False, None
    last_import: ast.stmt | None = None
    runtime_import: ast.ImportFrom | None = None
    for stmt in tree.body:
        if isinstance(stmt, (ast.Import, ast.ImportFrom)):
            last_import = stmt
            if isinstance(stmt, ast.ImportFrom) and stmt.module == "onellm_runtime" and stmt.level == 0:
                if any(alias.name == "JsonValue" and alias.asname in (None, "JsonValue") for alias in stmt.names):
                    return True, None
                if runtime_import is None and stmt.lineno == stmt.end_lineno:
                    runtime_import = stmt
    if runtime_import is not None:
        # ``from onellm_runtime import tool`` -> ``from onellm_runtime import JsonValue, tool``
        first = runtime_import.names[0]
        at = types.Position(runtime_import.lineno - 1, first.col_offset)
        return True, types.TextEdit(types.Range(at, at), "JsonValue, ")
    line = last_import.end_lineno if last_import is not None and last_import.end_lineno else 0
    at = types.Position(line, 0)
    return True, types.TextEdit(types.Range(at, at), "from onellm_runtime import JsonValue\n")


def _swap_range(lines: list[str], r: types.Range) -> list[types.TextEdit] | None:
    found = _one_line_match(lines, r, _RANGE)
    if found is None:
        return None
    line, m = found
    low, high = m.group(1), m.group(2)
    new = f"Range({high.strip()}, {low.strip()})"
    return [types.TextEdit(types.Range(types.Position(line, m.start()), types.Position(line, m.end())), new)]


# -- entry point ---------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="onellm lsp", description="Serve the OLT diagnostics over LSP (stdio).")
    parser.add_argument("--debounce-ms", type=int, default=DEFAULT_DEBOUNCE_MS, help="wait after a change (ms)")
    parser.add_argument("--docs-url", default=None, help="the page the diagnostics' code links point to")
    ns = parser.parse_args(argv)
    server = _create(ns.debounce_ms, ns.docs_url)
    server.start_io()
    return 0


if __name__ == "__main__":
    sys.exit(main())
