"""``onellm lsp`` end to end: a real LSP client (pygls's) drives the server over stdio.

One session opens a document, edits it (the unsaved buffer, never written to disk), and
reads what the server publishes: codes, ranges, messages and links, exactly; then asks for
the quick fixes and applies them. The quick fixes and the docs anchors are also checked as
tables without a server.
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest
from buffers import ANY, BUFFER, RANGE, SAVED
from lsp_session import Session
from lsprotocol import types
from lsprotocol.converters import get_converter

from onellm_mypy.lsp import anchors
from onellm_mypy.lsp import quick_fixes as quick_fixes_json

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs" / "diagnostics.md"

OLT002 = DOCS.as_uri() + "#olt002-a-parameter-type-has-no-schema"
OLT013 = DOCS.as_uri() + "#olt013-an-annotation-does-not-fit-its-type"


def _range(a: int, b: int, c: int, d: int) -> types.Range:
    return types.Range(types.Position(a, b), types.Position(c, d))


def _diag(r: types.Range, code: str, message: str, href: str) -> types.Diagnostic:
    return types.Diagnostic(
        range=r,
        message=message,
        severity=types.DiagnosticSeverity.Error,
        code=code,
        code_description=types.CodeDescription(href),
        source="onellm",
    )


def _apply(text: str, edits: list[types.TextEdit]) -> str:
    """Apply LSP edits (positions in the original text), last first."""
    lines = text.splitlines(keepends=True)
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line))

    def at(p: types.Position) -> int:
        return offsets[p.line] + p.character

    for e in sorted(edits, key=lambda e: at(e.range.start), reverse=True):
        text = text[: at(e.range.start)] + e.new_text + text[at(e.range.end) :]
    return text


def test_a_session_open_change_diagnostics_and_quick_fixes(tmp_path: Path) -> None:
    app = tmp_path / "app.py"
    app.write_text(SAVED)

    async def session() -> None:
        s = Session(500)
        result = await s.start(tmp_path)
        assert result.capabilities.code_action_provider == types.CodeActionOptions(code_action_kinds=("quickfix",))
        try:
            s.open(app, SAVED)
            opened = await s.diagnostics(1)
            assert opened.diagnostics == (_diag(_range(6, 23, 6, 33), "OLT002", ANY, OLT002),)

            s.change(app, 2, BUFFER)  # unsaved: the finding moves with the buffer, a new one appears
            changed = await s.diagnostics(2)
            any_at, range_at = (
                _diag(_range(8, 23, 8, 33), "OLT002", ANY, OLT002),
                _diag(_range(13, 9, 13, 39), "OLT013", RANGE, OLT013),
            )
            assert changed.diagnostics == (any_at, range_at)

            fixes = await s.code_actions(app, any_at) + await s.code_actions(app, range_at)
            assert [(a.title, a.kind, a.is_preferred) for a in fixes] == [
                ("Use JsonValue (any JSON value) instead of Any", "quickfix", True),
                ("Swap the Range bounds", "quickfix", True),
            ]
            edits = [e for a in fixes for e in (a.edit.changes or {})[app.as_uri()] if a.edit is not None]
            fixed = _apply(BUFFER, list(edits))
            assert fixed == BUFFER.replace("value: Any", "value: JsonValue").replace(
                "import Range, tool", "import JsonValue, Range, tool"
            ).replace("Range(9, 5)", "Range(5, 9)")

            # Two edits in quick succession: the debounce checks only the last one.
            s.change(app, 3, BUFFER.replace("Range(9, 5)", "Range(8, 5)"))
            s.change(app, 4, fixed)
            after = await asyncio.wait_for(s.published.get(), 300)
            assert (after.version, after.diagnostics) == (4, ())

            s.client.text_document_did_close(
                types.DidCloseTextDocumentParams(types.TextDocumentIdentifier(app.as_uri()))
            )
            closed = await asyncio.wait_for(s.published.get(), 60)
            assert (closed.uri, closed.diagnostics) == (app.as_uri(), ())
        finally:
            await s.stop()
        assert app.read_text() == SAVED  # the server never writes the user's file

    asyncio.run(session())


URI = "file:///p/app.py"
CONVERTER = get_converter()


def quick_fixes(uri: str, text: str, diagnostics: list[types.Diagnostic]) -> list[types.CodeAction]:
    """The server's quick fixes (which take and give the LSP's JSON objects) in lsprotocol's types."""
    actions = quick_fixes_json(uri, text, [CONVERTER.unstructure(d) for d in diagnostics])
    return [CONVERTER.structure(a, types.CodeAction) for a in actions]


