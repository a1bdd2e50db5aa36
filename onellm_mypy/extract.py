"""The static extractor: every tool and every OLT finding in some files, without importing them.

API::

    from onellm_mypy.extract import extract

    result = extract(["src/app/tools.py", "src/other/"])   # files or directories
    result.tools        # list[StaticTool]: module, qualname, model (a checked ToolModel), path, line, column
    result.diagnostics  # list[StaticDiagnostic]: path, line, column (1-based), code ("OLT002"), message

Paths are written as given (a file inside a directory argument: that directory joined
with its relative path), for tools and findings alike.

It runs mypy as a library (``mypy.build.build``, no cache; ``extract`` reads no user
configuration, ``extract_sources`` takes the options a project's configuration gives) with
the plugin, so the diagnostics are exactly what ``mypy`` with ``plugins = onellm_mypy``
reports (``# type: ignore[OLT002]`` is honoured the same way), and the tools are what
the plugin's hooks lowered during that build (so nothing is lowered twice, and mypy's
trees need not be kept).

``tools`` holds the tools the runtime would list for a module (``onellm schemas``):
``@tool`` functions and methods of module-level classes, and module- or class-level
``Tool.create(fn, ...)`` / ``tool(fn)`` assignments of a function defined in that
module; only those with no finding (a faulty tool has no schema). They come in module
order, then by first line (the first decorator's) and qualname, as the runtime sorts
them. ``model`` is ready for ``onellm_runtime.core.schema`` and ``manifest.entry``.

Why a build of its own? With a warm cache mypy does not run hooks at all (errors are
replayed), so exporting schemas cannot be a side effect of a user's type check: this
runs a fresh, cacheless build. A file that cannot be decoded or parsed is a ``syntax``
finding (code ``"syntax"``, as mypy calls it), and the other files are still read.
"""

from __future__ import annotations

import gc
import json
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from mypy import build
from mypy.errors import CompileError
from mypy.find_sources import create_source_list
from mypy.modulefinder import BuildSource
from mypy.options import Options

from onellm_runtime.core.model import ToolModel

from .codes import ERROR_CODES
from .parsing import Readable, read_python, unparsable
from .plugin import OnellmPlugin
from .sites import LoweredTool

__all__ = [
    "StaticTool",
    "StaticDiagnostic",
    "ExtractResult",
    "BuildFailed",
    "extract",
    "extract_sources",
    "runtime_visible",
]


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
    #: Where each finding ends, where mypy says: (line, column just past the end), 1-based.
    ends: dict[StaticDiagnostic, tuple[int, int]] = field(default_factory=dict)


def _options(python_version: tuple[int, int] | None) -> Options:
    """The options of a run that reads no user configuration (``schemas --static``)."""
    options = Options()
    options.follow_imports = "silent"
    if python_version is not None:
        options.python_version = python_version
    return options


def runtime_visible(options: Options) -> Options:
    """``options`` with what every onellm build needs, whatever the project configured.

    No cache (hooks do not run on cached modules), none written either (no later run
    reads it back; a parallel build excepted, whose workers share modules through it), no
    plugins from the configuration (they are code, and the static side runs none; the
    onellm plugin is passed in directly), errors as JSON lines with absolute paths (mapped back to the paths as
    given), and ``onellm_runtime`` visible to mypy even through an editable install's
    import hook, which mypy cannot follow.
    """
    options.incremental = False
    if getattr(options, "num_workers", 0) == 0:
        options.cache_dir = os.devnull
    options.plugins = []
    options.output = "json"
    options.show_absolute_path = True
    options.show_traceback = True
    import onellm_runtime

    root = os.path.dirname(os.path.dirname(os.path.abspath(onellm_runtime.__file__)))
    if not {"site-packages", "dist-packages"} & set(root.split(os.sep)) and root not in options.mypy_path:
        options.mypy_path.append(root)
    for name in ("onellm_runtime", "onellm_runtime.*"):  # the tools' types must resolve even under follow_imports=skip
        options.per_module_options.setdefault(name, {}).setdefault("follow_imports", "silent")
    return options


