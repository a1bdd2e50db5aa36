"""``onellm lsp`` under load and under the project's mypy configuration, with pygls's real client.

mypy runs in the server's check process, so the server answers while a check runs; a check
made stale by an edit never publishes; a buffer above the size limit says it is not checked;
and the findings follow the project's mypy configuration as ``onellm check`` reads it (the
same project is checked by ``onellm check`` as the referee). A slow check is a large
generated module: the tests assert the order of messages, never a wall-clock bound.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from buffers import PAGE, RANGE
from cli_support import run, write
from lsp_session import Session
from lsprotocol import types
from mypy_support import MYPY

# Each test starts a server whose check process analyses mypy's standard library from cold (tens of
# seconds on two cores): the slow group runs them (CI does), keeping the README's command short.
pytestmark = pytest.mark.slow

TOOL = '''

@tool
def tool_{i}(key: str, count: Annotated[int, Range({low}, {high})] = 1) -> str:
    """Tool number {i}.

    Args:
        key: The key.
    """
    return key
'''


def generated(tools: int, flipped: int) -> str:
    """A module of ``tools`` tools (slow to check), one with its Range bounds the wrong way round."""
    parts = ["from typing import Annotated\n\nfrom onellm_runtime import Range, tool\n"]
    for i in range(tools):
        low, high = (i + 2, 1) if i == flipped else (1, i + 2)
        parts.append(TOOL.format(i=i, low=low, high=high))
    return "".join(parts)


def flipped_message(i: int) -> str:
    return f"Tool 'tool_{i}': Parameter 'count': Range({i + 2}, 1) has its minimum above its maximum; swap the bounds"


def _published(s: Session, uri: str) -> list[tuple[int | None, list[str]]]:
    """Each publication for ``uri`` in the transcript: its version and its messages."""
    return [
        (p.version, [d.message for d in p.diagnostics])
        for kind, p in s.transcript
        if kind == "textDocument/publishDiagnostics" and p.uri == uri
    ]


def _index(s: Session, kind: str, match: Any) -> int:
    """The position in the transcript of the first message of ``kind`` that ``match`` accepts."""
    return next(i for i, (k, p) in enumerate(s.transcript) if k == kind and match(p))


def test_a_code_action_is_answered_while_a_slow_check_runs(tmp_path: Path) -> None:
    small, big = tmp_path / "small.py", tmp_path / "big.py"
    small.write_text(PAGE)
    big_text = generated(600, flipped=3)
    big.write_text(big_text)

    async def session() -> None:
        s = Session(0)
        await s.start(tmp_path)
        try:
            s.open(small, PAGE)
            [finding] = (await s.diagnostics(1)).diagnostics
            s.open(big, big_text)
            await s.log(f"onellm: checking {big.as_uri()} (version 1")
            [fix] = await s.code_actions(small, finding)  # sent once the big module's check has begun
            assert fix.title == "Swap the Range bounds"
            published = await s.diagnostics(1)
            assert published.uri == big.as_uri()
            assert [d.message for d in published.diagnostics] == [flipped_message(3)]
        finally:
            await s.stop()
        checking = _index(s, "window/logMessage", lambda p: p.message.startswith(f"onellm: checking {big.as_uri()}"))
        answered = _index(s, "codeAction result", lambda p: True)
        big_published = _index(s, "textDocument/publishDiagnostics", lambda p: p.uri == big.as_uri())
        assert checking < answered < big_published

    asyncio.run(session())


def test_a_check_made_stale_by_an_edit_never_publishes(tmp_path: Path) -> None:
    big = tmp_path / "big.py"
    first, second = generated(600, flipped=3), generated(600, flipped=7)
    big.write_text(first)

    async def session() -> None:
        s = Session(0)
        await s.start(tmp_path)
        try:
            s.open(big, first)
            await s.log(f"onellm: checking {big.as_uri()} (version 1")
            s.change(big, 2, second)
            published = await s.diagnostics(2)
            assert [d.message for d in published.diagnostics] == [flipped_message(7)]
            dropped = await s.log(f"onellm: a check of {big.as_uri()} (version 1) made stale by an edit")
            assert dropped.endswith("its findings were dropped")  # the process's first check: never stopped
        finally:
            await s.stop()
        assert _published(s, big.as_uri()) == [(2, [flipped_message(7)])]

    asyncio.run(session())


TOO_LARGE = (
    "This file is {size:,} bytes, above the 300 bytes onellm lsp checks: its tools are not checked here. "
    "Run onellm check on it, or raise the limit (initializationOptions maxDocumentBytes, "
    "or onellm lsp --max-document-bytes N)"
)


@pytest.mark.parametrize(
    ("extra", "options"),
    [
        pytest.param(["--max-document-bytes", "300"], {}, id="command line"),
        pytest.param([], {"maxDocumentBytes": 300}, id="initializationOptions"),
    ],
)
def test_a_buffer_above_the_size_limit_says_it_is_not_checked(
    tmp_path: Path, extra: list[str], options: dict[str, Any]
) -> None:
    app = tmp_path / "app.py"
    large = PAGE + "# padding\n" * 20
    app.write_text(large)

    async def session() -> None:
        s = Session(0, *extra, options=options)
        await s.start(tmp_path)
        try:
            s.open(app, large)
            opened = await s.diagnostics(1)
            assert opened.diagnostics == (
                types.Diagnostic(
                    range=types.Range(types.Position(0, 0), types.Position(1, 0)),
                    message=TOO_LARGE.format(size=len(large)),
                    severity=types.DiagnosticSeverity.Warning,
                    code="onellm-too-large",
                    source="onellm",
                ),
            )
            assert await s.code_actions(app, opened.diagnostics[0]) == []
            s.change(app, 2, PAGE)  # under the limit again: checked
            assert [d.message for d in (await s.diagnostics(2)).diagnostics] == [RANGE]
        finally:
            await s.stop()

    asyncio.run(session())


# -- the project's mypy configuration ---------------------------------------------------

ANY_AND_RANGE = """\
from typing import Annotated, Any
from onellm_runtime import Range, tool


