"""``onellm serve-mcp`` as people deploy it, with the ``mcp`` package's own client, over stdio and HTTP.

Every server here is a real ``onellm serve-mcp --services ... tests/mcp_deploy_tools.py``
process: over stdio the client starts it; over streamable HTTP the test starts it with
``--http 0`` on 127.0.0.1, reads the port it announces, and stops it with SIGTERM (the
services' exit is checked in the file they write). Every run is bounded by ``BOUND``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import signal
import subprocess
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp_types import ElicitRequestParams, ElicitResult, ErrorData

ROOT = Path(__file__).parent.parent
TOOLS_FILE = Path(__file__).parent / "mcp_deploy_tools.py"
BOUND = 60.0
# Each HTTP case starts a server process of its own: those run in the slow group (CI runs it), the
# stdio ones in the README's command.
TRANSPORTS = ["stdio", pytest.param("http", marks=pytest.mark.slow)]


def _server_command(services: str) -> list[str]:
    return [sys.executable, "-m", "onellm_runtime", "serve-mcp", "--services", services, str(TOOLS_FILE)]


@contextlib.asynccontextmanager
async def _http_server(services: str, env: dict[str, str]) -> AsyncIterator[str]:
    """``serve-mcp --http 0`` in a subprocess; yields its URL; SIGTERM at the end, and its exit awaited."""
    command = _server_command(services)
    process = subprocess.Popen(
        [*command[:3], "serve-mcp", "--http", "0", *command[4:]],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stderr is not None
        line = await anyio.to_thread.run_sync(process.stderr.readline)
        found = re.fullmatch(r"onellm: serving MCP at (http://127\.0\.0\.1:\d+/mcp)\n", line)
        assert found is not None, line
        yield found.group(1)
    finally:
        process.send_signal(signal.SIGTERM)
        code = await anyio.to_thread.run_sync(lambda: process.wait(BOUND))
        assert code == 0, process.stderr.read() if process.stderr else code


@contextlib.asynccontextmanager
async def _client(transport: str, services: str, log: Path, **options: Any) -> AsyncIterator[Client]:
    env = {**os.environ, "ONELLM_TEST_SERVICES_LOG": str(log)}
    if transport == "stdio":
        params = StdioServerParameters(command=_server_command(services)[0], args=_server_command(services)[1:])
        params = StdioServerParameters(command=params.command, args=params.args, cwd=str(ROOT), env=env)
        async with Client(params, **options) as client:
            yield client
    else:
        async with _http_server(services, env) as url, Client(url, **options) as client:
            yield client


def _bounded(scenario: Callable[[], Awaitable[None]]) -> None:
    async def run() -> None:
        with anyio.fail_after(BOUND):
            await scenario()

    asyncio.run(run())


def _text(result: Any) -> tuple[bool, str]:
    blocks = result.model_dump(mode="json")["content"]
    return result.is_error, "".join(b.get("text", "") for b in blocks)


# -- services ---------------------------------------------------------------------------------

#: --services target -> what the services log holds once the server has exited, and their region.
SERVICES = [
    ("mcp_deploy_tools:make_deps", ["factory called"], "eu-factory"),
    ("mcp_deploy_tools:lifetime", ["async entered", "async exited"], "eu-async"),
    ("mcp_deploy_tools:SYNC_LIFETIME", ["sync entered", "sync exited"], "eu-sync"),
]


@pytest.mark.parametrize("transport", TRANSPORTS)
@pytest.mark.parametrize(("services", "logged", "made_for"), SERVICES)
def test_services_reach_a_typed_context(
    transport: str, services: str, logged: list[str], made_for: str, tmp_path: Path
) -> None:
    log = tmp_path / "services.log"

    async def scenario() -> None:
        async with _client(transport, services, log) as client:
            answers = [_text(await client.call_tool("region", {})) for _ in range(3)]
            assert answers == [(False, f"{made_for} #{n}") for n in (1, 2, 3)]  # one object, made once

    _bounded(scenario)
    for _ in range(100):  # the stdio client stops the server as it leaves; its exit lands a moment later
        if log.read_text().splitlines() == logged:
            break
        asyncio.run(asyncio.sleep(0.05))
    assert log.read_text().splitlines() == logged


# -- approval through elicitation -------------------------------------------------------------


@pytest.mark.parametrize("transport", TRANSPORTS)
@pytest.mark.parametrize("mode", ["auto", "legacy"])  # the question in the result (2026-07-28 on), or its own request
def test_an_elicitation_client_approves_then_declines_then_cancels(transport: str, mode: str, tmp_path: Path) -> None:
    questions: list[str] = []
    answers = iter(["accept", "decline", "cancel"])

    async def elicit(context: Any, params: ElicitRequestParams) -> ElicitResult | ErrorData:
        questions.append(params.message)
        return ElicitResult(action=next(answers))  # type: ignore[arg-type]

    async def scenario() -> None:
        async with _client(
            transport, "mcp_deploy_tools:make_deps", tmp_path / "log", elicitation_callback=elicit, mode=mode
        ) as client:
            assert _text(await client.call_tool("remove", {"path": "a.txt"})) == (False, "removed a.txt")
            assert _text(await client.call_tool("remove", {"path": "b.txt"})) == (
                True,
                "Tool 'remove' requires approval.",
            )
            assert _text(await client.call_tool("remove", {"path": "c.txt"})) == (
                True,
                "Tool 'remove' requires approval.",
            )
            # bad arguments are refused before anyone is asked
            assert _text(await client.call_tool("remove", {"path": 1})) == (
                True,
                "Argument 'path' must be a string, got integer 1.",
            )
            assert (await client.call_tool("removed", {})).structured_content == {"result": ["a.txt"]}

    _bounded(scenario)
    assert [q.split("\n")[0] for q in questions] == ["Allow the tool 'remove' to run with these arguments?"] * 3
    assert [json.loads(q.split("\n", 1)[1]) for q in questions] == [{"path": p} for p in ("a.txt", "b.txt", "c.txt")]


@pytest.mark.parametrize("transport", TRANSPORTS)
def test_a_client_without_elicitation_is_refused(transport: str, tmp_path: Path) -> None:
    async def scenario() -> None:
        async with _client(transport, "mcp_deploy_tools:make_deps", tmp_path / "log") as client:
            assert _text(await client.call_tool("remove", {"path": "a.txt"})) == (
                True,
                "Tool 'remove' requires approval.",
            )
            assert (await client.call_tool("removed", {})).structured_content == {"result": []}

    _bounded(scenario)


# -- background jobs and progress -------------------------------------------------------------


@pytest.mark.parametrize("transport", TRANSPORTS)
def test_a_background_job_is_started_read_and_stopped(transport: str, tmp_path: Path) -> None:
    async def scenario() -> None:
        async with _client(transport, "mcp_deploy_tools:make_deps", tmp_path / "log") as client:
            listed = [t.name for t in (await client.list_tools()).tools]
            assert listed == ["region", "remove", "removed", "build", "echo_arguments", "read_job", "stop_job"]

            started = await client.call_tool("build", {"target": "app", "invocationMode": "background"})
            assert _text(started) == (False, '{"job":"job-1","status":"running"}')
            for _ in range(100):
                read = _text(await client.call_tool("read_job", {"job": "job-1"}))
                if read != (False, '{"job":"job-1","status":"running"}'):
                    break
                await anyio.sleep(0.05)
            assert read == (False, "built app")
            assert _text(await client.call_tool("read_job", {"job": "job-1"})) == (
                True,
                'Unknown job "job-1". A finished job is forgotten once its result has been read, '
                "and an unread result expires.",
            )

            slow = {"target": "lib", "seconds": 50, "invocationMode": "background"}
            assert _text(await client.call_tool("build", slow)) == (False, '{"job":"job-2","status":"running"}')
            assert _text(await client.call_tool("stop_job", {"job": "job-2"})) == (
                False,
                '{"job":"job-2","status":"stopped"}',
            )
            assert _text(await client.call_tool("read_job", {"job": "job-2"})) == (True, "Tool 'build' was stopped.")

    _bounded(scenario)


@pytest.mark.parametrize("transport", TRANSPORTS)
def test_progress_arrives_in_order(transport: str, tmp_path: Path) -> None:
    progress: list[tuple[float, float | None, str | None]] = []

    async def on_progress(done: float, total: float | None, message: str | None) -> None:
        progress.append((done, total, message))

    async def scenario() -> None:
        async with _client(transport, "mcp_deploy_tools:make_deps", tmp_path / "log") as client:
            result = await client.call_tool("build", {"target": "app"}, progress_callback=on_progress)
            assert _text(result) == (False, "built app")

    _bounded(scenario)
    assert progress == [(1.0, 2.0, "compiling app"), (2.0, 2.0, "linking app")]


# -- the command line -------------------------------------------------------------------------

DUPLICATE = """\
from onellm_runtime import tool


