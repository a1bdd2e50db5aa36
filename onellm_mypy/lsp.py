"""``onellm lsp``: a language server that shows the OLT findings of the buffers an editor has open.

Pyright and Pylance have no plugins, so their users would see tool problems only in a
terminal. This server runs beside any type checker (it reports only the OLT codes and the
``onellm-unchecked`` note): on open and after each change (debounced), it checks the
buffer's in-memory text through a warm mypy (``live.LiveChecker``) and publishes the
findings with their code, range and a link to the code's section of
``docs/diagnostics.md``. Where a fix is mechanical it offers a quick fix:

| finding | quick fix |
|---|---|
| OLT002 ``'Any' has no schema`` | ``Any`` -> ``JsonValue``, importing it from ``onellm_runtime`` if needed |
| OLT013 ``Range(a, b) has its minimum above its maximum`` | ``Range(b, a)`` |

mypy runs in a child process (``checkworker``), one check at a time, under the project's
mypy configuration as ``onellm check`` reads it and starting from a warm cache
(``warmcache``) when one is written, so the server answers requests while a check runs.
The process is started first thing (``main``, before pygls and lsprotocol, about a second of
imports, load here; again at ``initialize`` if the workspace's root or configuration differs):
it imports mypy and loads the warm cache while the server starts and the editor opens its
first file. A check made stale by a newer edit is dropped when it ends, or, once it has
run as long as starting a new check process took, stopped with its process (waiting
longer could cost more than starting over; either way at most twice the better choice).
Findings are published only for the version of the text they were found in.

Settings (``initializationOptions``, or the command line): ``debounceMs`` (300),
``maxDocumentBytes`` (1,000,000: a larger buffer is not checked, and says so),
``configFile`` (the mypy configuration, as ``onellm check --config-file``) and ``docsUrl``
(the page the code links point to; by default this checkout's ``docs/diagnostics.md``
when it exists).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .fixtext import ImportEdit, json_value_import


class _Later:
    """A module imported at its first use; each name read from it is kept for the next reads."""

    def __init__(self, name: str) -> None:
        self._name = name

    def __getattr__(self, attribute: str) -> Any:
        value = getattr(import_module(self._name), attribute)
        setattr(self, attribute, value)
        return value


if TYPE_CHECKING:
    from lsprotocol import types
    from pygls import uris
    from pygls.lsp.server import LanguageServer as _PyglsServer
else:
    # pygls and lsprotocol load after ``main`` has started the check process (see the docstring);
    # ``_create`` mixes pygls's server class into ``OnellmServer``.
    types = _Later("lsprotocol.types")
    uris = _Later("pygls.uris")
    _PyglsServer = object

__all__ = [
    "OnellmServer",
    "main",
    "anchors",
    "quick_fixes",
    "too_large",
    "DEFAULT_DEBOUNCE_MS",
    "DEFAULT_MAX_DOCUMENT_BYTES",
]

DEFAULT_DEBOUNCE_MS = 300
DEFAULT_MAX_DOCUMENT_BYTES = 1_000_000
#: A new check process starts once the closed buffers the old one holds pass this share of the size limit.
CLOSED_SHARE = 0.1
SOURCE = "onellm"
TOO_LARGE = "onellm-too-large"
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


def utf8_size(text: str) -> int:
    """The size of ``text`` saved as UTF-8 (without encoding it when it is ASCII)."""
    return len(text) if text.isascii() else len(text.encode("utf-8", "surrogatepass"))


def too_large(size: int, limit: int) -> types.Diagnostic:
    """The one finding on a buffer above the size limit: not checked, and what to do."""
    return types.Diagnostic(
        range=types.Range(types.Position(0, 0), types.Position(1, 0)),
        message=(
            f"This file is {size:,} bytes, above the {limit:,} bytes onellm lsp checks: its tools are not "
            "checked here. Run onellm check on it, or raise the limit (initializationOptions maxDocumentBytes, "
            "or onellm lsp --max-document-bytes N)"
        ),
        severity=types.DiagnosticSeverity.Warning,
        code=TOO_LARGE,
        source=SOURCE,
    )


class _Worker:
    """The check process as the server sees it: one request at a time over its pipes.

    Started with ``subprocess`` (``main`` starts one before the event loop runs); its pipes
    become the loop's streams at its first request.
    """

    def __init__(self, process: subprocess.Popen[bytes], root: str, config_file: str | None) -> None:
        self.process = process
        self.started = time.monotonic()
        #: Where it runs, and the configuration file it was given (None: mypy's search from the root).
        self.root = root
        self.config_file = config_file
        #: Seconds from starting the process to its first reply, less any time it waited ready for
        #: its first request: what starting over costs.
        self.startup: float | None = None
        #: URI -> the size of the text last sent, for each open buffer the process holds.
        self.holds: dict[str, int] = {}
        #: The bytes of closed buffers it still holds (mypy keeps every module it was given).
        self.closed_bytes = 0
        self._pipes: tuple[asyncio.StreamReader, asyncio.StreamWriter, asyncio.BaseTransport] | None = None

    @classmethod
    def start(cls, root: str, config_file: str | None) -> _Worker:
        args = ["--config-file", config_file] if config_file else []
        process = subprocess.Popen(
            [sys.executable, "-m", "onellm_mypy.checkworker", *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            cwd=root,
        )
        return cls(process, root, config_file)

    def serves(self, root: str, config_file: str | None) -> bool:
        """Whether it is running, in ``root``, with ``config_file``."""
        same_root = os.path.realpath(self.root) == os.path.realpath(root)
        return same_root and self.config_file == config_file and self.process.poll() is None

    async def _streams(self) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        if self._pipes is None:
            stdin, stdout = self.process.stdin, self.process.stdout
            assert stdin is not None and stdout is not None
            loop = asyncio.get_running_loop()
            reader = asyncio.StreamReader()
            reading, _ = await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), stdout)
            writing, protocol = await loop.connect_write_pipe(
                lambda: asyncio.StreamReaderProtocol(asyncio.StreamReader()), stdin
            )
            self._pipes = reader, asyncio.StreamWriter(writing, protocol, None, loop), reading
        return self._pipes[0], self._pipes[1]

    async def check(self, request: dict[str, Any]) -> dict[str, Any] | None:
        """The reply to ``request``; None when the process ended first (stopped, or crashed)."""
        stdout, stdin = await self._streams()
        payload = json.dumps(request, ensure_ascii=False).encode("utf-8")
        sent = time.monotonic()
        try:
            stdin.write(b"%d\n" % len(payload) + payload)
            await stdin.drain()
            header = await stdout.readline()
            if not header:
                return None
            reply = json.loads(await stdout.readexactly(int(header)))
        except (ConnectionError, asyncio.IncompleteReadError):
            return None
        if not isinstance(reply, dict):
            return None
        if self.startup is None:
            ready_at = reply.get("readyAt")
            idle = max(0.0, sent - ready_at) if isinstance(ready_at, (int, float)) else 0.0
            self.startup = time.monotonic() - self.started - idle
        return reply

    async def wait(self) -> int:
        """Its exit code, once it has ended."""
        return await asyncio.to_thread(self.process.wait)

    def kill(self) -> None:
        if self.process.poll() is None:
            try:
                os.kill(self.process.pid, getattr(signal, "SIGKILL", signal.SIGTERM))
            except ProcessLookupError:  # it ended meanwhile
                pass
        if self._pipes is not None:
            try:
                self._pipes[1].close()
                self._pipes[2].close()
            except RuntimeError:  # the event loop has closed (the connection ended): the pipes go with the server
                pass
        else:
            for pipe in (self.process.stdin, self.process.stdout):
                if pipe is not None:
                    pipe.close()


@dataclass
class _Job:
    """The check the worker is running."""

    uri: str
    version: int
    started: float
    #: A newer edit came: the findings will not be published.
    stale: bool = False
    #: The worker was stopped for it.
    stopped: bool = False
    timer: asyncio.TimerHandle | None = field(default=None, repr=False)


class OnellmServer(_PyglsServer):
    """The server: open buffers, a debounce timer per buffer, one check process.

    Made by ``_create``, which adds pygls's ``LanguageServer`` as its base once the check
    process has started (type checkers see that base here).
    """

    def __init__(
        self,
        debounce_ms: int = DEFAULT_DEBOUNCE_MS,
        docs_url: str | None = None,
        max_document_bytes: int = DEFAULT_MAX_DOCUMENT_BYTES,
        config_file: str | None = None,
    ) -> None:
        super().__init__("onellm", "0.1.0")
        self.debounce_ms = debounce_ms
        self.docs_url = docs_url
        self.max_document_bytes = max_document_bytes
        self.config_file = config_file
        self._anchors: dict[str, str] = {}
        if _DOCS.is_file():
            self._anchors = anchors(_DOCS.read_text(encoding="utf-8"))
            if self.docs_url is None:
                self.docs_url = _DOCS.as_uri()
        self._worker: _Worker | None = None
        self._job: _Job | None = None
        #: Debounce timers, per URI.
        self._timers: dict[str, asyncio.TimerHandle] = {}
        #: URIs whose debounce ended, oldest first, waiting for the worker.
        self._ready: dict[str, None] = {}
        self._wake: asyncio.Event | None = None
        self._loop_task: asyncio.Task[None] | None = None
        #: What was last published per URI, with its version (to skip publishing the same again).
        self._published: dict[str, tuple[int | None, list[types.Diagnostic]]] = {}
        #: Per URI, the version of its last published findings, and where the check process found
        #: JsonValue would be imported in that text (absent: not worked out; None: does not parse).
        self._fixable: dict[str, tuple[int, dict[str, Any]]] = {}
        #: URIs whose "not checked" reason was logged.
        self._told: set[str] = set()

    @property
    def root(self) -> str:
        """The workspace's root: where the project's mypy configuration is looked for."""
        root = self.workspace.root_path if self.workspace is not None else None
        return root if root and os.path.isdir(root) else os.getcwd()

    def link(self, code: str) -> types.CodeDescription | None:
        if self.docs_url is None or code == TOO_LARGE:
            return None
        anchor = self._anchors.get(code)
        return types.CodeDescription(href=f"{self.docs_url}#{anchor}" if anchor else self.docs_url)

    def log(self, kind: types.MessageType, message: str) -> None:
        self.window_log_message(types.LogMessageParams(kind, f"onellm: {message}"))

    # -- scheduling -------------------------------------------------------------------

    def schedule(self, uri: str, delay_ms: int) -> None:
        """Check ``uri`` after ``delay_ms`` unless another change comes first."""
        loop = asyncio.get_running_loop()
        old = self._timers.pop(uri, None)
        if old is not None:
            old.cancel()
        self._ready.pop(uri, None)
        job = self._job
        if job is not None and job.uri == uri:
            self._made_stale(job)
        self._timers[uri] = loop.call_later(delay_ms / 1000, self._make_ready, uri)

    def _made_stale(self, job: _Job) -> None:
        """A newer edit: drop the findings, and stop the worker once waiting costs more than a restart."""
        if job.stale:
            return
        job.stale = True
        worker = self._worker
        if worker is None or worker.startup is None:
            return  # the first check of a new process: what a restart would cost is not known yet
        wait = max(0.0, worker.startup - (time.monotonic() - job.started))
        job.timer = asyncio.get_running_loop().call_later(wait, self._stop_stale, job)

    def _stop_stale(self, job: _Job) -> None:
        if self._job is not job or self._worker is None:
            return
        job.stopped = True
        self.log(
            types.MessageType.Info,
            f"a check of {job.uri} (version {job.version}) made stale by an edit ran "
            f"{time.monotonic() - job.started:.1f} s: stopped, with its process",
        )
        self._worker.kill()
        self._worker = None

    def _make_ready(self, uri: str) -> None:
        self._timers.pop(uri, None)
        self._ready[uri] = None
        if self._wake is None:
            self._wake = asyncio.Event()
            self._loop_task = asyncio.get_running_loop().create_task(self._run_checks(self._wake))
        self._wake.set()

    async def _run_checks(self, wake: asyncio.Event) -> None:
        """One check at a time, in the order the buffers became ready."""
        while True:
            await wake.wait()
            wake.clear()
            while self._ready:
                uri = next(iter(self._ready))
                del self._ready[uri]
                try:
                    await self._check(uri)
                except Exception as e:  # keep serving whatever one check did
                    self.log(types.MessageType.Error, f"check failed: {e!r}")

    # -- one check --------------------------------------------------------------------

    async def _check(self, uri: str, retry: bool = True) -> None:
        """Check ``uri``'s text in the check process and publish what it found.

        A process that ends without replying (killed from outside, out of memory, a crash
        of mypy itself) is replaced, and the text checked once more in the new one.
        """
        document = self.workspace.text_documents.get(uri)
        path = uris.to_fs_path(uri) if uri.startswith("file:") else None
        if document is None or document.version is None or path is None or not path.endswith(".py"):
            return
        version, text = document.version, document.source
        size = utf8_size(text)
        if size > self.max_document_bytes:
            self._fixable.pop(uri, None)
            self.publish(uri, [too_large(size, self.max_document_bytes)], version)
            return
        if self._worker is not None and self._worker.closed_bytes > self.max_document_bytes * CLOSED_SHARE:
            self.log(
                types.MessageType.Info,
                f"the check process still holds {self._worker.closed_bytes:,} bytes of closed files: "
                "starting a new one (the open files are checked again)",
            )
            self.stop_worker()
            for other in self.workspace.text_documents:
                if other != uri:
                    self._make_ready(other)
        if self._worker is None:
            self._worker = _Worker.start(self.root, self.config_file)
        worker = self._worker
        worker.holds[uri] = size
        job = self._job = _Job(uri, version, time.monotonic())
        self.log(types.MessageType.Log, f"checking {uri} (version {version}, {size:,} bytes)")
        try:
            reply = await worker.check({"path": path, "version": version, "text": text})
        finally:
            self._job = None
            if job.timer is not None:
                job.timer.cancel()
        if reply is None:
            if job.stopped:
                return  # the newer edit's check follows
            code = await worker.wait()
            if self._worker is worker:
                self._worker = None
            again = retry and not job.stale
            self.log(
                types.MessageType.Error,
                f"the check process ended (exit code {code}) checking {uri} (version {version}); "
                + ("checking it again in a new one" if again else "not checking it again before its next edit"),
            )
            if again:
                await self._check(uri, retry=False)
            return
        if job.stale:
            self.log(
                types.MessageType.Info,
                f"a check of {uri} (version {version}) made stale by an edit ended after "
                f"{time.monotonic() - job.started:.1f} s: its findings were dropped",
            )
        self._take(uri, job, reply)

    def _take(self, uri: str, job: _Job, reply: dict[str, Any]) -> None:
        """Publish what a check found: each buffer's findings, if its text is still the one checked."""
        if "error" in reply:
            self.log(types.MessageType.Error, str(reply["error"]))
            return
        if "skipped" in reply:
            if uri not in self._told:
                self._told.add(uri)
                self.log(types.MessageType.Info, f"{uri} is not checked: {reply['skipped']}, as onellm check . would")
            if not job.stale:
                self.publish(uri, [], job.version)
            return
        cache = reply.get("cache")
        if isinstance(cache, dict):
            self.log(
                types.MessageType.Info,
                f"the check process started from the warm cache in {cache['directory']}"
                if cache["was"] == "read"
                else "the check process analysed the standard library and onellm_runtime; the warm cache "
                f"that saves this next time is being written to {cache['directory']}",
            )
        if reply.get("reconfigured"):  # the mypy configuration changed: the other buffers' findings too
            self.log(types.MessageType.Info, "the mypy configuration changed: checking the open files again")
            for other in self.workspace.text_documents:
                if other != uri:
                    self._make_ready(other)
        found: dict[str, Any] = reply.get("found", {})
        for found_path, entry in found.items():
            found_uri = uri if found_path == uris.to_fs_path(uri) else uris.from_fs_path(found_path)
            document = self.workspace.text_documents.get(found_uri) if found_uri else None
            if found_uri is None or document is None or document.version != entry["version"]:
                continue  # closed, or edited since: the newer text's check publishes
            self._fixable[found_uri] = (entry["version"], entry)
            self.publish(found_uri, [self.diagnostic(*d) for d in entry["diagnostics"]], entry["version"])

    def diagnostic(
        self, line: int, column: int, end_line: int, end_column: int, code: str, message: str, severity: str
    ) -> types.Diagnostic:
        end = types.Position(end_line, end_column) if end_column >= 0 else types.Position(line + 1, 0)
        return types.Diagnostic(
            range=types.Range(types.Position(line, column), end),
            message=message,
            severity=types.DiagnosticSeverity.Error if severity == "error" else types.DiagnosticSeverity.Information,
            code=code,
            code_description=self.link(code),
            source=SOURCE,
        )

    def publish(self, uri: str, diagnostics: list[types.Diagnostic], version: int | None) -> None:
        if self._published.get(uri) == (version, diagnostics):
            return
        self._published[uri] = (version, diagnostics)
        self.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=uri, diagnostics=diagnostics, version=version)
        )

    def fixes(self, uri: str, diagnostics: Sequence[types.Diagnostic]) -> list[types.CodeAction]:
        """The quick fixes for the findings the editor sends, on the text they were found in."""
        document = self.workspace.text_documents.get(uri)
        checked = self._fixable.get(uri)
        if document is None or checked is None or checked[0] != document.version:
            return []  # edited since the findings were published: their positions no longer hold
        text, entry = document.source, checked[1]

        def import_edit() -> ImportEdit | None:
            if "jsonValueImport" not in entry:
                return json_value_import(text)
            found = entry["jsonValueImport"]
            return None if found is None else ImportEdit(*found)

        return quick_fixes(uri, text, diagnostics, import_edit)

    def forget(self, uri: str) -> None:
        timer = self._timers.pop(uri, None)
        if timer is not None:
            timer.cancel()
        self._ready.pop(uri, None)
        if self._job is not None and self._job.uri == uri:
            self._made_stale(self._job)
        self._published.pop(uri, None)
        self._fixable.pop(uri, None)
        if self._worker is not None and uri in self._worker.holds:
            self._worker.closed_bytes += self._worker.holds.pop(uri)
        self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))

    def stop(self) -> None:
        """Stop the check process (at ``shutdown``, and when the connection ends)."""
        for timer in self._timers.values():
            timer.cancel()
        self._timers.clear()
        self._ready.clear()
        if self._loop_task is not None:
            self._loop_task.cancel()
        self.stop_worker()

    def start_worker(self) -> None:
        """At ``initialize``: keep the check process ``main`` started if it serves this root and
        configuration, else start one now, ahead of the first check."""
        if self._worker is not None and not self._worker.serves(self.root, self.config_file):
            self.stop_worker()
        if self._worker is None:
            self._worker = _Worker.start(self.root, self.config_file)

    def stop_worker(self) -> None:
        if self._worker is not None:
            self._worker.kill()
            self._worker = None