def _finding(line: int, start: int, end: int, code: str, message: str) -> types.Diagnostic:
    return types.Diagnostic(_range(line, start, line, end), message, code=code, source="onellm")


FIX_ROWS = [
    pytest.param(
        "from typing import Any\n\nfrom onellm_runtime import tool\n\n@tool\ndef f(v: Any) -> str: ...\n",
        _finding(5, 6, 12, "OLT002", ANY),
        "from typing import Any\n\nfrom onellm_runtime import JsonValue, tool\n\n@tool\ndef f(v: JsonValue) -> str: ...\n",
        id="Any: JsonValue added to the onellm_runtime import",
    ),
    pytest.param(
        "import typing\nimport onellm_runtime\n\n@onellm_runtime.tool\ndef f(v: typing.Any) -> str: ...\n",
        _finding(4, 6, 19, "OLT002", ANY),
        "import typing\nimport onellm_runtime\nfrom onellm_runtime import JsonValue\n\n@onellm_runtime.tool\n"
        "def f(v: JsonValue) -> str: ...\n",
        id="typing.Any: an import line added after the imports",
    ),
    pytest.param(
        "from onellm_runtime import JsonValue, tool\nfrom typing import Any\n\n@tool\ndef f(v: list[Any]) -> str: ...\n",
        _finding(4, 6, 18, "OLT002", ANY),
        "from onellm_runtime import JsonValue, tool\nfrom typing import Any\n\n@tool\ndef f(v: list[JsonValue]) -> str: ...\n",
        id="Any inside a list, JsonValue already imported",
    ),
    pytest.param(
        "from typing import Annotated\nfrom onellm_runtime import Range, tool\n\n@tool\n"
        "def f(n: Annotated[int, Range(10, 1)]) -> str: ...\n",
        _finding(
            4,
            6,
            37,
            "OLT013",
            "Tool 'f': Parameter 'n': Range(10, 1) has its minimum above its maximum; swap the bounds",
        ),
        "from typing import Annotated\nfrom onellm_runtime import Range, tool\n\n@tool\n"
        "def f(n: Annotated[int, Range(1, 10)]) -> str: ...\n",
        id="Range bounds swapped",
    ),
]


@pytest.mark.parametrize(("text", "finding", "expected"), FIX_ROWS)
def test_quick_fixes(text: str, finding: types.Diagnostic, expected: str) -> None:
    [action] = quick_fixes(URI, text, [finding])
    assert action.edit is not None and action.edit.changes is not None
    assert _apply(text, list(action.edit.changes[URI])) == expected


NO_FIX_ROWS = [
    pytest.param("def f(v: Any, w: Any) -> str: ...\n", _finding(0, 6, 20, "OLT002", ANY), id="two Any in the range"),
    pytest.param(
        "def f(v: object) -> str: ...\n",
        _finding(0, 6, 15, "OLT002", "Tool 'f': Parameter 'v': 'object' has no schema"),
        id="not Any",
    ),
    pytest.param("def f(v: Any) -> str:\n", _finding(0, 6, 12, "OLT002", ANY), id="the buffer does not parse"),
    pytest.param(
        "x: Any\n",
        types.Diagnostic(_range(0, 3, 0, 6), ANY, code="OLT002", source="mypy"),
        id="another source's finding",
    ),
]


