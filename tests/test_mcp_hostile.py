"""The MCP server under hostile input: every request answered, the binder's guarantees kept, HTTP bounded.

Raw frames go to the real server process (``onellm serve-mcp tests/mcp_tools.py``): over
stdio as lines on its standard input, over HTTP as POST bodies to 127.0.0.1. The HTTP
connection bounds are tested against a server whose open-file limit is lowered in the
subprocess (``resource.setrlimit``), so a few hundred connections stand for the thousand
that exhaust a default limit. Every wait is bounded by ``BOUND``.
"""

from __future__ import annotations

import asyncio
import http.client
import json
import os
import re
import select
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client

from onellm_runtime.mcp._frames import RAW_KEY, Frame, Refusal, read_frame

ROOT = Path(__file__).parent.parent
TOOLS_FILE = Path(__file__).parent / "mcp_tools.py"
BOUND = 60.0

INITIALIZE = {
    "jsonrpc": "2.0",
    "id": "init",
    "method": "initialize",
    "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw", "version": "0"}},
}
INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}


def _call(request_id: int, arguments: str) -> str:
    return (
        f'{{"jsonrpc":"2.0","id":{request_id},"method":"tools/call","params":{{"name":"add","arguments":{arguments}}}}}'
    )


DEEP = "[" * 100_000 + "]" * 100_000

#: raw frame -> the answer (id, the tool result's text or the JSON-RPC error).
FRAMES: list[tuple[str, int | str | None, str]] = [
    (_call(1, '{"a":' + "[" * 200 + "]" * 200 + ',"b":1}'), 1, "Argument 'a' must be an integer, got array."),
    (_call(2, '{"a":' + DEEP + ',"b":1}'), 2, "-32600 Invalid Request: 'params.arguments' is nested too deeply to read."),
    (_call(3, '{"a":' + "9" * 4301 + ',"b":1}'), 3, "Argument 'a' has more than 4300 digits, more than an integer may have."),
    (_call(4, '{"a":1,"a":2,"b":1}'), 4, "Argument 'a' is given more than once."),
    (_call(5, '{"a":1,"b":{"x":1,"x":2}}'), 5, "Argument 'b' must be an integer, got object."),
    (_call(6, '{ "a" : 1 , "b" : 2 }'), 6, "3"),
    # the envelope: repeated members, a frame the SDK cannot read, no JSON, a batch
    ('{"jsonrpc":"2.0","id":7,"id":8,"method":"tools/list"}', None, "-32600 Invalid Request: member 'id' is given more than once."),
    ('{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"add","name":"x","arguments":{}}}', 9, "-32600 Invalid Request: params member 'name' is given more than once."),
    ('{"jsonrpc":"2.0","id":10,"method":"tools/list","params":{"_meta":' + DEEP + "}}", 10, "-32600 Invalid Request: 'params._meta' is nested too deeply to read."),
    ('{"jsonrpc":"2.0","id":13,"method":"tools/list","params":{"_meta":' + "[" * 300 + "]" * 300 + "}}", 13, "-32600 Invalid Request: the message does not fit JSON-RPC 2.0 and MCP."),
    ('{"jsonrpc":"2.0","id":' + "1" * 5000 + ',"method":"tools/list"}', None, "-32600 Invalid Request: the id must be a string or an integer."),
    ('{"jsonrpc":"2.0","id":11,"method":"tools/list"', None, "-32700 Parse error: the frame is not one JSON object."),
    ('[{"jsonrpc":"2.0","id":12,"method":"tools/list"}]', None, "-32600 Invalid Request: batches are not served; send one message per frame."),
]  # fmt: skip


def _answer_text(answer: dict[str, Any]) -> str:
    if "error" in answer:
        return f"{answer['error']['code']} {answer['error']['message']}"
    return "".join(block["text"] for block in answer["result"]["content"])


