"""docs/testing.md's example, run as a user runs it: its two files written from the doc's code
blocks, the lock written by ``onellm lock``, pytest run on the test file (it passes), then the
tool changed as the doc says (it fails with the doc's message)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from cli_support import ROOT, run

DOC = (ROOT / "docs" / "testing.md").read_text(encoding="utf-8")


def _files() -> dict[str, str]:
    """The doc's python blocks whose first line names a file (``# myapp/tools.py``)."""
    found: dict[str, str] = {}
    for block in re.findall(r"```python\n(.*?)```", DOC, re.S):
        first = block.splitlines()[0]
        if first.startswith("# ") and first.endswith(".py"):
            found[first[2:]] = block
    return found


def _pytest(project: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist", "tests"],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=600,
    )


def test_the_example_passes_then_fails_with_the_docs_message(tmp_path: Path) -> None:
    files = _files()
    assert sorted(files) == ["myapp/tools.py", "tests/test_tools_contract.py"]
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    (tmp_path / "myapp" / "__init__.py").write_text("", encoding="utf-8")
    assert run("lock", "myapp", cwd=tmp_path).returncode == 0
    passed = _pytest(tmp_path)
    assert passed.returncode == 0, passed.stdout
    assert "2 passed" in passed.stdout

    tools = tmp_path / "myapp" / "tools.py"
    text = tools.read_text(encoding="utf-8")
    text = text.replace('Literal["open", "closed"]', 'Literal["open"]').replace(
        '"""Search the tickets."""', '"""Search the open tickets."""'
    )
    tools.write_text(text, encoding="utf-8")
    failed = _pytest(tmp_path)
    assert failed.returncode == 1
    shown = DOC.split("```\nAssertionError: ", 1)[1].split("```", 1)[0].splitlines()
    got = [line.removeprefix("E").strip() for line in failed.stdout.splitlines() if line.startswith("E ")]
    assert "AssertionError: " + shown[0] in got
    assert [line.strip() for line in shown[1:]] == got[got.index("AssertionError: " + shown[0]) + 1 :][: len(shown) - 1]


def test_the_cases_shown_are_the_tools_cases(tmp_path: Path) -> None:
    sys.path.insert(0, str(tmp_path))
    try:
        (tmp_path / "myapp").mkdir()
        (tmp_path / "myapp" / "__init__.py").write_text("", encoding="utf-8")
        (tmp_path / "myapp" / "tools.py").write_text(_files()["myapp/tools.py"], encoding="utf-8")
        sys.modules.pop("myapp", None)
        sys.modules.pop("myapp.tools", None)
        from myapp.tools import TOOLS  # type: ignore[import-not-found]

        from onellm_runtime.testing import refusal_cases

        shown = DOC.split("For the `search` tool above:\n\n```\n", 1)[1].split("```", 1)[0]
        assert "".join(f"{case}\n" for case in refusal_cases(TOOLS["search"])) == shown
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("myapp", None)
        sys.modules.pop("myapp.tools", None)