@tool
def search(query: str) -> str:
    return query
"""


def test_a_name_in_two_modules_exits_1_naming_both(tmp_path: Path) -> None:
    (tmp_path / "first.py").write_text(DUPLICATE)
    (tmp_path / "second.py").write_text(DUPLICATE)
    done = subprocess.run(
        [sys.executable, "-m", "onellm_runtime", "serve-mcp", "first.py", "second.py"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=BOUND,
        stdin=subprocess.DEVNULL,
    )
    assert (done.returncode, done.stdout, done.stderr) == (
        1,
        "",
        "onellm: error: Tool 'search': 'second.search' has the same tool name as 'first.search' in one tool set; "
        "give one of them another name with @tool(name=...)  [OLT007]\n",
    )


JOB_NAME_TAKEN = """\
from onellm_runtime import tool


@tool(invocation_mode="model_choice")
def build(target: str) -> str:
    return target


@tool
def read_job(job: str) -> str:
    return job
"""


@pytest.mark.parametrize(
    ("argument", "message"),
    [
        ("nocolon", "--services takes MODULE:ATTR (a module, a colon, a name in it), not 'nocolon'"),
        ("tools:missing", "--services tools:missing: tools has no attribute 'missing'"),
    ],
)
def test_services_that_cannot_be_named_exit_2(argument: str, message: str, tmp_path: Path) -> None:
    (tmp_path / "tools.py").write_text(DUPLICATE)
    done = subprocess.run(
        [sys.executable, "-m", "onellm_runtime", "serve-mcp", "--services", argument, "tools.py"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=BOUND,
        stdin=subprocess.DEVNULL,
    )
    assert (done.returncode, done.stderr) == (2, f"onellm: error: {message}\n")


def test_a_job_tool_name_taken_by_the_set_exits_1(tmp_path: Path) -> None:
    (tmp_path / "tools.py").write_text(JOB_NAME_TAKEN)
    done = subprocess.run(
        [sys.executable, "-m", "onellm_runtime", "serve-mcp", "tools.py"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=BOUND,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 1
    assert done.stderr.startswith(
        "onellm: error: Tool 'read_job': 'onellm_runtime.invoking.jobs.job_tools.<locals>.read_job' has the same "
        "tool name as 'tools.read_job' in one tool set"
    ), done.stderr


# -- approve=: the callback replaces the question, its answer held to True or False ------------


def _raises(call: Any) -> bool:
    raise ValueError("approver bug")


async def _async_yes(call: Any) -> bool:
    return True


#: approver -> (the call's text, whether the tool ran).
APPROVERS: list[tuple[Callable[[Any], Any], tuple[bool, str], bool]] = [
    (lambda call: True, (False, "removed x.txt"), True),
    (_async_yes, (False, "removed x.txt"), True),
    (lambda call: False, (True, "Tool 'remove' requires approval."), False),
    (
        lambda call: "no",
        (True, "Tool 'remove' was not approved: the approver answered 'no', not True or False."),
        False,
    ),
    (lambda call: 1, (True, "Tool 'remove' was not approved: the approver answered 1, not True or False."), False),
    (
        lambda call: None,
        (True, "Tool 'remove' was not approved: the approver answered None, not True or False."),
        False,
    ),
    (_raises, (True, "Tool 'remove' was not approved: the approver raised ValueError: approver bug."), False),
]


@pytest.mark.parametrize(("approver", "answer", "ran"), APPROVERS)
def test_the_approve_callback_decides_each_call(approver: Any, answer: tuple[bool, str], ran: bool) -> None:
    import mcp_deploy_tools

    from onellm_runtime.mcp import server

    seen: list[tuple[str, object]] = []

    def approve(call: Any) -> Any:
        seen.append((call.name, call.arguments))
        return approver(call)

    async def scenario() -> None:
        mcp_deploy_tools.REMOVED.clear()
        tools = [mcp_deploy_tools.remove, mcp_deploy_tools.removed]
        async with Client(server(tools, approve=approve)) as client:
            assert _text(await client.call_tool("remove", {"path": "x.txt"})) == answer
            # the tool ran only when the answer was exactly True
            assert (await client.call_tool("removed", {})).structured_content == {"result": ["x.txt"] if ran else []}

    _bounded(scenario)
    assert seen == [("remove", {"path": "x.txt"})]


NEEDS_ARGUMENTS = (
    DUPLICATE
    + """

