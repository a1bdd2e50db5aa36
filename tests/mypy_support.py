"""Running mypy and its daemon as a user does, in a temporary project whose mypy.ini names the plugin."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import mypy.version

ROOT = Path(__file__).resolve().parent.parent

#: The mypy under test, as (major, minor): some rows say what an older mypy does.
MYPY = tuple(int(n) for n in mypy.version.__version__.split(".")[:2])

#: The configuration a project that uses the plugin writes (mypy_path: this checkout, not an install).
PLUGIN_INI = f"[mypy]\nplugins = onellm_mypy\nmypy_path = {ROOT}\nshow_column_numbers = True\n"


def write_plugin_ini(root: Path, extra: str = "") -> None:
    """``root/mypy.ini``: ``PLUGIN_INI``, then ``extra`` (more options, or further sections)."""
    (root / "mypy.ini").write_text(PLUGIN_INI + extra)


def run_mypy(cwd: Path, *args: str, module: str = "mypy") -> subprocess.CompletedProcess[str]:
    """``python -m mypy ARGS`` in ``cwd`` (``module="mypy.dmypy"`` for the daemon's client)."""
    return subprocess.run([sys.executable, "-m", module, *args], cwd=cwd, capture_output=True, text=True, timeout=600)


def dmypy(cwd: Path, *command: str) -> subprocess.CompletedProcess[str]:
    """``dmypy COMMAND`` in ``cwd``, its status file ``cwd/dmypy.json`` (so each test has its own daemon)."""
    return run_mypy(cwd, "--status-file", str(cwd / "dmypy.json"), *command, module="mypy.dmypy")


def rewrite_later(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` stamped a minute after its last version: mypy trusts a file
    whose size and modification time are unchanged, and an edit can keep the size."""
    stamp = path.stat().st_mtime + 60 if path.exists() else None
    path.write_text(text)
    if stamp is not None:
        os.utime(path, (stamp, stamp))