@contextmanager
def _stdio_server(tools: str = str(TOOLS_FILE)) -> Iterator[subprocess.Popen[bytes]]:
    process = subprocess.Popen(
        [sys.executable, "-m", "onellm_runtime", "serve-mcp", tools],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    try:
        yield process
    finally:
        process.kill()
        process.wait(BOUND)


class _Answers:
    """The server's standard output, line by line, each line waited for at most ``BOUND`` seconds.

    It reads the descriptor itself: ``select`` on a buffered file would miss lines already buffered.
    """

    def __init__(self, process: subprocess.Popen[bytes]) -> None:
        assert process.stdout is not None
        self._fd = process.stdout.fileno()
        self._pending = b""

    def read(self, count: int) -> list[dict[str, Any]]:
        answers: list[dict[str, Any]] = []
        while len(answers) < count:
            line, newline, rest = self._pending.partition(b"\n")
            if newline:
                self._pending = rest
                answers.append(json.loads(line))
                continue
            ready, _, _ = select.select([self._fd], [], [], BOUND)
            assert ready, f"no answer within {BOUND} s after {answers}"
            chunk = os.read(self._fd, 1 << 16)
            assert chunk, f"the server closed its output after {answers}"
            self._pending += chunk
        return answers


def test_stdio_answers_every_request_with_the_binders_guarantees() -> None:
    with _stdio_server() as process:
        assert process.stdin is not None
        lines = [json.dumps(INITIALIZE), json.dumps(INITIALIZED), *(frame for frame, _, _ in FRAMES)]
        process.stdin.write("\n".join(lines).encode() + b"\n")
        process.stdin.flush()
        output = _Answers(process)
        answers = output.read(1 + len(FRAMES))
        assert answers[0]["id"] == "init"
        by_id = {a["id"]: a for a in answers[1:] if a["id"] is not None}
        nulls = [_answer_text(a) for a in answers[1:] if a["id"] is None]
        assert {i: _answer_text(a) for i, a in by_id.items()} == {i: t for _, i, t in FRAMES if i is not None}
        assert sorted(nulls) == sorted(t for _, i, t in FRAMES if i is None)
        # still serving, and a call that binds runs
        process.stdin.write((_call(99, '{"a":40,"b":2}') + "\n").encode())
        process.stdin.flush()
        assert _answer_text(output.read(1)[0]) == "42"


def test_a_tool_reads_the_arguments_as_the_client_wrote_them() -> None:
    """``ToolContext.arguments`` over MCP: the raw text, spacing and key order as sent."""
    deploy_tools = str(TOOLS_FILE.parent / "mcp_deploy_tools.py")
    with _stdio_server(deploy_tools) as process:
        assert process.stdin is not None
        call = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo_arguments","arguments":{ "note" : "a\\u00e9" }}}'
        process.stdin.write("\n".join([json.dumps(INITIALIZE), json.dumps(INITIALIZED), call]).encode() + b"\n")
        process.stdin.flush()
        answers = _Answers(process).read(2)
        assert _answer_text(answers[1]) == repr('{ "note" : "a\\u00e9" }')


def test_progress_carries_the_requests_token_in_order() -> None:
    with _stdio_server() as process:
        assert process.stdin is not None
        call = {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "tools/call",
            "params": {"name": "crawl", "arguments": {"pages": 3}, "_meta": {"progressToken": "tok-7"}},
        }
        untracked = {
            "jsonrpc": "2.0",
            "id": 2,
            "method": "tools/call",
            "params": {"name": "crawl", "arguments": {"pages": 2}},
        }
        lines = [json.dumps(INITIALIZE), json.dumps(INITIALIZED), json.dumps(call)]
        process.stdin.write("\n".join(lines).encode() + b"\n")
        process.stdin.flush()
        output = _Answers(process)
        answers = output.read(1 + 3 + 1 + 1)  # initialize, three progress, one log line, the result
        progress = [a["params"] for a in answers if a.get("method") == "notifications/progress"]
        assert progress == [
            {"progressToken": "tok-7", "progress": float(n), "total": 3.0, "message": f"page {n}"} for n in (1, 2, 3)
        ]
        assert answers[-1]["id"] == 1 and _answer_text(answers[-1]) == "3 pages"
        # no token: no progress (the log line and the result only)
        process.stdin.write((json.dumps(untracked) + "\n").encode())
        process.stdin.flush()
        rest = output.read(2)
        assert [a.get("method") for a in rest] == ["notifications/message", None]


# -- the frame reader's own rows --------------------------------------------------------------


@pytest.mark.parametrize(
    ("frame", "arguments"),
    [
        (_call(1, '{"a":1}'), '{"a":1}'),
        (_call(1, ' { "a" : "}\\"]" } '), '{ "a" : "}\\"]" }'),  # brackets and escaped quotes inside strings
        (_call(1, "null"), "null"),
        (_call(1, '"text"'), '"text"'),
        (_call(1, "[[1],{}]"), "[[1],{}]"),
    ],
)
def test_a_calls_arguments_reach_the_server_as_written(frame: str, arguments: str) -> None:
    read = read_frame(frame)
    assert isinstance(read, Frame) and (read.id, read.is_request) == (1, True)
    assert json.loads(read.text)["params"]["arguments"] == {RAW_KEY: arguments}


@pytest.mark.parametrize(
    "frame",
    [
        _call(1, '{"a":"unterminated}'),
        _call(1, "[[1]"),
        '{"jsonrpc":"2.0","id":1 "method":"x"}',
        '{"jsonrpc":"2.0","id":1}{"jsonrpc":"2.0","id":2}',
        '{"a\\x":1}',
        "",
    ],
)
def test_frames_the_scan_cannot_follow_are_parse_errors(frame: str) -> None:
    read = read_frame(frame)
    if frame == "":
        assert read is None
    else:
        assert isinstance(read, Refusal) and (read.id, read.code) == (None, -32700)


# -- HTTP -------------------------------------------------------------------------------------


@contextmanager
def _http_server(*, open_files: int | None = None, script: str | None = None) -> Iterator[int]:
    """A server process on 127.0.0.1 (``serve-mcp --http 0``, or ``script``); yields its port."""

    def limit() -> None:
        if open_files is not None:
            import resource

            _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
            resource.setrlimit(resource.RLIMIT_NOFILE, (open_files, hard))

    command = ["-c", script] if script else ["-m", "onellm_runtime", "serve-mcp", "--http", "0", str(TOOLS_FILE)]
    process = subprocess.Popen(
        [sys.executable, *command],
        cwd=ROOT,
        stdin=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=limit,  # only setrlimit, in the child before exec
    )
    try:
        assert process.stderr is not None
        ready, _, _ = select.select([process.stderr], [], [], BOUND)
        assert ready
        found = re.search(r"http://127\.0\.0\.1:(\d+)/mcp", process.stderr.readline())
        assert found is not None
        # whatever the server writes later is read away, so a full pipe never blocks it
        threading.Thread(target=process.stderr.read, daemon=True).start()
        yield int(found.group(1))
    finally:
        process.kill()
        process.wait(BOUND)


def _post(port: int, body: bytes, session: str | None = None) -> tuple[int, dict[str, Any] | None, str | None]:
    """POST one frame; (status, the JSON-RPC answer, the session id the server gave)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=BOUND)
    headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
    if session is not None:
        headers |= {"Mcp-Session-Id": session, "MCP-Protocol-Version": "2025-06-18"}
    connection.request("POST", "/mcp", body, headers)
    response = connection.getresponse()
    data = response.read().decode()
    connection.close()
    if response.getheader("content-type", "").startswith("text/event-stream"):
        events = [json.loads(line[5:]) for line in data.splitlines() if line.startswith("data:") and line[5:].strip()]
        answer = next((e for e in events if "id" in e), None)
    else:
        answer = json.loads(data) if data else None
    return response.status, answer, response.getheader("mcp-session-id")


def test_http_keeps_the_binders_guarantees() -> None:
    with _http_server() as port:
        status, _, session = _post(port, json.dumps(INITIALIZE).encode())
        assert status == 200 and session is not None
        assert _post(port, json.dumps(INITIALIZED).encode(), session)[0] == 202
        for frame, request_id, text in FRAMES:
            status, answer, _ = _post(port, frame.encode(), session)
            assert answer is not None and answer["id"] == request_id, frame[:80]
            assert _answer_text(answer) == text, frame[:80]
            assert status == (200 if "result" in answer else 400), frame[:80]


#: Half an HTTP request head: the request line and one header, never the blank line that ends it.
HALF_HEAD = b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: appl"


def _closed_by_server(connection: socket.socket) -> bool:
    """Whether the server has closed (or reset) this connection; never waits."""
    connection.setblocking(False)
    try:
        return connection.recv(1) == b""
    except BlockingIOError:  # open, nothing to read
        return False
    except ConnectionResetError:
        return True


def test_half_open_connections_do_not_lock_out_a_normal_client() -> None:
    """300 half-sent heads against a server with 256 open files: without bounds it stops accepting."""
    with _http_server(open_files=256) as port:
        held = []
        for _ in range(300):
            connection = socket.create_connection(("127.0.0.1", port), timeout=BOUND)
            connection.sendall(HALF_HEAD)
            held.append(connection)

        async def normal_client() -> None:
            with anyio.fail_after(BOUND):
                async with Client(f"http://127.0.0.1:{port}/mcp") as client:
                    result = await client.call_tool("add", {"a": 2, "b": 3})
                    assert result.structured_content == {"result": 5}

        try:
            asyncio.run(normal_client())
            still_open = sum(not _closed_by_server(connection) for connection in held)
            assert still_open <= 100  # the default connection limit (below half of the 256 open files)
        finally:
            for connection in held:
                connection.close()


SHORT_TIMEOUTS_SERVER = f"""
import asyncio, sys
sys.path.insert(0, {str(TOOLS_FILE.parent)!r})
import mcp_tools
from onellm_runtime.mcp import serve_http

async def main():
    started, ports = asyncio.Event(), []
    serving = asyncio.ensure_future(
        serve_http([mcp_tools.add], port=0, header_timeout=0.5, body_timeout=0.5, idle_timeout=0.5, started=started, ports=ports)
    )
    await started.wait()
    print(f"http://127.0.0.1:{{ports[0]}}/mcp", file=sys.stderr, flush=True)
    await serving

asyncio.run(main())
"""


def test_a_connection_that_never_completes_its_head_or_idles_is_closed() -> None:
    with _http_server(script=SHORT_TIMEOUTS_SERVER) as port:
        with socket.create_connection(("127.0.0.1", port), timeout=BOUND) as connection:
            connection.sendall(HALF_HEAD)
            began = time.monotonic()
            assert connection.recv(1) == b""  # closed by the server (a timeout would raise instead)
            assert time.monotonic() - began < BOUND
        with socket.create_connection(("127.0.0.1", port), timeout=BOUND) as connection:
            assert connection.recv(1) == b""  # one that sends nothing at all, too
        with socket.create_connection(("127.0.0.1", port), timeout=BOUND) as connection:
            connection.sendall(b"GET /elsewhere HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            answered = b""
            while chunk := connection.recv(1 << 16):  # the answer, then the close once it has idled
                answered += chunk
            assert answered.startswith(b"HTTP/1.1 404 ")


def _answer_of(connection: socket.socket) -> bytes:
    """One response, read up to the end its ``content-length`` gives."""
    received = b""
    while True:
        head, blank, body = received.partition(b"\r\n\r\n")
        length = re.search(rb"(?im)^content-length: *(\d+)", head)
        if blank and length is not None and len(body) >= int(length.group(1)):
            return received
        chunk = connection.recv(1 << 16)
        assert chunk, f"the server closed the connection after {received!r}"
        received += chunk


def test_a_kept_alive_connection_idles_the_whole_timeout_after_each_response() -> None:
    """The connection's one timer, set for the head of its first request (0.5 s), fires while the
    connection idles after a later response: it waits for that idle deadline instead."""
    request = b"GET /elsewhere HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
    with _http_server(script=SHORT_TIMEOUTS_SERVER) as port:
        with socket.create_connection(("127.0.0.1", port), timeout=BOUND) as connection:
            time.sleep(0.3)
            connection.sendall(request)
            assert _answer_of(connection).startswith(b"HTTP/1.1 404 ")
            time.sleep(0.3)  # past the first head's deadline, within the idle timeout after the answer
            connection.sendall(request)
            assert _answer_of(connection).startswith(b"HTTP/1.1 404 ")
            answered = time.monotonic()
            assert connection.recv(1) == b""  # closed once it has idled
            assert time.monotonic() - answered < BOUND


def _raw_response(port: int, request: bytes) -> bytes:
    """Send ``request`` as it is and read the response until the server closes or ``BOUND`` passes."""
    with socket.create_connection(("127.0.0.1", port), timeout=BOUND) as connection:
        connection.sendall(request)
        received = b""
        while chunk := connection.recv(1 << 16):
            received += chunk
            if b"\r\n\r\n" in received and received.endswith(b"}"):
                break
        return received


def test_a_body_that_does_not_arrive_in_time_or_is_too_long_is_refused() -> None:
    head = b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
    with _http_server(script=SHORT_TIMEOUTS_SERVER) as port:
        slow = _raw_response(port, head + b"Content-Length: 100\r\n\r\n{")
        assert slow.startswith(b"HTTP/1.1 408 ") and slow.endswith(b'{"error":"the body did not arrive within 0.5 s"}')
        big = b"[" + b"0," * (2 * 1024 * 1024) + b"0]"
        large = _raw_response(port, head + f"Content-Length: {len(big)}\r\n\r\n".encode() + big)
        assert large.startswith(b"HTTP/1.1 413 ") and large.endswith(b'{"error":"the body is over 4194304 bytes"}')


def test_a_limit_below_the_open_files_is_kept() -> None:
    from onellm_runtime.mcp._http import Limits

    assert Limits(max_connections=10).max_connections == 10
    if os.name == "posix":
        import resource

        soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
        assert Limits(max_connections=10**9).max_connections == soft // 2
