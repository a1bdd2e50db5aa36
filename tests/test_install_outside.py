"""A user's project outside the repository sees the installed package, as the README installs it.

A new virtualenv gets ``pip install -e '<repo>[mypy]'`` (the README's first command), then a project
in another temporary directory runs real mypy with the plugin and real pyright on a tool module.
Both must resolve ``onellm_runtime`` through the install alone (no ``MYPYPATH``, no ``extraPaths``):
an editable install that only an import hook can follow would leave mypy with no OLT finding at all.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# It installs into a new virtualenv from the package index: the slow group (.ci/run runs it).
pytestmark = pytest.mark.slow

APP = '''\
from typing import Any

from onellm_runtime import tool


@tool
def search(query: str, filters: Any, limit: int = 10) -> list[str]:
    """Search the index."""
    return []


search("x", None)
search(1, None)
'''

PYPROJECT = """\
[tool.mypy]
plugins = ["onellm_mypy"]
"""


def _clean_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "MYPYPATH", "VIRTUAL_ENV")}
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    return env


@pytest.fixture(scope="module")
def user_project(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A fresh venv with the package installed as the README says, and a project beside it."""
    base = tmp_path_factory.mktemp("outside")
    env_dir = base / "venv"
    venv.create(env_dir, with_pip=True)
    python = env_dir / "bin" / "python"
    lock = ROOT / "requirements-dev.lock"
    install = subprocess.run(
        [str(python), "-m", "pip", "install", "--quiet", "-c", str(lock), "-e", f"{ROOT}[mypy]"],
        capture_output=True,
        text=True,
        env=_clean_env(),
        timeout=600,
    )
    assert install.returncode == 0, install.stdout + install.stderr
    project = base / "project"
    project.mkdir()
    (project / "app.py").write_text(APP)
    (project / "pyproject.toml").write_text(PYPROJECT)
    return python, project


def test_mypy_outside_the_repository_reports_the_olt_finding(user_project: tuple[Path, Path]) -> None:
    python, project = user_project
    proc = subprocess.run(
        [str(python), "-m", "mypy", "--no-incremental", "app.py"],
        capture_output=True,
        text=True,
        cwd=project,
        env=_clean_env(),
        timeout=600,
    )
    assert proc.stdout.splitlines() == [
        "app.py:7: error: Tool 'search': Parameter 'filters': 'Any' has no schema; "
        "use a concrete type, or JsonValue to accept any JSON value  [OLT002]",
        'app.py:13: error: Argument 1 to "__call__" of "Tool" has incompatible type "int"; expected "str"  [arg-type]',
        "Found 2 errors in 1 file (checked 1 source file)",
    ], proc.stderr


def test_pyright_outside_the_repository_resolves_the_package(user_project: tuple[Path, Path], tmp_path: Path) -> None:
    python, project = user_project
    exe = shutil.which("pyright") or str(Path(sys.executable).parent / "pyright")
    (project / "pyrightconfig.json").write_text(json.dumps({"typeCheckingMode": "strict"}))
    proc = subprocess.run(
        [exe, "--outputjson", "--pythonpath", str(python), "app.py"],
        capture_output=True,
        text=True,
        cwd=project,
        env=_clean_env(),
        timeout=600,
    )
    out = json.loads(proc.stdout)
    found = [(d["range"]["start"]["line"] + 1, d["rule"]) for d in out["generalDiagnostics"]]
    # Line 13 passes an int for a str: pyright can only see it if it resolved the package's types.
    assert found == [(13, "reportArgumentType")], json.dumps(out["generalDiagnostics"], indent=1)
