"""A project's mypy configuration, read the way ``mypy`` reads it, for ``onellm check`` and ``onellm lsp``.

mypy's own option processing (``mypy.main.process_options``) finds the configuration
(``mypy.ini``, ``.mypy.ini``, ``pyproject.toml``'s ``[tool.mypy]``, ``setup.cfg``, walking up
to the repository root, then the user's file; or ``--config-file``) and turns it, with the
command line, into options and a list of files. So ``disable_error_code`` (global and
per-module), ``exclude``, ``python_version``, ``mypy_path`` and ``files`` mean exactly what
they mean to ``mypy``. Only ``plugins`` is not followed: plugins are code, and the static
side runs none (the onellm plugin is always on).

Walking a directory, mypy already skips ``site-packages``, ``node_modules``, ``__pycache__``
and names starting with a dot (``.git``, ``.tox``, ``.venv``); onellm also skips ``build``
and every virtualenv (a directory holding ``pyvenv.cfg``), whatever its name. Files named
on the command line are never skipped.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

from mypy.main import process_options
from mypy.modulefinder import BuildSource
from mypy.options import Options

from . import codes as _codes  # registers the OLT codes, so disable_error_code may name them

__all__ = ["NoFiles", "SKIPPED_DIRECTORIES", "project_options", "project_sources", "walk_skips"]


class NoFiles(Exception):
    """Nothing to check: no paths on the command line and no ``files`` in the configuration."""


assert _codes.ERROR_CODES

#: Directory names skipped under a directory argument, beyond what mypy itself skips.
SKIPPED_DIRECTORIES = frozenset({"build"})

#: Directory names mypy's own walk skips (with every name starting with a dot).
_MYPY_SKIPS = frozenset({"site-packages", "node_modules", "__pycache__"})


def _is_virtualenv(directory: str, cache: dict[str, bool]) -> bool:
    if directory not in cache:
        cache[directory] = os.path.isfile(os.path.join(directory, "pyvenv.cfg"))
    return cache[directory]


def _skipped(path: str, under: str, cache: dict[str, bool]) -> bool:
    """Is ``path`` (found below the directory argument ``under``) in a skipped directory?"""
    relative = os.path.relpath(path, under)
    directory = under
    for part in relative.split(os.sep)[:-1]:
        directory = os.path.join(directory, part)
        if part in SKIPPED_DIRECTORIES or _is_virtualenv(directory, cache):
            return True
    return False


def _command_line(
    paths: Sequence[str], config_file: str | None, excludes: Sequence[str], python_version: str | None
) -> list[str]:
    """The ``mypy`` command line that stands for onellm's options."""
    args: list[str] = []
    if config_file is not None:
        args += ["--config-file", config_file]
    for pattern in excludes:
        args += ["--exclude", pattern]
    if python_version is not None:
        args += ["--python-version", python_version]
    return args + list(paths)


def _process(args: list[str], program: str) -> tuple[list[BuildSource], Options]:
    # mypy prints configuration warnings; they go to stderr, never into a report on stdout
    return process_options(args, stdout=sys.stderr, stderr=sys.stderr, require_targets=False, program=program)


def project_options(
    *, config_file: str | None = None, excludes: Sequence[str] = (), python_version: str | None = None
) -> Options:
    """The options ``mypy`` would check with from the working directory, whatever files it is given.

    The language server's view of the project: the same search for the configuration and
    the same reading of it as ``project_sources``, with no files named. Raises
    ``SystemExit(2)`` with mypy's message when the configuration cannot be used.
    """
    return _process(_command_line((), config_file, excludes, python_version), "onellm lsp")[1]


def walk_skips(path: str, options: Options) -> str | None:
    """Why a walk of the working directory (``onellm check .``) would not reach ``path``, or None.

    The walk's own steps, from the working directory down: a directory mypy or onellm
    skips, or one ``exclude`` matches (as mypy matches it: relative to the working
    directory, with a trailing ``/``), then the file against ``exclude``. A path outside the
    working directory is never walked there, so nothing skips it.
    """
    from mypy.fscache import FileSystemCache
    from mypy.modulefinder import matches_exclude

    full = os.path.abspath(path)
    here = os.getcwd()
    if not full.startswith(here + os.sep):
        return None
    fscache = FileSystemCache()
    directory = here
    for part in os.path.relpath(full, here).split(os.sep)[:-1]:
        directory = os.path.join(directory, part)
        if part.startswith(".") or part in _MYPY_SKIPS:
            return f"it is under {part}/, which mypy does not walk into"
        if part in SKIPPED_DIRECTORIES or _is_virtualenv(directory, {}):
            return f"it is under {part}/, which onellm check does not walk into"
        if matches_exclude(directory, options.exclude, fscache, False):
            return f"{part}/ matches the configuration's exclude"
    if matches_exclude(full, options.exclude, fscache, False):
        return "it matches the configuration's exclude"
    return None


def project_sources(
    paths: Sequence[str],
    *,
    config_file: str | None = None,
    excludes: Sequence[str] = (),
    python_version: str | None = None,
) -> tuple[list[BuildSource], Options]:
    """The files to check and the options to check them with, as ``mypy PATHS`` would have them.

    With no ``paths``, the configuration's ``files`` are used (``NoFiles`` when there are
    none). Raises ``SystemExit(2)`` with mypy's message on other usage errors (an unknown
    config file, a path that does not exist).
    """
    sources, options = _process(_command_line(paths, config_file, excludes, python_version), "onellm check")
    if not sources and not paths and not options.files:
        raise NoFiles("no paths given, and the mypy configuration names no files")
    directories = [os.path.abspath(p) for p in (paths or options.files or []) if os.path.isdir(p)]
    cache: dict[str, bool] = {}
    kept: list[BuildSource] = []
    for source in sources:
        if source.path is not None:
            full = os.path.abspath(source.path)
            under = [d for d in directories if full.startswith(d + os.sep)]
            if under and _skipped(full, max(under, key=len), cache):
                continue
        kept.append(source)
    return kept, options
