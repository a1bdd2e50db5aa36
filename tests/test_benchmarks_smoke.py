"""The benchmark's smoke mode runs and prints every section (issue 7), so it never rots.

No timing is asserted: the counts are tiny and the machine is shared. The first run
leaves every peer out, so it passes whether or not the ``bench`` extra is installed and
checks that a missing peer is reported as skipped; the second uses whichever peers are
installed, so their adapters run too where they exist.
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
    "4. Import time",
    "5. Scale: building 20 and 200 tools",
    "Targets",
)
PEERS = ("pydantic", "openai-agents", "mcp", "pydantic-ai", "msgspec")


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
def test_smoke_without_peers_prints_every_section_and_each_skip() -> None:
    out = _run("--without", "all")
    for title in SECTIONS:
        assert title in out, title
    for peer in PEERS:
        assert f"peer {peer}: SKIPPED, left out with --without" in out
    assert re.search(r"pydantic TypeAdapter\(fn\)\.json_schema\(\) +skipped: left out with --without", out)
    assert re.search(r"msgspec Decoder \(C reference\) +skipped: left out with --without", out)
    assert "onellm Tool.create(fn).input_schema" in out
    assert "json.loads alone (the floor)" in out
    assert "onellm: import onellm_runtime" in out
    assert "per-tool time at 200 / at 20:" in out
    assert "the same with the collector paused:" in out
    assert "TARGET schema build <= 50 us median per tool (every warm shape):" in out
    assert "TARGET import <= 25 ms (CPU time of the child):" in out


@pytest.mark.slow  # a benchmark's smoke mode: the slow group
def test_smoke_with_installed_peers_runs_build_bind_and_invoke() -> None:
    out = _run("--only", "build,bind,invoke")
    for title in SECTIONS[:3]:
        assert title in out, title
    for peer in PEERS:
        assert f"peer {peer} " in out or f"peer {peer}: SKIPPED, not installed" in out, peer
    assert "4. Import time" not in out
    assert "failed:" not in out, out


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
    for target in ("TARGET bind <= 20x json.loads:", "TARGET peak memory <= 50 MB per MB of input:", "TARGET loop stall <= 50 ms up to 1 MB:"):
        assert any(line.startswith(target) for line in lines), target
    assert any(line.startswith("Tool.create with a Literal of 200 values:") for line in lines)
    assert any(line.startswith("mypy on a 100-member Enum") for line in lines)
    assert any("the former regex fullmatch" in line for line in lines)
    assert re.fullmatch(r"worst ratio of bind CPU time to json\.loads CPU time: [0-9.]+x", lines[-1])
