"""Contract, "Tool sets" (static) and "Diagnostics" (OLT007): the plugin's findings through the
commands and the editor, each held to what the runtime raises on the same code.

- ``onellm check`` on a project of two modules: a module's two module-level tools with one name
  (OLT007 at the second ``def``) and a ``ToolSet(...)`` call repeating a name (OLT007 at the
  argument), exit 1, each at its line and column; importing the call's module raises the same text.
- ``onellm schemas --runtime`` and ``--static`` on a module with a repeated name: same code, same
  message, same exit status, no manifest; on the same module with the names made distinct, the
  same bytes.
- The language server's checker (``onellm_mypy.live``, what ``onellm lsp`` publishes) reports both
  findings in an unsaved buffer, and drops them when the buffer renames the tool.
- mypy with its cache and the daemon re-check the ``ToolSet(...)`` call when the other module
  renames a tool.
- docs/diagnostics.md's OLT007 forms (one module, one tool set) print the page's transcripts.
"""

from __future__ import annotations

import asyncio
import re
import subprocess
import sys
from pathlib import Path

import pytest
from cli_support import run, write
from mypy_support import dmypy, rewrite_later, run_mypy, write_plugin_ini

TICKETS = """\
from onellm_runtime import tool


@tool
def search_tickets(query: str) -> str:
    return query


@tool(name="search_tickets")
def find_tickets(query: str) -> str:
    return query


@tool
def close_ticket(ticket: str) -> str:
    return ticket


class Tracker:
    @tool(name="close_ticket")
    def close(self, ticket: str) -> str:
        return ticket
"""

APP = """\
from onellm_runtime import ToolSet, tools_of

from tickets import Tracker, close_ticket, search_tickets

tracker = Tracker()
TOOLS = ToolSet(search_tickets, close_ticket, *tools_of(tracker))
"""

#: tickets.py with its module's names made distinct, so only the set repeats one.
TICKETS_SET_ONLY = TICKETS.replace('"search_tickets")', '"find")')

MODULE_TWICE = (
    "Tool 'search_tickets': 'tickets.find_tickets' has the same tool name as 'tickets.search_tickets' "
    "in module 'tickets'; give one of them another name with @tool(name=...)"
)
SET_TWICE = (
    "Tool 'close_ticket': 'tickets.Tracker.close' has the same tool name as 'tickets.close_ticket' "
    "in one tool set; give one of them another name with @tool(name=...)"
)


def test_onellm_check_reports_both_forms_at_their_line_and_column(tmp_path: Path) -> None:
    write(tmp_path, {"tickets.py": TICKETS, "app.py": APP})
    proc = run("check", "tickets.py", "app.py", cwd=tmp_path)
    assert proc.returncode == 1, proc.stderr
    assert proc.stdout.splitlines() == [
        f"app.py:6:48: error: {SET_TWICE}  [OLT007]",
        f"tickets.py:10:1: error: {MODULE_TWICE}  [OLT007]",
    ]
    assert proc.stderr == "Found 2 problems in 2 modules\n"
    # The runtime raises the set's finding, in the same words, when the module is imported.
    imported = subprocess.run(
        [sys.executable, "-c", "import app"], cwd=tmp_path, capture_output=True, text=True, timeout=300
    )
    assert imported.returncode == 1
    assert imported.stderr.splitlines()[-1] == f"onellm_runtime.tool.ToolDefinitionError: {SET_TWICE}  [OLT007]"


def test_schemas_runtime_and_static_agree_on_a_module_with_a_repeated_name(tmp_path: Path) -> None:
    write(tmp_path, {"tickets.py": TICKETS})
    runtime = run("schemas", "--runtime", "tickets.py", cwd=tmp_path)
    static = run("schemas", "--static", "tickets.py", cwd=tmp_path)
    assert (runtime.returncode, runtime.stdout) == (static.returncode, static.stdout) == (1, "")
    assert runtime.stderr == f"onellm: a tool could not be built:\n{MODULE_TWICE}  [OLT007]\n"
    assert static.stderr == f"tickets.py:10:1: error: {MODULE_TWICE}  [OLT007]\n"


def test_schemas_runtime_and_static_agree_once_the_names_are_distinct(tmp_path: Path) -> None:
    write(tmp_path, {"tickets.py": TICKETS_SET_ONLY})
    runtime = run("schemas", "--runtime", "tickets.py", cwd=tmp_path)
    static = run("schemas", "--static", "tickets.py", cwd=tmp_path)
    assert (runtime.returncode, runtime.stderr) == (static.returncode, static.stderr) == (0, "")
    assert runtime.stdout == static.stdout
    assert '"name": "find"' in runtime.stdout and runtime.stdout.count('"name": "close_ticket"') == 2


