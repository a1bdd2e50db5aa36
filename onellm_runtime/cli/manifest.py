"""The ``onellm schemas`` manifest: one entry per tool, written from the model alone.

Both ``--runtime`` (models from imported functions) and ``--static`` (models from mypy)
print entries made by ``core/manifest.py``, from the same fields in the same order, so on
the same code the two commands print the same bytes. This module finds the source modules
and prints the list.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from ..core.manifest import ManifestEntry, entry

__all__ = ["ManifestEntry", "entry", "dumps", "discover", "SourceModule"]


def dumps(entries: Iterable[object]) -> str:
    """The manifest as printed: indented JSON, keys in the order written, non-ASCII kept."""
    return json.dumps(list(entries), indent=2, ensure_ascii=False) + "\n"


@dataclass(frozen=True)
class SourceModule:
    """A Python file and the module name it has when its top directory is on ``sys.path``."""

    module: str
    path: str
    #: The directory to put on ``sys.path`` to import ``module``.
    root: str


def _module_of(path: str) -> SourceModule:
    path = os.path.abspath(path)
    directory, filename = os.path.split(path)
    parts = [] if filename == "__init__.py" else [filename[:-3]]
    while os.path.isfile(os.path.join(directory, "__init__.py")):
        directory, package = os.path.split(directory)
        parts.insert(0, package)
    return SourceModule(".".join(parts), path, directory)


#: Directories never walked into: build output, installed packages, caches.
SKIPPED_DIRECTORIES = frozenset({"build", "site-packages", "node_modules", "__pycache__"})


def _walked(root: str, name: str) -> bool:
    """Is the directory ``name`` below ``root`` searched for tool modules? Not hidden or
    private ones, skipped ones, or virtualenvs (a directory holding ``pyvenv.cfg``)."""
    if name.startswith((".", "_")) or name in SKIPPED_DIRECTORIES:
        return False
    return not os.path.isfile(os.path.join(root, name, "pyvenv.cfg"))


def _files_under(directory: str) -> Iterator[str]:
    for root, dirs, files in os.walk(directory):
        dirs[:] = sorted(d for d in dirs if _walked(root, d))
        for name in sorted(files):
            if name.endswith(".py"):
                yield os.path.join(root, name)


def discover(paths: Iterable[str]) -> list[SourceModule]:
    """The modules named by files and directories, in the order given (directories sorted).

    A file inside packages (directories with ``__init__.py``) gets its dotted name, as
    mypy names it, so both front ends call a module by the same name.
    """
    found: dict[str, SourceModule] = {}
    for p in paths:
        files = _files_under(p) if os.path.isdir(p) else [p]
        for f in files:
            m = _module_of(f)
            found.setdefault(m.path, m)
    return list(found.values())
