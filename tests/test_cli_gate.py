"""The CI recipes of ``docs/ci.md``, run here: the pre-commit hook (real pre-commit, on a
temporary git repository, against this checkout) and the GitHub Actions workflow's commands
(run as a script)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml
from cli_support import ROOT, write

# pre-commit builds the hook's environment from the package index: the slow group (.ci/run runs it).
pytestmark = pytest.mark.slow

DOCS = (ROOT / "docs" / "ci.md").read_text()
SCHEMA = json.loads((ROOT / "tests" / "sarif" / "sarif-schema-2.1.0.json").read_text())


def _yaml_block(containing: str) -> Any:
    """The one ```yaml block of docs/ci.md that has a line starting with ``containing``."""
    blocks = [b for b in re.findall(r"```yaml\n(.*?)```", DOCS, re.S) if re.search(rf"^{containing}", b, re.M)]
    assert len(blocks) == 1, containing
    return yaml.safe_load(blocks[0])


def _git(*args: str, cwd: Path) -> str:
    return subprocess.run(
        ["git", "-c", "user.name=onellm tests", "-c", "user.email=tests@onellm.invalid", *args],
        cwd=cwd,
        check=True,
        capture_output=True,
        text=True,
        timeout=120,
    ).stdout


MODELS = "from dataclasses import dataclass\n\n\n@dataclass\nclass Query:\n    text: str\n"
TOOLS = (
    "from onellm_runtime import tool\n"
    "\n"
    "from models import Query\n"
    "\n"
    "\n"
    "@tool\n"
    "def search(query: Query) -> str:\n"
    "    return query.text\n"
)
BROKEN_BY_MODELS = (
    "tools.py:7:12: error: Tool 'search': Parameter 'query': class 'Query' is not a dataclass, NamedTuple, "
    "TypedDict or pydantic BaseModel, so arguments cannot be built into it; make it a dataclass, NamedTuple, "
    "TypedDict or pydantic BaseModel  [OLT005]"
)


def test_the_hooks_are_defined_for_the_whole_project() -> None:
    check, lock = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())
    keys = ("id", "entry", "language", "args", "pass_filenames", "always_run")
    assert {k: check[k] for k in keys} == {
        "id": "onellm-check",
        "entry": "onellm check",
        "language": "python",
        "args": ["."],
        "pass_filenames": False,
        "always_run": True,
    }
    assert {k: lock[k] for k in keys} == {
        "id": "onellm-lock",
        "entry": "onellm lock",
        "language": "python",
        "args": ["--check", "."],
        "pass_filenames": False,
        "always_run": True,
    }


def test_pre_commit_reports_a_tool_broken_by_a_change_to_another_file(tmp_path: Path) -> None:
    """The docs' snippet, pointed at this checkout: the commit changes only models.py, and
    the tool it breaks in tools.py (not staged, not changed) is still reported."""
    config = _yaml_block("repos:")
    (repo_entry,) = config["repos"]
    assert [h["id"] for h in repo_entry["hooks"]] == ["onellm-check"]
    repo_entry["repo"] = str(ROOT)  # a local path: pre-commit clones it without the network
    repo_entry["rev"] = _git("rev-parse", "HEAD", cwd=ROOT).strip()  # the committed checkout
    project = tmp_path / "project"
    project.mkdir()
    write(project, {"models.py": MODELS, "tools.py": TOOLS, ".pre-commit-config.yaml": yaml.safe_dump(config)})
    _git("init", "-q", ".", cwd=project)
    _git("add", ".", cwd=project)
    _git("commit", "-q", "-m", "tools", cwd=project)
    (project / "models.py").write_text(MODELS.replace("@dataclass\n", ""))
    _git("add", "models.py", cwd=project)
    env = {**os.environ, "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home"), "PRE_COMMIT_COLOR": "never"}

    def pre_commit() -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "pre_commit", "run"],  # the staged files, as at `git commit`
            cwd=project,
            capture_output=True,
            text=True,
            timeout=900,
            env=env,
        )

    broken = pre_commit()
    assert broken.returncode == 1, broken.stdout + broken.stderr
    assert "- hook id: onellm-check\n- exit code: 1\n" in broken.stdout
    assert f"\n{BROKEN_BY_MODELS}\nFound 1 problem in 2 modules\n" in broken.stdout
    (project / "models.py").write_text(MODELS)
    _git("add", "models.py", cwd=project)
    fixed = pre_commit()
    assert fixed.returncode == 0, fixed.stdout + fixed.stderr
    assert re.search(r"^onellm check\.+Passed$", fixed.stdout, re.M), fixed.stdout


def _workflow_steps() -> list[dict[str, Any]]:
    workflow = _yaml_block("jobs:")
    (job,) = workflow["jobs"].values()
    steps: list[dict[str, Any]] = job["steps"]
    return steps


def _run_step(command: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", "-e", "-c", command],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=900,
        env={**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"},
    )


def test_the_workflow_commands_run_as_a_script(tmp_path: Path) -> None:
    steps = _workflow_steps()
    commands = [s["run"] for s in steps if "run" in s]
    assert commands[0] == "python -m pip install 'onellm-tools[mypy]'"  # here: the checkout is installed already
    named = {s["name"]: s["run"] for s in steps if "run" in s and "name" in s}
    assert list(named) == ["Check the tools", "Write the SARIF log"] and commands[1:] == list(named.values())
    upload = steps[-1]
    assert (upload["uses"], upload["with"]["sarif_file"], upload["if"]) == (
        "github/codeql-action/upload-sarif@v3",
        "onellm.sarif",
        "always()",
    )
    write(tmp_path, {"models.py": MODELS.replace("@dataclass\n", ""), "tools.py": TOOLS})
    check = _run_step(named["Check the tools"], tmp_path)
    assert (check.returncode, check.stdout) == (
        1,
        "::error file=tools.py,line=7,col=12,endLine=7,endColumn=24,title=OLT005::"
        + BROKEN_BY_MODELS.split("error: ")[1].rsplit("  [", 1)[0]
        + "\n",
    )
    sarif = _run_step(named["Write the SARIF log"], tmp_path)
    assert (sarif.returncode, sarif.stdout) == (0, ""), sarif.stderr  # findings do not fail this step
    log = json.loads((tmp_path / "onellm.sarif").read_text())
    jsonschema.Draft4Validator(SCHEMA, format_checker=jsonschema.FormatChecker()).validate(log)
    assert [r["ruleId"] for r in log["runs"][0]["results"]] == ["OLT005"]
    # ...but a usage error does (exit 2: here, a directory with no Python file in it)
    empty = tmp_path / "empty"
    empty.mkdir()
    failed = _run_step(named["Write the SARIF log"], empty)
    assert failed.returncode == 1, failed.stderr
    assert "There are no .py[i] files in directory '.'" in failed.stderr