NOT_MODULE_LEVEL = """\
from onellm_runtime import Tool, tool


@tool
def lookup(query: str) -> str:
    return query


if True:

    @tool(name="lookup")
    def find(query: str) -> str:
        return query


def raw(query: str) -> str:
    return query


held = Tool.create(raw, name="lookup")


class Index:
    @tool(name="lookup")
    def search(self, query: str) -> str:
        return query
"""


def test_schemas_runtime_and_static_agree_on_what_is_not_a_module_level_tool(tmp_path: Path) -> None:
    """A ``def`` under ``if``, a ``Tool.create`` result and a method share ``lookup``'s name, yet are
    not the module's top-level ``@tool`` functions: both sides list all four, neither refuses."""
    write(tmp_path, {"lookups.py": NOT_MODULE_LEVEL})
    runtime = run("schemas", "--runtime", "lookups.py", cwd=tmp_path)
    static = run("schemas", "--static", "lookups.py", cwd=tmp_path)
    assert (runtime.returncode, runtime.stderr) == (static.returncode, static.stderr) == (0, "")
    assert runtime.stdout == static.stdout
    assert runtime.stdout.count('"name": "lookup"') == 4


def test_schemas_runtime_and_static_agree_on_a_tool_set_that_repeats_a_name(tmp_path: Path) -> None:
    write(tmp_path, {"tickets.py": TICKETS_SET_ONLY, "app.py": APP})
    runtime = run("schemas", "--runtime", "app.py", cwd=tmp_path)
    static = run("schemas", "--static", "app.py", cwd=tmp_path)
    assert (runtime.returncode, runtime.stdout) == (static.returncode, static.stdout) == (1, "")
    assert runtime.stderr == f"onellm: a tool could not be built:\n{SET_TWICE}  [OLT007]\n"
    assert static.stderr == f"app.py:6:48: error: {SET_TWICE}  [OLT007]\n"


def test_the_language_servers_checker_reports_both_forms_in_a_buffer(tmp_path: Path) -> None:
    from onellm_mypy.live import LiveChecker, LiveDiagnostic

    tickets, app = tmp_path / "tickets.py", tmp_path / "app.py"
    tickets.write_text(TICKETS_SET_ONLY)
    app.write_text(APP)
    module_twice = LiveDiagnostic(9, 0, 9, -1, "OLT007", MODULE_TWICE, "error")  # a def: its line
    set_twice = LiveDiagnostic(5, 47, 5, 64, "OLT007", SET_TWICE, "error")
    checker = LiveChecker()
    try:
        assert checker.check(str(app), APP) == {str(app): [set_twice]}
        # The unsaved buffer of tickets.py repeats a name at module level and renames the method.
        edited = TICKETS.replace('@tool(name="close_ticket")', '@tool(name="shut")')
        assert checker.check(str(tickets), edited) == {str(app): [], str(tickets): [module_twice]}
    finally:
        checker.close()


@pytest.mark.slow  # a language server and its check process started cold
def test_onellm_lsp_publishes_the_finding_with_its_docs_link(tmp_path: Path) -> None:
    """A real session (pygls's client over stdio): the set's finding in the opened buffer, at the
    argument, linked to OLT007's section; gone once the buffer leaves the repeated tool out."""
    from lsp_session import Session
    from lsprotocol import types

    tickets, app = tmp_path / "tickets.py", tmp_path / "app.py"
    tickets.write_text(TICKETS_SET_ONLY)
    app.write_text(APP)
    docs = Path(__file__).resolve().parent.parent / "docs" / "diagnostics.md"
    anchor = "#olt007-two-tools-in-one-class-one-module-or-one-tool-set-have-the-same-name"
    expected = types.Diagnostic(
        range=types.Range(types.Position(5, 47), types.Position(5, 64)),
        message=SET_TWICE,
        severity=types.DiagnosticSeverity.Error,
        code="OLT007",
        code_description=types.CodeDescription(docs.as_uri() + anchor),
        source="onellm",
    )

    async def session() -> None:
        s = Session(100)
        await s.start(tmp_path)
        try:
            s.open(app, APP)
            assert (await s.diagnostics(1)).diagnostics == (expected,)
            s.change(app, 2, APP.replace(", *tools_of(tracker)", ""))
            assert (await s.diagnostics(2)).diagnostics == ()
        finally:
            await s.stop()

    asyncio.run(session())


