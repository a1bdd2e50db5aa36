"""Check editor buffers in process, warm: mypy's fine-grained build, fed the unsaved text.

The language server (``lsp``) asks for the OLT findings of one buffer after every edit.
A fresh mypy build costs seconds (``builtins`` and ``typing`` are analysed again); the
daemon's machinery (``FineGrainedBuildManager``) keeps every module analysed and
re-processes only the one that changed, so a re-check costs about as much as the edited
module. The buffer reaches mypy as a shadow file (a private copy mypy reads in place of
the file on disk, as with ``--shadow-file``), and the plugin reads the same copy.

API::

    checker = LiveChecker(options)           # the project's options (project.project_options())
    checker.check("/project/app.py", text)   # -> {path: [LiveDiagnostic]} for each open buffer
    checker.close()                          # removes the shadow copies
"""

from __future__ import annotations

import ast
import json
import os
import shutil
import tempfile
from dataclasses import dataclass

from mypy import build
from mypy.build import State
from mypy.errors import CompileError
from mypy.find_sources import create_source_list
from mypy.fscache import FileSystemCache
from mypy.modulefinder import BuildSource
from mypy.options import Options
from mypy.server.update import FineGrainedBuildManager

from .codes import ERROR_CODES, UNCHECKED
from .extract import runtime_visible
from .plugin import OnellmPlugin
from .warmcache import WarmCache

__all__ = ["LiveChecker", "LiveDiagnostic", "live_options"]


@dataclass(frozen=True)
class LiveDiagnostic:
    """One finding in a buffer: 0-based lines and columns, end exclusive (as LSP counts)."""

    line: int
    column: int
    end_line: int
    end_column: int
    code: str
    message: str
    #: ``error`` for the OLT codes, ``note`` for a tool that could not be checked.
    severity: str


def live_options(project: Options) -> Options:
    """``project`` (the project's configuration, as ``onellm check`` reads it) set up for a warm build.

    What ``onellm check`` needs on top of any configuration (``extract.runtime_visible``),
    then the daemon's fine-grained mode, which follows no import silently: ``silent``
    becomes ``normal`` (only the buffers' findings are read, so a followed module's errors
    stay unseen either way).
    """
    options = runtime_visible(project)
    options.incremental = True
    options.fine_grained_incremental = True
    options.use_fine_grained_cache = False
    options.cache_dir = os.devnull
    options.local_partial_types = True  # required by fine-grained mode
    if options.follow_imports == "silent":
        options.follow_imports = "normal"
    for values in options.per_module_options.values():
        if values.get("follow_imports") == "silent":
            values["follow_imports"] = "normal"
    if hasattr(options, "num_workers"):  # parallel checking off, in the mypy versions that have it
        options.num_workers = 0
    return options


