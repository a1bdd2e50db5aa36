"""The live output blocks of ``docs/providers.md`` and its evidence appendix
``docs/providers-evidence.md`` (``DOCS``): each ``<!-- output: EXPR -->`` marker is
followed by a JSON block of ``EXPR``'s value, each ``<!-- command: ARGS -->`` by the output of
``onellm schemas ARGS``. ``render`` fills the blocks (run by hand after a deliberate change:
``python tests/provider_docs.py`` rewrites both files); the docs test checks that every block is
what it says."""

from __future__ import annotations

import contextlib
import io
import json
import re
import shlex
import sys
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "providers.md"
EVIDENCE = ROOT / "docs" / "providers-evidence.md"
#: The files whose markers are live output: the user's tables, and the evidence they link to.
DOCS = (DOC, EVIDENCE)
MARKER = re.compile(r"<!-- (output|command): (.*?) -->\n(?:\n```json\n.*?\n```\n)?", re.S)


def evaluate(kind: str, text: str) -> str:
    if kind == "command":
        from onellm_runtime.cli.main import main

        out = io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.chdir(ROOT) if hasattr(contextlib, "chdir") else _cwd(ROOT):
            assert main(["schemas", *shlex.split(text)]) == 0
        return out.getvalue().rstrip("\n")
    import provider_tools as T

    from onellm_runtime.providers import anthropic_tool, gemini_tool, mcp_tool, openai_tool

    namespace = {
        "T": T,
        "openai_tool": openai_tool,
        "anthropic_tool": anthropic_tool,
        "gemini_tool": gemini_tool,
        "mcp_tool": mcp_tool,
    }
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        value = eval(text, namespace)
    return json.dumps(value, indent=2, ensure_ascii=False)


@contextlib.contextmanager
def _cwd(path: Path):  # type: ignore[no-untyped-def]
    import os

    old = os.getcwd()
    os.chdir(path)
    try:
        yield
    finally:
        os.chdir(old)


def blocks(doc: str) -> list[tuple[str, str, str | None]]:
    """(kind, expression, the JSON block written after it or None)."""
    found = []
    for m in re.finditer(r"<!-- (output|command): (.*?) -->\n(?:\n```json\n(.*?)\n```\n)?", doc, re.S):
        found.append((m.group(1), m.group(2), m.group(3)))
    return found


def render(doc: str) -> str:
    return MARKER.sub(
        lambda m: f"<!-- {m.group(1)}: {m.group(2)} -->\n\n```json\n{evaluate(m.group(1), m.group(2))}\n```\n", doc
    )


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT / "tests"))
    for path in DOCS:
        path.write_text(render(path.read_text()))