def extract(paths: Sequence[str], *, python_version: tuple[int, int] | None = None) -> ExtractResult:
    """Every tool and every OLT finding in ``paths`` (files or directories), read through mypy."""
    options = _options(python_version)
    return extract_sources(create_source_list(list(paths), options), options)


class BuildFailed(Exception):
    """mypy stopped on an error that belongs to no file (the message lines are mypy's)."""

    def __init__(self, lines: list[str]) -> None:
        super().__init__("\n".join(lines))
        self.lines = lines


def extract_sources(sources: Sequence[BuildSource], options: Options, *, with_tools: bool = True) -> ExtractResult:
    """Every tool and finding in ``sources``, under ``options`` (a project's configuration).

    A file that cannot be decoded or parsed is one ``syntax`` finding; it is left out of
    the build (and skipped where another module imports it), so every other file is still
    checked. Raises ``BuildFailed`` when mypy stops for a reason that names no file.
    ``with_tools=False`` (``onellm check``): the findings only, and no tool kept for ``tools``.
    """
    options = runtime_visible(options)
    unreadable: list[StaticDiagnostic] = []
    kept: list[BuildSource] = []
    skipped: set[str] = set()  # modules left out, so that an import of one is not followed either
    read: dict[str, Readable] = {}  # what was parsed here, which the plugin then need not parse again
    # The trees are kept, and hold no reference cycle: with the collector on, each collection
    # would walk every tree kept so far again. So it is paused while they are made, and they
    # are then moved to its oldest generation, as mypy does with what it made while parsing.
    collecting = gc.isenabled()
    gc.disable()
    try:
        for source in sources:
            problem = read_python(source.path, options.python_version) if source.path else None
            if isinstance(problem, Readable):
                read[source.path or ""] = problem
                problem = None
            if problem is None:
                kept.append(source)
            else:
                unreadable.append(
                    StaticDiagnostic(problem.path, problem.line, problem.column, problem.code, problem.message)
                )
                skipped.add(source.module)
    finally:
        if collecting:
            gc.freeze()
            gc.unfreeze()
            gc.enable()
    for _ in range(len(kept) + 1):
        if not kept:  # mypy would print "Nothing to do?!" on stdout
            return ExtractResult([], unreadable)
        messages: list[str] = []
        try:
            found = _build(kept, _skipping(options, skipped), messages, read, with_tools)
        except CompileError as e:
            messages += e.messages  # streamed errors arrived through flush; the rest are here
            blocked = _blocking_findings(messages, {os.path.abspath(s.path): s.path for s in kept if s.path})
            if not blocked:
                raise BuildFailed([_plain(m) for m in messages]) from None
            paths = {os.path.abspath(d.path) for d in blocked}
            for d in blocked:  # one finding per file, in Python's words, as for the files named
                problem = unparsable(d.path, options.python_version)
                if problem is None:
                    unreadable.append(d)
                elif os.path.abspath(problem.path) not in {os.path.abspath(u.path) for u in unreadable}:
                    unreadable.append(StaticDiagnostic(*problem))
            skipped.update(_module_name(path, options) for path in paths)
            kept = [s for s in kept if not (s.path and os.path.abspath(s.path) in paths)]
            continue
        found.diagnostics[:0] = unreadable
        return found
    raise BuildFailed(["mypy kept stopping on blocking errors"])


def _skipping(options: Options, modules: set[str]) -> Options:
    """A copy of ``options`` (never built from, so its per-module cache is still empty) that
    does not follow imports of ``modules``."""
    per_module = {name: dict(values) for name, values in options.per_module_options.items()}
    for module in modules:
        per_module.setdefault(module, {})["follow_imports"] = "skip"
    return options.apply_changes({"per_module_options": per_module})


def _module_name(path: str, options: Options) -> str:
    from mypy.find_sources import SourceFinder
    from mypy.fscache import FileSystemCache

    return SourceFinder(FileSystemCache(), options).crawl_up(path)[0]