def make_db(url: str) -> object:
    return url
"""
)


def test_a_services_factory_that_needs_arguments_exits_1(tmp_path: Path) -> None:
    (tmp_path / "tools.py").write_text(NEEDS_ARGUMENTS)
    done = subprocess.run(
        [sys.executable, "-m", "onellm_runtime", "serve-mcp", "--services", "tools:make_db", "tools.py"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=BOUND,
        stdin=subprocess.DEVNULL,
    )
    assert (done.returncode, done.stderr) == (
        1,
        "onellm: error: services: a services factory is called with no arguments, and make_db needs some; "
        "give it defaults, or pass the object itself\n",
    )


def test_the_session_in_docs_mcp_is_a_real_run() -> None:
    """docs/mcp.md shows the output of examples/mcp_server.py (the real serve-mcp over stdio)."""
    shown = re.search(
        r"<!-- session: examples/mcp_server.py -->\n\n```text\n(.*?)\n```\n",
        (ROOT / "docs" / "mcp.md").read_text(),
        re.S,
    )
    assert shown is not None
    done = subprocess.run(
        [sys.executable, "examples/mcp_server.py"], cwd=ROOT, capture_output=True, text=True, timeout=BOUND, check=True
    )
    assert done.stdout.rstrip() == shown.group(1)
    assert done.stderr.splitlines() == ["reports opened", "reports closed"]


def test_sigterm_stops_a_stdio_server_and_its_services_exit(tmp_path: Path) -> None:
    log = tmp_path / "services.log"
    process = subprocess.Popen(
        _server_command("mcp_deploy_tools:lifetime"),
        cwd=ROOT,
        env={**os.environ, "ONELLM_TEST_SERVICES_LOG": str(log)},
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        for _ in range(int(BOUND / 0.05)):  # the services are entered once the server has started
            if log.exists() and log.read_text():
                break
            asyncio.run(asyncio.sleep(0.05))
        process.send_signal(signal.SIGTERM)
        assert process.wait(BOUND) == 0
    finally:
        process.kill()
    assert log.read_text().splitlines() == ["async entered", "async exited"]


@pytest.mark.parametrize("transport", TRANSPORTS)
def test_an_approval_counts_only_for_the_arguments_asked_about(transport: str, tmp_path: Path) -> None:
    """Protocol 2026-07-28 on: the answer rides on the retried call, bound to the question's tool and arguments."""
    from mcp_types import CallToolResult, InputRequiredResult

    accept = {"onellm/approval": ElicitResult(action="accept")}

    async def elicit(context: Any, params: ElicitRequestParams) -> ElicitResult | ErrorData:
        return ElicitResult(action="decline")  # never reached: the test answers the questions itself

    async def scenario() -> None:
        async with _client(
            transport, "mcp_deploy_tools:make_deps", tmp_path / "log", elicitation_callback=elicit
        ) as client:
            session = client.session
            asked = await session.call_tool("remove", {"path": "a.txt"}, allow_input_required=True)
            assert isinstance(asked, InputRequiredResult) and asked.request_state is not None
            assert list(asked.input_requests or {}) == ["onellm/approval"]
            # the answer to "a.txt" sent with other arguments: asked again, nothing runs
            swapped = await session.call_tool(
                "remove",
                {"path": "b.txt"},
                input_responses=accept,  # type: ignore[arg-type]
                request_state=asked.request_state,
                allow_input_required=True,
            )
            assert isinstance(swapped, InputRequiredResult) and swapped.request_state != asked.request_state
            assert (await client.call_tool("removed", {})).structured_content == {"result": []}
            # the answer with the arguments it was asked about: the call runs
            answered = await session.call_tool(
                "remove",
                {"path": "a.txt"},
                input_responses=accept,  # type: ignore[arg-type]
                request_state=asked.request_state,
                allow_input_required=True,
            )
            assert isinstance(answered, CallToolResult) and _text(answered) == (False, "removed a.txt")

    _bounded(scenario)
