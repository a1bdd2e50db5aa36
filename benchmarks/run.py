"""One command for every figure of issue 7, side by side with the peers, in one process run.

    python benchmarks/run.py            # the full run (a few minutes on 2 cores)
    python benchmarks/run.py --smoke    # tiny counts: checks that every section runs
    python benchmarks/run.py --only build,bind --without pydantic-ai --json out.json

Sections: 1 build (schema per tool), 2 bind (per call), 3 invoke (per call), 4 import,
5 scale. A peer that is not installed is skipped, and the output says so.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make ``benchmarks`` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    __package__ = "benchmarks"

from benchmarks import bind, build, imports, invoke, scale  # noqa: E402
from benchmarks.peers import Peers  # noqa: E402
from benchmarks.report import Report  # noqa: E402

SECTIONS = {"build": build.run, "bind": bind.run, "invoke": invoke.run, "import": imports.run, "scale": scale.run}


def _commit() -> str:
    try:
        root = Path(__file__).resolve().parent.parent
        out = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=root, capture_output=True, text=True)
        return out.stdout.strip() or "?"
    except OSError:
        return "?"


def _header(report: Report, peers: Peers, smoke: bool) -> None:
    import onellm_runtime

    report.print(f"onellm benchmarks ({'SMOKE: tiny counts, figures meaningless' if smoke else 'full run'})")
    report.print(
        f"  python {platform.python_version()} ({platform.python_implementation()}), {platform.machine()}, "
        f"{os.cpu_count()} cores; onellm {onellm_runtime.__version__} at {_commit()}"
    )
    for p in peers.present():
        report.print(f"  peer {p.key} {peers.version(p.key)}")
    for p in peers.absent():
        report.print(f"  peer {p.key}: SKIPPED, {peers.why_missing(p.key)}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--smoke", action="store_true", help="tiny counts: check that every section runs")
    parser.add_argument("--only", default="", help="comma-separated sections: " + ",".join(SECTIONS))
    parser.add_argument("--without", default="", help="comma-separated peers to treat as missing ('all' for every one)")
    parser.add_argument("--json", metavar="PATH", help="also write every figure to PATH as JSON")
    args = parser.parse_args(argv)

    only = [s for s in args.only.split(",") if s] or list(SECTIONS)
    unknown = [s for s in only if s not in SECTIONS]
    if unknown:
        parser.error(f"unknown section(s) {unknown}; known: {list(SECTIONS)}")
    peers = Peers({w for w in args.without.split(",") if w})
    report = Report()
    _header(report, peers, args.smoke)
    for name in only:
        SECTIONS[name](report, peers, args.smoke)
    report.summary()
    if args.json:
        payload = {"smoke": args.smoke, "results": report.results, "targets": report.targets}
        Path(args.json).write_text(json.dumps(payload, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