@tool
def loose(q: Any) -> str:
    return ""


@tool
def ranged(q: Annotated[int, Range(5, 1)]) -> str:
    return ""
"""

PACKAGE = {"pkg/__init__.py": "", "pkg/a.py": ANY_AND_RANGE, "pkg/b.py": ANY_AND_RANGE}

INI = "[mypy]\ndisable_error_code = OLT013\n\n[mypy-pkg.b]\ndisable_error_code = OLT002\n"

# Each row: the configuration files, the server's initializationOptions, onellm check's arguments.
CONFIG_FORMS = {
    "pyproject.toml": (
        {
            "pyproject.toml": (
                '[tool.mypy]\ndisable_error_code = ["OLT013"]\n\n'
                '[[tool.mypy.overrides]]\nmodule = "pkg.b"\ndisable_error_code = ["OLT002"]\n'
            )
        },
        {},
        [],
    ),
    "mypy.ini": ({"mypy.ini": INI}, {}, []),
    "setup.cfg": ({"setup.cfg": "[metadata]\nname = x\n\n" + INI}, {}, []),
    "configFile": (
        {"config/checks.ini": INI, "mypy.ini": "[mypy]\n"},  # found by the search, but the option wins
        {"configFile": "config/checks.ini"},
        ["--config-file", "config/checks.ini"],
    ),
}

# What every form leaves (checked by hand): OLT013 off everywhere, OLT002 off in pkg.b.
LEFT = {("pkg/a.py", 6, "OLT002")}


async def _findings(root: Path, names: list[str], options: dict[str, Any]) -> tuple[set[tuple[str, int, str]], Session]:
    """Open ``names`` under ``root``; the findings the server publishes for them, as (path, line, code)."""
    s = Session(0, options=options)
    await s.start(root)
    found: set[tuple[str, int, str]] = set()
    try:
        for name in names:
            s.open(root / name, (root / name).read_text())
            published = await s.diagnostics(1)
            assert published.uri == (root / name).as_uri()
            found |= {(name, d.range.start.line + 1, str(d.code)) for d in published.diagnostics}
    finally:
        await s.stop()
    return found, s


def _check(root: Path, args: list[str]) -> set[tuple[str, int, str]]:
    done = run("check", "--format", "json", *args, ".", cwd=root)
    assert done.returncode in (0, 1), done.stderr
    return {(d["path"], d["line"], d["code"]) for d in json.loads(done.stdout)}


@pytest.mark.skipif(MYPY < (1, 19), reason="mypy before 1.19 refuses a plugin's codes in disable_error_code (README)")
@pytest.mark.parametrize("form", list(CONFIG_FORMS))
def test_the_findings_follow_disable_error_code_and_per_module_sections(tmp_path: Path, form: str) -> None:
    files, options, args = CONFIG_FORMS[form]
    (tmp_path / ".git").mkdir()  # the repository root: mypy's config search stops here
    write(tmp_path, {**PACKAGE, **files})
    found, _ = asyncio.run(_findings(tmp_path, ["pkg/a.py", "pkg/b.py"], options))
    assert found == LEFT
    assert found == _check(tmp_path, args)


def test_a_file_the_configuration_excludes_has_no_findings(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    write(
        tmp_path,
        {
            **PACKAGE,
            "pkg/generated.py": ANY_AND_RANGE,
            "pyproject.toml": '[tool.mypy]\nexclude = ["(^|/)generated\\\\.py$"]\n',
        },
    )
    found, s = asyncio.run(_findings(tmp_path, ["pkg/generated.py", "pkg/a.py"], {}))
    assert found == {("pkg/a.py", 6, "OLT002"), ("pkg/a.py", 11, "OLT013")}
    assert found == {f for f in _check(tmp_path, []) if f[0] in ("pkg/generated.py", "pkg/a.py")}
    told = [p.message for k, p in s.transcript if k == "window/logMessage" and "is not checked" in p.message]
    assert told == [
        f"onellm: {(tmp_path / 'pkg/generated.py').as_uri()} is not checked: "
        "it matches the configuration's exclude, as onellm check . would"
    ]


@pytest.mark.skipif(MYPY < (1, 19), reason="mypy before 1.19 refuses a plugin's codes in disable_error_code (README)")
def test_a_changed_configuration_applies_to_every_open_file(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    write(tmp_path, {**PACKAGE, "pyproject.toml": "[tool.mypy]\n"})
    a, b = tmp_path / "pkg/a.py", tmp_path / "pkg/b.py"

    async def session() -> None:
        s = Session(0)
        await s.start(tmp_path)
        try:
            for path in (a, b):
                s.open(path, ANY_AND_RANGE)
                assert [str(d.code) for d in (await s.diagnostics(1)).diagnostics] == ["OLT002", "OLT013"]
            (tmp_path / "pyproject.toml").write_text('[tool.mypy]\ndisable_error_code = ["OLT013"]\n')
            s.change(a, 2, ANY_AND_RANGE + "# edited\n")
            assert [str(d.code) for d in (await s.diagnostics(2)).diagnostics] == ["OLT002"]
            again = await s.diagnostics(1)  # b, not edited, checked again under the new configuration
            assert (again.uri, [str(d.code) for d in again.diagnostics]) == (b.as_uri(), ["OLT002"])
            assert await s.log("onellm: the mypy configuration changed") == (
                "onellm: the mypy configuration changed: checking the open files again"
            )
        finally:
            await s.stop()

    asyncio.run(session())


# Each row: a file below the working directory, the configuration's exclude, and why a walk of
# the working directory (onellm check .) would not reach the file (None: it would).
WALK: list[tuple[str, list[str], str | None]] = [
    ("pkg/a.py", [], None),
    ("pkg/generated.py", [r"(^|/)generated\.py$"], "it matches the configuration's exclude"),
    ("vendor/x/a.py", [r"^vendor/$"], "vendor/ matches the configuration's exclude"),
    ("pkg/.hidden/a.py", [], "it is under .hidden/, which mypy does not walk into"),
    ("node_modules/a.py", [], "it is under node_modules/, which mypy does not walk into"),
    ("build/lib/a.py", [], "it is under build/, which onellm check does not walk into"),
    ("env/lib/a.py", [], "it is under env/, which onellm check does not walk into"),  # env/ holds pyvenv.cfg
]


@pytest.mark.parametrize(("name", "exclude", "why"), WALK)
def test_a_file_is_skipped_where_the_walk_of_onellm_check_skips_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, exclude: list[str], why: str | None
) -> None:
    from mypy.options import Options

    from onellm_mypy.project import walk_skips

    write(tmp_path, {name: "", "env/pyvenv.cfg": ""})
    monkeypatch.chdir(tmp_path)
    options = Options()
    options.exclude = exclude
    assert walk_skips(str(tmp_path / name), options) == why
    assert walk_skips(str(tmp_path.parent / "elsewhere.py"), options) is None  # outside: never walked here


def test_onellm_check_reaches_exactly_the_files_walk_skips_lets_through(tmp_path: Path) -> None:
    """The referee for ``WALK``: ``onellm check .`` over all its files at once."""
    loose = "from typing import Any\nfrom onellm_runtime import tool\n\n\n@tool\ndef f(q: Any) -> str:\n    return ''\n"
    names = [name for name, _, _ in WALK]
    excludes = [pattern for _, patterns, _ in WALK for pattern in patterns]
    (tmp_path / ".git").mkdir()
    write(tmp_path, {**{str(n): loose for n in names}, "env/pyvenv.cfg": ""})
    write(tmp_path, {"mypy.ini": "[mypy]\nexclude = " + "|".join(f"({p})" for p in excludes) + "\n"})
    reached = {path for path, _, _ in _check(tmp_path, [])}
    assert reached == {name for name, _, why in WALK if why is None}


def _children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (Linux's /proc)."""
    found: list[int] = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="finds the check process through Linux's /proc")
