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
The process is started first thing (``main``; again at ``initialize`` if the workspace's root
or configuration differs): it imports mypy and loads the warm cache while the server answers
``initialize`` and the editor opens its first file. The protocol itself is served with the
standard library (``jsonrpc``, ``lspdocs``): an LSP framework's imports would cost the
server's start more than the whole path to the first findings has. A check made stale by a newer edit is dropped when it ends, or, once it has
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
from importlib.util import find_spec
from pathlib import Path
from typing import Any, cast

from .fixtext import ImportEdit, json_value_import
from .jsonrpc import INVALID_PARAMS, INVALID_REQUEST, METHOD_NOT_FOUND, SERVER_NOT_INITIALIZED, Connection, RpcError
from .lspdocs import UTF16, UTF32, Document, apply_change, to_path, to_uri

if find_spec("mypy") is None:  # the check process imports it: refused here, with the hint, not at each check
    raise ModuleNotFoundError("No module named 'mypy'", name="mypy")

#: The LSP's structures travel as their JSON objects (``Diagnostic``, ``Range``, ``CodeAction``, ...).
Json = dict[str, Any]

__all__ = [
    "OnellmServer",
    "main",
    "anchors",
    "quick_fixes",
    "too_large",
    "DEFAULT_DEBOUNCE_MS",
    "DEFAULT_MAX_DOCUMENT_BYTES",
]

# The LSP's numbers for what it names.
LOG_ERROR, LOG_INFO, LOG_LOG = 1, 3, 4  # MessageType
SEVERITY_ERROR, SEVERITY_WARNING, SEVERITY_INFORMATION = 1, 2, 3  # DiagnosticSeverity
SYNC_INCREMENTAL = 2  # TextDocumentSyncKind
QUICK_FIX = "quickfix"  # CodeActionKind

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


def span(line: int, character: int, end_line: int, end_character: int) -> Json:
    """An LSP ``Range``."""
    return {
        "start": {"line": line, "character": character},
        "end": {"line": end_line, "character": end_character},
    }


def too_large(size: int, limit: int) -> Json:
    """The one finding on a buffer above the size limit: not checked, and what to do."""
    return {
        "range": span(0, 0, 1, 0),
        "message": (
            f"This file is {size:,} bytes, above the {limit:,} bytes onellm lsp checks: its tools are not "
            "checked here. Run onellm check on it, or raise the limit (initializationOptions maxDocumentBytes, "
            "or onellm lsp --max-document-bytes N)"
        ),
        "severity": SEVERITY_WARNING,
        "code": TOO_LARGE,
        "source": SOURCE,
    }


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
            parsed: object = json.loads(await stdout.readexactly(int(header)))
        except (ConnectionError, asyncio.IncompleteReadError):
            return None
        if not isinstance(parsed, dict):
            return None
        reply = cast("dict[str, Any]", parsed)
        if self.startup is None:
            ready_at: object = reply.get("readyAt")
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


