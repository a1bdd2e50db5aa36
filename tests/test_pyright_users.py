"""What pyright and Pylance users get: a fully typed public surface, and examples they can copy.

``pyright --verifytypes`` scores how much of the package's public interface has a declared
(not inferred) type: an inferred attribute type is "ambiguous" because another checker
may infer it differently. The examples are what users copy, so they must pass
``typeCheckingMode: strict``: every file in ``examples/``, by glob, so new ones are held too.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").glob("*.py"))


def _pyright() -> str:
    exe = shutil.which("pyright")
    if exe is None:
        pytest.fail("pyright is not installed: pip install -e '.[dev]'")
    return exe


def test_the_runtime_package_is_fully_typed_for_verifytypes(tmp_path: Path) -> None:
    # pyright cannot follow an editable install's import hook: it finds the package through
    # PYTHONPATH (the interpreter's search path), run from outside the repository.
    proc = subprocess.run(
        [_pyright(), "--verifytypes", "onellm_runtime", "--ignoreexternal", "--outputjson"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=600,
    )
    out = json.loads(proc.stdout)
    assert out["generalDiagnostics"] == []
    completeness = out["typeCompleteness"]
    not_known = [
        (s["name"], [d["message"] for d in s["diagnostics"]])
        for s in completeness["symbols"]
        if not s["isTypeKnown"] or s.get("isTypeAmbiguous")
    ]
    assert not_known == []
    assert completeness["exportedSymbolCounts"]["withAmbiguousType"] == 0
    assert completeness["exportedSymbolCounts"]["withUnknownType"] == 0
    assert completeness["completenessScore"] == 1


def test_every_example_is_pyright_strict_clean(tmp_path: Path) -> None:
    assert EXAMPLES, "no examples found"
    config = tmp_path / "pyrightconfig.json"
    config.write_text(json.dumps({"typeCheckingMode": "strict", "pythonVersion": "3.10", "extraPaths": [str(ROOT)]}))
    proc = subprocess.run(
        [_pyright(), "--outputjson", "-p", str(config), *map(str, EXAMPLES)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=600,
    )
    out = json.loads(proc.stdout)
    problems = [
        f"{Path(d['file']).name}:{d['range']['start']['line'] + 1}: {d['message']}"
        for d in out["generalDiagnostics"]
        if d["severity"] in ("error", "warning")
    ]
    assert problems == []
    assert out["summary"]["filesAnalyzed"] >= len(EXAMPLES)
