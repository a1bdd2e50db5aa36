"""Random edit sequences over a multi-module tool project, checked by three mypy runs after each edit.

The project: records, an ``Annotated`` alias, an enum and constants in shared modules
(``shared.py``, ``models.py``, ``aliases.py``), and tools that use them in ``app.py`` and
``more.py``. An edit moves the record between ``shared.py`` and ``models.py`` or the alias
between ``aliases.py`` and ``shared.py`` (a module is deleted when it holds nothing, and the
imports follow), deletes or restores ``aliases.py`` (its user keeps importing it), adds or
removes a syntax error, or changes
a marker's bounds, a constant or an enum member's value. After every edit the project is
checked by the daemon (``dmypy run``), by incremental mypy with a kept cache, and by
``mypy --no-incremental``, the reference: each of the first two must report exactly the
reference's OLT findings and "was not checked" notes.

A daemon crash is a failure, except mypy's own (``docs/editors.md``): a ``KeyError`` in
``fine_grained_increment_follow_imports`` once a syntax error added before a module's
deletion is removed again. A crash is replayed with the plugin left out; one that happens
without the plugin too is recorded as mypy's, and the daemon is started again.

    python tests/gen/edits.py --sequences 20 --seed 1 [--edits 12] [--keep DIR]

Everything is drawn from one ``random.Random`` seeded by ``(seed, sequence)``: the same
arguments give the same projects and edits.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

__all__ = [
    "Project",
    "Check",
    "Outcome",
    "Workspace",
    "random_edits",
    "run_sequence",
    "check_edits",
    "findings",
    "describe",
]

ROOT = Path(__file__).resolve().parents[2]

#: The shared modules a definition can live in.
HOMES = ("shared", "models")


@dataclass
class Project:
    """What the project's files say; ``files()`` writes them out."""

    #: Where the record ``Order`` is defined.
    record_home: str = "models"
    #: Where the alias ``Bounded`` is defined; None: ``aliases.py`` was deleted (its user still imports it).
    alias_home: str | None = "aliases"
    #: The record field's bounds (``Range(lo, hi)``): swapped bounds are OLT013.
    record_bounds: tuple[int, int] = (0, 9)
    #: The alias's bounds.
    alias_bounds: tuple[int, int] = (1, 5)
    #: ``LIMIT`` in ``shared.py``: the upper bound of a parameter whose default is ``DEFAULT``.
    limit: int = 50
    #: ``DEFAULT`` in ``shared.py``, or an expression the static side does not compute (OLT014).
    default: str = "10"
    #: The enum's member values (a non-string value makes the enum written by name).
    color_values: tuple[str, str] = ("'red'", "'blue'")
    #: Modules whose text ends with a syntax error.
    broken: frozenset[str] = frozenset()

    def files(self) -> dict[str, str]:
        """Each module's text by file name; a module not listed does not exist."""
        lo, hi = self.record_bounds
        alo, ahi = self.alias_bounds
        red, blue = self.color_values
        homes: dict[str, list[str]] = {"shared": [], "models": [], "aliases": []}
        homes["shared"].append(
            "import enum\n\n"
            f"LIMIT = {self.limit}\n"
            f"DEFAULT = {self.default}\n\n\n"
            "class Color(enum.Enum):\n"
            f"    RED = {red}\n"
            f"    BLUE = {blue}\n"
        )
        homes[self.record_home].append(
            "@dataclass\n"
            "class Order:\n"
            '    """An order.\n\n    Args:\n        qty: How many.\n    """\n\n'
            f"    qty: Annotated[int, Range({lo}, {hi})]\n"
            "    color: Color = Color.RED\n"
        )
        if self.alias_home is not None:
            homes[self.alias_home].append(f"Bounded = Annotated[int, Range({alo}, {ahi})]\n")
        out: dict[str, str] = {}
        for module, parts in homes.items():
            if not parts:
                continue
            head = (
                "from dataclasses import dataclass\nfrom typing import Annotated\n\nfrom onellm_runtime import Range\n"
            )
            if module != "shared" and self.record_home == module:
                head += "from shared import Color\n"
            out[f"{module}.py"] = head + "\n\n" + "\n\n".join(parts)
        record_import = f"from {self.record_home} import Order\n"
        alias_import = f"from {self.alias_home or 'aliases'} import Bounded\n"
        out["app.py"] = (
            "from typing import Annotated\n\nfrom onellm_runtime import Range, tool\n"
            + record_import
            + alias_import
            + "from shared import DEFAULT, LIMIT, Color\n\n\n"
            "@tool\n"
            "def place(order: Order, count: Bounded) -> str:\n"
            '    """Place an order."""\n'
            '    return ""\n\n\n'
            "@tool\n"
            "def limited(n: Annotated[int, Range(0, LIMIT)] = DEFAULT, color: Color = Color.BLUE) -> str:\n"
            '    return ""\n'
        )
        out["more.py"] = (
            "from onellm_runtime import tool\n" + record_import + "\n\n@tool\n"
            "def store(orders: list[Order]) -> str:\n"
            '    return ""\n'
        )
        for name in self.broken:
            if f"{name}.py" in out:
                out[f"{name}.py"] += "\ndef broken(:\n"
        return out


