"""Where the mypy plugin's time goes: the CPU time of each of its hooks inside one mypy run.

Generates ``mypy_overhead``'s project (``--modules`` modules of 10 tools), runs mypy on it
in a fresh process per run (``mypy.api.run``, an empty cache directory) with the plugin
subclassed so that each hook runs inside the CPU clock, and prints what importing the plugin
and each hook took. Timing the hooks themselves gives the plugin's own cost without taking
the difference of two whole mypy runs, which a shared machine's jitter moves by more than
the plugin costs. ``--base PATH`` runs another checkout's plugin too, the two alternating,
and prints the ratio of their hook times run by run::

    python benchmarks/plugin_hooks.py [--modules 200] [--runs 5] [--base /tmp/base]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

import mypy_overhead  # noqa: E402

#: The plugin mypy loads: onellm's, each hook wrapped in the CPU clock.
TIMED_PLUGIN = """\
import importlib
import time

_started = time.process_time()
_plugin = importlib.import_module("onellm_mypy.plugin")
for _name in ("onellm_mypy.reporting", "onellm_mypy.source"):
    importlib.import_module(_name)  # what the first hook imports
IMPORT = time.process_time() - _started
SPENT = {}
HOOKS = ("get_additional_deps", "_on_tool", "_on_factory", "_on_create", "_on_tool_signature")


def _timed(name, hook):
    def timed(*args, **kwargs):
        started = time.process_time()
        try:
            return hook(*args, **kwargs)
        finally:
            SPENT[name] = SPENT.get(name, 0.0) + time.process_time() - started

    return timed


class TimedPlugin(_plugin.OnellmPlugin):
    def __init__(self, options):
        super().__init__(options)
        for name in HOOKS:
            setattr(self, name, _timed(name, getattr(self, name)))


def plugin(version):
    return TimedPlugin
"""


def _child(directory: Path, config: str) -> None:
    """One run, in this process: mypy with the timed plugin; its figures as JSON on stdout."""
    import shutil
    import time

    from mypy import api

    os.chdir(directory)
    shutil.rmtree(directory / ".hooks-cache", ignore_errors=True)
    started = time.process_time()
    out, err, status = api.run(["--config-file", config, "--cache-dir", ".hooks-cache", "-p", "genproj"])
    total = time.process_time() - started
    if status not in (0, 1) or "[OLT" in out:
        raise SystemExit(out + err)
    timed = sys.modules["timed_plugin"]
    print(json.dumps({"total": total, "import": timed.IMPORT, "hooks": timed.SPENT}))


def _run(directory: Path, name: str, tree: Path) -> dict[str, object]:
    """One run in a fresh process, importing ``tree``'s onellm (first on the path, and mypy's)."""
    (directory / f"timed-{name}.ini").write_text(
        f"[mypy]\nplugins = {directory / 'timed_plugin.py'}\nmypy_path = {tree}\n"
    )
    env = {**os.environ, "PYTHONPATH": str(tree)}
    args = [sys.executable, __file__, "--child", str(directory), "--config", f"timed-{name}.ini"]
    done = subprocess.run(args, env=env, capture_output=True, text=True, check=True)
    return dict(json.loads(done.stdout.splitlines()[-1]))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--modules", type=int, default=200, help="modules of 10 tools (default 200)")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--base", type=Path, help="another checkout, run alternately")
    parser.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--config", default="", help=argparse.SUPPRESS)
    ns = parser.parse_args(argv)
    if ns.child is not None:
        _child(ns.child, ns.config)
        return 0
    trees = {"this": ROOT, **({"base": ns.base.resolve()} if ns.base else {})}
    for tree in trees.values():
        mypy_overhead.byte_compile(tree)
    with tempfile.TemporaryDirectory(prefix="onellm-hooks-") as tmp:
        directory = Path(tmp)
        mypy_overhead.generate(directory, ns.modules, 10, ROOT)
        (directory / "timed_plugin.py").write_text(TIMED_PLUGIN)
        print(f"{ns.modules * 10} tools in {ns.modules} modules; CPU seconds per mypy run (cold cache)")
        hooks: dict[str, list[float]] = {name: [] for name in trees}
        for i in range(ns.runs):
            for name, tree in list(trees.items()) if i % 2 == 0 else list(trees.items())[::-1]:
                r = _run(directory, name, tree)
                spent = r["hooks"]
                assert isinstance(spent, dict)
                hooks[name].append(sum(spent.values()))
                parts = "  ".join(f"{k.strip('_')} {v:.3f}" for k, v in sorted(spent.items()))
                print(
                    f"  {name:5} run {i + 1}: mypy {r['total']:.2f}  import {r['import']:.3f}  hooks {hooks[name][-1]:.3f} ({parts})"
                )
        for name, values in hooks.items():
            print(f"{name}: hooks median {statistics.median(values):.3f} s ({min(values):.3f}-{max(values):.3f})")
        if ns.base:
            ratios = [a / b for a, b in zip(hooks["this"], hooks["base"], strict=True)]
            print(
                f"this / base, run by run: median {statistics.median(ratios):.2f}x ({min(ratios):.2f}-{max(ratios):.2f})"
            )
    return 0


if __name__ == "__main__":
    os.environ.pop("MYPYPATH", None)
    sys.exit(main())
