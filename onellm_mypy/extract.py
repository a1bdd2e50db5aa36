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
reports (``# type: ignore[OLT002]`` is honoured the same way), and then walks the
checked trees for tools with the plugin's own front end.

``tools`` holds the tools the runtime would list for a module (``onellm schemas``):
``@tool`` functions and methods of module-level classes, and module- or class-level
``Tool.create(fn, ...)`` / ``tool(fn)`` assignments of a function defined in that
module; only those with no finding (a faulty tool has no schema). They come in module
order, then by first line (the first decorator's) and qualname, as the runtime sorts
them. ``model`` is ready for ``onellm_runtime.schema`` and ``manifest.entry``.

Why not collect tools inside the plugin? With a warm cache mypy does not run hooks at
all (errors are replayed), so exporting schemas cannot be a side effect of type
checking: this runs a fresh build instead. A file mypy cannot parse raises mypy's
``CompileError``.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from typing import NamedTuple, Sequence

from mypy import build
from mypy.find_sources import create_source_list
from mypy.nodes import (
    AssignmentStmt,
    Block,
    CallExpr,
    ClassDef,
    Decorator,
    IfStmt,
    MemberExpr,
    MypyFile,
    RefExpr,
    Statement,
    TryStmt,
)
from mypy.options import Options

from onellm_runtime.diagnostics import check_tool
from onellm_runtime.model import ToolModel

from .mypy_front import (
    CannotLower,
    Frontend,
    LoweredTool,
    class_duplicates,
    create_tool,
    decorator_tools,
    is_tool_ref,
    tool_decorator_index,
)
from .mypy_front import method_info
from .codes import ERROR_CODES
from .plugin import OnellmPlugin

__all__ = ["StaticTool", "StaticDiagnostic", "ExtractResult", "extract"]

_CREATE = "onellm_runtime.tool.Tool.create"
_TOOL_CLASS = "onellm_runtime.tool.Tool"


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
    options.preserve_asts = True
    options.follow_imports = "silent"
    options.check_untyped_defs = True
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
    messages: list[str] = []

    def flush(filename: str | None, new_messages: list[str], is_serious: bool) -> None:
        messages.extend(new_messages)

    result = build.build(sources, options, flush_errors=flush, extra_plugins=[plugin])
    given = {os.path.abspath(s.path): s.path for s in sources if s.path}
    diagnostics = _diagnostics(messages, given)
    fe = Frontend(result.files, plugin.sources)
    tools: list[StaticTool] = []
    for source in sources:
        tree = result.files.get(source.module)
        if tree is None:
            continue
        found: list[tuple[LoweredTool, Decorator | None]] = []
        _walk(fe, tree, tree.defs, False, found)
        listed = [(lt, dec) for lt, dec in found if lt.listed and _clean(fe, lt, dec, tree.fullname)]
        listed.sort(key=lambda item: (item[0].first_line, item[0].qualname))
        for lt, _ in listed:
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


def _is_create(callee: object) -> bool:
    """``Tool.create`` however ``Tool`` was imported."""
    if not isinstance(callee, MemberExpr) or callee.name != "create":
        return False
    return callee.fullname == _CREATE or (isinstance(callee.expr, RefExpr) and callee.expr.fullname == _TOOL_CLASS)


def _clean(fe: Frontend, lt: LoweredTool, dec: Decorator | None, module: str) -> bool:
    if lt.extra or check_tool(lt.model):
        return False
    if dec is not None:
        cls = method_info(dec.func)
        if cls is not None and class_duplicates(fe, cls, module, dec.func):
            return False
    return True


def _walk(
    fe: Frontend,
    tree: MypyFile,
    body: list[Statement],
    in_class: bool,
    found: list[tuple[LoweredTool, Decorator | None]],
) -> None:
    """Module-level statements (and the bodies of module-level classes), as ``vars()`` would see them."""
    module = tree.fullname
    for stmt in body:
        try:
            if isinstance(stmt, Decorator):
                decos = stmt.original_decorators
                i = tool_decorator_index(decos)
                if i is not None:
                    found.extend((lt, stmt) for lt in decorator_tools(fe, stmt, module))
            elif isinstance(stmt, ClassDef) and not in_class:
                _walk(fe, tree, stmt.defs.body, True, found)
            elif isinstance(stmt, AssignmentStmt) and isinstance(stmt.rvalue, CallExpr):
                call = stmt.rvalue
                callee = call.callee
                if _is_create(callee):
                    one = create_tool(fe, call, module, with_options=True)
                elif is_tool_ref(callee) and call.args:
                    one = create_tool(fe, call, module, with_options=False)
                else:
                    one = None
                if one is not None:
                    found.append((one, None))
            elif isinstance(stmt, IfStmt):
                for block in [*stmt.body, stmt.else_body]:
                    if isinstance(block, Block):
                        _walk(fe, tree, block.body, in_class, found)
            elif isinstance(stmt, TryStmt):
                for block in [stmt.body, *stmt.handlers, stmt.else_body, stmt.finally_body]:
                    if isinstance(block, Block):
                        _walk(fe, tree, block.body, in_class, found)
        except (CannotLower, RecursionError):
            continue
