"""The language server's check process: a warm mypy (``live.LiveChecker``) behind a pipe.

mypy is CPU-bound and holds the GIL, so a check in the server's own process would keep
it from answering anything else until mypy finishes. The server (``lsp``) starts this
module as a child process in the workspace's root and hands it one buffer at a time; it
can stop the process whenever a check is no longer wanted.

The pipe carries frames: a line with the byte length of a UTF-8 JSON object, then the
object. A request is ``{"path", "version", "text"}``; the reply is one of

| reply | when |
|---|---|
| ``{"found": {path: {"version", "diagnostics"}}, "reconfigured": bool}`` (and ``"cache": {"directory", "was": "read" or "written"}`` on a new build's first check, ``"readyAt"``, the ``time.monotonic()`` at which the process was ready, on its first reply) | checked; ``diagnostics`` are ``[line, column, end_line, end_column, code, message, severity]`` rows (0-based, as ``LiveDiagnostic``), one entry per buffer the check speaks for, with the version of the text it read; the checked buffer's entry has ``jsonValueImport`` (``fixtext.ImportEdit``'s fields) when it has an OLT002 finding |
| ``{"unparsed": true}`` | the text does not parse (mid-edit): nothing to say |
| ``{"skipped": reason}`` | ``onellm check .`` would not reach the file (``exclude``, a virtualenv) |
| ``{"error": text}`` | the configuration cannot be read, or mypy failed (the build starts afresh) |

The first build starts from a warm cache of the standard library and ``onellm_runtime``
(``warmcache``) when one is written; the first check process without one writes it in the
background (``--write-cache``). With a warm cache, the process loads it as soon as it starts,
before the first request (``CheckWorker.prime``): it checks an empty module placed in its
working directory (the workspace's root; nothing is written there), so the first buffer whose
build starts there too (a module at the root, or in a package at the root) is checked as an
update of a build already made. Any other buffer's first check is a new build, as without it.

The project's mypy configuration is read again before every check (a few milliseconds),
the way ``onellm check`` reads it (``project.project_options``); when it changed, the warm
build is dropped and the reply says ``"reconfigured": true``, so the server checks its other
buffers again.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import sys
import time
import traceback
from collections.abc import Sequence
from dataclasses import astuple
from typing import IO, Any

from mypy.options import Options

from .fixtext import json_value_import
from .live import LiveChecker, live_options
from .project import project_options, walk_skips
from .warmcache import WarmCache

__all__ = ["CheckWorker", "main", "read_frame", "write_frame"]


#: How much lower than the server's the check process's scheduling priority is (POSIX ``nice``).
_NICENESS = 10
#: The empty module ``CheckWorker.prime`` checks (never written: mypy reads a private copy).
PRIMER = "onellm_lsp_primer__.py"


def read_frame(stream: IO[bytes]) -> dict[str, Any] | None:
    """The next object on ``stream``, or None at its end."""
    header = stream.readline()
    if not header:
        return None
    payload = stream.read(int(header))
    value = json.loads(payload)
    if not isinstance(value, dict):
        raise ValueError("a frame holds a JSON object")
    return value


def write_frame(stream: IO[bytes], value: dict[str, Any]) -> None:
    payload = json.dumps(value, ensure_ascii=False).encode("utf-8")
    stream.write(b"%d\n" % len(payload) + payload)
    stream.flush()


def _fingerprint(options: Options) -> str:
    """Everything the configuration set (two equal fingerprints check alike)."""
    return repr(sorted((k, repr(v)) for k, v in options.snapshot().items()))


class CheckWorker:
    """One warm build under the project's configuration; requests in, replies out."""

    def __init__(self, config_file: str | None) -> None:
        self.config_file = config_file
        self.checker: LiveChecker | None = None
        #: The warm cache the checker's first build starts from (``warmcache``).
        self.cache: WarmCache | None = None
        #: Whether the checker's build read the warm cache or had it written, until a reply says so.
        self.started: str | None = None
        self.fingerprint: str | None = None
        #: Buffer path -> the version of the text the warm build holds for it.
        self.versions: dict[str, int] = {}
        #: When the process was ready for its first request (``time.monotonic()``, a clock every
        #: process shares), until the first reply says so as ``readyAt``.
        self.ready_at: float | None = None

    @property
    def config_args(self) -> list[str]:
        return ["--config-file", self.config_file] if self.config_file else []

    def _options(self) -> Options | str:
        """The project's options, or why they cannot be used."""
        messages = io.StringIO()
        try:
            with contextlib.redirect_stderr(messages):
                return project_options(config_file=self.config_file)
        except SystemExit:
            return "the mypy configuration cannot be used: " + " ".join(messages.getvalue().split())

    def prime(self, directory: str) -> None:
        """With a warm cache, build what it holds now, before any request (see the module's docstring).

        Without one nothing is done: the first request's build analyses the standard library
        (and starts the cache's writer) as before. Whatever goes wrong here is left to the first
        request, which meets it again and answers it.
        """
        options = self._options()
        primer = os.path.join(directory, PRIMER)
        if isinstance(options, str) or os.path.exists(primer) or walk_skips(primer, options) is not None:
            return
        cache = WarmCache.for_options(options)
        if not cache.ready:
            return
        self.fingerprint = _fingerprint(options)
        self.cache = cache
        self.checker = LiveChecker(options, cache)
        self.started = "read"  # said in the first request's reply
        try:
            self.checker.check(primer, "")
        except Exception:
            self.reset()
            self.fingerprint = None

    def handle(self, request: dict[str, Any]) -> dict[str, Any]:
        path, version, text = str(request["path"]), int(request["version"]), str(request["text"])
        options = self._options()
        if isinstance(options, str):
            return {"error": options}
        fingerprint = _fingerprint(options)
        reconfigured = self.fingerprint is not None and fingerprint != self.fingerprint
        if fingerprint != self.fingerprint:
            self.reset()
            self.fingerprint = fingerprint
        skipped = walk_skips(path, options)
        if skipped is not None:
            return {"skipped": skipped}
        if self.checker is None:
            self.cache = WarmCache.for_options(options)
            self.checker = LiveChecker(options, self.cache)
            self.started = "read" if self.cache.ready else "written"
        try:
            found = self.checker.check(path, text)
        except Exception:  # a crash in mypy or the plugin: say so, and start afresh next time
            self.reset()
            return {"error": "mypy failed:\n" + traceback.format_exc(limit=-8)}
        if self.cache is not None and not self.cache.ready:
            self.cache.start_writer(self.config_args)
        if found is None:
            return {"unparsed": True}
        self.versions[path] = version
        entries = {
            p: {"version": self.versions[p], "diagnostics": [list(astuple(d)) for d in ds]}
            for p, ds in found.items()
            if p in self.versions
        }
        if any(d.code == "OLT002" for d in found.get(path, [])):
            edit = json_value_import(text)  # for the quick fix, so that the server need not parse
            entries[path]["jsonValueImport"] = None if edit is None else list(astuple(edit))
        reply: dict[str, Any] = {"found": entries, "reconfigured": reconfigured}
        if self.ready_at is not None:
            reply["readyAt"], self.ready_at = self.ready_at, None
        if self.started is not None and self.cache is not None:  # the build's first findings: how it started
            reply["cache"] = {"directory": self.cache.directory, "was": self.started}
            self.started = None
        return reply

    def reset(self) -> None:
        if self.checker is not None:
            self.checker.close()
        self.checker = None
        self.versions.clear()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m onellm_mypy.checkworker")
    parser.add_argument("--config-file", default=None)
    parser.add_argument("--write-cache", metavar="DIRECTORY", help="write the warm cache there, then exit")
    ns = parser.parse_args(argv)
    if ns.write_cache:
        project = project_options(config_file=ns.config_file)
        WarmCache(ns.write_cache).write(live_options(project))
        return 0
    if hasattr(os, "nice"):
        os.nice(_NICENESS)  # the editor and the server come first: a check only takes the CPU they leave
    # The replies own the real standard output; anything else printed goes to standard error.
    replies = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    worker = CheckWorker(ns.config_file)
    worker.prime(os.getcwd())
    worker.ready_at = time.monotonic()
    try:
        while (request := read_frame(sys.stdin.buffer)) is not None:
            write_frame(replies, worker.handle(request))
    except BrokenPipeError:  # the server is gone
        pass
    finally:
        worker.reset()
    return 0


if __name__ == "__main__":
    sys.exit(main())
