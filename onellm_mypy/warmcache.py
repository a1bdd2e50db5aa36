"""A mypy cache of what every check needs first: the standard library and ``onellm_runtime``.

A check process's first check analyses ``builtins``, ``typing`` and ``onellm_runtime`` before
the buffer (seconds, every time the editor starts the server). mypy can start its
fine-grained build from a cache written with fine-grained dependencies (what ``dmypy
--use-fine-grained-cache`` does), loading those modules instead of analysing them. This
module keeps that cache: one directory per mypy, Python and configuration (``key``), under
``$ONELLM_LSP_CACHE_DIR``, else ``$XDG_CACHE_HOME/onellm/lsp``, else ``~/.cache/onellm/lsp``.

The first check process that finds no cache starts a writer (``python -m
onellm_mypy.checkworker --write-cache``, in the background): a plain build of a module that
imports ``onellm_runtime``, marked complete only once written, so a reader never reads half
a cache. Readers never write to it (mypy writes no cache in
fine-grained mode), and ``live.LiveChecker`` checks again every cached module whose file
changed since, so a stale cache costs time, never findings. The newest few directories are
kept.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import mypy.version
from mypy import build
from mypy.modulefinder import BuildSource
from mypy.options import Options

from . import __version__
from .plugin import OnellmPlugin

__all__ = ["WarmCache", "cache_root"]

#: The module the cache is written from: what every tool imports.
PRELUDE_MODULE = "onellm_prelude__"
PRELUDE_TEXT = "import onellm_runtime\n"
#: Cache directories kept (one per configuration seen lately).
KEPT = 4
#: Seconds after which a writer that left its marker is taken to have died.
_WRITER_GIVES_UP_AFTER = 600
#: Options that say where and how the cache is read or written, not what a check finds.
_NOT_IN_KEY = frozenset(
    {"cache_dir", "use_fine_grained_cache", "cache_fine_grained", "incremental", "fine_grained_incremental"}
)
_NOT_IN_KEY |= {"shadow_file"}


def cache_root() -> str:
    """Where the caches live (see the module's docstring)."""
    explicit = os.environ.get("ONELLM_LSP_CACHE_DIR")
    if explicit:
        return explicit
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "onellm", "lsp")


def _key(options: Options) -> str:
    snapshot = sorted((k, repr(v)) for k, v in options.snapshot().items() if k not in _NOT_IN_KEY)
    text = repr((mypy.version.__version__, __version__, sys.version, sys.executable, snapshot))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:24]


@dataclass(frozen=True)
class WarmCache:
    """The cache for one configuration: ``mypy/`` (mypy's cache), ``prelude/`` (the module it is
    written from) and ``complete`` (made last: a cache without it is never read)."""

    directory: str

    @classmethod
    def for_options(cls, options: Options, root: str | None = None) -> WarmCache:
        return cls(os.path.join(root or cache_root(), _key(options)))

    @property
    def ready(self) -> bool:
        return os.path.isfile(os.path.join(self.directory, "complete"))

    @property
    def prelude(self) -> BuildSource:
        """The module the cache was written from; a build that names it loads what it imports from the cache."""
        directory = os.path.join(self.directory, "prelude")
        return BuildSource(os.path.join(directory, PRELUDE_MODULE + ".py"), PRELUDE_MODULE, None, directory)

    def reading(self, options: Options) -> Options:
        """``options`` (a fine-grained build's) set to start from this cache."""
        options.use_fine_grained_cache = True
        options.cache_dir = os.path.join(self.directory, "mypy")
        return options

    def start_writer(self, config_args: Sequence[str]) -> None:
        """Write the cache in a background process (``write`` there), unless it is there or being written."""
        if self.ready:
            return
        writing = os.path.join(self.directory, "writing")
        os.makedirs(self.directory, exist_ok=True)
        try:
            if time.time() - os.stat(writing).st_mtime < _WRITER_GIVES_UP_AFTER:
                return
            os.rmdir(writing)  # a writer that never finished
        except FileNotFoundError:
            pass
        try:  # one writer at a time: the marker is made atomically
            os.mkdir(writing)
        except FileExistsError:
            return
        subprocess.Popen(
            [sys.executable, "-m", "onellm_mypy.checkworker", "--write-cache", self.directory, *config_args],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )

    def write(self, options: Options) -> None:
        """Build the prelude with a cache, under ``options`` (a fine-grained build's) turned to a plain one."""
        try:
            prelude = self.prelude
            assert prelude.path is not None
            os.makedirs(os.path.dirname(prelude.path), exist_ok=True)
            Path(prelude.path).write_text(PRELUDE_TEXT, encoding="utf-8")
            options.fine_grained_incremental = False
            options.use_fine_grained_cache = False
            options.cache_fine_grained = True
            options.incremental = True
            options.cache_dir = os.path.join(self.directory, "mypy")
            build.build([prelude], options, extra_plugins=[OnellmPlugin(options)])
            Path(self.directory, "complete").touch()
        finally:
            shutil.rmtree(os.path.join(self.directory, "writing"), ignore_errors=True)
        _prune(os.path.dirname(self.directory))


def _prune(parent: str) -> None:
    """Keep the ``KEPT`` newest caches."""
    try:
        found = [e for e in os.scandir(parent) if e.is_dir() and len(e.name) == 24]
    except OSError:
        return
    for entry in sorted(found, key=lambda e: e.stat().st_mtime, reverse=True)[KEPT:]:
        shutil.rmtree(entry.path, ignore_errors=True)
