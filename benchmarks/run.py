"""One command for every figure, side by side with the peers, in interleaved, repeated rounds.

    python benchmarks/run.py                        # the full run: 5 rounds
    python benchmarks/run.py --rounds 9             # more rounds
    python benchmarks/run.py --smoke                # tiny counts, 1 round: checks that every section runs
    python benchmarks/run.py --only build,bind --without pydantic-ai --json out.json
    python benchmarks/run.py --baseline /tmp/base --only build,bind --without all   # before/after

Sections: build (schema per tool, docstring share), bind (per call, str and bytes), invoke
(per call), dispatch (a reply of N calls, per call, beside N awaited invokes), import, scale
(1,000 and 50,000 tools), mypy (the plugin's cost), hostile (the bounds of hostile.py, once),
models (binding a pydantic BaseModel beside pydantic's validate_json), shapes (bind per shape
of document against the unchecked floor and pydantic strict), lsp (the language server's
latencies), servers (MCP tools/call per call, onellm's server beside the SDK's, stdio and
HTTP). A round samples every entry of every comparison once, the
entries alternating; each figure is printed as its minimum, its median and its range
(min-max) over the rounds, each ratio as the median of the round-by-round ratios and their
range. The target lines come last.

``--baseline PATH`` measures another checkout (e.g. ``git worktree add /tmp/base COMMIT``)
beside this one: every round runs the selected sections once in a child process per tree,
the trees alternating, each child importing onellm from its tree first (the benchmark code
is this tree's for both), and prints per figure new / old with its range, flagging any
figure more than 10% worse.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def _early_tree(argv: list[str]) -> str | None:
    """``--tree PATH`` (a child of ``--baseline``), read before onellm is first imported."""
    for i, arg in enumerate(argv):
        if arg == "--tree" and i + 1 < len(argv):
            return str(Path(argv[i + 1]).resolve())
        if arg.startswith("--tree="):
            return str(Path(arg.split("=", 1)[1]).resolve())
    return None


if __package__ in (None, ""):  # run as a script: make ``benchmarks`` importable
    sys.path.insert(0, str(ROOT))
    __package__ = "benchmarks"

import benchmarks  # noqa: E402  (this tree's benchmark code, whichever tree's onellm is measured)

_TREE = _early_tree(sys.argv[1:]) if __name__ == "__main__" else None
if _TREE is not None:
    sys.path.insert(0, _TREE)
    # Children (import timing, mypy, hostile.py) find that tree's onellm first too.
    os.environ["PYTHONPATH"] = os.pathsep.join([_TREE, str(ROOT)])

from benchmarks import (  # noqa: E402
    bind,
    bind_shapes,
    build,
    dispatch_overhead,
    hostile_bounds,
    imports,
    invoke,
    lsp_latency,
    mcp_roundtrip,
    models,
    scale,
    typecheck,
)
from benchmarks.peers import Peers  # noqa: E402
from benchmarks.report import Report  # noqa: E402
from benchmarks.rounds import Results, Target, ratios, run_rounds, spread  # noqa: E402

assert benchmarks.__file__ is not None and Path(benchmarks.__file__).resolve().parent == ROOT / "benchmarks"

SECTIONS: dict[str, ModuleType] = {
    "build": build,
    "bind": bind,
    "invoke": invoke,
    "dispatch": dispatch_overhead,
    "import": imports,
    "scale": scale,
    "mypy": typecheck,
    "hostile": hostile_bounds,
    "models": models,
    "shapes": bind_shapes,
    "lsp": lsp_latency,
    "servers": mcp_roundtrip,
}
WORSE = 1.10


def _commit(tree: Path) -> str:
    try:
        out = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=tree, capture_output=True, text=True)
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"], cwd=tree, capture_output=True, text=True
        )
        return (out.stdout.strip() or "?") + (" (uncommitted changes)" if dirty.stdout.strip() else "")
    except OSError:
        return "?"


def _load() -> str:
    try:
        return "load average " + " ".join(f"{x:.2f}" for x in os.getloadavg()) + " (1, 5, 15 min)"
    except OSError:
        return "load average unknown"


def _header(report: Report, peers: Peers, args: argparse.Namespace, trees: list[tuple[str, Path]]) -> None:
    import onellm_runtime

    mode = "SMOKE: tiny counts, figures meaningless" if args.smoke else "full run"
    report.print(f"onellm benchmarks ({mode}; {args.rounds} round(s), interleaved)")
    report.print(
        f"  python {platform.python_version()} ({platform.python_implementation()}), {platform.machine()}, "
        f"{os.cpu_count()} cores; {_load()} at the start"
    )
    for tag, tree in trees:
        report.print(f"  {tag}onellm {onellm_runtime.__version__} at {tree} ({_commit(tree)})")
    for p in peers.present():
        report.print(f"  peer {p.key} {peers.version(p.key)}")
    for p in peers.absent():
        report.print(f"  peer {p.key}: SKIPPED, {peers.why_missing(p.key)}")


def _measure(
    only: list[str], peers: Peers, smoke: bool, rounds: int, with_once: bool, report: Report | None
) -> Results:
    comparisons = [c for name in only for c in SECTIONS[name].comparisons(peers, smoke, rounds)]

    def progress(r: int) -> None:
        if report is not None and rounds > 1:
            report.print(f"  round {r + 1}/{rounds} ({_load()})")

    results = run_rounds(comparisons, rounds, progress)
    import onellm_runtime

    results.once["onellm_imported_from"] = str(Path(onellm_runtime.__file__).resolve().parent)
    if with_once:
        for name in only:
            once = getattr(SECTIONS[name], "once", None)
            if once is not None:
                results.once.update(once(peers, smoke))
    return results


#: The order of the final target lines: type-check time, the language server, scale, bytes, docstring share,
#: invoke, dispatch per call, hostile bounds, bind per shape.
TARGET_ORDER = ("mypy", "lsp", "servers", "scale", "bind", "build", "invoke", "dispatch", "hostile", "import", "shapes")


def _targets(results: Results, only: list[str]) -> list[Target]:
    return [t for name in TARGET_ORDER if name in only for t in SECTIONS[name].targets(results)]


def _summary(report: Report, targets: list[Target], before: Results | None, only: list[str]) -> None:
    report.section("Targets (the verdict is on the median of the round-by-round ratios; range min-max across rounds)")
    old = {t.what: t for t in _targets(before, only)} if before is not None else {}
    if not targets:
        report.print("  (no target was measured)")
    for t in targets:
        line = t.line()
        if t.what in old and old[t.what].values:
            line += f"; before: {spread(old[t.what].values, unit=t.unit)}"
        report.print(line)


def _child(tree: Path, args: argparse.Namespace, only: list[str], with_once: bool, out: Path) -> Results:
    cmd = [sys.executable, str(ROOT / "benchmarks" / "run.py"), "--tree", str(tree), "--rounds", "1"]
    cmd += ["--only", ",".join(only), "--worker-json", str(out)]
    if args.without:
        cmd += ["--without", args.without]
    if args.smoke:
        cmd.append("--smoke")
    if args.mypy_tools:
        cmd += ["--mypy-tools", args.mypy_tools]
    if not with_once:
        cmd.append("--no-once")
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(
            f"the child for {tree} failed ({done.returncode}):\n{done.stdout[-2000:]}{done.stderr[-3000:]}"
        )
    return Results.from_json(json.loads(out.read_text(encoding="utf-8")))


def _before_after(report: Report, new: Results, old: Results) -> list[str]:
    """Per figure: new and old medians, new / old round by round; the figures more than 10% worse."""
    report.section(
        "Before / after: this tree (new) against --baseline (old), the same benchmark code, interleaved rounds",
        "new/old = the median of the round-by-round ratios (range min-max); > 1 is slower now.",
        f"WORSE marks a median ratio above {WORSE:.2f} (more than 10% worse).",
    )
    worse: list[str] = []
    for t in new.tables:
        o = old.table(t.section, t.name)
        if o is None:
            continue
        report.print()
        report.print(f"  [{t.section}] {t.heading}")
        for f in t.figures:
            g = o.figure(f.label)
            if not f.samples or g is None:
                continue
            r = ratios(f, g)
            med = statistics.median(r) if r else float("nan")
            flag = "   WORSE" if med > WORSE else ""
            report.print(
                f"    {f.label:<52} new {f.median / _SCALE[t.unit]:>10.2f} {t.unit:<2}  old {g.median / _SCALE[t.unit]:>10.2f}"
                f"   new/old {spread(r, unit='x')}{flag}"
            )
            if flag:
                worse.append(f"[{t.section}] {t.name}: {f.label} {spread(r, unit='x')}")
    report.print()
    report.print(f"  figures more than 10% worse: {len(worse)}" + ("" if not worse else ": " + "; ".join(worse)))
    return worse


_SCALE = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--smoke", action="store_true", help="tiny counts: check that every section runs")
    parser.add_argument("--rounds", type=int, default=None, help="interleaved rounds (default 5; 1 with --smoke)")
    parser.add_argument("--only", default="", help="comma-separated sections: " + ",".join(SECTIONS))
    parser.add_argument("--without", default="", help="comma-separated peers to treat as missing ('all' for every one)")
    parser.add_argument("--json", metavar="PATH", help="also write every figure (each round's) to PATH as JSON")
    parser.add_argument("--baseline", metavar="PATH", help="another checkout to compare with, figure by figure")
    parser.add_argument(
        "--mypy-tools",
        default="",
        help="tool counts of the mypy section's projects (default 500,2000; e.g. 500,2000,10000)",
    )
    parser.add_argument("--tree", help=argparse.SUPPRESS)  # a --baseline child: whose onellm to import
    parser.add_argument("--worker-json", help=argparse.SUPPRESS)  # a --baseline child: where its figures go
    parser.add_argument("--no-once", action="store_true", help=argparse.SUPPRESS)  # a child after the first round
    args = parser.parse_args(argv)
    if args.rounds is None:
        args.rounds = 1 if args.smoke else 5
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")

    only = [s for s in args.only.split(",") if s] or list(SECTIONS)
    unknown = [s for s in only if s not in SECTIONS]
    if unknown:
        parser.error(f"unknown section(s) {unknown}; known: {list(SECTIONS)}")
    if args.mypy_tools:
        typecheck.SIZES[:] = [int(n) for n in args.mypy_tools.split(",") if n]
    peers = Peers({w for w in args.without.split(",") if w})

    if args.worker_json:  # a child of --baseline: measure, write, print nothing
        results = _measure(only, peers, args.smoke, args.rounds, not args.no_once, None)
        Path(args.worker_json).write_text(json.dumps(results.to_json()), encoding="utf-8")
        return 0

    report = Report()
    if not args.baseline:
        _header(report, peers, args, [("", ROOT)])
        results = _measure(only, peers, args.smoke, args.rounds, True, report)
        for name in only:
            SECTIONS[name].show(report, results, args.smoke)
        targets = _targets(results, only)
        _summary(report, targets, None, only)
        if args.json:
            payload: dict[str, Any] = {
                "smoke": args.smoke,
                "results": results.to_json(),
                "targets": [vars(t) for t in targets],
            }
            Path(args.json).write_text(json.dumps(payload, indent=2) + "\n", encoding="utf-8")
        return 0

    base = Path(args.baseline).resolve()
    if not (base / "onellm_runtime" / "__init__.py").is_file():
        parser.error(f"--baseline {base}: no onellm_runtime/ there (give a checkout of the repository)")
    _header(report, peers, args, [("new: ", ROOT), ("old (--baseline): ", base)])
    new, old = Results(), Results()
    with tempfile.TemporaryDirectory(prefix="onellm-before-after-") as tmp:
        for r in range(args.rounds):
            report.print(f"  round {r + 1}/{args.rounds} ({_load()})")
            order = [("new", ROOT, new), ("old", base, old)]
            for tag, tree, into in order if r % 2 == 0 else order[::-1]:
                into.extend(_child(tree, args, only, r == 0, Path(tmp) / f"{tag}-{r}.json"))
    report.print(
        f"  the children imported onellm_runtime from {new.once.get('onellm_imported_from')} (new) and"
        f" {old.once.get('onellm_imported_from')} (old)"
    )
    for name in only:
        SECTIONS[name].show(report, new, args.smoke)
    _before_after(report, new, old)
    targets = _targets(new, only)
    _summary(report, targets, old, only)
    if args.json:
        payload = {
            "smoke": args.smoke,
            "results": new.to_json(),
            "baseline": {"path": str(base), "results": old.to_json()},
            "targets": [vars(t) for t in targets],
        }
        Path(args.json).write_text(json.dumps(payload, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
