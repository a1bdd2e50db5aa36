"""The ``onellm`` command: one row of ``COMMANDS`` per subcommand.

``check`` and ``schemas --static`` read source through mypy without importing it (module
names are found by looking at the file system), so they are safe on code whose import
fails or has side effects; ``schemas --runtime`` imports the modules, from their files.
Exit codes: 0 clean, 1 findings (or a tool that failed to build), 2 usage or internal error.
"""

from __future__ import annotations

import argparse
import os
import sys
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..errortext import install_hint
from ..provider_names import PROVIDER_NAMES
from .entries import UsageError, runtime_entries, shown_path, source_paths, static_entries

__all__ = ["COMMANDS", "Command", "UsageError", "main", "runtime_entries", "static_entries"]

INSTALL_HINT = install_hint("mypy")


@dataclass(frozen=True)
class Command:
    """A subcommand: its name, its one-line help, its arguments, and what runs it.

    A command with ``own_parser`` reads its own command line (everything after its name)
    and is handed it directly; ``add_arguments`` and ``run`` then only serve ``--help``.
    """

    name: str
    help: str
    add_arguments: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]
    own_parser: Callable[[Sequence[str]], int] | None = None


def _schemas_arguments(parser: argparse.ArgumentParser) -> None:
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--static", action="store_true", help="read the source through mypy; import nothing")
    mode.add_argument("--runtime", action="store_true", help="import the modules (the default)")
    parser.add_argument("--provider", choices=PROVIDER_NAMES)
    parser.add_argument("paths", nargs="+", metavar="PATH_OR_MODULE")


def _schemas(ns: argparse.Namespace) -> int:
    from ..tool import ToolDefinitionError
    from . import manifest
    from .importing import ImportFailed, output_to_stderr

    sources = manifest.discover(source_paths(ns.paths))
    if ns.static:
        entries, problems = static_entries(sources)
        if problems:
            for line in problems:
                print(line, file=sys.stderr)
            return 1
    else:
        try:
            with output_to_stderr():  # what user code prints at import must not end up in the manifest
                entries = runtime_entries(sources)
        except ToolDefinitionError as e:
            print(f"onellm: a tool could not be built:\n{e}", file=sys.stderr)
            return 1
        except ImportFailed as e:
            raise UsageError(str(e)) from None
    if ns.provider:
        from ..providers import provider_definitions

        sys.stdout.write(manifest.dumps(provider_definitions(ns.provider, entries)))
    else:
        sys.stdout.write(manifest.dumps(entries))
    return 0


# ---------------------------------------------------------------------------- check


def _check_arguments(parser: argparse.ArgumentParser) -> None:
    from .reports import FORMATS

    parser.add_argument(
        "paths", nargs="*", metavar="PATH_OR_MODULE", help="files, directories or modules (default: the config's files)"
    )
    parser.add_argument("--format", choices=tuple(FORMATS), default="text")
    parser.add_argument(
        "--config-file", metavar="FILE", help="the mypy configuration to follow (default: mypy's search)"
    )
    parser.add_argument(
        "--exclude", action="append", default=[], metavar="REGEX", help="skip matching paths when walking directories"
    )
    parser.add_argument("--python-version", metavar="X.Y", help="the Python version to check the code for")


#: What to do when mypy maps two files to one module name (its own notes name flags of
#: mypy's command line, which ``onellm check`` reads from the configuration instead).
DUPLICATE_MODULE_ADVICE = (
    "two files map to one module name: give each directory an __init__.py so that they are packages, "
    "skip one with --exclude REGEX, or set explicit_package_bases = true and mypy_path in the mypy "
    "configuration ([tool.mypy] in pyproject.toml)"
)


def _with_advice(lines: Sequence[str]) -> list[str]:
    """mypy's lines, with onellm's advice in place of mypy's notes after a duplicate module."""
    split = [part for line in lines for part in line.splitlines()]
    if not any("Duplicate module named" in line for line in split):
        return list(lines)
    return [*(line for line in split if ": note: " not in line), DUPLICATE_MODULE_ADVICE]


def _check(ns: argparse.Namespace) -> int:
    from onellm_mypy.extract import BuildFailed, extract_sources
    from onellm_mypy.project import NoFiles, project_sources

    from .reports import FORMATS, Finding

    try:
        sources, options = project_sources(
            source_paths(ns.paths), config_file=ns.config_file, excludes=ns.exclude, python_version=ns.python_version
        )
    except NoFiles as e:
        raise UsageError(str(e)) from None
    try:
        result = extract_sources(sources, options, with_tools=False)
    except BuildFailed as e:
        raise UsageError("mypy stopped:\n" + "\n".join(_with_advice(e.lines))) from None
    found = sorted(result.diagnostics, key=lambda d: (d.path, d.line, d.column, d.code))
    findings = [
        Finding(shown_path(d.path), d.line, d.column, *result.ends.get(d, (d.line, d.column + 1)), d.code, d.message)
        for d in found
    ]
    sys.stdout.write(FORMATS[ns.format](findings))
    if ns.format == "text":
        n, modules = len(findings), len(sources)
        where = f"{modules} module{'s' if modules != 1 else ''}"
        print(
            f"Found {n} problem{'s' if n != 1 else ''} in {where}" if n else f"No problems in {where}", file=sys.stderr
        )
    return 1 if findings else 0