#: Each edit: its name and how it changes a project (None when it does not apply).
def _move_record(p: Project, r: random.Random) -> Project | None:
    return dataclasses.replace(p, record_home="shared" if p.record_home == "models" else "models")


def _move_alias(p: Project, r: random.Random) -> Project | None:
    if p.alias_home is None:
        return None
    return dataclasses.replace(p, alias_home="shared" if p.alias_home == "aliases" else "aliases")


def _delete_alias_module(p: Project, r: random.Random) -> Project | None:
    return dataclasses.replace(p, alias_home=None) if p.alias_home == "aliases" else None


def _restore_alias_module(p: Project, r: random.Random) -> Project | None:
    return dataclasses.replace(p, alias_home="aliases") if p.alias_home is None else None


def _break(p: Project, r: random.Random) -> Project | None:
    candidates = sorted({"shared", "app", "more", p.record_home} - p.broken)
    return dataclasses.replace(p, broken=p.broken | {r.choice(candidates)}) if candidates else None


def _mend(p: Project, r: random.Random) -> Project | None:
    return dataclasses.replace(p, broken=p.broken - {r.choice(sorted(p.broken))}) if p.broken else None


def _record_bounds(p: Project, r: random.Random) -> Project | None:
    lo, hi = p.record_bounds
    return dataclasses.replace(p, record_bounds=(hi, lo) if r.random() < 0.5 else (lo, hi + r.randint(1, 5)))


def _alias_bounds(p: Project, r: random.Random) -> Project | None:
    lo, hi = p.alias_bounds
    return dataclasses.replace(p, alias_bounds=(hi, lo)) if p.alias_home is not None else None


def _limit(p: Project, r: random.Random) -> Project | None:
    return dataclasses.replace(p, limit=r.choice([5, 50, 500]))


def _default(p: Project, r: random.Random) -> Project | None:
    return dataclasses.replace(p, default=r.choice(["10", "LIMIT // 2", "int('7')", "LIMIT * 2"]))


def _color(p: Project, r: random.Random) -> Project | None:
    return dataclasses.replace(p, color_values=r.choice([("'red'", "'blue'"), ("1", "2"), ("'red'", "2")]))


EDITS = {
    "move the record": _move_record,
    "move the alias": _move_alias,
    "delete the alias's module": _delete_alias_module,
    "restore the alias's module": _restore_alias_module,
    "add a syntax error": _break,
    "remove a syntax error": _mend,
    "change the record's bounds": _record_bounds,
    "swap the alias's bounds": _alias_bounds,
    "change a constant": _limit,
    "change a default": _default,
    "change the enum's values": _color,
}


