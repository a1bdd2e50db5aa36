"""4. Import time: ``python -c "import X"`` minus a bare interpreter start.

Each ``python -c STMT`` run is paired with a ``python -c pass`` run just before it, and the
figure is the median of the paired differences of the child's user+system CPU time (the
wall clock on a shared machine also counts the time the child waits for a core). Once,
``-X importtime`` gives the interpreter's own account of which modules cost what.

The children run from an empty temporary directory, so the package is found the way an
installed one is, not through the current directory.
"""

from __future__ import annotations

import functools
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Any

from .peers import Peers
from .report import Report, Row
from .rounds import Comparison, Entry, Results, Target

__all__ = ["comparisons", "once", "show", "targets", "importtime"]

TARGET_MS = 25.0

_LINE = re.compile(r"^import time:\s+(\d+) \|\s+(\d+) \|( *)(\S+)")


def _python(args: list[str], cwd: str) -> str:
    """Run a fresh interpreter; its stderr."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    done = subprocess.run([sys.executable, *args], cwd=cwd, env=env, capture_output=True, text=True, check=True)
    return done.stderr


def _run_s(stmt: str, cwd: str) -> tuple[float, float]:
    """Wall seconds and the child's CPU seconds (user + system) of one ``python -c stmt``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    _python(["-c", stmt], cwd)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def importtime(stmt: str, cwd: str) -> tuple[float, list[tuple[int, str]]]:
    """``stmt``'s import time in seconds by ``-X importtime``, and (self µs, module) per module it loaded."""
    started = {m.group(4) for m in map(_LINE.match, _python(["-X", "importtime", "-c", "pass"], cwd).splitlines()) if m}
    total_us = 0
    loaded: list[tuple[int, str]] = []
    for m in map(_LINE.match, _python(["-X", "importtime", "-c", stmt], cwd).splitlines()):
        if m is None or m.group(4) in started:
            continue
        loaded.append((int(m.group(1)), m.group(4)))
        if len(m.group(3)) <= 1:  # a top-level import of the statement (nested ones are indented further)
            total_us += int(m.group(2))
    return total_us / 1e6, loaded


def _cpu_sample(stmt: str, runs: int, cwd: str) -> float:
    """One round's figure: the median over ``runs`` pairs of the child's CPU ns minus a bare start's."""
    cpus: list[float] = []
    for _ in range(runs):
        _, bare_cpu = _run_s("pass", cwd)
        _, cpu = _run_s(stmt, cwd)
        cpus.append((cpu - bare_cpu) * 1e9)
    return statistics.median(cpus)


#: The tool every "import + first tool" program describes, defined before the import.
_GET_TIME = 'def get_time(timezone: str) -> str:\n    """The current time in a time zone."""\n    return timezone\n'


def _programs(peers: Peers, first_tool: bool) -> tuple[list[tuple[str, str, bool]], list[Row]]:
    """(label, program, is onellm) for each implementation, and rows for the skipped peers."""
    if first_tool:
        mine = [
            (
                "onellm: from onellm_runtime import Tool; Tool.create(get_time)",
                _GET_TIME + "from onellm_runtime import Tool\nTool.create(get_time).input_schema",
                True,
            )
        ]
        theirs = [
            (f"{p.key}: {p.first_tool}", f"{_GET_TIME}{p.import_stmt}\n{p.first_tool}", False)
            for p in peers.present()
            if p.first_tool
        ]
        skipped = [
            Row(f"{p.key}: {p.first_tool}", None, skipped=peers.why_missing(p.key))
            for p in peers.absent()
            if p.first_tool
        ]
    else:
        mine = [("onellm: import onellm_runtime", "import onellm_runtime", True)]
        theirs = [(f"{p.key}: {p.import_stmt}", p.import_stmt, False) for p in peers.present()]
        skipped = [Row(f"{p.key}: {p.import_stmt}", None, skipped=peers.why_missing(p.key)) for p in peers.absent()]
    return mine + theirs, skipped


TITLE = "4. Import time (fresh interpreters; figures in ms)"
NOTES = (
    "A round's figure = the median over paired runs of the child's user+system CPU time of",
    "(python -c PROGRAM) minus (python -c pass); CPU rather than wall clock, which on a shared machine also",
    "counts waiting for a core. 'import + first tool' also describes one one-parameter tool: what a CLI or a",
    "serverless start pays. -X importtime's account of 'import onellm_runtime' is taken once, after the rounds.",
)

_WORKDIR: list[str] = []


def _cwd() -> str:
    """An empty directory for the children (removed at exit), so nothing is found through the current directory."""
    if not _WORKDIR:
        import atexit
        import shutil

        _WORKDIR.append(tempfile.mkdtemp(prefix="onellm-import-bench-"))
        atexit.register(shutil.rmtree, _WORKDIR[0], True)
    return _WORKDIR[0]


def comparisons(peers: Peers, smoke: bool, rounds: int) -> list[Comparison]:
    cwd = _cwd()
    out = []
    for first_tool in (False, True):
        programs, skipped = _programs(peers, first_tool)
        entries = []
        for label, program, mine in programs:
            runs = 1 if smoke else (5 if mine else 1)
            _python(["-c", program], cwd)  # warm the bytecode caches
            entries.append(Entry(label, functools.partial(_cpu_sample, program, runs, cwd), is_onellm=mine))
        entries += [Entry(r.label, None, skipped=r.skipped) for r in skipped]
        what = "import + first tool" if first_tool else "import"
        out.append(
            Comparison("import", what, f"{what}: CPU time (user+system), minus a bare start", entries, unit="ms")
        )
    return out


def once(peers: Peers, smoke: bool) -> dict[str, Any]:
    seconds, loaded = importtime("import onellm_runtime", _cwd())
    return {"importtime_ms": round(seconds * 1000, 2), "importtime_modules": sorted(loaded, reverse=True)}


def show(report: Report, results: Results, smoke: bool) -> None:
    report.section(TITLE, *NOTES)
    for t in results.section_tables("import"):
        report.rounds_table(t)
    loaded = results.once.get("importtime_modules", [])
    report.print()
    report.print(
        f"  'import onellm_runtime' loads {len(loaded)} modules, {results.once.get('importtime_ms', float('nan'))} ms by"
        " -X importtime (wall clock, one run); the heaviest by self time:"
    )
    for self_us, name in loaded[:8]:
        report.print(f"    {self_us / 1000:7.2f} ms  {name}")
    found = results.table("import", "import")
    mine = None if found is None else next((f for f in found.figures if f.is_onellm and f.samples), None)
    cpu_ms = mine.median / 1e6 if mine is not None else float("nan")
    report.target(
        f"import <= {TARGET_MS:.0f} ms (CPU time of the child)",
        cpu_ms <= TARGET_MS,
        f"CPU {cpu_ms:.1f} ms, median of the rounds",
    )


def targets(results: Results) -> list[Target]:
    return []
