"""The ``onellm`` command: ``check`` (static diagnostics) and ``schemas`` (tool manifests).

``check`` and ``schemas --static`` read source through mypy without importing it, so
they are safe on code whose import fails or has side effects; ``schemas --runtime``
imports the modules. Exit codes: 0 clean, 1 findings (or a tool that failed to build),
2 usage or internal error.
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import json
import os
import sys
from typing import Any, Sequence, cast

from . import manifest

__all__ = ["main", "runtime_entries", "static_entries"]


def _sources(args: Sequence[str]) -> list[manifest.SourceModule]:
    """Paths and dotted module names -> source modules (module names found without importing them)."""
    paths: list[str] = []
    for arg in args:
        if os.path.exists(arg):
            paths.append(arg)
            continue
        import importlib.util

        dotted = all(part.isidentifier() for part in arg.split("."))
        try:
            spec = importlib.util.find_spec(arg) if dotted else None
        except (ImportError, ValueError):
            spec = None
        if spec is None or spec.origin is None or not spec.origin.endswith(".py"):
            raise SystemExit(_usage_error(f"no such file, directory or module: {arg}"))
        paths.append(spec.origin)
    return manifest.discover(paths)


def _usage_error(message: str) -> int:
    print(f"onellm: error: {message}", file=sys.stderr)
    return 2


def runtime_entries(sources: Sequence[manifest.SourceModule]) -> list[manifest.ManifestEntry]:
    """Import each module and describe every tool it defines (not the ones it imports)."""
    from .tool import Tool

    entries: list[manifest.ManifestEntry] = []
    for src in sources:
        if src.root not in sys.path:
            sys.path.insert(0, src.root)
        module = importlib.import_module(src.module)
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
        for _, qualname, t in sorted(found, key=lambda item: (item[0], item[1])):
            entries.append(manifest.entry(src.module, qualname, t.model))
    return entries


def static_entries(sources: Sequence[manifest.SourceModule]) -> tuple[list[manifest.ManifestEntry], list[str]]:
    """Describe every tool through mypy, without importing anything; also the findings as text."""
    from onellm_mypy.extract import extract

    result = extract([s.path for s in sources])
    entries = [manifest.entry(t.module, t.qualname, t.model) for t in result.tools]
    order = {s.module: i for i, s in enumerate(sources)}
    entries.sort(key=lambda e: order.get(e["module"], len(order)))
    return entries, [_text(d) for d in result.diagnostics]


def _shown(path: str) -> str:
    """A path as a user wrote it: relative to the working directory when it is below it."""
    rel = os.path.relpath(path)
    return path if rel.startswith("..") else rel


def _text(d: Any) -> str:
    return f"{_shown(d.path)}:{d.line}:{d.column}: error: {d.message}  [{d.code}]"


def _github(d: Any) -> str:
    message = d.message.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    return f"::error file={_shown(d.path)},line={d.line},col={d.column},title={d.code}::{message}"


def _check(ns: argparse.Namespace) -> int:
    from onellm_mypy.extract import extract

    sources = _sources(ns.paths)
    result = extract([s.path for s in sources])
    found = sorted(result.diagnostics, key=lambda d: (d.path, d.line, d.column, d.code))
    if ns.format == "json":
        print(
            json.dumps(
                [
                    {"path": _shown(d.path), "line": d.line, "column": d.column, "code": d.code, "message": d.message}
                    for d in found
                ],
                indent=2,
            )
        )
    else:
        for d in found:
            print(_github(d) if ns.format == "github" else _text(d))
        if ns.format == "text":
            n = len(found)
            print(f"Found {n} problem{'s' if n != 1 else ''} in {len(sources)} module{'s' if len(sources) != 1 else ''}" if n else f"No problems in {len(sources)} module{'s' if len(sources) != 1 else ''}", file=sys.stderr)
    return 1 if found else 0


def _schemas(ns: argparse.Namespace) -> int:
    from .tool import ToolDefinitionError

    sources = _sources(ns.paths)
    if ns.static:
        entries, problems = static_entries(sources)
        if problems:
            for line in problems:
                print(line, file=sys.stderr)
            return 1
    else:
        try:
            entries = runtime_entries(sources)
        except ToolDefinitionError as e:
            print(f"onellm: a tool could not be built:\n{e}", file=sys.stderr)
            return 1
    if ns.provider:
        from .providers import provider_definitions

        sys.stdout.write(manifest.dumps(provider_definitions(ns.provider, entries)))
    else:
        sys.stdout.write(manifest.dumps(entries))
    return 0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="onellm", description="Typed LLM tools: check them, print their schemas.")
    sub = parser.add_subparsers(dest="command", required=True)
    check = sub.add_parser("check", help="report tools that cannot be described or bound (static; imports nothing)")
    check.add_argument("paths", nargs="+", metavar="PATH")
    check.add_argument("--format", choices=("text", "json", "github"), default="text")
    sub.add_parser("lsp", help="serve the OLT diagnostics to editors (Language Server Protocol over stdio)")
    schemas = sub.add_parser("schemas", help="print a JSON manifest of every tool found")
    mode = schemas.add_mutually_exclusive_group()
    mode.add_argument("--static", action="store_true", help="read the source through mypy; import nothing")
    mode.add_argument("--runtime", action="store_true", help="import the modules (the default)")
    schemas.add_argument("--provider", choices=("openai", "anthropic", "gemini", "mcp"))
    schemas.add_argument("paths", nargs="+", metavar="PATH_OR_MODULE")
    serve = sub.add_parser("serve-mcp", help="serve the modules' tools to MCP clients (stdio, or HTTP on 127.0.0.1)")
    serve.add_argument("--http", type=int, metavar="PORT", help="streamable HTTP on 127.0.0.1:PORT instead of stdio")
    serve.add_argument("modules", nargs="+", metavar="MODULE")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["lsp"]:  # the language server parses its own options (onellm_mypy.lsp)
        try:
            from onellm_mypy.lsp import main as lsp
        except ModuleNotFoundError as e:
            return _usage_error(f"the language server needs {e.name}: pip install 'onellm-tools[lsp]'")
        return lsp(argv[1:])
    ns = _parser().parse_args(argv)
    try:
        if ns.command == "check":
            return _check(ns)
        if ns.command == "serve-mcp":
            from .mcp import main as serve_mcp

            return serve_mcp(ns.modules, ns.http)
        return _schemas(ns)
    except SystemExit as e:
        return e.code if isinstance(e.code, int) else 2
    except ModuleNotFoundError as e:
        if e.name == "mypy" or (e.name or "").startswith("onellm_mypy"):
            return _usage_error("the static side needs mypy: pip install 'onellm-tools[mypy]'")
        raise


def entry() -> None:
    """The console script: ``main``, then a fast exit once mypy has been loaded.

    A static run leaves mypy's whole object graph in memory; tearing it down at exit costs
    about a second on a large project, so (as mypy's own ``main`` does) flush and leave.
    """
    code = main()
    if "mypy" in sys.modules:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    sys.exit(code)


if __name__ == "__main__":
    entry()