class OnellmServer:
    """The server: open buffers, a debounce timer per buffer, one check process.

    ``REQUESTS`` and ``NOTIFICATIONS`` (below the class) say which method each LSP message
    runs; ``jsonrpc.Connection`` reads and writes them.
    """

    def __init__(
        self,
        debounce_ms: int = DEFAULT_DEBOUNCE_MS,
        docs_url: str | None = None,
        max_document_bytes: int = DEFAULT_MAX_DOCUMENT_BYTES,
        config_file: str | None = None,
        worker: _Worker | None = None,
    ) -> None:
        """``worker``: a check process already started (``main`` starts one first thing)."""
        self.connection = Connection(self)
        #: The open buffers, per URI.
        self.documents: dict[str, Document] = {}
        #: The workspace's root as ``initialize`` gave it (None: none given).
        self.root_path: str | None = None
        #: How positions are counted, as agreed at ``initialize``.
        self.position_encoding = UTF16
        self.initialized = False
        self.shut_down = False
        #: The exit code once ``exit`` came (0 after ``shutdown``, else 1), None before.
        self.exit_code: int | None = None
        self.debounce_ms = debounce_ms
        self.docs_url = docs_url
        self.max_document_bytes = max_document_bytes
        self.config_file = config_file
        self._anchors: dict[str, str] = {}
        if _DOCS.is_file():
            self._anchors = anchors(_DOCS.read_text(encoding="utf-8"))
            if self.docs_url is None:
                self.docs_url = _DOCS.as_uri()
        self._worker = worker
        self._job: _Job | None = None
        #: Debounce timers, per URI.
        self._timers: dict[str, asyncio.TimerHandle] = {}
        #: URIs whose debounce ended, oldest first, waiting for the worker.
        self._ready: dict[str, None] = {}
        self._wake: asyncio.Event | None = None
        self._loop_task: asyncio.Task[None] | None = None
        #: What was last published per URI, with its version (to skip publishing the same again).
        self._published: dict[str, tuple[int | None, list[Json]]] = {}
        #: Per URI, the version of its last published findings, and where the check process found
        #: JsonValue would be imported in that text (absent: not worked out; None: does not parse).
        self._fixable: dict[str, tuple[int, dict[str, Any]]] = {}
        #: URIs whose "not checked" reason was logged.
        self._told: set[str] = set()

    @property
    def root(self) -> str:
        """The workspace's root: where the project's mypy configuration is looked for."""
        root = self.root_path
        return root if root and os.path.isdir(root) else os.getcwd()

    def link(self, code: str) -> Json | None:
        """The diagnostic's ``codeDescription``: its code's section of the docs."""
        if self.docs_url is None or code == TOO_LARGE:
            return None
        anchor = self._anchors.get(code)
        return {"href": f"{self.docs_url}#{anchor}" if anchor else self.docs_url}

    def log(self, kind: int, message: str) -> None:
        self.connection.notify("window/logMessage", {"type": kind, "message": f"onellm: {message}"})

    def log_error(self, message: str) -> None:
        self.log(LOG_ERROR, message)

    # -- the protocol -----------------------------------------------------------------

    def request(self, method: str, params: Any) -> Any:
        """A request's result (``jsonrpc.Handler``): the lifecycle's rules, then its row of ``REQUESTS``."""
        if self.shut_down:
            raise RpcError(INVALID_REQUEST, f"{method} came after shutdown: only exit is served now")
        if not self.initialized and method != "initialize":
            raise RpcError(SERVER_NOT_INITIALIZED, f"{method} came before initialize")
        if self.initialized and method == "initialize":
            raise RpcError(INVALID_REQUEST, "initialize came a second time")
        handler = REQUESTS.get(method)
        if handler is None:
            raise RpcError(METHOD_NOT_FOUND, f"onellm lsp does not serve {method}")
        try:
            return handler(self, params if params is not None else {})
        except (KeyError, TypeError, ValueError, AttributeError) as e:
            raise RpcError(INVALID_PARAMS, f"the params of {method} do not fit it: {e!r}") from e

    def notification(self, method: str, params: Any) -> None:
        """A notification (``jsonrpc.Handler``): its row of ``NOTIFICATIONS``; others are ignored, as the LSP says."""
        handler = NOTIFICATIONS.get(method)
        if handler is None or (method != "exit" and (self.shut_down or not self.initialized)):
            return
        handler(self, params if params is not None else {})

    def initialize(self, params: Json) -> Json:
        options = _object(params.get("initializationOptions"))
        if options:
            debounce = _positive(options.get("debounceMs"))
            if debounce is not None:
                self.debounce_ms = debounce
            limit = _positive(options.get("maxDocumentBytes"))
            if limit is not None:
                self.max_document_bytes = limit
            url: object = options.get("docsUrl")
            if isinstance(url, str) and url:
                self.docs_url = url
            config: object = options.get("configFile")
            if isinstance(config, str) and config:
                self.config_file = config
        root_uri: object = params.get("rootUri")
        root_path: object = params.get("rootPath")
        folders: object = params.get("workspaceFolders")
        if not isinstance(root_uri, str) and isinstance(folders, list) and folders:
            root_uri = _object(cast("list[object]", folders)[0]).get("uri")
        if isinstance(root_uri, str):
            self.root_path = to_path(root_uri)
        elif isinstance(root_path, str):
            self.root_path = root_path
        general = _object(_object(params.get("capabilities")).get("general"))
        offered: object = general.get("positionEncodings")
        encodings = cast("list[object]", offered) if isinstance(offered, list) else []
        self.position_encoding = next((e for e in encodings if e in (UTF16, UTF32)), UTF16)
        self.initialized = True
        self.start_worker()
        return {
            "capabilities": {
                "positionEncoding": self.position_encoding,
                "textDocumentSync": {"openClose": True, "change": SYNC_INCREMENTAL},
                "codeActionProvider": {"codeActionKinds": [QUICK_FIX]},
            },
            "serverInfo": {"name": "onellm", "version": "0.1.0"},
        }

    def did_open(self, params: Json) -> None:
        item = params["textDocument"]
        uri, version, text = item["uri"], item["version"], item["text"]
        if not (isinstance(uri, str) and isinstance(version, int) and isinstance(text, str)):
            raise TypeError("a TextDocumentItem has a string uri, an integer version and a string text")
        self.documents[uri] = Document(uri, version, text)
        self.schedule(uri, 0)

    def did_change(self, params: Json) -> None:
        identifier = params["textDocument"]
        document = self.documents.get(identifier["uri"])
        if document is None:
            return  # not open: nothing to change
        text = document.text
        for change in params["contentChanges"]:
            text = apply_change(text, change, self.position_encoding)
        version = identifier["version"]
        document.text, document.version = text, version if isinstance(version, int) else document.version + 1
        self.schedule(document.uri, self.debounce_ms)

    def did_close(self, params: Json) -> None:
        uri = params["textDocument"]["uri"]
        self.documents.pop(uri, None)
        self.forget(uri)

    def code_action(self, params: Json) -> list[Json]:
        return self.fixes(params["textDocument"]["uri"], params["context"]["diagnostics"])

    def shutdown(self, params: object) -> None:
        self.stop()
        self.shut_down = True

    def exit(self, params: object) -> None:
        self.exit_code = 0 if self.shut_down else 1
        self.stop()
        self.connection.close()

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
            LOG_INFO,
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
                    self.log(LOG_ERROR, f"check failed: {e!r}")

    # -- one check --------------------------------------------------------------------

    async def _check(self, uri: str, retry: bool = True) -> None:
        """Check ``uri``'s text in the check process and publish what it found.

        A process that ends without replying (killed from outside, out of memory, a crash
        of mypy itself) is replaced, and the text checked once more in the new one.
        """
        document = self.documents.get(uri)
        path = to_path(uri) if document is not None else None
        if document is None or path is None or not path.endswith(".py"):
            return
        version, text = document.version, document.text
        size = utf8_size(text)
        if size > self.max_document_bytes:
            self._fixable.pop(uri, None)
            self.publish(uri, [too_large(size, self.max_document_bytes)], version)
            return
        if self._worker is not None and self._worker.closed_bytes > self.max_document_bytes * CLOSED_SHARE:
            self.log(
                LOG_INFO,
                f"the check process still holds {self._worker.closed_bytes:,} bytes of closed files: "
                "starting a new one (the open files are checked again)",
            )
            self.stop_worker()
            for other in self.documents:
                if other != uri:
                    self._make_ready(other)
        if self._worker is None:
            self._worker = _Worker.start(self.root, self.config_file)
        worker = self._worker
        worker.holds[uri] = size
        job = self._job = _Job(uri, version, time.monotonic())
        self.log(LOG_LOG, f"checking {uri} (version {version}, {size:,} bytes)")
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
                LOG_ERROR,
                f"the check process ended (exit code {code}) checking {uri} (version {version}); "
                + ("checking it again in a new one" if again else "not checking it again before its next edit"),
            )
            if again:
                await self._check(uri, retry=False)
            return
        if job.stale:
            self.log(
                LOG_INFO,
                f"a check of {uri} (version {version}) made stale by an edit ended after "
                f"{time.monotonic() - job.started:.1f} s: its findings were dropped",
            )
        self._take(uri, job, reply)

    def _take(self, uri: str, job: _Job, reply: dict[str, Any]) -> None:
        """Publish what a check found: each buffer's findings, if its text is still the one checked."""
        if "error" in reply:
            self.log(LOG_ERROR, str(reply["error"]))
            return
        if "skipped" in reply:
            if uri not in self._told:
                self._told.add(uri)
                self.log(LOG_INFO, f"{uri} is not checked: {reply['skipped']}, as onellm check . would")
            if not job.stale:
                self.publish(uri, [], job.version)
            return
        cache = reply.get("cache")
        if isinstance(cache, dict):
            self.log(
                LOG_INFO,
                f"the check process started from the warm cache in {cache['directory']}"
                if cache["was"] == "read"
                else "the check process analysed the standard library and onellm_runtime; the warm cache "
                f"that saves this next time is being written to {cache['directory']}",
            )
        if reply.get("reconfigured"):  # the mypy configuration changed: the other buffers' findings too
            self.log(LOG_INFO, "the mypy configuration changed: checking the open files again")
            for other in self.documents:
                if other != uri:
                    self._make_ready(other)
        found: dict[str, Any] = reply.get("found", {})
        for found_path, entry in found.items():
            found_uri = uri if found_path == to_path(uri) else to_uri(found_path)
            document = self.documents.get(found_uri)
            if document is None or document.version != entry["version"]:
                continue  # closed, or edited since: the newer text's check publishes
            self._fixable[found_uri] = (entry["version"], entry)
            self.publish(found_uri, [self.diagnostic(*d) for d in entry["diagnostics"]], entry["version"])

    def diagnostic(
        self, line: int, column: int, end_line: int, end_column: int, code: str, message: str, severity: str
    ) -> Json:
        found: Json = {
            "range": span(line, column, end_line, end_column) if end_column >= 0 else span(line, column, line + 1, 0),
            "message": message,
            "severity": SEVERITY_ERROR if severity == "error" else SEVERITY_INFORMATION,
            "code": code,
            "source": SOURCE,
        }
        link = self.link(code)
        if link is not None:
            found["codeDescription"] = link
        return found

    def publish(self, uri: str, diagnostics: list[Json], version: int | None) -> None:
        if self._published.get(uri) == (version, diagnostics):
            return
        self._published[uri] = (version, diagnostics)
        params: Json = {"uri": uri, "diagnostics": diagnostics}
        if version is not None:
            params["version"] = version
        self.connection.notify("textDocument/publishDiagnostics", params)

    def fixes(self, uri: str, diagnostics: Sequence[Json]) -> list[Json]:
        """The quick fixes for the findings the editor sends, on the text they were found in."""
        document = self.documents.get(uri)
        checked = self._fixable.get(uri)
        if document is None or checked is None or checked[0] != document.version:
            return []  # edited since the findings were published: their positions no longer hold
        text, entry = document.text, checked[1]

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
        self.connection.notify("textDocument/publishDiagnostics", {"uri": uri, "diagnostics": []})

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


