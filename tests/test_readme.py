"""The README's quick start is a script a reader can paste into a file and run: it runs in a
fresh interpreter (top-level ``await`` would be a ``SyntaxError`` there) and prints what its
comments say."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"


def _quick_start() -> str:
    text = README.read_text(encoding="utf-8")
    section = text.split("## Quick start", 1)[1]
    return section.split("```python\n", 1)[1].split("\n```", 1)[0] + "\n"


def test_the_quick_start_runs_as_a_file_and_prints_what_its_comments_say(tmp_path: Path) -> None:
    script = tmp_path / "quick_start.py"
    script.write_text(_quick_start(), encoding="utf-8")
    proc = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0].startswith("{'type': 'object', 'properties': {'project': ")
    assert lines[1:] == [
        "onellm: 2026-11-01..2026-11-30 (summary, 10 pages)",
        "True Argument 'span.end' is required.",
        """Argument 'detail' must be one of: summary, full; got "Full" (did you mean "full"?).""",
        "Argument 'max_pages' must be between 1 and 50, got 80.",
    ]
