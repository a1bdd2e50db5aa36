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

Under load (``--large-tools``, default 4,100: a 0.88 MB file), one session measures what an
editor waits for while mypy is busy, and the section ``lsp`` of ``benchmarks/run.py`` repeats
it in rounds: opening a 1,000-line module in a server just started (the first one, with no
warm cache yet, and a later one, which starts from the cache the first wrote) and in a
running one (first diagnostics within 1 s), edits to it (after the debounce, median within 300 ms), and
the answers to ``codeAction`` requests sent every 50 ms while the large file's check runs
(target: each within 300 ms). A later session is given the large file alone: the peak
memory of the server and its check process (each process's peak, summed: an upper bound on
their joint peak) against ``mypy`` with the plugin checking that file (target: at most 1.5x).
Linux only for the memory figures (``/proc``).

    python benchmarks/lsp_latency.py --load [--large-tools 4100] [--module-tools 89]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from lsp_session import Session  # noqa: E402

if __package__ in (None, ""):  # run as a script: the benchmarks' shared modules from this tree
    sys.path.insert(0, str(ROOT))
from benchmarks.report import Report  # noqa: E402
from benchmarks.rounds import Comparison, Entry, Figure, Results, Target, ratios, spread  # noqa: E402

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


#: A module of about 1,000 lines (16 lines of header, 11 per tool).
MODULE_TOOLS = 89
#: About 0.88 MB of tools.
LARGE_TOOLS = 4100
#: The limits the load figures are held to (ms, and a ratio).
ANSWER_MS, OPEN_MS, EDIT_MS, MEMORY_RATIO = 300.0, 1000.0, 300.0, 1.5


def _peak_kib(pid: int) -> int:
    """A process's peak resident memory (``VmHWM``), KiB; 0 where /proc cannot tell."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def _children(pid: int) -> list[int]:
    found: list[int] = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


def _peak_of_tree(pid: int) -> int:
    """Peak resident memory of ``pid`` plus each of its descendants' peaks, KiB."""
    return _peak_kib(pid) + sum(_peak_of_tree(child) for child in _children(pid))


def mypy_peak_kib(path: Path) -> int:
    """The peak resident memory of ``mypy`` with the plugin checking ``path`` (no cache), KiB."""
    config = path.parent / "mypy-bench.ini"
    config.write_text(f"[mypy]\nplugins = onellm_mypy\nmypy_path = {ROOT}\n")
    measure = (
        "import resource, subprocess, sys\n"
        "subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)\n"
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
    )
    command = [sys.executable, "-m", "mypy", "--config-file", str(config), "--no-incremental", str(path)]
    done = subprocess.run([sys.executable, "-c", measure, *command], capture_output=True, text=True, cwd=path.parent)
    return int(done.stdout.strip() or 0)


async def _answers_while_checking(
    session: Session, path: Path, finding: object, until: asyncio.Task[object]
) -> list[float]:
    """codeAction round trips (seconds), one request every 50 ms, until ``until`` is done."""
    from lsprotocol import types

    assert isinstance(finding, types.Diagnostic)
    times: list[float] = []
    while not until.done():
        t0 = time.perf_counter()
        await session.code_actions(path, finding)
        times.append(time.perf_counter() - t0)
        await asyncio.sleep(0.05)
    return times


async def _cache_written(cache: Path) -> None:
    """Wait for the warm cache the first server started writing (``onellm_mypy.warmcache``)."""
    for _ in range(1200):
        if any((d / "complete").exists() for d in cache.iterdir() if d.is_dir()):
            return
        await asyncio.sleep(0.5)
    raise TimeoutError(f"no warm cache was written in {cache}")


async def open_time(path: Path, text: str) -> float:
    """Milliseconds from starting a server to the first diagnostics of ``path``, opened at once."""
    session = Session(0)
    t0 = time.perf_counter()
    await session.start(path.parent)
    try:
        session.open(path, text)
        await session.diagnostics(1)
        return (time.perf_counter() - t0) * 1000
    finally:
        await session.stop()


async def lsp_peak_kib(path: Path, text: str) -> tuple[float, float]:
    """The peak memory of a server (and of it alone) that was given only ``path`` to check, KiB."""
    session = Session(0)
    await session.start(path.parent)
    try:
        session.open(path, text)
        await session.diagnostics(1)
        servers = _children(os.getpid())
        return sum(_peak_of_tree(pid) for pid in servers), sum(_peak_kib(pid) for pid in servers)
    finally:
        await session.stop()


