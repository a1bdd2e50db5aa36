"""The plugin with mypy's cache and with the daemon: a warm run reports what a cold one does.

mypy replays errors from its cache without running hooks, and re-checks a module only when
something it depends on changes its interface. A change to ``Annotated`` metadata in a record
two imports away changes no analysed type, so the plugin must make it count (a source digest
in the module's symbol table, plus indirect dependencies on the modules a tool read).
"""

from __future__ import annotations

from pathlib import Path

from mypy_support import dmypy, rewrite_later, run_mypy, write_plugin_ini

MAIN = """\
from onellm_runtime import tool
from models import Box

@tool
def place(box: Box) -> str:
    return ""
"""
MODELS = """\
from dataclasses import dataclass
from inner import Inner

@dataclass
class Box:
    inner: Inner
"""
INNER = """\
from dataclasses import dataclass
from typing import Annotated
from onellm_runtime import Range

@dataclass
class Inner:
    depth: Annotated[int, Range({lo}, 5)]
"""
FINDING = (
    "main.py:5:11: error: Tool 'place': Parameter 'box' field 'inner' field 'depth': Range(9, 5) has its minimum "
    "above its maximum; swap the bounds  [OLT013]"
)


SECOND = """\
from onellm_runtime import tool
from models import Box

@tool
def store(box: Box) -> str:
    return ""
"""
SECOND_FINDING = FINDING.replace("main.py:5:11", "second.py:5:11").replace("'place'", "'store'")


def _project(tmp_path: Path) -> list[str]:
    (tmp_path / "main.py").write_text(MAIN)
    (tmp_path / "models.py").write_text(MODELS)
    write_plugin_ini(tmp_path)
    return ["--config-file", "mypy.ini", "main.py", "models.py", "inner.py"]


def _set_low_bound(tmp_path: Path, lo: int) -> None:
    """Rewrite inner.py (same size), stamped a minute later: mypy trusts a same-size file with an unchanged mtime."""
    rewrite_later(tmp_path / "inner.py", INNER.format(lo=lo))


def _findings(out: str) -> list[str]:
    return [line for line in out.splitlines() if "[OLT" in line or "INTERNAL ERROR" in line]


def _mypy(tmp_path: Path, args: list[str]) -> list[str]:
    proc = run_mypy(tmp_path, "--cache-dir", ".cache", *args)
    assert proc.returncode in (0, 1), proc.stdout + proc.stderr
    return _findings(proc.stdout)


def test_a_warm_cache_reports_the_same_and_sees_metadata_changes(tmp_path: Path) -> None:
    """second.py's ``box: Box`` is the annotation memo's entry made for main.py (same text, same
    resolution): the modules that entry read must make second.py's verdict follow inner.py too."""
    args = [*_project(tmp_path), "second.py"]
    (tmp_path / "second.py").write_text(SECOND)
    both = sorted([FINDING, SECOND_FINDING])
    _set_low_bound(tmp_path, 9)
    assert sorted(_mypy(tmp_path, args)) == both  # cold
    assert sorted(_mypy(tmp_path, args)) == both  # warm: replayed from the cache
    _set_low_bound(tmp_path, 0)
    assert _mypy(tmp_path, args) == []  # only the metadata changed, two imports away
    _set_low_bound(tmp_path, 9)
    assert sorted(_mypy(tmp_path, args)) == both


def test_the_daemon_reports_the_same_and_sees_metadata_changes(tmp_path: Path) -> None:
    args = _project(tmp_path)

    def daemon(*command: str) -> list[str]:
        proc = dmypy(tmp_path, *command)
        return _findings(proc.stdout + proc.stderr)

    try:
        _set_low_bound(tmp_path, 9)
        assert daemon("run", "--", *args) == [FINDING]
        _set_low_bound(tmp_path, 0)
        assert daemon("run", "--", *args) == []
        _set_low_bound(tmp_path, 9)
        assert daemon("run", "--", *args) == [FINDING]
        assert daemon("run", "--", *args) == [FINDING]
    finally:
        daemon("kill")