def _object(value: object) -> Json:
    """A JSON object read from what a client sent, empty when it sent something else."""
    return cast(Json, value) if isinstance(value, dict) else {}


def _positive(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None


#: The requests the server serves: method -> what answers it (any other: MethodNotFound).
REQUESTS: dict[str, Callable[[OnellmServer, Any], Any]] = {
    "initialize": OnellmServer.initialize,
    "textDocument/codeAction": OnellmServer.code_action,
    "shutdown": OnellmServer.shutdown,
}
#: The notifications it acts on (any other, ``$/cancelRequest`` among them, is ignored: its
#: requests are answered as they arrive, so there is none under way to cancel).
NOTIFICATIONS: dict[str, Callable[[OnellmServer, Any], None]] = {
    "textDocument/didOpen": OnellmServer.did_open,
    "textDocument/didChange": OnellmServer.did_change,
    "textDocument/didClose": OnellmServer.did_close,
    "exit": OnellmServer.exit,
}


# -- quick fixes ---------------------------------------------------------------------

_ANY = re.compile(r"\b(?:typing\.|typing_extensions\.|t\.)?Any\b")
_RANGE = re.compile(r"Range\((\s*[^,()]+?\s*),(\s*[^,()]+?\s*)\)")


def quick_fixes(
    uri: str,
    text: str,
    diagnostics: Sequence[Json],
    import_edit: Callable[[], ImportEdit | None] | None = None,
) -> list[Json]:
    """The mechanical fixes (LSP ``CodeAction`` objects) for the OLT findings among ``diagnostics``
    (LSP ``Diagnostic`` objects: those the editor sends for a range).

    ``import_edit`` gives where ``JsonValue`` gets imported (None: ``text`` does not parse);
    by default it is read from ``text``.
    """
    lines = text.splitlines(keepends=True)
    actions: list[Json] = []
    for d in diagnostics:
        if d.get("source") != SOURCE:
            continue
        code, message = d.get("code"), d.get("message", "")
        edits: list[Json] | None = None
        title = ""
        if code == "OLT002" and "'Any' has no schema" in message:
            edits = _any_to_json_value(lines, d["range"], import_edit or (lambda: json_value_import(text)))
            title = "Use JsonValue (any JSON value) instead of Any"
        elif code == "OLT013" and "has its minimum above its maximum" in message:
            edits = _swap_range(lines, d["range"])
            title = "Swap the Range bounds"
        if edits:
            actions.append(
                {
                    "title": title,
                    "kind": QUICK_FIX,
                    "diagnostics": [d],
                    "isPreferred": True,
                    "edit": {"changes": {uri: edits}},
                }
            )
    return actions


def _one_line_match(lines: list[str], r: Json, pattern: re.Pattern[str]) -> tuple[int, re.Match[str]] | None:
    """The only match of ``pattern`` on the diagnostic's first line, inside its range."""
    start, end = r["start"], r["end"]
    if not (isinstance(start["line"], int) and isinstance(start["character"], int) and isinstance(end["line"], int)):
        raise TypeError("a range's positions are integers")
    first: int = start["line"]
    if not 0 <= first < len(lines):
        return None
    line = lines[first]
    stop = end["character"] if end["line"] == first else len(line)
    matches = [m for m in pattern.finditer(line) if m.start() >= start["character"] and m.end() <= stop]
    return (first, matches[0]) if len(matches) == 1 else None


def _edit(line: int, start: int, end: int, new_text: str) -> Json:
    """An LSP ``TextEdit`` within one line."""
    return {"range": span(line, start, line, end), "newText": new_text}


def _any_to_json_value(lines: list[str], r: Json, import_edit: Callable[[], ImportEdit | None]) -> list[Json] | None:
    found = _one_line_match(lines, r, _ANY)
    if found is None:
        return None
    line, m = found
    edits = [_edit(line, m.start(), m.end(), "JsonValue")]
    imported = import_edit()
    if imported is None:
        return None  # the buffer does not parse: no safe place for the import
    if imported.text:
        edits.append(_edit(imported.line, imported.column, imported.column, imported.text))
    return edits


def _swap_range(lines: list[str], r: Json) -> list[Json] | None:
    found = _one_line_match(lines, r, _RANGE)
    if found is None:
        return None
    line, m = found
    low, high = m.group(1), m.group(2)
    return [_edit(line, m.start(), m.end(), f"Range({high.strip()}, {low.strip()})")]


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
    # The check process first: it imports mypy and loads the warm cache while the server starts.
    worker = _Worker.start(os.getcwd(), ns.config_file)
    server = OnellmServer(ns.debounce_ms, ns.docs_url, ns.max_document_bytes, ns.config_file, worker)
    try:
        asyncio.run(server.connection.serve())
    finally:
        server.stop()  # also when the input ended without shutdown and exit
    return server.exit_code if server.exit_code is not None else 0


if __name__ == "__main__":
    sys.exit(main())