async def measure_load(large_tools: int, module_tools: int, edits: int) -> dict[str, float]:
    """One session's load figures (ms, KiB); see the module's docstring."""
    figures: dict[str, float] = {}
    with tempfile.TemporaryDirectory(prefix="onellm-lsp-load-") as tmp:
        root = Path(tmp) / "project"
        root.mkdir()
        os.environ["ONELLM_LSP_CACHE_DIR"] = str(Path(tmp) / "cache")  # no warm cache yet: the first server writes it
        module, other, large = root / "module.py", root / "other.py", root / "large.py"
        module_text, large_text = source(module_tools), source(large_tools, flipped=1)
        for path, text in ((module, module_text), (other, module_text), (large, large_text)):
            path.write_text(text)
        session = Session(0)
        t0 = time.perf_counter()
        await session.start(root)
        try:
            session.open(module, module_text)
            first = await session.diagnostics(1)
            figures["open_first_ms"] = (time.perf_counter() - t0) * 1000
            latencies: list[float] = []
            for n in range(edits + 1):
                edited = source(module_tools, comments=n + 1) if n % 2 == 0 else source(module_tools, flipped=n)
                t1 = time.perf_counter()
                session.change(module, n + 2, edited)
                await session.diagnostics(n + 2)
                if n:  # the first edit is a warm-up
                    latencies.append((time.perf_counter() - t1) * 1000)
            figures["edit_ms"] = statistics.median(latencies)
            session.change(module, edits + 3, module_text)
            await session.diagnostics(edits + 3)
            t2 = time.perf_counter()
            session.open(other, module_text)
            await session.diagnostics(1)
            figures["open_warm_ms"] = (time.perf_counter() - t2) * 1000
            session.open(large, large_text)
            await session.log(f"onellm: checking {large.as_uri()}")
            checked = asyncio.get_running_loop().create_task(session.diagnostics(1))
            answers = await _answers_while_checking(session, module, first.diagnostics[0], checked)
            await checked
            t3 = time.perf_counter()
            session.change(module, edits + 4, source(module_tools, comments=1))
            await session.diagnostics(edits + 4)
            figures["edit_beside_large_ms"] = (time.perf_counter() - t3) * 1000
            figures["answer_max_ms"] = max(answers) * 1000
            figures["answer_median_ms"] = statistics.median(answers) * 1000
            figures["answers"] = len(answers)
        finally:
            await session.stop()
        await _cache_written(Path(tmp) / "cache")
        figures["open_cold_ms"] = await open_time(module, module_text)
        figures["lsp_peak_kib"], figures["server_peak_kib"] = await lsp_peak_kib(large, large_text)
        del os.environ["ONELLM_LSP_CACHE_DIR"]
        figures["mypy_peak_kib"] = mypy_peak_kib(large)
        figures["large_bytes"] = len(large_text.encode())
        figures["module_lines"] = module_text.count("\n")
    return figures


# -- the ``lsp`` section of benchmarks/run.py -----------------------------------------

#: Each round's load figures: label, key in ``measure_load``'s figures, limit (ms; None: shown only).
LATENCY_ROWS = (
    ("codeAction while the large file is checked, slowest answer", "answer_max_ms", ANSWER_MS),
    ("open to first diagnostics, server just started (warm cache)", "open_cold_ms", OPEN_MS),
    ("open to first diagnostics, the first server (no warm cache)", "open_first_ms", None),
    ("open to first diagnostics, running server", "open_warm_ms", OPEN_MS),
    ("after an edit, median of the round's edits", "edit_ms", EDIT_MS),
    # mypy's fine-grained mode checks again, on every update, each target that has errors: the
    # large file's tools with findings, here (no target: what that costs)
    ("after an edit, the large file open with its findings", "edit_beside_large_ms", None),
)
MEMORY_ROWS = (
    ("server + check process, peak", "lsp_peak_kib"),
    ("mypy with the plugin, peak", "mypy_peak_kib"),
    ("the server alone, peak", "server_peak_kib"),
)


class _Sessions:
    """One session per round serves every entry: an entry's figure is taken from the round's session."""

    def __init__(self, large_tools: int, module_tools: int, edits: int) -> None:
        self.sizes = (large_tools, module_tools, edits)
        self.pending: dict[str, float] = {}
        self.last: dict[str, float] = {}

    def take(self, key: str) -> float:
        if key not in self.pending:
            self.pending = self.last = asyncio.run(measure_load(*self.sizes)).copy()
        return self.pending.pop(key)