def _plain(message: str) -> str:
    """A mypy message line as mypy would print it in text form."""
    record = _record(message)
    if record is None:
        return message
    line, file = record.get("line"), str(record.get("file"))
    relative = os.path.relpath(file) if os.path.isabs(file) else file
    file = file if relative.startswith("..") else relative
    where = f"{file}:{line}" if isinstance(line, int) and line >= 1 else file
    hints = [f"{where}: note: {hint}" for hint in str(record.get("hint") or "").splitlines()]
    return "\n".join([f"{where}: {record.get('severity')}: {record.get('message')}", *hints])


#: A message line in mypy's text form (mypy before 2.x writes blocking errors so even with -O json).
_TEXT_LINE = re.compile(
    r"^(?P<file>.+?)(?::(?P<line>\d+))?(?::(?P<column>\d+))?"
    r": (?P<severity>error|note): (?P<message>.*?)(?:  \[(?P<code>[\w-]+)\])?$"
)


def _record(line: str) -> dict[str, object] | None:
    """A message line as mypy's JSON record (from JSON, or parsed from the text form)."""
    try:
        record = json.loads(line)
    except ValueError:
        match = _TEXT_LINE.match(line)
        if match is None:
            return None
        column = match["column"]
        return {
            "file": match["file"],
            "line": int(match["line"]) if match["line"] else -1,
            "column": int(column) - 1 if column else -1,
            "severity": match["severity"],
            "message": match["message"],
            "code": match["code"],
        }
    return record if isinstance(record, dict) else None


def _blocking_findings(messages: list[str], given: dict[str, str]) -> list[StaticDiagnostic]:
    """The blocking errors that say a file cannot be parsed, as findings.

    Other blocking errors (a module found twice, under two names) are not about the
    code: they are none of these, and the caller reports them as mypy's message.
    """
    out: list[StaticDiagnostic] = []
    for line in messages:
        record = _record(line)
        if record is None or record.get("severity") != "error" or not record.get("file"):
            continue
        path, lineno, column = str(record["file"]), record.get("line"), record.get("column")
        if record.get("code") != "syntax" or not isinstance(lineno, int) or lineno < 1 or not os.path.isfile(path):
            continue
        out.append(
            StaticDiagnostic(
                given.get(os.path.abspath(path), path),
                lineno,
                int(column) + 1 if isinstance(column, int) and column >= 0 else 1,
                "syntax",
                str(record["message"]),
            )
        )
    return out


def _build(
    sources: Sequence[BuildSource],
    options: Options,
    messages: list[str],
    read: dict[str, Readable],
    with_tools: bool,
) -> ExtractResult:
    """One mypy build; its error lines are appended to ``messages`` as they come. ``read``: the
    files already parsed, by path, which the plugin takes as parsed."""
    plugin = OnellmPlugin(options)
    if with_tools:
        plugin.collected = {}  # the hooks keep what they lower: the tools come from the build itself
    for path, readable in read.items():
        if readable.tree is not None:
            plugin.sources.adopt(path, readable.data, readable.stamp, readable.tree)

    def flush(filename: str | None, new_messages: list[str], is_serious: bool) -> None:
        messages.extend(new_messages)

    result = build.build(list(sources), options, flush_errors=flush, extra_plugins=[plugin])
    given = {os.path.abspath(s.path): s.path for s in sources if s.path}
    ends: dict[StaticDiagnostic, tuple[int, int]] = {}
    diagnostics = _diagnostics(messages, given, ends)
    by_module: dict[str, list[LoweredTool]] = {}
    for _, found in (plugin.collected or {}).values():
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
    return ExtractResult(tools, diagnostics, ends)


def _diagnostics(
    messages: list[str], given: dict[str, str], ends: dict[StaticDiagnostic, tuple[int, int]]
) -> list[StaticDiagnostic]:
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
        d = StaticDiagnostic(
            given.get(os.path.abspath(record["file"]), record["file"]),
            int(record["line"]),
            int(column) + 1 if isinstance(column, int) and column >= 0 else 1,
            code,
            record["message"],
        )
        out.append(d)
        end_line, end_column = record.get("end_line"), record.get("end_column")
        if isinstance(end_line, int) and isinstance(end_column, int) and end_line >= d.line >= 1 and end_column >= 0:
            ends[d] = (end_line, end_column + 1)
    return out
