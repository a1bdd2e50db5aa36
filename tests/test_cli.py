"""The ``onellm`` command as a user runs it: real subprocesses, real mypy.

- ``schemas --static`` and ``schemas --runtime`` print the same bytes over the valid corpus
  and the examples;
- ``--static`` and ``check`` never import (or run) the code they read;
- ``check`` speaks three formats, exits 0 / 1 / 2, honours ``# type: ignore[OLT...]``, and
  reports the same (path, line, code) set as mypy with the plugin enabled.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from cli_support import run

ROOT = Path(__file__).resolve().parent.parent
TEST_DATA = ROOT / "test-data"
VALID = sorted(str(p.relative_to(ROOT)) for p in TEST_DATA.glob("valid_*.py"))
INVALID = sorted(str(p.relative_to(ROOT)) for p in TEST_DATA.glob("invalid_*.py"))


def onellm(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return run(*args, cwd=cwd)


def test_static_and_runtime_manifests_are_the_same_bytes() -> None:
    targets = [*VALID, "examples"]
    static = onellm("schemas", "--static", *targets)
    runtime = onellm("schemas", "--runtime", *targets)
    assert static.returncode == 0, static.stderr
    assert runtime.returncode == 0, runtime.stderr
    entries = json.loads(runtime.stdout)
    assert len(entries) >= 100  # the whole valid corpus and every example tool
    assert {e["module"] for e in entries} >= {"file_tools", "ticket_tracker", "background_build"}
    assert static.stdout == runtime.stdout


@pytest.mark.parametrize("provider", ["openai", "anthropic", "gemini", "mcp"])
def test_provider_output_is_the_same_bytes_from_both_sides(provider: str) -> None:
    static = onellm("schemas", "--static", "--provider", provider, "examples")
    runtime = onellm("schemas", "--provider", provider, "examples")
    assert static.returncode == runtime.returncode == 0, static.stderr + runtime.stderr
    assert static.stdout == runtime.stdout


HOSTILE = '''\
from pathlib import Path
from onellm_runtime import tool



def _side_effects() -> None:
    Path(__file__).with_suffix(".ran").write_text("imported")
    raise SystemExit("this module must never be imported by the static side")


_side_effects()


@tool
def lookup(key: str, limit: int = 5) -> str:
    """Look a key up.

    Args:
        key: What to look up.
    """
    return key
'''


def test_static_side_reads_a_module_without_importing_it(tmp_path: Path) -> None:
    module = tmp_path / "hostile_tools.py"
    module.write_text(HOSTILE)
    static = onellm("schemas", "--static", str(module), cwd=tmp_path)
    assert static.returncode == 0, static.stderr
    assert json.loads(static.stdout) == [
        {
            "module": "hostile_tools",
            "qualname": "lookup",
            "name": "lookup",
            "description": "Look a key up.",
            "input_schema": {
                "type": "object",
                "properties": {
                    "key": {"type": "string", "description": "What to look up."},
                    "limit": {"type": "integer", "default": 5},
                },
                "required": ["key"],
                "additionalProperties": False,
            },
            "output_schema": None,
            "ends_loop": False,
            "requires_approval": False,
            "parallel_safe": True,
            "timeout_seconds": 0,
        }
    ]
    check = onellm("check", str(module), cwd=tmp_path)
    assert check.returncode == 0, check.stdout + check.stderr
    assert not module.with_suffix(".ran").exists()
    # ...while the runtime side does import it, and says so.
    runtime = onellm("schemas", "--runtime", str(module), cwd=tmp_path)
    assert runtime.returncode != 0
    assert module.with_suffix(".ran").exists()


FAULTY = """\
from typing import Any
from onellm_runtime import tool


@tool
def search(
    query: str,
    filters: Any,
    extra: object,  # type: ignore[OLT002]
) -> str:
    return query
"""


@pytest.mark.slow  # onellm check run cold once per output format (about 13 s)
def test_check_formats_and_exit_codes(tmp_path: Path) -> None:
    (tmp_path / "app.py").write_text(FAULTY)
    text = onellm("check", "app.py", cwd=tmp_path)
    assert text.returncode == 1
    assert text.stdout == (
        "app.py:8:5: error: Tool 'search': Parameter 'filters': 'Any' has no schema; use a concrete type, "
        "or JsonValue to accept any JSON value  [OLT002]\n"
    )
    as_json = onellm("check", "--format", "json", "app.py", cwd=tmp_path)
    assert as_json.returncode == 1
    assert json.loads(as_json.stdout) == [
        {
            "path": "app.py",
            "line": 8,
            "column": 5,
            "end_line": 8,
            "end_column": 17,
            "code": "OLT002",
            "message": "Tool 'search': Parameter 'filters': 'Any' has no schema; use a concrete type, "
            "or JsonValue to accept any JSON value",
        }
    ]
    github = onellm("check", "--format", "github", "app.py", cwd=tmp_path)
    assert github.returncode == 1
    assert github.stdout == (
        "::error file=app.py,line=8,col=5,endLine=8,endColumn=17,title=OLT002::Tool 'search': Parameter 'filters': 'Any' has no "
        "schema; use a concrete type, or JsonValue to accept any JSON value\n"
    )
    clean = onellm("check", str(ROOT / "examples"))
    assert (clean.returncode, clean.stdout) == (0, "")
    missing = onellm("check", "no/such/file.py", cwd=tmp_path)
    assert missing.returncode == 2
    assert "no such file, directory or module: no/such/file.py" in missing.stderr
    usage = onellm("check", "--format", "xml", "app.py", cwd=tmp_path)
    assert usage.returncode == 2


def _mypy_findings(paths: list[str], tmp_path: Path) -> set[tuple[str, int, str]]:
    config = tmp_path / "mypy.ini"
    config.write_text("[mypy]\nplugins = onellm_mypy\nignore_missing_imports = True\n")
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--config-file",
            str(config),
            "--no-incremental",
            "--show-error-codes",
            "--show-column-numbers",
            "--hide-error-context",
            "--no-error-summary",
            *paths,
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=900,
        env={**os.environ, "MYPYPATH": str(TEST_DATA)},
    )
    assert "INTERNAL ERROR" not in proc.stdout + proc.stderr
    found: set[tuple[str, int, str]] = set()
    for line in proc.stdout.splitlines():
        if "  [OLT" in line and ": error: " in line:
            path, lineno = line.split(":")[:2]
            found.add((path, int(lineno), line.rsplit("[", 1)[1].rstrip("]")))
    return found


def test_check_and_mypy_with_the_plugin_report_the_same_findings(tmp_path: Path) -> None:
    check = onellm("check", "--format", "json", *INVALID)
    assert check.returncode == 1, check.stderr
    from_check = {(d["path"], d["line"], d["code"]) for d in json.loads(check.stdout)}
    from_mypy = _mypy_findings(INVALID, tmp_path)
    assert len(from_check) > 50
    assert from_check == from_mypy
