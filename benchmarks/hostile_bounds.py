"""7. Hostile-input bounds: ``hostile.py`` run once, in a child process, its target lines kept.

``hostile.py`` has its own repeats (the smallest CPU time, the largest stall of
``--repeat`` runs); here it runs without its mypy part, and its targets (bind CPU time /
``json.loads``, peak memory per MB of input, the event loop's longest stall up to 1 MB, and
the CPU and stall of ``dispatch`` over a reply of many calls) become lines of the final summary.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from typing import Any

from .peers import Peers
from .report import Report
from .rounds import Comparison, Results, Target

__all__ = ["comparisons", "once", "show", "targets"]

HERE = Path(__file__).resolve().parent

#: (what, the line's start in hostile.py's output, the limit, the unit)
BOUNDS = (
    ("hostile documents: worst bind CPU / json.loads CPU", "TARGET bind <= 20x json.loads:", 20.0, "x"),
    (
        "hostile documents: worst peak memory per MB of input",
        "TARGET peak memory <= 50 MB per MB of input:",
        50.0,
        " MB/MB",
    ),
    ("hostile documents: worst event-loop stall up to 1 MB", "TARGET loop stall <= 50 ms up to 1 MB:", 50.0, " ms"),
    ("dispatch of a large reply: CPU / json.loads CPU", "TARGET dispatch <= 20x json.loads:", 20.0, "x"),
    (
        "dispatch of a large reply: event-loop stall up to 1 MB",
        "TARGET dispatch loop stall <= 50 ms up to 1 MB:",
        50.0,
        " ms",
    ),
    ("hostile source: worst static evaluator CPU / ast.parse CPU", "TARGET evaluator <= 20x ast.parse:", 20.0, "x"),
    (
        "hostile source: worst static evaluator peak memory per MB of input",
        "TARGET evaluator peak memory <= 50 MB per MB of input:",
        50.0,
        " MB/MB",
    ),
)
_WORST = re.compile(r"worst ([0-9.]+)")


def comparisons(peers: Peers, smoke: bool, rounds: int) -> list[Comparison]:
    return []


def once(peers: Peers, smoke: bool) -> dict[str, Any]:
    args = [sys.executable, str(HERE / "hostile.py"), "--skip-mypy", *(["--smoke"] if smoke else [])]
    done = subprocess.run(args, capture_output=True, text=True, timeout=1800)
    lines = done.stdout.splitlines()
    worst: dict[str, float] = {}
    for _, start, _, _ in BOUNDS:
        m = next((_WORST.search(line) for line in lines if line.startswith(start)), None)
        if m is not None:
            worst[start] = float(m.group(1))
    error = "" if done.returncode == 0 else f"hostile.py exited {done.returncode}: {done.stderr.strip()[-300:]}"
    return {"hostile_worst": worst, "hostile_output": lines, "hostile_error": error}


def show(report: Report, results: Results, smoke: bool) -> None:
    report.section(
        "7. Hostile documents (benchmarks/hostile.py --skip-mypy" + (" --smoke" if smoke else "") + ", once)",
        "Its own method: the smallest CPU time and the largest stall of its --repeat runs; see benchmarks/README.md.",
    )
    if results.once.get("hostile_error"):
        report.print(f"  {results.once['hostile_error']}")
    lines: list[str] = results.once.get("hostile_output", [])
    for line in (
        lines[lines.index("1. Hostile documents through ToolInvoker.invoke") + 1 :]
        if "1. Hostile documents through ToolInvoker.invoke" in lines
        else lines
    ):
        if line.startswith("3. bytes"):
            break
        report.print("  " + line)


def targets(results: Results) -> list[Target]:
    worst: dict[str, float] = results.once.get("hostile_worst", {})
    return [
        Target(what, [worst[start]] if start in worst else [], limit, unit=unit, why_not="not measured")
        for what, start, limit, unit in BOUNDS
    ]