def random_edits(seed: int, sequence: int, count: int) -> tuple[Project, list[tuple[str, Project]]]:
    """A starting project and ``count`` edits (each named, with the project after it)."""
    r = random.Random(f"{seed}:{sequence}")
    start = Project(record_home=r.choice(HOMES), record_bounds=r.choice([(0, 9), (9, 0)]))
    project = start
    out: list[tuple[str, Project]] = []
    while len(out) < count:
        name = r.choice(list(EDITS))
        after = EDITS[name](project, r)
        if after is not None and after != project:
            out.append((name, after))
            project = after
    return start, out


# --- running the checks ------------------------------------------------------------------


def findings(output: str) -> list[str]:
    """The plugin's lines of a mypy output, sorted: OLT findings, "was not checked" notes, and
    mypy's INTERNAL ERROR line (a crash of a plugin hook, which no run may have)."""
    return sorted(
        line for line in output.splitlines() if "[OLT" in line or "was not checked" in line or _INTERNAL in line
    )


_INTERNAL = "INTERNAL ERROR"


_CRASH = re.compile(r"Daemon crashed|Traceback \(most recent call last\)|INTERNAL ERROR")
_FRAME = re.compile(r'File "[^"]*?([\w/]+\.py)", line \d+, in (\w+)')


@dataclass
class Check:
    """The three runs after one edit."""

    edit: str
    reference: list[str]
    incremental: list[str]
    daemon: list[str]
    #: The daemon's crash (its last frame and error), or "".
    crash: str = ""
    #: Whether the crash happens without the plugin too (mypy's own).
    mypys_own: bool = False

    @property
    def failed(self) -> bool:
        if self.crash:
            return not self.mypys_own
        if any(_INTERNAL in line for line in self.reference):
            return True
        return self.incremental != self.reference or self.daemon != self.reference


@dataclass
class Outcome:
    """One sequence: its seed, and the checks after each edit."""

    seed: int
    sequence: int
    checks: list[Check] = field(default_factory=list)

    @property
    def failures(self) -> list[Check]:
        return [c for c in self.checks if c.failed]


class Workspace:
    """A project directory with its daemon, its kept cache and its mypy configuration."""

    def __init__(self, directory: Path, plugin: bool = True) -> None:
        self.dir = directory
        self.dir.mkdir(parents=True, exist_ok=True)
        self.stamp = 1_700_000_000
        plugins = "plugins = onellm_mypy\n" if plugin else ""
        (self.dir / "mypy.ini").write_text(f"[mypy]\n{plugins}mypy_path = {ROOT}\nshow_column_numbers = True\n")

    def write(self, project: Project) -> None:
        """Make the directory hold exactly the project's modules; every written file gets a newer stamp."""
        files = project.files()
        for path in self.dir.glob("*.py"):
            if path.name not in files:
                path.unlink()
        for name, text in files.items():
            path = self.dir / name
            if path.exists() and path.read_text() == text:
                continue
            path.write_text(text)
            self.stamp += 10
            os.utime(path, (self.stamp, self.stamp))

    def _modules(self) -> list[str]:
        return sorted(p.name for p in self.dir.glob("*.py"))

    def _run(self, *args: str) -> subprocess.CompletedProcess[str]:
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        return subprocess.run(
            [sys.executable, *args], cwd=self.dir, capture_output=True, text=True, timeout=600, env=env
        )

    def reference(self) -> list[str]:
        done = self._run(
            "-m", "mypy", "--no-incremental", "--cache-dir", os.devnull, "--config-file", "mypy.ini", *self._modules()
        )
        return findings(done.stdout + done.stderr)

    def incremental(self) -> list[str]:
        done = self._run("-m", "mypy", "--cache-dir", ".cache", "--config-file", "mypy.ini", *self._modules())
        return findings(done.stdout + done.stderr)

    def daemon(self) -> tuple[list[str], str]:
        """The daemon's findings, and its crash ("" if none; the daemon is then stopped)."""
        done = self._run(
            "-m", "mypy.dmypy", "--status-file", "dmypy.json", "run", "--",
            "--config-file", "mypy.ini", "--follow-imports", "normal", *self._modules(),
        )  # fmt: skip
        text = done.stdout + done.stderr
        if _CRASH.search(text):
            self.stop()
            frames = _FRAME.findall(text)
            where = f"{frames[-1][0]} {frames[-1][1]}: " if frames else ""
            return [], where + text.strip().splitlines()[-1]
        return findings(done.stdout), ""

    def stop(self) -> None:
        self._run("-m", "mypy.dmypy", "--status-file", "dmypy.json", "kill")


