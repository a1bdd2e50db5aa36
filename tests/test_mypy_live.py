"""The plugin reads the text mypy checks, not the file on disk.

Editors check an unsaved buffer with ``mypy --shadow-file SOURCE SHADOW`` (pylsp-mypy's live
mode, flycheck, ALE): mypy reads SHADOW and reports under SOURCE's name, so the plugin must
read SHADOW too, or its findings land on the saved file's lines (or vanish). ``mypy -c`` has
no file at all. ``follow_imports = skip`` would hide ``tool`` itself. Each row runs real mypy
(or the daemon) and compares its output lines exactly.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from buffers import ANY, BUFFER, RANGE, SAVED
from mypy_support import MYPY, dmypy, run_mypy, write_plugin_ini

MODELS = """\
from dataclasses import dataclass


@dataclass
class Item:
    name: str
"""

USES_MODELS = """\
from models import Item

from onellm_runtime import tool


@tool
def add(item: Item) -> str:
    return item.name
"""

#: The findings as mypy prints them, its code after each.
ANY_002 = f"{ANY}  [OLT002]"
RANGE_013 = f"{RANGE}  [OLT013]"
UNFOLLOWED = (
    "note: Tool 'add' was not checked (Item comes from a module mypy does not follow); "
    "OLT001-OLT015 were skipped for it"
)


def _project(tmp_path: Path) -> None:
    (tmp_path / "app.py").write_text(SAVED)
    (tmp_path / "buffer.py").write_text(BUFFER)
    (tmp_path / "models.py").write_text(MODELS)
    (tmp_path / "uses.py").write_text(USES_MODELS)
    write_plugin_ini(tmp_path)


def _lines(out: str) -> list[str]:
    return [line for line in out.splitlines() if not line.startswith(("Found ", "Success:", "Daemon "))]


def _mypy(tmp_path: Path, *args: str) -> list[str]:
    proc = run_mypy(tmp_path, "--config-file", "mypy.ini", "--cache-dir", ".cache", *args)
    assert proc.returncode in (0, 1), proc.stdout + proc.stderr
    return _lines(proc.stdout)


#: mypy before 2.0 drops a module's text once parsed, so a ``mypy -c`` program's tools go unchecked, saying so
PROGRAM_TEXT = (
    [f"<string>:7:24: error: {ANY_002}"]
    if MYPY >= (2, 0)
    else [
        "<string>:6:2: note: Tool 'remember' was not checked (the source text of module __main__ could not be "
        "read); OLT001-OLT015 were skipped for it"
    ]
)

CASES = [
    pytest.param(["app.py"], [f"app.py:7:24: error: {ANY_002}"], id="saved file"),
    pytest.param(
        ["--shadow-file", "app.py", "buffer.py", "app.py"],
        [f"app.py:9:24: error: {ANY_002}", f"app.py:14:10: error: {RANGE_013}"],
        id="shadow file: the unsaved buffer's lines",
    ),
    pytest.param(["-c", SAVED], PROGRAM_TEXT, id="mypy -c"),
    pytest.param(
        ["--follow-imports=skip", "app.py", "uses.py"],
        [f"uses.py:6:2: {UNFOLLOWED}", f"app.py:7:24: error: {ANY_002}"],
        id="follow_imports=skip",
    ),
    pytest.param(
        ["--follow-imports=skip", "--disable-error-code", "onellm-unchecked", "uses.py"],
        [],
        id="the note disabled",
        marks=pytest.mark.skipif(
            MYPY < (1, 19), reason="mypy before 1.19 refuses a plugin's codes there (tests/test_mypy_config_codes.py)"
        ),
    ),
]


@pytest.mark.parametrize(("args", "expected"), CASES)
def test_findings_are_read_from_the_text_mypy_checks(tmp_path: Path, args: list[str], expected: list[str]) -> None:
    _project(tmp_path)
    assert _mypy(tmp_path, "--no-incremental", *args) == expected


def test_a_warm_cache_follows_the_buffer_and_back(tmp_path: Path) -> None:
    """An editor's live mode keeps a cache: saved, then buffer, then saved again."""
    _project(tmp_path)
    assert _mypy(tmp_path, "app.py") == [f"app.py:7:24: error: {ANY_002}"]
    assert _mypy(tmp_path, "--shadow-file", "app.py", "buffer.py", "app.py") == [
        f"app.py:9:24: error: {ANY_002}",
        f"app.py:14:10: error: {RANGE_013}",
    ]
    assert _mypy(tmp_path, "app.py") == [f"app.py:7:24: error: {ANY_002}"]


def test_the_daemon_with_follow_imports_skip_reports_what_it_can(tmp_path: Path) -> None:
    _project(tmp_path)

    def daemon(*command: str) -> list[str]:
        proc = dmypy(tmp_path, *command)
        return _lines(proc.stdout + proc.stderr)

    try:
        args = ["--config-file", "mypy.ini", "--follow-imports=skip", "app.py", "uses.py"]
        expected = [f"uses.py:6:2: {UNFOLLOWED}", f"app.py:7:24: error: {ANY_002}"]
        assert sorted(daemon("run", "--", *args)) == sorted(expected)
        assert sorted(daemon("run", "--", *args)) == sorted(expected)
    finally:
        daemon("kill")
