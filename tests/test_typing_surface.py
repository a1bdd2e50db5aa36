"""The decorator keeps signatures for type checkers: real pyright and real mypy agree.

``tests/typing/tools_usage.py`` marks each line that must be an error with ``# error``;
every other line must be clean. Pyright has no plugins, so this is all a pyright user gets
statically (plus ``onellm check``): it has to be right.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).parent
USAGE = HERE / "typing" / "tools_usage.py"
ROOT = HERE.parent


def _expected_error_lines() -> set[int]:
    return {i for i, line in enumerate(USAGE.read_text().splitlines(), 1) if line.rstrip().endswith("# error")}


def _pyright(target: list[str], config: dict[str, object], tmp_path: Path) -> dict[str, object]:
    exe = shutil.which("pyright")
    if exe is None:
        pytest.fail("pyright is not installed: pip install -e '.[dev]'")
    cfg = tmp_path / "pyrightconfig.json"
    # Point pyright at this tree, whatever install the running environment has.
    cfg.write_text(json.dumps({**config, "extraPaths": [str(ROOT)]}))
    proc = subprocess.run(
        [exe, "--outputjson", "-p", str(cfg), *target],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=600,
    )
    return json.loads(proc.stdout)  # type: ignore[no-any-return]


def test_pyright_reports_exactly_the_wrong_call_sites(tmp_path: Path) -> None:
    out = _pyright([str(USAGE)], {"typeCheckingMode": "strict", "pythonVersion": "3.10"}, tmp_path)
    diags = out["generalDiagnostics"]
    assert isinstance(diags, list)
    lines = {d["range"]["start"]["line"] + 1 for d in diags if d["severity"] == "error"}
    assert lines == _expected_error_lines(), json.dumps(diags, indent=1)


def test_mypy_reports_exactly_the_wrong_call_sites() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--python-version", "3.10", str(USAGE)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "MYPYPATH": ""},
    )
    errors = [line for line in proc.stdout.splitlines() if ": error:" in line]
    lines = {int(line.split(":")[1]) for line in errors if line.startswith("tests/typing/tools_usage.py:")}
    assert lines == _expected_error_lines(), proc.stdout
    assert len(errors) == len(lines), proc.stdout  # nothing reported elsewhere (the package itself)


def test_runtime_package_is_pyright_strict_clean(tmp_path: Path) -> None:
    out = _pyright(
        [str(ROOT / "onellm_runtime")],
        {"typeCheckingMode": "strict", "pythonVersion": "3.10"},
        tmp_path,
    )
    errors = [d for d in out["generalDiagnostics"] if d["severity"] == "error"]  # type: ignore[union-attr]
    assert errors == [], json.dumps(errors, indent=1)
