"""The benchmark's smoke mode runs and prints every section, so it never rots.

No timing is asserted: the counts are tiny and the machine is shared. The first run
leaves every peer out, so it passes whether or not the ``bench`` extra is installed and
checks that a missing peer is reported as skipped; the second uses whichever peers are
installed, so their adapters run too where they exist; the third runs the before/after
mode against this same tree, two interleaved rounds.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SECTIONS = (
    "1. Schema build per tool",
    "2. Bind per call from raw JSON",
    "3. End-to-end invoke per call",
    "10. dispatch of one reply of N calls, per call, beside N awaited invokes",
    "4. Import time",
    "5. Scale: building 20 and 200 tools",
    "6. Type-check time: mypy on generated projects",
    "7. Hostile documents",
    "9. Bind per shape: onellm against the unchecked floor and pydantic strict",
    "onellm lsp under load (benchmarks/lsp_latency.py --load; one session per round)",
    "MCP servers (benchmarks/mcp_roundtrip.py): onellm's beside the SDK's own, the same tool, the SDK's client",
    "Targets (the verdict is on the median",
)
PEERS = ("pydantic", "openai-agents", "mcp", "pydantic-ai", "msgspec")
#: The final lines, one per target, in this order (the figures are not asserted).
TARGET_LINES = (
    r"mypy with the plugin / plain mypy, cold cache, 10 tools <= 1\.10x: ",
    r"mypy with the plugin / plain mypy, warm cache, 10 tools <= 1\.03x: ",
    r"onellm check / mypy --no-incremental with the plugin, 10 tools <= 1\.00x: ",
    r"lsp: codeAction while the large file is checked, slowest answer <= 300\.00 ms: [0-9.]+ ms",
    r"lsp: open to first diagnostics, server just started \(warm cache\) <= 1000\.00 ms: [0-9.]+ ms",
    r"lsp: open to first diagnostics, running server <= 1000\.00 ms: [0-9.]+ ms",
    r"lsp: after an edit, median of the round's edits <= 300\.00 ms: [0-9.]+ ms",
    r"lsp: peak memory, server \+ check process / mypy on the same file <= 1\.50x: [0-9.]+x",
    *(
        rf"servers: onellm / SDK server time per tools/call over {transport} \(calls/s >= the SDK's\) <= 1\.00x: "
        for transport in ("stdio", "http")
    ),
    r"per-tool build time, 200 / 20 tools, GC on <= 1\.20x: .*; GC paused: ",
    r"bind\(bytes\) / bind\(str\), small document <= 1\.10x: ",
    r"bind\(bytes\) / bind\(str\), medium document <= 1\.10x: ",
    r"bind\(bytes\) / bind\(str\), large document <= 1\.10x: ",
    r"docstring share of a ticket-shape build / the recorded 41% \(main at 0d5f1e1\) <= 0\.50x: .*; share ",
    r"invoke: fastest peer's call path / onellm, small call >= 1\.00x: ",
    r"invoke: fastest peer's call path / onellm, medium call >= 1\.00x: ",
    r"invoke: fastest peer's call path / onellm, large call >= 1\.00x: ",
    *(
        rf"dispatch of N calls / N awaited invokes, CPU per call, {kind} tool <= 1\.10x: [0-9.]+x"
        for kind in ("def", "async def")
    ),
    r"hostile documents: worst bind CPU / json\.loads CPU <= 20\.00x: [0-9.]+x",
    r"hostile documents: worst peak memory per MB of input <= 50\.00 MB/MB: [0-9.]+ MB/MB",
    r"hostile documents: worst event-loop stall up to 1 MB <= 50\.00 ms: [0-9.]+ ms",
    r"dispatch of a large reply: CPU / json\.loads CPU <= 20\.00x: [0-9.]+x",
    r"dispatch of a large reply: event-loop stall up to 1 MB <= 50\.00 ms: [0-9.]+ ms",
    r"hostile source: worst static evaluator CPU / ast\.parse CPU <= 20\.00x: [0-9.]+x",
    r"hostile source: worst static evaluator peak memory per MB of input <= 50\.00 MB/MB: [0-9.]+ MB/MB",
    *(
        rf"bind / {of}, {shape} <= {limit}x: "
        for shape in ("scalar-heavy", "record-heavy", "union-heavy", "list-heavy", "BaseModel")
        for of, limit in (("the floor", r"1\.30"), ("pydantic strict", r"1\.00"))
    ),
)


def _run(*args: str) -> str:
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "run.py"), "--smoke", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return done.stdout


@pytest.mark.slow  # a benchmark's smoke mode: the slow group
def test_smoke_without_peers_prints_every_section_each_skip_and_the_targets_last() -> None:
    out = _run("--without", "all")
    for title in SECTIONS:
        assert title in out, title
    for peer in PEERS:
        assert f"peer {peer}: SKIPPED, left out with --without" in out
    assert re.search(r"pydantic TypeAdapter\(fn\)\.json_schema\(\) +skipped: left out with --without", out)
    assert re.search(r"msgspec Decoder \(C reference\) +skipped: left out with --without", out)
    assert re.search(
        r"onellm Tool\.create\(fn\)\.input_schema +[0-9.,]+ +[0-9.,]+ +[0-9.,]+-[0-9.,]+ +1   1\.00x \(onellm\)", out
    )
    assert "json.loads(str) alone (the floor)" in out
    assert "onellm Tool.bind(raw bytes)" in out
    assert "onellm: import onellm_runtime" in out
    assert "per-tool time at 200 / at 20, collector on:" in out
    assert "the same with the collector paused:" in out
    assert "objects the collector tracks, per onellm tool kept:" in out
    assert "What each accepts of 12 documents that break one rule each (what it does not check):" in out
    assert "    onellm Tool.bind(raw str): refuses every one" in out
    assert "TARGET schema build <= 50 us median per tool (every warm shape):" in out
    assert "TARGET import <= 25 ms (CPU time of the child):" in out
    lines = out.splitlines()
    last = lines[-len(TARGET_LINES) :]
    assert lines[-len(TARGET_LINES) - 2].startswith("Targets (the verdict is on the median")
    for pattern, line in zip(TARGET_LINES, last):
        # invoke has no peer here: its lines say so instead of a figure
        assert re.fullmatch(r"  (met   |missed|n/a   )  " + pattern + ".*", line), (pattern, line)
    invoke = [line for line in last if " invoke: " in line]
    assert len(invoke) == 3 and all(line.startswith("  n/a     invoke:") for line in invoke), invoke
    # the SDK's server is left out too: onellm's rows are measured, the ratio is not
    servers = [line for line in last if " servers: " in line]
    assert len(servers) == 2 and all(line.startswith("  n/a     servers:") for line in servers), servers


@pytest.mark.slow  # a benchmark's smoke mode: the slow group
def test_smoke_with_installed_peers_runs_build_bind_and_invoke() -> None:
    out = _run("--only", "build,bind,invoke")
    for title in SECTIONS[:3]:
        assert title in out, title
    for peer in PEERS:
        assert f"peer {peer} " in out or f"peer {peer}: SKIPPED, not installed" in out, peer
    assert "4. Import time" not in out
    assert "failed:" not in out, out


@pytest.mark.slow  # a benchmark's smoke mode: the slow group
def test_smoke_before_after_against_this_tree_prints_every_figure_and_the_flags() -> None:
    out = _run("--baseline", str(ROOT), "--only", "build,bind", "--without", "all", "--rounds", "2")
    assert "old (--baseline): onellm " in out and f" at {ROOT} (" in out
    assert (
        f"the children imported onellm_runtime from {ROOT / 'onellm_runtime'} (new) and {ROOT / 'onellm_runtime'} (old)"
        in out
    )
    assert "Before / after: this tree (new) against --baseline (old)" in out
    assert re.search(
        r"\[bind\] small: 3 scalars \(53 bytes\)\n +json\.loads\(str\) alone \(the floor\) +new +[0-9.]+ us +old +[0-9.]+ +new/old [0-9.]+x \([0-9.]+-[0-9.]+\)",
        out,
    )
    assert re.search(r"  figures more than 10% worse: [0-9]+", out)
    assert re.search(r"  (met   |missed)  bind\(bytes\) / bind\(str\), small document <= 1\.10x: .*; before: ", out)


def test_import_leaves_the_core_and_the_binder_for_first_use() -> None:
    """``import onellm_runtime`` loads no schema machinery; the first tool loads it."""
    program = (
        "import sys, onellm_runtime\n"
        "core = ('core.model', 'core.rules', 'core.docstrings', 'core.diagnostics', 'core.schema',"
        " 'front.typing_front', 'binding', 'invoking.invoker')\n"
        "print(sorted(m for m in core if 'onellm_runtime.' + m in sys.modules))\n"
        "def get_time(timezone: str) -> str:\n"
        "    return timezone\n"
        "onellm_runtime.Tool.create(get_time)\n"
        "print(sorted(m for m in core if 'onellm_runtime.' + m in sys.modules))\n"
    )
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout == (
        "[]\n['core.diagnostics', 'core.docstrings', 'core.model', 'core.rules', 'core.schema', 'front.typing_front']\n"
    )


@pytest.mark.slow  # a benchmark's smoke mode: the slow group
def test_hostile_documents_smoke_prints_every_document_and_the_worst_ratio_last() -> None:
    """``benchmarks/hostile.py --smoke``: every shape at both sizes, the targets, and the worst
    bind / json.loads ratio as the last line (no figure is asserted)."""
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "hostile.py"), "--smoke"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    lines = done.stdout.splitlines()
    for shape in (
        "huge exponents",
        "base64",
        "deep nesting",
        "long string",
        "many keys",
        "duplicate keys",
        "many small ints",
        "big-digit numbers",
    ):
        assert sum(1 for line in lines if line.startswith(shape + " ")) == 2, shape
    for target in (
        "TARGET bind <= 20x json.loads:",
        "TARGET peak memory <= 50 MB per MB of input:",
        "TARGET loop stall <= 50 ms up to 1 MB:",
        "TARGET evaluator <= 20x ast.parse:",
        "TARGET evaluator peak memory <= 50 MB per MB of input:",
    ):
        assert any(line.startswith(target) for line in lines), target
    for module in ("tuple of refs, f-string", "many reads of one tuple", "a huge integer literal"):
        assert sum(1 for line in lines if line.startswith(module + " ")) == 1, module
    assert any(line.startswith("Tool.create with a Literal of 200 values:") for line in lines)
    assert any(line.startswith("mypy on a 100-member Enum") for line in lines)
    assert any("the former regex fullmatch" in line for line in lines)
    assert re.fullmatch(r"worst ratio of bind CPU time to json\.loads CPU time: [0-9.]+x", lines[-1])