def test_a_check_process_that_dies_is_replaced_and_the_text_checked_again(tmp_path: Path) -> None:
    import os
    import signal

    app = tmp_path / "app.py"
    app.write_text(PAGE)

    async def session() -> None:
        s = Session(0)
        await s.start(tmp_path)
        try:
            s.open(app, PAGE)
            assert [d.message for d in (await s.diagnostics(1)).diagnostics] == [RANGE]
            [server] = _children(os.getpid())
            [worker] = _children(server)
            os.kill(worker, signal.SIGKILL)  # as the kernel's out-of-memory killer would
            s.change(app, 2, PAGE.replace("Range(9, 5)", "Range(5, 9)"))
            assert (await s.diagnostics(2)).diagnostics == ()
            assert await s.log("onellm: the check process ended") == (
                f"onellm: the check process ended (exit code -9) checking {app.as_uri()} (version 2); "
                "checking it again in a new one"
            )
            [replaced] = _children(server)
            assert replaced != worker
        finally:
            await s.stop()

    asyncio.run(session())


def test_a_stale_check_longer_than_a_restart_is_stopped_with_its_process(tmp_path: Path) -> None:
    """The process's first check (a small file: the cold analysis) sets what starting over costs;
    a large file's check (several times that: 12,000 tools, about 2 MB, so the size cap is raised)
    made stale by an edit is stopped once it has run that long."""
    small, big = tmp_path / "small.py", tmp_path / "big.py"
    small.write_text(PAGE)
    first, second = generated(12_000, flipped=3), generated(12_000, flipped=7)
    big.write_text(first)

    async def session() -> None:
        s = Session(0, "--max-document-bytes", "4000000")
        await s.start(tmp_path)
        try:
            s.open(small, PAGE)
            await s.diagnostics(1)
            s.open(big, first)
            await s.log(f"onellm: checking {big.as_uri()} (version 1")
            s.change(big, 2, second)
            stopped = await s.log(f"onellm: a check of {big.as_uri()} (version 1) made stale by an edit")
            assert stopped.endswith("stopped, with its process")
            published = await s.diagnostics(2)
            assert [d.message for d in published.diagnostics] == [flipped_message(7)]
        finally:
            await s.stop()
        assert _published(s, big.as_uri()) == [(2, [flipped_message(7)])]

    asyncio.run(session())