def comparisons(peers: object, smoke: bool, rounds: int) -> list[Comparison]:
    sessions = _Sessions(300, 20, 2) if smoke else _Sessions(LARGE_TOOLS, MODULE_TOOLS, 10)

    def sample(key: str, scale: float) -> Callable[[], float]:
        return lambda: sessions.take(key) * scale

    latency = [Entry(label, sample(key, 1e6), is_onellm=True) for label, key, _ in LATENCY_ROWS]
    memory = [Entry(label, sample(key, 1.0), is_onellm=key == "lsp_peak_kib") for label, key in MEMORY_ROWS]
    return [
        Comparison("lsp", "latency", "onellm lsp: what an editor waits for (one session per round)", latency, "ms"),
        Comparison("lsp", "memory", "onellm lsp: peak memory (KiB), beside mypy on the large file", memory, "ns"),
    ]


def show(report: Report, results: Results, smoke: bool) -> None:
    report.section(
        "onellm lsp under load (benchmarks/lsp_latency.py --load; one session per round)",
        f"a {'tiny' if smoke else '0.88 MB'} file checked while codeAction requests come every 50 ms; "
        f"a {'small' if smoke else '1,000-line'} module opened and edited",
    )
    table = results.table("lsp", "latency")
    if table is not None:
        report.rounds_table(table)
    lsp, mypy, server = (results.figure("lsp", "memory", label) for label, _ in MEMORY_ROWS)
    if lsp is not None and mypy is not None and server is not None:

        def mib(f: Figure) -> str:
            return spread([k / 1024 for k in f.samples], fmt="{:.0f}", unit=" MiB")

        report.print()
        report.print(
            f"  peak memory: server + check process {mib(lsp)} (the server alone {mib(server)}), mypy {mib(mypy)}"
        )


def targets(results: Results) -> list[Target]:
    found: list[Target] = []
    for label, _, limit in LATENCY_ROWS:
        figure = results.figure("lsp", "latency", label)
        if limit is None:
            continue
        found.append(
            Target(f"lsp: {label}", [] if figure is None else [v / 1e6 for v in figure.samples], limit, unit=" ms")
        )
    lsp, mypy, _ = (results.figure("lsp", "memory", label) for label, _ in MEMORY_ROWS)
    found.append(
        Target(
            "lsp: peak memory, server + check process / mypy on the same file",
            [] if lsp is None or mypy is None else ratios(lsp, mypy),
            MEMORY_RATIO,
        )
    )
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tools", type=int, default=50)
    parser.add_argument("--edits", type=int, default=20)
    parser.add_argument("--warmup", type=int, default=3)
    parser.add_argument("--debounce-ms", type=int, default=300)
    parser.add_argument("--load", action="store_true", help="the load figures instead (one session)")
    parser.add_argument("--large-tools", type=int, default=LARGE_TOOLS)
    parser.add_argument("--module-tools", type=int, default=MODULE_TOOLS)
    ns = parser.parse_args()
    if ns.load:
        for line in load_lines(asyncio.run(measure_load(ns.large_tools, ns.module_tools, ns.edits))):
            print(line)
        return 0
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


def load_lines(f: dict[str, float]) -> list[str]:
    """One session's load figures as text, each against its target."""

    def verdict(value: float, limit: float) -> str:
        return f"{'met' if value <= limit else 'missed'}, target <= {limit:g}"

    ratio = f["lsp_peak_kib"] / f["mypy_peak_kib"] if f["mypy_peak_kib"] else float("nan")
    return [
        f"onellm lsp under load: a {f['large_bytes'] / 1e6:.2f} MB file, a {f['module_lines']:.0f}-line module",
        f"  codeAction while the large file is checked: max {f['answer_max_ms']:.0f} ms, median "
        f"{f['answer_median_ms']:.0f} ms over {f['answers']:.0f} requests ({verdict(f['answer_max_ms'], ANSWER_MS)} ms)",
        f"  open to first diagnostics, server just started (warm cache): {f['open_cold_ms']:.0f} ms "
        f"({verdict(f['open_cold_ms'], OPEN_MS)} ms)",
        f"  open to first diagnostics, the first server (no warm cache): {f['open_first_ms']:.0f} ms",
        f"  open to first diagnostics, running server: {f['open_warm_ms']:.0f} ms ({verdict(f['open_warm_ms'], OPEN_MS)} ms)",
        f"  after an edit, median: {f['edit_ms']:.0f} ms ({verdict(f['edit_ms'], EDIT_MS)} ms)",
        f"  after an edit, the large file open with its findings: {f['edit_beside_large_ms']:.0f} ms",
        f"  peak memory, server + check process: {f['lsp_peak_kib'] / 1024:.0f} MiB (the server alone "
        f"{f['server_peak_kib'] / 1024:.0f} MiB); mypy with the plugin: "
        f"{f['mypy_peak_kib'] / 1024:.0f} MiB; ratio {ratio:.2f}x ({verdict(ratio, MEMORY_RATIO)}x)",
    ]


if __name__ == "__main__":
    sys.exit(main())
