"""Long mode of the generated-signatures differential.

    python benchmarks/generated_differential.py --modules 5000 [--seed N] [--jobs 2]

Generates ``--modules`` pairs of tool modules (``tests/gen/generator.py``), runs the runtime
import, one mypy run with the plugin per batch, and the binder against ``jsonschema`` on
hypothesis-drawn argument documents (``tests/gen/harness.py``). Prints every disagreement
and crash, then as its last line ``M modules, T tools, P payloads, D disagreements, C
crashes``; exits 1 when D or C is not 0.

Batches are spread over ``--jobs`` worker processes (each batch is independent and
seeded, so the result does not depend on the number of jobs).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from gen import harness  # noqa: E402


def _batch(args: tuple[int, int, int, str, bool, int]) -> harness.BatchReport:
    seed, lo, hi, workdir, payloads, examples = args
    return harness.run_batch(seed, range(lo, hi), Path(workdir) / f"b{lo:06d}", payloads=payloads, examples=examples)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--modules", type=int, default=5000, help="pairs of generated modules (default 5000)")
    parser.add_argument("--seed", type=int, default=1, help="the run's seed (default 1)")
    parser.add_argument("--batch", type=int, default=250, help="modules per mypy run (default 250)")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--examples", type=int, default=3, help="hypothesis examples per valid tool (default 3)")
    parser.add_argument("--no-payloads", action="store_true", help="skip binding argument documents")
    parser.add_argument("--keep", metavar="DIR", help="write the modules here and keep them (default: a temp dir)")
    ns = parser.parse_args(argv)
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="onellm-gen-") as tmp:
        workdir = ns.keep or tmp
        jobs = [
            (ns.seed, lo, min(lo + ns.batch, ns.modules), workdir, not ns.no_payloads, ns.examples)
            for lo in range(0, ns.modules, ns.batch)
        ]
        total = harness.BatchReport()
        with ProcessPoolExecutor(max_workers=max(1, ns.jobs)) as pool:
            for done, report in enumerate(pool.map(_batch, jobs), 1):
                for f in report.crashes + report.findings:
                    print(f, flush=True)
                total.merge(report)
                elapsed = time.perf_counter() - started
                print(f"[{done}/{len(jobs)} batches, {elapsed:.0f} s] {total.summary()}", file=sys.stderr, flush=True)
    elapsed = time.perf_counter() - started
    phases = ", ".join(f"{k} {v:.0f} s" for k, v in sorted(total.seconds.items()))
    print(f"seed {ns.seed}, {elapsed:.0f} s wall ({phases} summed over jobs)", file=sys.stderr)
    print(total.summary())
    return 1 if total.findings or total.crashes else 0


if __name__ == "__main__":
    sys.exit(main())
