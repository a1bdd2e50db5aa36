"""Running the ``onellm`` command as a user does, for the ``tests/test_cli*.py`` files."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: The console script pip installed beside this interpreter (what a user types).
CONSOLE_SCRIPT = Path(sys.executable).parent / "onellm"


def run(
    *args: str, cwd: Path, script: bool = False, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """``onellm ARGS`` in ``cwd``: through the console script, or ``python -m onellm_runtime``."""
    command = [str(CONSOLE_SCRIPT)] if script else [sys.executable, "-m", "onellm_runtime"]
    return subprocess.run(
        [*command, *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=900,
        env={**os.environ, **(env or {})},
    )


def write(root: Path, files: dict[str, str | bytes]) -> None:
    """Create ``files`` (relative path -> text or bytes) below ``root``."""
    for name, content in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content)