def _crashes_without_plugin(projects: list[Project]) -> bool:
    """Whether a daemon without the plugin, started on the first project and given each next one
    in turn, crashes on the last (and not before)."""
    with tempfile.TemporaryDirectory() as tmp:
        ws = Workspace(Path(tmp), plugin=False)
        try:
            for i, project in enumerate(projects):
                ws.write(project)
                _, crash = ws.daemon()
                if crash:
                    return i == len(projects) - 1
            return False
        finally:
            ws.stop()


def run_sequence(seed: int, sequence: int, edits: int, directory: Path) -> Outcome:
    """Start the project, then check it after each edit; the daemon is stopped at the end."""
    start, steps = random_edits(seed, sequence, edits)
    return check_edits(start, steps, directory, Outcome(seed, sequence))


def check_edits(start: Project, steps: list[tuple[str, Project]], directory: Path, outcome: Outcome) -> Outcome:
    """The three runs on ``start`` and after each of ``steps``, added to ``outcome``."""
    ws = Workspace(directory)
    #: The projects the running daemon has seen, from the one it started on.
    seen: list[Project] = []
    try:
        for name, project in [("start", start), *steps]:
            ws.write(project)
            seen.append(project)
            daemon, crash = ws.daemon()
            check = Check(name, ws.reference(), ws.incremental(), daemon, crash)
            if crash:  # the next run starts a new daemon
                check.mypys_own = len(seen) > 1 and _crashes_without_plugin(seen)
                seen = []
            outcome.checks.append(check)
    finally:
        ws.stop()
    return outcome


def describe(outcome: Outcome) -> Iterator[str]:
    """Readable lines: each failing or crashing check, with what differs."""
    for i, check in enumerate(outcome.checks):
        if not check.failed and not check.crash:
            continue
        head = f"seed {outcome.seed} sequence {outcome.sequence} edit {i} ({check.edit})"
        if check.crash:
            yield f"{head}: daemon crash{' (mypy without the plugin crashes too)' if check.mypys_own else ''}: {check.crash}"
            continue
        for label, found in (("incremental", check.incremental), ("daemon", check.daemon)):
            if found != check.reference:
                yield f"{head}: {label} differs from --no-incremental"
                yield from (f"    only {label}: {line}" for line in found if line not in check.reference)
                yield from (f"    only reference: {line}" for line in check.reference if line not in found)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sequences", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--edits", type=int, default=12)
    parser.add_argument("--keep", type=Path, help="leave each sequence's project in this directory")
    args = parser.parse_args()
    failed = checked = mypys = 0
    for sequence in range(args.sequences):
        with tempfile.TemporaryDirectory() as tmp:
            directory = args.keep / f"seq{sequence}" if args.keep else Path(tmp)
            if args.keep and directory.exists():
                shutil.rmtree(directory)
            outcome = run_sequence(args.seed, sequence, args.edits, directory)
        checked += len(outcome.checks)
        failed += len(outcome.failures)
        mypys += sum(1 for c in outcome.checks if c.mypys_own)
        for line in describe(outcome):
            print(line, flush=True)
        print(f"sequence {sequence}: {len(outcome.checks)} checks, {len(outcome.failures)} failed", flush=True)
    print(f"{checked} checks, {failed} failed, {mypys} daemon crashes that are mypy's own (docs/editors.md)")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