@pytest.mark.parametrize(("text", "finding"), NO_FIX_ROWS)
def test_no_quick_fix_where_none_is_mechanical(text: str, finding: types.Diagnostic) -> None:
    assert quick_fixes(URI, text, [finding]) == []


def test_every_code_links_to_its_section_of_the_docs() -> None:
    markdown = DOCS.read_text()
    found = anchors(markdown)
    codes = [f"OLT{n:03d}" for n in range(1, 16)] + ["onellm-unchecked"]
    assert sorted(found) == sorted(codes)
    # The anchor is the heading as GitHub writes it: lower case, punctuation dropped, spaces as '-'.
    headings = {m.group(1): m.group(0) for m in re.finditer(r"^## (OLT\d{3}).*$", markdown, re.M)}
    assert found["OLT002"] == "olt002-a-parameter-type-has-no-schema"
    assert found["OLT008"] == "olt008-the-tool-name-is-not-164-letters-digits-_-or--"
    assert found["onellm-unchecked"] == "tools-the-plugin-could-not-check-onellm-unchecked"
    assert set(headings) == set(codes[:-1])


MODELS = """\
from dataclasses import dataclass
from typing import Annotated

from onellm_runtime import Range


@dataclass
class Box:
    size: Annotated[int, Range(1, 5)]
"""

PLACE = """\
from models import Box

from onellm_runtime import tool


@tool
def place(box: Box) -> str:
    return ""
"""

NEW = """\
from typing import Any
from onellm_runtime import tool
@tool
def f(x: Any) -> str:
    return ''
"""


def test_the_checker_follows_other_buffers_unsaved_files_and_skips_broken_text(tmp_path: Path) -> None:
    from onellm_mypy.live import LiveChecker, LiveDiagnostic

    app, models, new = tmp_path / "app.py", tmp_path / "models.py", tmp_path / "new.py"
    app.write_text(PLACE)
    models.write_text(MODELS)
    box = LiveDiagnostic(
        6,
        10,
        6,
        18,
        "OLT013",
        "Tool 'place': Parameter 'box' field 'size': Range(9, 5) has its minimum above its maximum; swap the bounds",
        "error",
    )
    any_x = LiveDiagnostic(
        3,
        6,
        3,
        12,
        "OLT002",
        "Tool 'f': Parameter 'x': 'Any' has no schema; use a concrete type, or JsonValue to accept any JSON value",
        "error",
    )
    checker = LiveChecker()
    try:
        assert checker.check(str(app), PLACE) == {str(app): []}
        # The record's buffer changes: the tool in the other buffer is reported, the file on disk is not read.
        assert checker.check(str(models), MODELS.replace("Range(1, 5)", "Range(9, 5)")) == {
            str(app): [box],
            str(models): [],
        }
        assert checker.check(str(app), PLACE + "\ndef broken(:\n") is None  # mid-edit: nothing to say
        # A file never saved is checked from its buffer too.
        assert checker.check(str(new), NEW) == {str(app): [box], str(models): [], str(new): [any_x]}
        assert not new.exists()
    finally:
        checker.close()
    assert models.read_text() == MODELS


@pytest.mark.slow  # a benchmark's smoke mode: the slow group
def test_the_latency_benchmark_runs(tmp_path: Path) -> None:
    """``benchmarks/lsp_latency.py`` in a tiny mode, so it never rots (no timing asserted)."""
    import subprocess
    import sys

    done = subprocess.run(
        [
            sys.executable,
            str(ROOT / "benchmarks" / "lsp_latency.py"),
            "--tools",
            "3",
            "--edits",
            "2",
            "--warmup",
            "1",
            "--debounce-ms",
            "0",
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "onellm lsp, a 3-tool file, debounce 0 ms, 2 edits after 1 warm-up"
    assert [line.split(":")[0].strip() for line in lines[1:]] == [
        "open (cold build)",
        "after the debounce, median",
        "after the debounce, p90/max",
        "findings in the last edit",
    ]
