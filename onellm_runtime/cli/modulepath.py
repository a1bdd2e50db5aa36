"""Find a dotted module's source file by looking at the file system, never by importing.

``importlib.util.find_spec("pkg.mod")`` imports ``pkg`` (running ``pkg/__init__.py``) to
learn where ``pkg.mod`` lives, so a command that promises not to run user code cannot use
it. This walks the search path the way the import system does (a regular package's
``__init__.py`` ends the search for that name, a directory without one is a namespace
portion and the search goes on), reading only directory listings.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["FoundModule", "find_module", "search_path"]


@dataclass(frozen=True)
class FoundModule:
    """A module's source file and the search-path entry it was found under."""

    module: str
    path: str
    root: str


def search_path() -> list[str]:
    """Where ``python -m`` looks: the working directory first, then ``sys.path``."""
    entries = [os.getcwd()]
    for entry in sys.path:
        full = os.path.abspath(entry or os.curdir)
        if full not in entries and os.path.isdir(full):
            entries.append(full)
    return entries


def _is_dotted_name(name: str) -> bool:
    return all(part.isidentifier() for part in name.split("."))


def _find_in(locations: Sequence[str], part: str) -> tuple[str | None, list[str]]:
    """One step of the import system's search for ``part`` in ``locations``.

    Returns the module's file (``None`` if not found or a namespace package) and the
    locations its submodules are searched in (empty for a plain module).
    """
    portions: list[str] = []
    for location in locations:
        directory = os.path.join(location, part)
        init = os.path.join(directory, "__init__.py")
        if os.path.isfile(init):
            return init, [directory]
        module_file = directory + ".py"
        if os.path.isfile(module_file):
            return module_file, []
        if os.path.isdir(directory):
            portions.append(directory)
    return None, portions


def find_module(name: str, search: Sequence[str] | None = None) -> FoundModule | None:
    """The ``.py`` file that ``import name`` would load from ``search``, or ``None``.

    Only source files count (a name that resolves to an extension module, a ``.pyc`` or
    a namespace package has no file to read).
    """
    if not name or not _is_dotted_name(name):
        return None
    locations = list(search) if search is not None else search_path()
    parts = name.split(".")
    found: str | None = None
    for part in parts:
        if not locations:  # the previous part was a plain module: it has no submodules
            return None
        found, locations = _find_in(locations, part)
        if found is None and not locations:
            return None
    if found is None:
        return None
    root = os.path.dirname(found)
    for _ in parts if os.path.basename(found) == "__init__.py" else parts[1:]:
        root = os.path.dirname(root)
    return FoundModule(name, found, root)
