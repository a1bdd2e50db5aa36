"""``onellm schemas --runtime`` imports each tool module from its own file: a module named
like the standard library is not shadowed, what it prints stays off the manifest, and an
import that exits or fails is a usage error naming the module. Real subprocesses."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_support import run, write

TOOL_MODULE = '''\
import os
from onellm_runtime import tool

print("printed while importing")
os.write(1, b"written to fd 1 while importing\\n")


@tool
def lookup(key: str) -> str:
    """Look a key up."""
    return key
'''


def manifest_of(module: str) -> str:
    entry = {
        "module": module,
        "qualname": "lookup",
        "name": "lookup",
        "description": "Look a key up.",
        "input_schema": {
            "type": "object",
            "properties": {"key": {"type": "string"}},
            "required": ["key"],
            "additionalProperties": False,
        },
        "output_schema": None,
        "ends_loop": False,
        "requires_approval": False,
        "parallel_safe": True,
        "timeout_seconds": 0,
    }
    return json.dumps([entry], indent=2) + "\n"


@pytest.mark.parametrize("name", ["json", "inspect", "time", "token", "copy"])
def test_a_module_named_like_the_standard_library_is_read_from_its_file(tmp_path: Path, name: str) -> None:
    # Through the console script: ``python -m`` itself would import the file in place of the
    # standard library module (its working directory comes first on sys.path), before onellm runs.
    write(tmp_path, {f"{name}.py": TOOL_MODULE})
    by_path = run("schemas", "--runtime", f"{name}.py", cwd=tmp_path, script=True)
    assert (by_path.returncode, by_path.stdout) == (0, manifest_of(name)), by_path.stderr
    assert by_path.stderr == "printed while importing\nwritten to fd 1 while importing\n"
    # by module name, from the directory that holds it, through the console script (as python -m finds it)
    by_name = run("schemas", name, cwd=tmp_path, script=True)
    assert (by_name.returncode, by_name.stdout) == (0, manifest_of(name)), by_name.stderr
    static = run("schemas", "--static", f"{name}.py", cwd=tmp_path, script=True)
    assert (static.returncode, static.stdout) == (0, manifest_of(name)), static.stderr


def test_a_module_in_a_package_is_found_by_name_from_the_working_directory(tmp_path: Path) -> None:
    write(tmp_path, {"app/__init__.py": "", "app/tools.py": TOOL_MODULE})
    proc = run("schemas", "app.tools", cwd=tmp_path, script=True)
    assert (proc.returncode, proc.stdout) == (0, manifest_of("app.tools")), proc.stderr


# Each row: a module body, and the one line on stderr (exit 2, nothing on stdout).
FAILED_IMPORTS = [
    ("import sys\nsys.exit(3)\n", "onellm: error: importing 'quits' called sys.exit(3)"),
    ("raise SystemExit('no')\n", "onellm: error: importing 'quits' called sys.exit('no')"),
    ("import sys\nsys.exit()\n", "onellm: error: importing 'quits' called sys.exit(None)"),
    ("raise ValueError('boom')\n", "onellm: error: importing 'quits' failed: ValueError: boom"),
    (
        "import not_a_module_anywhere\n",
        "onellm: error: importing 'quits' failed: ModuleNotFoundError: No module named 'not_a_module_anywhere'",
    ),
]


@pytest.mark.parametrize(("body", "message"), FAILED_IMPORTS)
def test_an_import_that_exits_or_fails_is_exit_2_naming_the_module(tmp_path: Path, body: str, message: str) -> None:
    write(tmp_path, {"quits.py": 'print("before")\n' + body})
    proc = run("schemas", "quits.py", cwd=tmp_path)
    assert (proc.returncode, proc.stdout, proc.stderr) == (2, "", f"before\n{message}\n")


REFUSED_METHOD = """\
from onellm_runtime import tool


class Plain:
    pass


class Tools:
    @tool
    def use(self, p: Plain) -> str:
        return ""
"""
REFUSED_METHOD_TEXT = (
    "Tool 'use': Parameter 'p': class 'Plain' is not a dataclass, NamedTuple, TypedDict or pydantic BaseModel, "
    "so arguments cannot be built into it; make it a dataclass, NamedTuple, TypedDict or pydantic BaseModel  "
    "[OLT005]"
)


def test_a_method_refused_when_its_class_is_made_is_its_finding_on_both_sides(tmp_path: Path) -> None:
    # Python before 3.12 wraps what __set_name__ raises in "RuntimeError: Error calling __set_name__";
    # the runtime reports the finding inside, with exit 1, as the static side does.
    write(tmp_path, {"methods.py": REFUSED_METHOD})
    runtime = run("schemas", "--runtime", "methods.py", cwd=tmp_path)
    assert (runtime.returncode, runtime.stdout) == (1, "")
    assert runtime.stderr == f"onellm: a tool could not be built:\n{REFUSED_METHOD_TEXT}\n"
    static = run("check", "methods.py", cwd=tmp_path)
    assert static.returncode == 1
    assert f"methods.py:10:19: error: {REFUSED_METHOD_TEXT}" in static.stdout
