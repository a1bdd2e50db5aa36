"""Plugin error codes named in mypy's configuration: honoured from mypy 1.19, refused before.

mypy before 1.19 checks ``disable_error_code`` against its own codes while reading the
configuration, before any plugin is loaded, so it refuses the OLT codes there (in ``[mypy]``,
in a per-module section and on the command line) and reports them all the same. The inline
``# mypy: disable-error-code=...`` comment and ``# type: ignore[OLT...]`` work on every version
(tests/mypy/test-ignore.yml). Each row asserts what the mypy under test does, on both sides.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from mypy_support import MYPY, run_mypy, write_plugin_ini

#: the first mypy that accepts a plugin's codes in its configuration (earlier ones check them before plugins load)
HONOURED_FROM = (1, 19)

MAIN = """\
from dataclasses import dataclass
from typing import Any
from onellm_runtime import tool

def compute() -> int:
    return 1

@dataclass
class Node:
    children: list["Node"]

@tool
def walk(
    node: Node,
    depth: int = compute(),
    extra: Any = None,
) -> str:
    return ""
"""
OLT006 = (
    "main.py:14:5: error: Tool 'walk': Parameter 'node' field 'children' item: type 'Node' refers to itself, "
    "so its schema would never end; break the cycle (for example refer to another item by an id string)  [OLT006]"
)
OLT014 = (
    "main.py:15:5: error: Tool 'walk': Parameter 'depth': the default value 'compute()' cannot be computed from "
    "the source, so the static schema could differ from the runtime's; use a literal or a constant  [OLT014]"
)
OLT002 = (
    "main.py:16:5: error: Tool 'walk': Parameter 'extra': 'Any' has no schema; use a concrete type, "
    "or JsonValue to accept any JSON value  [OLT002]"
)

#: where the codes are disabled: (extra ini lines, extra command-line arguments, the refusal old mypy prints)
PLACES = {
    "config": ("[mypy]\n", "disable_error_code = OLT006, OLT014\n", [], "mypy.ini: [mypy]: disable_error_code"),
    "module_section": (
        "[mypy-main]\n",
        "disable_error_code = OLT006, OLT014\n",
        [],
        "mypy.ini: [mypy-main]:disable_error_code",
    ),
    "command_line": ("", "", ["--disable-error-code", "OLT006", "--disable-error-code", "OLT014"], "mypy: error"),
}


def _run(tmp_path: Path, section: str, line: str, args: list[str]) -> subprocess.CompletedProcess[str]:
    (tmp_path / "main.py").write_text(MAIN)
    if section == "[mypy]\n":
        write_plugin_ini(tmp_path, line)
    else:
        write_plugin_ini(tmp_path, "\n" + section + line if section else "")
    return run_mypy(tmp_path, "--no-incremental", "--config-file", "mypy.ini", *args, "main.py")


@pytest.mark.parametrize("place", list(PLACES))
def test_olt_codes_disabled_in_the_configuration(tmp_path: Path, place: str) -> None:
    section, line, args, refusal = PLACES[place]
    proc = _run(tmp_path, section, line, args)
    if MYPY >= HONOURED_FROM:
        assert (proc.returncode, proc.stderr) == (1, "")
        assert proc.stdout.splitlines() == [OLT002, "Found 1 error in 1 file (checked 1 source file)"]
    elif place == "command_line":  # refused before checking anything
        assert proc.returncode == 2
        assert proc.stderr.splitlines()[-1] == "mypy: error: Invalid error code(s): OLT006, OLT014"
        assert proc.stdout == ""
    else:  # refused, then every code reported
        assert proc.returncode == 1
        assert proc.stderr == f"{refusal}: Invalid error code(s): OLT006, OLT014\n"
        assert proc.stdout.splitlines() == [OLT006, OLT014, OLT002, "Found 3 errors in 1 file (checked 1 source file)"]