class LiveChecker:
    """A warm mypy over the buffers an editor has open; one instance per server."""

    def __init__(self, project: Options | None = None, cache: WarmCache | None = None) -> None:
        self._shadow_dir = tempfile.mkdtemp(prefix="onellm-lsp-")
        self._options = live_options(project if project is not None else Options())
        #: Where the first build loads the standard library and onellm_runtime from, when it is written.
        self._cache = cache
        self._shadows: list[list[str]] = []
        self._options.shadow_file = self._shadows  # the plugin re-reads it on every check
        self._fscache = FileSystemCache()
        self._manager: FineGrainedBuildManager | None = None
        self._plugin = OnellmPlugin(self._options)
        #: Buffer path -> how mypy reads it, for every buffer handed to mypy.
        self._buffers: dict[str, _Buffer] = {}
        #: The source roots of the first build: a buffer under another root needs a new build.
        self._roots: set[str] = set()

    def close(self) -> None:
        shutil.rmtree(self._shadow_dir, ignore_errors=True)

    def check(self, path: str, text: str) -> dict[str, list[LiveDiagnostic]] | None:
        """The OLT findings and notes of every buffer once ``path`` holds ``text`` (whatever is on disk).

        ``path`` is always a key; other buffers are there too, since an edit to one (a record
        another buffer's tool uses) can change the findings of another. None while ``text``
        does not parse (the middle of an edit): mypy would stop at the syntax error before
        any tool is checked, and a cold build would follow the next good text.
        """
        try:
            ast.parse(text)
        except (SyntaxError, ValueError):
            return None
        path = os.path.abspath(path)
        buffer = self._buffer(path)
        with open(buffer.shadow, "w", encoding="utf-8") as f:
            f.write(text)
        self._fscache.flush()
        self._plugin.new_generation()
        source = buffer.source
        try:
            if self._manager is None or source.base_dir not in self._roots:
                messages = self._build()
            else:
                self._manager.flush_cache()  # mypy keeps parsed trees until told the files changed
                assert source.path is not None and source.module
                messages = self._manager.update([(source.module, source.path)], [])
        except CompileError as e:  # mypy refused the build (a blocking error): nothing more to say
            self._manager = None
            messages = list(e.messages)
        named = {b.source.path: p for p, b in self._buffers.items() if b.source.path}
        return _parse(messages, path, named)

    def _buffer(self, path: str) -> _Buffer:
        """The buffer for ``path``: its module and its shadow copy (made on first sight)."""
        known = self._buffers.get(path)
        if known is not None:
            return known
        shadow = os.path.join(self._shadow_dir, f"{len(self._buffers)}_{os.path.basename(path)}")
        if os.path.isfile(path):
            found = create_source_list([path], self._options, self._fscache)
            source = found[0] if found else BuildSource(path, _stem(path), None, os.path.dirname(path))
            self._shadows.append([path, shadow])
            if self._manager is not None:
                manager = self._manager.manager
                manager.shadow_map[path] = shadow
                manager.shadow_equivalence_map.pop(path, None)
        else:
            # Never saved: mypy reads the copy itself (its findings are mapped back to ``path``).
            source = BuildSource(shadow, _stem(path), None, os.path.dirname(path))
        buffer = self._buffers[path] = _Buffer(source, shadow)
        return buffer

    @property
    def options(self) -> Options:
        """The options the builds run with (the project's, set up for a warm build)."""
        return self._options

    def _build(self) -> list[str]:
        """A cold build of every open buffer (the first check, or a buffer under a new root).

        With a warm cache, what the cache holds is loaded, not analysed; then the buffers,
        and every cached module whose file changed since, are checked as an update.
        """
        sources = [b.source for b in self._buffers.values()]
        self._roots = {s.base_dir for s in sources if s.base_dir}
        self._plugin = OnellmPlugin(self._options)
        cache = self._cache if self._cache is not None and self._cache.ready else None
        if cache is not None:
            cache.reading(self._options)
        try:
            result = build.build(
                sources + ([cache.prelude] if cache is not None else []),
                self._options,
                fscache=self._fscache,
                extra_plugins=[self._plugin],
            )
        except CompileError:
            self._manager = None
            raise
        self._manager = FineGrainedBuildManager(result)
        if not result.used_cache:
            return result.errors
        changed = [(s.module, s.path) for s in sources if s.path]
        for state in self._manager.graph.values():
            if state.path and state.id not in {m for m, _ in changed} and self._stale(state):
                changed.append((state.id, state.path))
        return self._manager.update(changed, [])

    def _stale(self, state: State) -> bool:
        """Has the file of a module loaded from the cache changed since the cache was written?"""
        meta = state.meta
        if meta is None or not state.is_fresh():
            return True
        assert state.path is not None
        stat = self._fscache.stat_or_none(state.path)
        if stat is None:
            return True
        if stat.st_size == meta.size and int(stat.st_mtime) == meta.mtime:
            return False
        return self._fscache.hash_digest(state.path) != meta.hash


@dataclass(frozen=True)
class _Buffer:
    #: The module as mypy builds it: the file's own path, or the shadow for a file never saved.
    source: BuildSource
    shadow: str


def _stem(path: str) -> str:
    return os.path.splitext(os.path.basename(path))[0]


_OWN_CODES = {*ERROR_CODES, UNCHECKED.code}


def _parse(messages: list[str], path: str, named: dict[str, str]) -> dict[str, list[LiveDiagnostic]]:
    """mypy's JSON lines -> the plugin's findings per buffer (mypy's own errors are the type checker's job).

    ``named`` maps the path mypy reports for each buffer to the buffer's own path.
    """
    out: dict[str, list[LiveDiagnostic]] = {p: [] for p in named.values()}
    out[path] = []
    for line in messages:
        try:
            record = json.loads(line)
        except ValueError:
            continue
        if not isinstance(record, dict) or record.get("code") not in _OWN_CODES:
            continue
        reported = os.path.abspath(str(record.get("file")))
        where = out.get(named.get(reported, reported))
        if where is None:
            continue
        start_line = max(int(record["line"]) - 1, 0)
        start_col = max(int(record["column"]), 0)
        end_line = int(record.get("end_line") or record["line"]) - 1
        end_col = int(record.get("end_column") or 0)
        if end_line != start_line or end_col <= start_col:
            end_line, end_col = start_line, -1  # the rest of the line: a def's range is its whole body
        where.append(
            LiveDiagnostic(
                start_line, start_col, end_line, end_col, record["code"], record["message"], record["severity"]
            )
        )
    return out