# ---------------------------------------------------------------------------- lsp, serve-mcp


def _lsp(argv: Sequence[str]) -> int:
    """``onellm lsp``: the language server parses its own options (``onellm_mypy.lsp``)."""
    try:
        from onellm_mypy.lsp import main as lsp
    except ModuleNotFoundError as e:
        return _usage_error(f"the language server needs {e.name}: {install_hint('lsp')}")
    return lsp(list(argv))


# The lock commands import their module when one of them is named: it loads the lock reader,
# the differ and every provider adapter, which ``onellm lsp`` and ``serve-mcp`` need not wait for.


def _diff_arguments(parser: argparse.ArgumentParser) -> None:
    from .lock import diff_arguments

    diff_arguments(parser)


def _diff(ns: argparse.Namespace) -> int:
    from .lock import run_diff

    return run_diff(ns)


def _lock_arguments(parser: argparse.ArgumentParser) -> None:
    from .lock import lock_arguments

    lock_arguments(parser)


def _lock(ns: argparse.Namespace) -> int:
    from .lock import run_lock

    return run_lock(ns)


def _no_arguments(parser: argparse.ArgumentParser) -> None:
    return None


def _serve_mcp_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--http", type=int, metavar="PORT", help="streamable HTTP on 127.0.0.1:PORT instead of stdio")
    parser.add_argument(
        "--services",
        metavar="MODULE:ATTR",
        help="what ToolContext.services holds: an object, a factory called once, or a context manager entered",
    )
    parser.add_argument("modules", nargs="+", metavar="MODULE")


def _serve_mcp(ns: argparse.Namespace) -> int:
    from ..mcp import main as serve_mcp

    return serve_mcp(ns.modules, ns.http, ns.services)


#: The subcommands, in the order ``onellm --help`` lists them.
COMMANDS: tuple[Command, ...] = (
    Command(
        "check", "report tools that cannot be described or bound (static; imports nothing)", _check_arguments, _check
    ),
    Command(
        "diff",
        "compare two tool-set locks: breaking, compatible and changed (files or git:REV:PATH)",
        _diff_arguments,
        _diff,
    ),
    Command(
        "lock",
        "write the tool-set lock (manifest, provider forms, token estimates), or --check the tree against it",
        _lock_arguments,
        _lock,
    ),
    Command(
        "lsp",
        "serve the OLT diagnostics to editors (Language Server Protocol over stdio)",
        _no_arguments,
        lambda ns: _lsp([]),
        own_parser=_lsp,
    ),
    Command("schemas", "print a JSON manifest of every tool found", _schemas_arguments, _schemas),
    Command(
        "serve-mcp",
        "serve the modules' tools to MCP clients (stdio, or HTTP on 127.0.0.1)",
        _serve_mcp_arguments,
        _serve_mcp,
    ),
)


def _parser(named: str | None = None) -> argparse.ArgumentParser:
    """The command line's parser; with ``named``, only that command's arguments are added
    (the others' help lines stay, so ``onellm --help`` and its errors read the same), since
    adding ``diff``'s or ``lock``'s imports their modules, which other commands never use."""
    parser = argparse.ArgumentParser(prog="onellm", description="Typed LLM tools: check them, print their schemas.")
    sub = parser.add_subparsers(dest="command", required=True)
    for command in COMMANDS:
        subparser = sub.add_parser(command.name, help=command.help)
        if named is None or command.name == named:
            command.add_arguments(subparser)
    return parser


def _usage_error(message: str) -> int:
    print(f"onellm: error: {message}", file=sys.stderr)
    return 2


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    own = {command.name: command.own_parser for command in COMMANDS if command.own_parser is not None}
    if argv[:1] and argv[0] in own:
        return own[argv[0]](argv[1:])
    runs = {command.name: command.run for command in COMMANDS}
    ns = _parser(argv[0] if argv[:1] and argv[0] in runs else None).parse_args(argv)
    run = runs[ns.command]
    try:
        return run(ns)
    except UsageError as e:
        return _usage_error(str(e))
    except SystemExit as e:  # argparse-style errors from mypy's option processing (already printed)
        return e.code if isinstance(e.code, int) else _usage_error(str(e.code))
    except ModuleNotFoundError as e:
        if e.name == "mypy" or (e.name or "").startswith("onellm_mypy"):
            return _usage_error(f"the static side needs mypy: {INSTALL_HINT}")
        if "pip install" in str(e):  # an optional dependency, named with its extra (serve-mcp's mcp)
            return _usage_error(str(e))
        return _internal_error()
    except Exception:
        return _internal_error()


def _internal_error() -> int:
    print("onellm: internal error (please report it with the traceback below):", file=sys.stderr)
    traceback.print_exc(file=sys.stderr)
    return 2


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