def test_a_new_server_starts_from_the_warm_cache_the_first_one_wrote(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same findings either way; the log says which start each server had."""
    import time

    project, cache = tmp_path / "project", tmp_path / "cache"
    project.mkdir()
    app = project / "app.py"
    app.write_text(PAGE)

    async def session() -> tuple[list[str], str]:
        s = Session(0)
        await s.start(project)
        try:
            s.open(app, PAGE)
            found = [d.message for d in (await s.diagnostics(1)).diagnostics]
            started = await s.log("onellm: the check process ")
        finally:
            await s.stop()
        return found, started

    monkeypatch.setenv("ONELLM_LSP_CACHE_DIR", str(cache))
    found, started = asyncio.run(session())
    assert found == [RANGE]
    assert started.startswith("onellm: the check process analysed the standard library and onellm_runtime;")
    [directory] = [p for p in cache.iterdir() if p.is_dir()]
    deadline = time.monotonic() + 600
    while not (directory / "complete").exists():  # the writer works in the background
        assert time.monotonic() < deadline, "the warm cache was not written"
        time.sleep(0.5)
    found, started = asyncio.run(session())
    assert found == [RANGE]
    assert started == f"onellm: the check process started from the warm cache in {directory}"


def test_a_new_check_process_starts_once_closed_files_it_holds_pass_a_tenth_of_the_limit(tmp_path: Path) -> None:
    """mypy keeps every module it was given: closing a large file renews the process at the next check."""
    small, big = tmp_path / "small.py", tmp_path / "big.py"
    small.write_text(PAGE)
    big_text = generated(40, flipped=3)  # 6,361 bytes: above a tenth of a 40,000-byte limit
    big.write_text(big_text)

    async def session() -> None:
        s = Session(0, options={"maxDocumentBytes": 40_000})
        await s.start(tmp_path)
        try:
            s.open(big, big_text)
            assert [d.message for d in (await s.diagnostics(1)).diagnostics] == [flipped_message(3)]
            s.open(small, PAGE)
            assert [d.message for d in (await s.diagnostics(1)).diagnostics] == [RANGE]
            s.client.text_document_did_close(
                types.DidCloseTextDocumentParams(types.TextDocumentIdentifier(big.as_uri()))
            )
            s.change(small, 2, PAGE + "# edited\n")
            assert [d.message for d in (await s.diagnostics(2)).diagnostics] == [RANGE]
            assert await s.log("onellm: the check process still holds") == (
                f"onellm: the check process still holds {len(big_text):,} bytes of closed files: "
                "starting a new one (the open files are checked again)"
            )
        finally:
            await s.stop()

    asyncio.run(session())


def test_a_check_process_primed_in_the_root_checks_a_module_there_with_the_same_findings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``CheckWorker.prime``: with the warm cache written, the build is made before any request
    (an empty module checked in the root); the first module at the root then gets its findings,
    the cache's start is still reported, and the primer is neither written nor reported."""
    from onellm_mypy.checkworker import PRIMER, CheckWorker
    from onellm_mypy.live import live_options
    from onellm_mypy.project import project_options
    from onellm_mypy.warmcache import WarmCache

    project = tmp_path / "project"
    project.mkdir()
    monkeypatch.chdir(project)
    monkeypatch.setenv("ONELLM_LSP_CACHE_DIR", str(tmp_path / "cache"))
    app = project / "app.py"
    app.write_text(PAGE)
    cache = WarmCache.for_options(project_options())
    cache.write(live_options(project_options()))
    assert cache.ready

    worker = CheckWorker(None)
    worker.prime(str(project))
    assert worker.checker is not None  # built before the first request
    reply = worker.handle({"path": str(app), "version": 1, "text": PAGE})
    worker.reset()
    assert list(reply["found"]) == [str(app)]
    assert [row[5] for row in reply["found"][str(app)]["diagnostics"]] == [RANGE]
    assert reply["cache"] == {"directory": cache.directory, "was": "read"}
    assert not (project / PRIMER).exists()


def test_without_a_warm_cache_a_check_process_is_not_primed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No cache: nothing is built ahead (the first request's build analyses the standard library, as before)."""
    from onellm_mypy.checkworker import CheckWorker

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("ONELLM_LSP_CACHE_DIR", str(tmp_path / "cache"))
    worker = CheckWorker(None)
    worker.prime(str(tmp_path))
    assert worker.checker is None and worker.fingerprint is None