def _positive(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None


def _create(
    debounce_ms: int,
    docs_url: str | None,
    max_document_bytes: int,
    config_file: str | None,
    worker: _Worker | None = None,
) -> OnellmServer:
    """The server, holding ``worker`` (a check process already started) if given."""
    from pygls.lsp.server import LanguageServer

    made = type("OnellmServer", (OnellmServer, LanguageServer), {"__module__": __name__})
    server: OnellmServer = made(debounce_ms, docs_url, max_document_bytes, config_file)
    server._worker = worker  # pyright: ignore[reportPrivateUsage]

    @server.feature(types.INITIALIZE)
    def initialize(ls: OnellmServer, params: types.InitializeParams) -> None:
        options = params.initialization_options
        if isinstance(options, dict):
            debounce = _positive(options.get("debounceMs"))
            if debounce is not None:
                ls.debounce_ms = debounce
            limit = _positive(options.get("maxDocumentBytes"))
            if limit is not None:
                ls.max_document_bytes = limit
            url = options.get("docsUrl")
            if isinstance(url, str) and url:
                ls.docs_url = url
            config = options.get("configFile")
            if isinstance(config, str) and config:
                ls.config_file = config
        ls.start_worker()

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
        return ls.fixes(params.text_document.uri, params.context.diagnostics)

    return server


# -- quick fixes ---------------------------------------------------------------------

_ANY = re.compile(r"\b(?:typing\.|typing_extensions\.|t\.)?Any\b")
_RANGE = re.compile(r"Range\((\s*[^,()]+?\s*),(\s*[^,()]+?\s*)\)")


def quick_fixes(
    uri: str,
    text: str,
    diagnostics: Sequence[types.Diagnostic],
    import_edit: Callable[[], ImportEdit | None] | None = None,
) -> list[types.CodeAction]:
    """The mechanical fixes for the OLT findings among ``diagnostics`` (those the editor sends for a range).

    ``import_edit`` gives where ``JsonValue`` gets imported (None: ``text`` does not parse);
    by default it is read from ``text``.
    """
    lines = text.splitlines(keepends=True)
    actions: list[types.CodeAction] = []
    for d in diagnostics:
        if d.source != SOURCE:
            continue
        edits: list[types.TextEdit] | None = None
        title = ""
        if d.code == "OLT002" and "'Any' has no schema" in d.message:
            edits = _any_to_json_value(lines, d.range, import_edit or (lambda: json_value_import(text)))
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


def _any_to_json_value(
    lines: list[str], r: types.Range, import_edit: Callable[[], ImportEdit | None]
) -> list[types.TextEdit] | None:
    found = _one_line_match(lines, r, _ANY)
    if found is None:
        return None
    line, m = found
    edits = [types.TextEdit(types.Range(types.Position(line, m.start()), types.Position(line, m.end())), "JsonValue")]
    imported = import_edit()
    if imported is None:
        return None  # the buffer does not parse: no safe place for the import
    if imported.text:
        at = types.Position(imported.line, imported.column)
        edits.append(types.TextEdit(types.Range(at, at), imported.text))
    return edits


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
    parser.add_argument(
        "--max-document-bytes",
        type=int,
        default=DEFAULT_MAX_DOCUMENT_BYTES,
        metavar="N",
        help="a larger buffer is not checked, and says so",
    )
    parser.add_argument(
        "--config-file", metavar="FILE", help="the mypy configuration to follow (default: mypy's search from the root)"
    )
    ns = parser.parse_args(argv)
    # The check process first: it imports mypy and loads the warm cache while pygls loads here.
    worker = _Worker.start(os.getcwd(), ns.config_file)
    server = _create(ns.debounce_ms, ns.docs_url, ns.max_document_bytes, ns.config_file, worker)
    try:
        server.start_io()
    finally:
        server.stop_worker()  # the connection ended without a shutdown request
    return 0


if __name__ == "__main__":
    sys.exit(main())
