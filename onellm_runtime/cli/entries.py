"""The tools of the modules a command line names, and the error it is refused with.

Every command that reads tools (``schemas``, ``check``, ``lock``) turns its arguments into
source files here (dotted module names found without importing), then describes the tools
either by importing the modules (``runtime_entries``) or through mypy (``static_entries``).
"""

from __future__ import annotations

import inspect
import os
import sys
from collections.abc import Sequence
from types import ModuleType
from typing import TYPE_CHECKING, Any, cast

from .modulepath import find_module

if TYPE_CHECKING:  # imported where used: ``onellm check`` describes no tool, so it needs no manifest
    from ..tool import Tool
    from . import manifest

__all__ = ["UsageError", "source_paths", "shown_path", "runtime_entries", "static_entries"]


class UsageError(Exception):
    """A command line that cannot be carried out (exit 2, the message on stderr)."""


def source_paths(args: Sequence[str]) -> list[str]:
    """Paths as given; dotted module names -> their source files, found without importing."""
    paths: list[str] = []
    for arg in args:
        if os.path.exists(arg):
            paths.append(arg)
            continue
        found = find_module(arg)
        if found is None:
            raise UsageError(f"no such file, directory or module: {arg}")
        paths.append(found.path)
    return paths


def shown_path(path: str) -> str:
    """A path as a user wrote it: relative to the working directory when it is below it."""
    rel = os.path.relpath(path)
    return path if rel.startswith("..") else rel


def runtime_entries(sources: Sequence[manifest.SourceModule]) -> list[manifest.ManifestEntry]:
    """Import each module from its file and describe every tool it defines (not the ones it imports).

    Raises ``importing.ImportFailed`` when a module cannot be imported.
    """
    from ..tool import Tool
    from . import manifest
    from .importing import loaded_from_path

    entries: list[manifest.ManifestEntry] = []
    for src in sources:
        if src.root not in sys.path:
            sys.path.insert(0, src.root)  # the module's own imports (its siblings) resolve as under python -m
        with loaded_from_path(src.module, src.path, src.root) as module:
            found: list[tuple[int, str, Tool[Any, Any]]] = []
            seen: set[int] = set()

            def add(qualname: str, t: Tool[Any, Any]) -> None:
                if id(t) in seen or t.__module__ != src.module:
                    return
                seen.add(id(t))
                code = getattr(inspect.unwrap(t.fn), "__code__", None)  # the def's line, not a decorator's wrapper's
                found.append((code.co_firstlineno if code is not None else 0, qualname, t))

            for value in list(vars(module).values()):
                if isinstance(value, Tool):
                    add(value.__qualname__, cast(Any, value))
                elif isinstance(value, type) and value.__module__ == src.module:
                    for attr in vars(value).values():
                        if isinstance(attr, Tool):
                            add(attr.__qualname__, cast(Any, attr))
            found.sort(key=lambda item: (item[0], item[1]))
            _refuse_repeated_names(module, src.path, found)
            for _, qualname, t in found:
                entries.append(manifest.entry(src.module, qualname, t.model))
    return entries


def _refuse_repeated_names(module: ModuleType, path: str, found: list[tuple[int, str, Tool[Any, Any]]]) -> None:
    """OLT007 for two module-level ``@tool`` functions of ``module`` with one name, at the later
    one, as the static side reports it: a ``def`` at the top of the module's source, decorated
    (its first line is its first decorator's) and still bound under its own name at the end."""
    import ast

    from ..core.diagnostics import Offered, check_offered_together, in_module
    from ..tool import ToolDefinitionError
    from ..toolset import where_defined

    with open(path, "rb") as f:
        body = ast.parse(f.read()).body
    decorated = {
        min(d.lineno for d in node.decorator_list)
        for node in body
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.decorator_list
    }
    offered = [
        Offered(t.name, where_defined(t), t)
        for line, qualname, t in found
        if line in decorated and "." not in qualname and vars(module).get(t.__name__) is t
    ]
    findings = check_offered_together(offered, in_module(module.__name__))
    if findings:
        raise ToolDefinitionError(findings)


def static_entries(sources: Sequence[manifest.SourceModule]) -> tuple[list[manifest.ManifestEntry], list[str]]:
    """Describe every tool through mypy, without importing anything; also the findings as text."""
    from onellm_mypy.extract import extract

    from . import manifest

    result = extract([s.path for s in sources])
    entries = [manifest.entry(t.module, t.qualname, t.model) for t in result.tools]
    order = {s.module: i for i, s in enumerate(sources)}
    entries.sort(key=lambda e: order.get(e["module"], len(order)))
    return entries, [
        f"{shown_path(d.path)}:{d.line}:{d.column}: error: {d.message}  [{d.code}]" for d in result.diagnostics
    ]
