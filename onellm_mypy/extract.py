"""The static extractor: every tool and every OLT finding in some files, without importing them.

API::

    from onellm_mypy.extract import extract

    result = extract(["src/app/tools.py", "src/other/"])   # files or directories
    result.tools        # list[StaticTool]: module, qualname, model (a checked ToolModel), path, line, column
    result.diagnostics  # list[StaticDiagnostic]: path, line, column (1-based), code ("OLT002"), message

Paths are written as given (a file inside a directory argument: that directory joined
with its relative path), for tools and findings alike.

It runs mypy as a library (``mypy.build.build``, no cache, no user configuration) with
the plugin, so the diagnostics are exactly what ``mypy`` with ``plugins = onellm_mypy``
reports (``# type: ignore[OLT002]`` is honoured the same way), and the tools are what
the plugin's hooks lowered during that build (so nothing is lowered twice, and mypy's
trees need not be kept).

``tools`` holds the tools the runtime would list for a module (``onellm schemas``):
``@tool`` functions and methods of module-level classes, and module- or class-level
``Tool.create(fn, ...)`` / ``tool(fn)`` assignments of a function defined in that
module; only those with no finding (a faulty tool has no schema). They come in module
order, then by first line (the first decorator's) and qualname, as the runtime sorts
them. ``model`` is ready for ``onellm_runtime.schema`` and ``manifest.entry``.

Why a build of its own? With a warm cache mypy does not run hooks at all (errors are
replayed), so exporting schemas cannot be a side effect of a user's type check: this
runs a fresh, cacheless build. A file mypy cannot parse raises mypy's ``CompileError``.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from typing import NamedTuple, Sequence

from mypy import build
from mypy.find_sources import create_source_list
from mypy.options import Options

from onellm_runtime.model import ToolModel

from .codes import ERROR_CODES
from .plugin import OnellmPlugin
from .sites import LoweredTool

__all__ = ["StaticTool", "StaticDiagnostic", "ExtractResult", "extract"]

@dataclass(frozen=True)
class StaticTool:
    """One tool as the runtime would list it, with its checked model and where it is defined."""

    module: str
    qualname: str
    model: ToolModel
    path: str
    line: int
    column: int


class StaticDiagnostic(NamedTuple):
    """One OLT finding, as mypy reports it (column 1-based, like ``mypy --show-column-numbers``)."""

    path: str
    line: int
    column: int
    code: str
    message: str


@dataclass(frozen=True)
class ExtractResult:
    tools: list[StaticTool]
    diagnostics: list[StaticDiagnostic]


def _options(python_version: tuple[int, int] | None) -> Options:
    options = Options()
    options.incremental = False
    options.follow_imports = "silent"
    options.output = "json"
    options.show_absolute_path = True  # mapped back to the paths as given, see _diagnostics
    options.show_traceback = True
    if python_version is not None:
        options.python_version = python_version
    # mypy cannot follow an editable install's import hook: point it at onellm_runtime's tree.
    import onellm_runtime

    root = os.path.dirname(os.path.dirname(os.path.abspath(onellm_runtime.__file__)))
    if not {"site-packages", "dist-packages"} & set(root.split(os.sep)):
        options.mypy_path.append(root)
    return options


def extract(paths: Sequence[str], *, python_version: tuple[int, int] | None = None) -> ExtractResult:
    """Every tool and every OLT finding in ``paths`` (files or directories), read through mypy."""
    options = _options(python_version)
    sources = create_source_list(list(paths), options)
    plugin = OnellmPlugin(options)
    plugin.collected = {}  # the hooks keep what they lower: the tools come from the build itself
    messages: list[str] = []

    def flush(filename: str | None, new_messages: list[str], is_serious: bool) -> None:
        messages.extend(new_messages)

    result = build.build(sources, options, flush_errors=flush, extra_plugins=[plugin])
    given = {os.path.abspath(s.path): s.path for s in sources if s.path}
    diagnostics = _diagnostics(messages, given)
    by_module: dict[str, list[LoweredTool]] = {}
    for _, found in plugin.collected.values():
        for lt in found:
            if lt.listed and lt.findings == 0:
                by_module.setdefault(lt.site_module, []).append(lt)
    tools: list[StaticTool] = []
    for source in sources:
        tree = result.files.get(source.module)
        if tree is None:
            continue
        for lt in sorted(by_module.get(source.module, []), key=lambda lt: (lt.first_line, lt.qualname)):
            tools.append(StaticTool(lt.module, lt.qualname, lt.model, tree.path, lt.line, lt.column + 1))
    return ExtractResult(tools, diagnostics)


def _diagnostics(messages: list[str], given: dict[str, str]) -> list[StaticDiagnostic]:
    out: list[StaticDiagnostic] = []
    for line in messages:
        try:
            record = json.loads(line)
        except ValueError:
            continue
        code = record.get("code")
        if code not in ERROR_CODES or record.get("severity") != "error":
            continue
        column = record.get("column")
        out.append(
            StaticDiagnostic(
                given.get(os.path.abspath(record["file"]), record["file"]),
                int(record["line"]),
                int(column) + 1 if isinstance(column, int) and column >= 0 else 1,
                code,
                record["message"],
            )
        )
    return out