def _rename_the_method(tmp_path: Path, name: str) -> None:
    """tickets.py with ``Tracker.close`` named ``name`` (stamped later: mypy trusts an unchanged mtime)."""
    rewrite_later(
        tmp_path / "tickets.py", TICKETS_SET_ONLY.replace('@tool(name="close_ticket")', f'@tool(name="{name}")')
    )


@pytest.mark.slow  # mypy twice with its cache, then the daemon through three edits
def test_mypy_with_its_cache_and_the_daemon_follow_a_rename_in_the_other_module(tmp_path: Path) -> None:
    """app.py's finding depends on a name written in tickets.py's ``@tool(...)``, which no analysed
    type holds: renaming the method there must re-check app.py, warm or under the daemon."""
    (tmp_path / "app.py").write_text(APP)
    write_plugin_ini(tmp_path)
    args = ["--config-file", "mypy.ini", "app.py", "tickets.py"]
    finding = f"app.py:6:48: error: {SET_TWICE}  [OLT007]"

    def findings(proc: subprocess.CompletedProcess[str]) -> list[str]:
        return [line for line in (proc.stdout + proc.stderr).splitlines() if "[OLT" in line or "INTERNAL" in line]

    def cached() -> list[str]:
        return findings(run_mypy(tmp_path, "--cache-dir", ".cache", *args))

    def daemon(*command: str) -> list[str]:
        return findings(dmypy(tmp_path, *command))

    _rename_the_method(tmp_path, "close_ticket")
    assert cached() == [finding]
    assert cached() == [finding]  # replayed from the cache
    _rename_the_method(tmp_path, "shut")
    assert cached() == []
    _rename_the_method(tmp_path, "close_ticket")
    assert cached() == [finding]

    try:
        assert daemon("run", "--", *args) == [finding]
        _rename_the_method(tmp_path, "shut")
        assert daemon("run", "--", *args) == []
        _rename_the_method(tmp_path, "close_ticket")
        assert daemon("run", "--", *args) == [finding]
    finally:
        daemon("kill")


# --- docs/diagnostics.md: OLT007's module and tool-set forms print what the page shows ---------

DOC = Path(__file__).resolve().parent.parent / "docs" / "diagnostics.md"


def _olt007_transcripts() -> list[tuple[str, dict[str, str], str]]:
    """(subsection, its files by the name on their first line, its shell transcript) for each
    '###' subsection of the OLT007 section."""
    section = DOC.read_text(encoding="utf-8").split("\n## OLT007:")[1].split("\n## ")[0]
    found = []
    for sub in section.split("\n### ")[1:]:
        files = {
            m.group(1): m.group(0).removeprefix("```python\n")
            for m in re.finditer(r"```python\n# (\S+\.py)\n.*?(?=```)", sub, re.S)
        }
        [transcript] = re.findall(r"```text\n(\$ .*?)```", sub, re.S)
        found.append((sub.splitlines()[0], files, transcript))
    return found


@pytest.mark.parametrize(("title", "files", "transcript"), _olt007_transcripts())
def test_the_olt007_forms_on_the_page_print_what_it_shows(
    tmp_path: Path, title: str, files: dict[str, str], transcript: str
) -> None:
    assert files and title.startswith("In one ")
    write(tmp_path, dict(files))
    commands = re.split(r"^\$ onellm (.*)\n", transcript, flags=re.M)[1:]
    assert len(commands) == 4  # onellm check, then onellm schemas --runtime
    for command, shown in zip(commands[::2], commands[1::2], strict=True):
        proc = run(*command.split(), cwd=tmp_path)
        assert proc.stdout + proc.stderr == shown, command
        assert proc.returncode == 1


@pytest.mark.slow  # a cold mypy run in this process, typeshed included (about 15 s)
def test_a_tool_set_the_plugin_fails_to_read_is_a_note_never_silence(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """docs/diagnostics.md, "Tools the plugin could not check": the ToolSet(...) call says so."""
    from mypy import api

    import onellm_mypy.toolsets
    from onellm_mypy.mypy_front import CannotLower

    def fails(*args: object) -> object:
        raise CannotLower("the source text of module tickets could not be read")

    monkeypatch.setattr(onellm_mypy.toolsets, "tool_set_findings", fails)
    monkeypatch.delenv("ONELLM_MYPY_DEBUG", raising=False)
    write(tmp_path, {"tickets.py": TICKETS_SET_ONLY, "app.py": APP})
    write_plugin_ini(tmp_path)
    monkeypatch.chdir(tmp_path)
    out, _, _ = api.run(["--config-file", "mypy.ini", "--no-incremental", "app.py"])
    assert out.splitlines()[0] == (
        "app.py:6:9: note: ToolSet(...) was not checked (the source text of module tickets could not be read); "
        "OLT007 was skipped for it"
    )
