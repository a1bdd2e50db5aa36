"""``onellm lock`` and ``onellm diff``: a tool set held to a lock file in review (docs/ci.md).

``lock`` writes the lock (static by default: mypy reads the source, nothing is imported;
``--runtime`` imports), or with ``--check`` compares the working tree with it. ``diff``
compares two locks, each a file or ``git:REV:PATH``. Both list every change, classified
(``locking/diff.py``), in ``onellm check``'s formats, and exit 1 on a breaking change (unless
``--allow-breaking``) or a token budget exceeded.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from typing import Any

from ..locking.diff import Change, Kind, budget_changes, diff_locks
from ..locking.lockfile import Lock, LockError, build_lock, dumps_lock, over_budget, read_lock
from .entries import UsageError, runtime_entries, source_paths, static_entries
from .lockreports import CHANGE_FORMATS, summary

__all__ = ["lock_arguments", "run_lock", "diff_arguments", "run_diff", "DEFAULT_LOCK"]

DEFAULT_LOCK = "onellm.lock.json"


def _count(text: str) -> int:
    n = int(text)
    if n < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, not {n}")
    return n


def _shared_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--format", choices=tuple(CHANGE_FORMATS), default="text")
    parser.add_argument("--allow-breaking", action="store_true", help="exit 0 on breaking changes (still listed)")
    parser.add_argument(
        "--max-tokens", type=_count, metavar="N", help="fail when a tool's provider form is over N tokens"
    )
    parser.add_argument(
        "--max-total-tokens",
        type=_count,
        metavar="N",
        help="fail when a provider form of all the tools is over N tokens",
    )


def lock_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("paths", nargs="+", metavar="PATH_OR_MODULE")
    parser.add_argument("-o", "--output", default=DEFAULT_LOCK, metavar="FILE", help=f"the lock file ({DEFAULT_LOCK})")
    parser.add_argument("--runtime", action="store_true", help="import the modules instead of reading them with mypy")
    parser.add_argument("--check", action="store_true", help="compare the working tree with the lock; write nothing")
    _shared_arguments(parser)


def diff_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("old", metavar="OLD", help="a lock file, or git:REV:PATH")
    parser.add_argument("new", metavar="NEW", help="a lock file, or git:REV:PATH")
    _shared_arguments(parser)


def _current_lock(ns: argparse.Namespace) -> dict[str, Any] | None:
    """The lock of the working tree, or None when a tool could not be built (already reported)."""
    from ..tool import ToolDefinitionError
    from . import manifest
    from .importing import ImportFailed, output_to_stderr

    sources = manifest.discover(source_paths(ns.paths))
    if not ns.runtime:
        entries, problems = static_entries(sources)
        for line in problems:
            print(line, file=sys.stderr)
        return None if problems else build_lock(entries)
    try:
        with output_to_stderr():
            return build_lock(runtime_entries(sources))
    except ToolDefinitionError as e:
        print(f"onellm: a tool could not be built:\n{e}", file=sys.stderr)
        return None
    except ImportFailed as e:
        raise UsageError(str(e)) from None


def _read(spec: str) -> Lock:
    """A lock from a file, or from ``git:REV:PATH`` (``git show REV:PATH``)."""
    if spec.startswith("git:"):
        rev, sep, path = spec[4:].partition(":")
        if not sep or not rev or not path:
            raise UsageError(f"{spec}: write git:REV:PATH, such as git:origin/main:{DEFAULT_LOCK}")
        shown = subprocess.run(["git", "show", f"{rev}:{path}"], capture_output=True, text=True, encoding="utf-8")
        if shown.returncode != 0:
            raise UsageError(f"{spec}: git show failed: {shown.stderr.strip()}")
        text = shown.stdout
    else:
        try:
            with open(spec, encoding="utf-8") as f:
                text = f.read()
        except OSError as e:
            raise UsageError(f"cannot read the lock {spec}: {e.strerror}") from None
    try:
        return read_lock(text, spec)
    except LockError as e:
        raise UsageError(str(e)) from None


def _report(changes: list[Change], ns: argparse.Namespace, lock_path: str, new: Lock, *, gate: bool) -> int:
    """Print the changes and the budgets exceeded; the exit code (breaking counts when ``gate``)."""
    budgets = budget_changes(over_budget(new, ns.max_tokens, ns.max_total_tokens))
    listed = sorted(changes + budgets, key=lambda c: list(Kind).index(c.kind))
    sys.stdout.write(CHANGE_FORMATS[ns.format](listed, lock_path))
    breaking = gate and any(c.kind is Kind.BREAKING for c in listed)
    if ns.format == "text":
        allowed = " (allowed by --allow-breaking)" if breaking and ns.allow_breaking else ""
        print(summary(listed) + allowed, file=sys.stderr)
    return 1 if budgets or (breaking and not ns.allow_breaking) else 0


def run_lock(ns: argparse.Namespace) -> int:
    document = _current_lock(ns)
    if document is None:
        return 1
    current = read_lock(dumps_lock(document), "the working tree")
    if ns.check:
        if not os.path.exists(ns.output):
            raise UsageError(f"no lock at {ns.output}: write it with `onellm lock {' '.join(ns.paths)}`")
        changes = diff_locks(_read(ns.output), current)
        code = _report(changes, ns, ns.output, current, gate=True)
        if changes and ns.format == "text":
            print(f"{ns.output} is out of date: `onellm lock` writes the tools as they are now", file=sys.stderr)
        return code
    previous = _read(ns.output) if os.path.exists(ns.output) else None
    with open(ns.output, "w", encoding="utf-8", newline="\n") as f:
        f.write(dumps_lock(document))
    changes = [] if previous is None else diff_locks(previous, current)
    code = _report(changes, ns, ns.output, current, gate=False)  # what it replaced is listed; budgets still fail
    if ns.format == "text":
        print(f"wrote {ns.output}: {len(current.tools)} tool{'s' if len(current.tools) != 1 else ''}", file=sys.stderr)
    return code


def run_diff(ns: argparse.Namespace) -> int:
    old, new = _read(ns.old), _read(ns.new)
    shown = ns.new[4:].partition(":")[2] if ns.new.startswith("git:") else ns.new
    return _report(diff_locks(old, new), ns, shown, new, gate=True)
