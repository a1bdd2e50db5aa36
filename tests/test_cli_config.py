"""``onellm check`` follows the project's mypy configuration, in every form mypy reads, and
reports exactly the OLT findings ``mypy`` with the plugin reports on the same files.

Real mypy and real ``onellm`` subprocesses over one small project; each config form sets
a global ``disable_error_code``, a per-module one, an ``exclude`` and a ``mypy_path``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from cli_support import ROOT, run, write

ANY_AND_RANGE = """\
from typing import Annotated, Any
from onellm_runtime import Range, tool


@tool
def loose(q: Any) -> str:
    return ""


@tool
def ranged(q: Annotated[str, Range(1, 5)]) -> str:
    return q
"""

PROJECT = {
    "pkg/__init__.py": "",
    "pkg/a.py": ANY_AND_RANGE,
    "pkg/b.py": ANY_AND_RANGE,
    "pkg/generated.py": ANY_AND_RANGE,  # excluded by the configuration
    # Reached only through mypy_path: a plain class, so a tool taking it is OLT005.
    "vendor/shared.py": "class Plain:\n    name: str\n",
    "pkg/uses_shared.py": (
        "from onellm_runtime import tool\n"
        "from shared import Plain\n"
        "\n"
        "\n"
        "@tool\n"
        "def take(p: Plain) -> str:\n"
        "    return p.name\n"
    ),
}

INI_BODY = """\
plugins = onellm_mypy
disable_error_code = OLT013
exclude = (^|/)generated\\.py$|^vendor/
mypy_path = vendor
"""
INI_PER_MODULE = "disable_error_code = OLT002\n"

# Each row: the configuration files, and the extra arguments that select one.
CONFIG_FORMS = {
    "pyproject.toml": (
        {
            "pyproject.toml": (
                "[tool.mypy]\n"
                'plugins = ["onellm_mypy"]\n'
                'disable_error_code = ["OLT013"]\n'
                'exclude = ["(^|/)generated\\\\.py$", "^vendor/"]\n'
                'mypy_path = "vendor"\n'
                "\n"
                "[[tool.mypy.overrides]]\n"
                'module = "pkg.b"\n'
                'disable_error_code = ["OLT002"]\n'
            )
        },
        [],
    ),
    "mypy.ini": ({"mypy.ini": f"[mypy]\n{INI_BODY}\n[mypy-pkg.b]\n{INI_PER_MODULE}"}, []),
    ".mypy.ini": ({".mypy.ini": f"[mypy]\n{INI_BODY}\n[mypy-pkg.b]\n{INI_PER_MODULE}"}, []),
    "setup.cfg": ({"setup.cfg": f"[metadata]\nname = x\n\n[mypy]\n{INI_BODY}\n[mypy-pkg.b]\n{INI_PER_MODULE}"}, []),
    "--config-file": (
        {
            "config/checks.ini": f"[mypy]\n{INI_BODY}\n[mypy-pkg.b]\n{INI_PER_MODULE}",
            "mypy.ini": "[mypy]\nplugins = onellm_mypy\n",  # found by the search, but the flag wins
        },
        ["--config-file", "config/checks.ini"],
    ),
    "per-module only": (
        {"mypy.ini": "[mypy]\nplugins = onellm_mypy\n\n[mypy-pkg.a]\ndisable_error_code = OLT002, OLT013\n"},
        [],
    ),
}

# What each form leaves, as (path, line, code): checked by hand against the rows above.
EXPECTED = {
    "configured": {
        ("pkg/a.py", 6, "OLT002"),
        ("pkg/uses_shared.py", 6, "OLT005"),
    },
    "per-module only": {
        ("pkg/b.py", 6, "OLT002"),
        ("pkg/b.py", 11, "OLT013"),
        ("pkg/generated.py", 6, "OLT002"),
        ("pkg/generated.py", 11, "OLT013"),
        ("pkg/uses_shared.py", 6, "OLT005"),  # vendor/ is walked (not excluded), so shared is found
    },
}


def _mypy(args: list[str], cwd: Path) -> set[tuple[str, int, str]]:
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--no-incremental",
            "--show-error-codes",
            "--show-column-numbers",
            "--hide-error-context",
            "--no-error-summary",
            *args,
        ],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=900,
        env={**os.environ, "MYPYPATH": str(ROOT)},  # onellm_runtime, past the editable install's import hook
    )
    assert "INTERNAL ERROR" not in proc.stdout + proc.stderr
    found: set[tuple[str, int, str]] = set()
    for line in proc.stdout.splitlines():
        if "  [OLT" in line and ": error: " in line:
            path, lineno = line.split(":")[:2]
            found.add((path, int(lineno), line.rsplit("[", 1)[1].rstrip("]")))
    return found


@pytest.mark.parametrize("form", list(CONFIG_FORMS))
def test_check_reports_what_mypy_with_the_plugin_reports_under_each_config_form(tmp_path: Path, form: str) -> None:
    files, args = CONFIG_FORMS[form]
    (tmp_path / ".git").mkdir()  # the repository root: mypy's config search stops here
    write(tmp_path, {**PROJECT, **files})
    check = run("check", "--format", "json", *args, ".", cwd=tmp_path)
    assert check.returncode == 1, check.stderr
    from_check = {(d["path"], d["line"], d["code"]) for d in json.loads(check.stdout)}
    assert from_check == EXPECTED.get(form, EXPECTED["configured"])
    assert from_check == _mypy([*args, "."], tmp_path)


def test_check_adds_exclude_and_python_version_and_uses_the_configured_files(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "src/tools.py": ANY_AND_RANGE,
            "src/groups.py": "try:\n    pass\nexcept* ValueError:\n    pass\n",  # Python 3.11 syntax
            "mypy.ini": "[mypy]\nfiles = src\n",
        },
    )
    plain = run("check", cwd=tmp_path)  # no paths: the configuration's files
    assert plain.returncode == 1, plain.stderr
    assert [line.split(": error:")[0] for line in plain.stdout.splitlines()] == [
        "src/tools.py:6:11",
        "src/tools.py:11:12",
    ]
    old = run("check", "--python-version", "3.10", "--exclude", "tools", "src", cwd=tmp_path)
    assert (old.returncode, old.stdout) == (
        1,
        "src/groups.py:4:9: error: Exception groups are only supported in Python 3.11 and greater  [syntax]\n",
    ), old.stderr
    new = run("check", "--python-version", "3.11", "--exclude", "tools", "src", cwd=tmp_path)
    assert (new.returncode, new.stdout, new.stderr) == (0, "", "No problems in 1 module\n")


def test_check_writes_no_cache_where_the_configuration_puts_one_or_by_default(tmp_path: Path) -> None:
    """No later run reads a cache ``onellm check`` would write: none is written, wherever
    ``cache_dir`` points."""
    write(tmp_path, {"src/tools.py": ANY_AND_RANGE, "mypy.ini": "[mypy]\ncache_dir = configured_cache\n"})
    (tmp_path / ".git").mkdir()
    configured = run("check", "src", cwd=tmp_path)
    assert configured.returncode == 1, configured.stderr
    (tmp_path / "mypy.ini").unlink()
    default = run("check", "src", cwd=tmp_path)
    assert (default.returncode, default.stdout) == (1, configured.stdout), default.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == [".git", "src"]


SKIPPED = {
    "src/tools.py": ANY_AND_RANGE,
    "build/lib/tools.py": ANY_AND_RANGE,
    "env/pyvenv.cfg": "home = /usr/bin\n",
    "env/lib/python3.11/tools.py": ANY_AND_RANGE,
    "env/lib/python3.11/site-packages/dep/tools.py": ANY_AND_RANGE,
    ".venv/lib/tools.py": ANY_AND_RANGE,
    ".tox/py311/tools.py": ANY_AND_RANGE,
    ".git/hooks/tools.py": ANY_AND_RANGE,
    "node_modules/x/tools.py": ANY_AND_RANGE,
    "site-packages/x/tools.py": ANY_AND_RANGE,
    "__pycache__/tools.py": ANY_AND_RANGE,
}


def test_walking_a_directory_skips_virtualenvs_build_and_tool_directories(tmp_path: Path) -> None:
    write(tmp_path, SKIPPED)
    walked = run("check", "--format", "json", ".", cwd=tmp_path)
    assert walked.returncode == 1, walked.stderr
    assert {d["path"] for d in json.loads(walked.stdout)} == {"src/tools.py"}
    assert walked.stderr == ""
    named = run("check", "--format", "json", "build/lib/tools.py", cwd=tmp_path)  # a file named is never skipped
    assert {d["path"] for d in json.loads(named.stdout)} == {"build/lib/tools.py"}
