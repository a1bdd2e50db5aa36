"""How long an editor waits for the OLT findings after an edit: ``onellm lsp`` over stdio.

Writes a file of ``--tools`` tools (default 50: each with a docstring, an ``Annotated``
range, a record parameter, every tenth with an ``Any`` parameter, so every check finds
something), starts the server with a real LSP client (pygls's, as in ``tests/test_lsp.py``),
opens the file (the cold check) and makes ``--warmup`` edits, then times ``--edits`` edits.
Each edit alternates between inserting a comment line at the top (every finding moves) and
flipping one tool's ``Range`` bounds (a finding appears or goes), and the next edit is sent
only once the previous one's diagnostics have arrived.

The figure is the wall time from sending ``didChange`` to receiving its
``publishDiagnostics``, minus the debounce delay: what the server adds after the editor
goes quiet (target: median under 300 ms). Wall time, because that is what the user waits;
the machine is shared, so the median is the figure to read. Run from anywhere::

    python benchmarks/lsp_latency.py [--tools 50] [--edits 20] [--warmup 3] [--debounce-ms 300]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from lsp_session import Session  # noqa: E402

HEADER = '''\
from dataclasses import dataclass
from typing import Annotated, Any

from onellm_runtime import Range, tool


@dataclass
class Span:
    """Attributes:
        start: First day.
        end: Last day.
    """

    start: str
    end: str
'''

TOOL = '''

@tool
def tool_{i}(key: str, span: Span, count: Annotated[int, Range({lo}, {hi})] = 1, extra: {extra} = 0) -> str:
    """Tool number {i}.

    Args:
        key: The key.
        span: The days.
    """
    return key
'''


def source(tools: int, flipped: int | None = None, comments: int = 0) -> str:
    parts = ["# edit\n" * comments, HEADER]
    for i in range(tools):
        lo, hi = (1, i + 2) if i != flipped else (i + 2, 1)
        parts.append(TOOL.format(i=i, lo=lo, hi=hi, extra="Any" if i % 10 == 0 else "int"))
    return "".join(parts)


async def measure(tools: int, edits: int, warmup: int, debounce_ms: int) -> tuple[float, list[float], int]:
    with tempfile.TemporaryDirectory(prefix="onellm-lsp-bench-") as tmp:
        root = Path(tmp)
        path = root / "tools.py"
        text = source(tools)
        path.write_text(text)
        session = Session(debounce_ms)
        await session.start(root)
        try:
            t0 = time.perf_counter()
            session.open(path, text)
            first = await session.diagnostics(1)
            cold = time.perf_counter() - t0
            latencies: list[float] = []
            found = len(first.diagnostics)
            for n in range(warmup + edits):
                version = n + 2
                edited = source(tools, comments=n // 2 + 1) if n % 2 == 0 else source(tools, flipped=n % tools)
                t0 = time.perf_counter()
                session.change(path, version, edited)
                published = await session.diagnostics(version)
                elapsed = time.perf_counter() - t0 - debounce_ms / 1000
                found = len(published.diagnostics)
                if n >= warmup:
                    latencies.append(elapsed)
        finally:
            await session.stop()
    return cold, latencies, found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tools", type=int, default=50)
    parser.add_argument("--edits", type=int, default=20)
    parser.add_argument("--warmup", type=int, default=3)
    parser.add_argument("--debounce-ms", type=int, default=300)
    ns = parser.parse_args()
    cold, latencies, found = asyncio.run(measure(ns.tools, ns.edits, ns.warmup, ns.debounce_ms))
    ms = sorted(x * 1000 for x in latencies)
    print(
        f"onellm lsp, a {ns.tools}-tool file, debounce {ns.debounce_ms} ms, {len(ms)} edits after {ns.warmup} warm-up"
    )
    print(f"  open (cold build):           {cold * 1000:8.0f} ms")
    print(f"  after the debounce, median:  {statistics.median(ms):8.0f} ms   (target < 300 ms)")
    print(f"  after the debounce, p90/max: {ms[int(len(ms) * 0.9) - 1 if len(ms) > 1 else 0]:8.0f} / {ms[-1]:.0f} ms")
    print(f"  findings in the last edit:   {found:8d}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
