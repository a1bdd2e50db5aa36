"""6. Type-check time: mypy on generated projects of tools, with and without the plugin.

The projects are ``mypy_overhead.generate``'s (records, enums, aliases in a shared module;
ten tools per module of five kinds). Each figure is the CPU time (user + system) of one
fresh ``python -m mypy`` process:

- cold: an empty cache directory for every run (mypy still writes its cache);
- warm: the cache filled before the rounds, nothing changed since;
- ``mypy --no-incremental`` with the plugin: no cache read (mypy still writes one), which is
  what ``onellm check`` (the static extractor, no cache read or written) is compared with.
"""

from __future__ import annotations

import atexit
import functools
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from . import mypy_overhead
from .peers import Peers
from .report import Report
from .rounds import Comparison, Entry, Results, Target

__all__ = ["comparisons", "once", "show", "targets", "SIZES"]

#: Tools in the generated project, in modules of ten; ``--mypy-tools`` changes it.
SIZES: list[int] = [500, 2000]
SMOKE_SIZES = [10]
TOOLS_PER_MODULE = 10

PLAIN_COLD = "plain mypy, cold cache"
PLUGIN_COLD = "mypy with the plugin, cold cache"
PLAIN_WARM = "plain mypy, warm cache"
PLUGIN_WARM = "mypy with the plugin, warm cache"
NO_INCREMENTAL = "mypy --no-incremental, with the plugin"
CHECK = "onellm check"

TARGET_COLD = 1.10
TARGET_WARM = 1.03
TARGET_CHECK = 1.0


def _tree() -> Path:
    """The tree whose onellm is measured (the one this process imports)."""
    import onellm_runtime

    return Path(onellm_runtime.__file__).resolve().parent.parent


def _cpu_ns(args: list[str], cwd: Path) -> float:
    import resource

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(args, cwd=cwd, capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = done.stdout + done.stderr
    if done.returncode not in (0, 1) or "INTERNAL ERROR" in out or "[OLT" in done.stdout:
        raise RuntimeError(f"{' '.join(args[2:])} exited {done.returncode}: {out.strip().splitlines()[-1:] or ''}")
    return ((after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)) * 1e9


def _mypy(directory: Path, config: str, cache: Path, *extra: str) -> list[str]:
    return [sys.executable, "-m", "mypy", "--config-file", config, "--cache-dir", str(cache), *extra, "-p", "genproj"]


def _cold(directory: Path, config: str) -> Callable[[], float]:
    def sample() -> float:
        cache = directory / f".cold-{config}"
        shutil.rmtree(cache, ignore_errors=True)
        return _cpu_ns(_mypy(directory, config, cache), directory)

    return sample


def _project(tools: int) -> Path:
    directory = Path(tempfile.mkdtemp(prefix=f"onellm-typecheck-{tools}-"))
    atexit.register(shutil.rmtree, directory, True)
    modules = max(1, tools // TOOLS_PER_MODULE)
    mypy_overhead.generate(directory, modules, min(tools, TOOLS_PER_MODULE), _tree())
    return directory


def comparisons(peers: Peers, smoke: bool, rounds: int) -> list[Comparison]:
    mypy_overhead.byte_compile(_tree())
    out = []
    for tools in SMOKE_SIZES if smoke else SIZES:
        d = _project(tools)
        warm = {c: d / f".warm-{c}" for c in ("plain.ini", "plugin.ini")}
        try:
            for config, cache in warm.items():  # fill each warm cache once
                _cpu_ns(_mypy(d, config, cache), d)
        except RuntimeError as e:
            out.append(
                Comparison("mypy", f"{tools} tools", f"{tools:,} tools", [Entry(PLAIN_COLD, None, skipped=str(e))])
            )
            continue
        check = [sys.executable, "-m", "onellm_runtime", "check", "genproj"]
        entries = [
            Entry(PLAIN_COLD, _cold(d, "plain.ini")),
            Entry(PLUGIN_COLD, _cold(d, "plugin.ini"), base=PLAIN_COLD),
            Entry(PLAIN_WARM, functools.partial(_cpu_ns, _mypy(d, "plain.ini", warm["plain.ini"]), d)),
            Entry(
                PLUGIN_WARM, functools.partial(_cpu_ns, _mypy(d, "plugin.ini", warm["plugin.ini"]), d), base=PLAIN_WARM
            ),
            Entry(
                NO_INCREMENTAL, functools.partial(_cpu_ns, _mypy(d, "plugin.ini", d / ".none", "--no-incremental"), d)
            ),
            Entry(CHECK, functools.partial(_cpu_ns, check, d), base=NO_INCREMENTAL),
        ]
        heading = f"{tools:,} tools in {max(1, tools // TOOLS_PER_MODULE)} modules (CPU s of one mypy process)"
        out.append(Comparison("mypy", f"{tools} tools", heading, entries, unit="s"))
    return out


def once(peers: Peers, smoke: bool) -> dict[str, Any]:
    from mypy.version import __version__

    return {"mypy_version": __version__}


TITLE = "6. Type-check time: mypy on generated projects, with and without the onellm plugin"
NOTES = (
    "A round's figure = the CPU time (user+system) of one fresh mypy process. cold = an empty cache directory",
    "per run; warm = a cache filled before the rounds; ratios are to the row named (plain mypy of the same kind).",
)


def show(report: Report, results: Results, smoke: bool) -> None:
    report.section(TITLE + f" (mypy {results.once.get('mypy_version', '?')})", *NOTES)
    for t in results.section_tables("mypy"):
        report.rounds_table(t)


def _ratio(results: Results, name: str, num: str, den: str) -> list[float]:
    from .rounds import ratios

    t = results.table("mypy", name)
    a = None if t is None else t.figure(num)
    b = None if t is None else t.figure(den)
    return [] if a is None or b is None else ratios(a, b)


def targets(results: Results) -> list[Target]:
    out = []
    names = [t.name for t in results.section_tables("mypy")]
    for name in names:
        out.append(
            Target(
                f"mypy with the plugin / plain mypy, cold cache, {name}",
                _ratio(results, name, PLUGIN_COLD, PLAIN_COLD),
                TARGET_COLD,
            )
        )
        out.append(
            Target(
                f"mypy with the plugin / plain mypy, warm cache, {name}",
                _ratio(results, name, PLUGIN_WARM, PLAIN_WARM),
                TARGET_WARM,
            )
        )
    for name in names:
        out.append(
            Target(
                f"onellm check / mypy --no-incremental with the plugin, {name}",
                _ratio(results, name, CHECK, NO_INCREMENTAL),
                TARGET_CHECK,
            )
        )
    return out
