"""``onellm lsp``'s own JSON-RPC layer (``onellm_mypy.jsonrpc``): the LSP's base protocol and lifecycle.

The server is driven over its real pipes with raw bytes, so the malformed cases can be sent
at all: framing cut anywhere, two messages in one write, a bad header, a body that is not
JSON, an unknown method, and the lifecycle's rules (``shutdown`` then ``exit``). pygls's
client (``tests/test_lsp.py``) covers the well-formed conversation; here it sends the
cases a client library can send (an unknown request, an edit of a range). The framing and
the edits are also checked as tables without a server.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest
from lsp_session import Session
from lsprotocol import types
from pygls.exceptions import JsonRpcMethodNotFound

from onellm_mypy.jsonrpc import (
    INVALID_REQUEST,
    METHOD_NOT_FOUND,
    PARSE_ERROR,
    SERVER_NOT_INITIALIZED,
    Bad,
    Frames,
    encode,
)
from onellm_mypy.lspdocs import UTF16, UTF32, apply_change, to_path, to_uri

ROOT = Path(__file__).resolve().parent.parent
#: How long a test waits for one answer before it fails (the server answers at once; the
#: check process, started beside it, does not take part in these answers).
WAIT = 60.0


def frame(message: dict[str, Any]) -> bytes:
    """A message framed by hand (not by ``encode``, the code under test), with a Content-Type too."""
    body = json.dumps(message, ensure_ascii=False).encode("utf-8")
    return (
        b"Content-Length: "
        + str(len(body)).encode()
        + b"\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n"
        + body
    )


def request(id_: int, method: str, params: Any = None) -> bytes:
    return frame({"jsonrpc": "2.0", "id": id_, "method": method, **({"params": params} if params is not None else {})})


def notification(method: str, params: Any = None) -> bytes:
    return frame({"jsonrpc": "2.0", "method": method, **({"params": params} if params is not None else {})})


class RawClient:
    """A server process and its pipes: bytes written as given, messages read as framed."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process

    @classmethod
    async def start(cls, root: Path) -> RawClient:
        env = dict(os.environ)
        env.setdefault("ONELLM_LSP_CACHE_DIR", os.path.join(tempfile.gettempdir(), "onellm-lsp-test-cache"))
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "onellm_runtime",
            "lsp",
            cwd=root,
            env=env,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
        )
        return cls(process)

    async def send(self, *pieces: bytes, pause: float = 0.0) -> None:
        """Each piece written and flushed on its own (a pause between them: separate reads)."""
        stdin = self.process.stdin
        assert stdin is not None
        for piece in pieces:
            stdin.write(piece)
            await stdin.drain()
            if pause:
                await asyncio.sleep(pause)

    async def receive(self) -> dict[str, Any]:
        """The next message, read by its Content-Length."""
        stdout = self.process.stdout
        assert stdout is not None
        length = None
        while True:
            line = await asyncio.wait_for(stdout.readline(), WAIT)
            assert line, "the server closed its output"
            if line == b"\r\n":
                break
            name, _, value = line.decode("ascii").partition(":")
            if name.lower() == "content-length":
                length = int(value)
        assert length is not None
        message: dict[str, Any] = json.loads(await asyncio.wait_for(stdout.readexactly(length), WAIT))
        return message

    async def answer(self) -> dict[str, Any]:
        """The next response (the server's notifications, its log lines, are skipped)."""
        while "method" in (message := await self.receive()):
            pass
        return message

    async def initialize(self, root: Path) -> None:
        await self.send(request(1, "initialize", {"processId": None, "rootUri": root.as_uri(), "capabilities": {}}))
        assert "capabilities" in (await self.answer())["result"]
        await self.send(notification("initialized", {}))

    async def exit_code(self) -> int:
        return await asyncio.wait_for(self.process.wait(), WAIT)

    def kill(self) -> None:
        if self.process.returncode is None:
            self.process.kill()


def run(root: Path, body: Any) -> None:
    """Run ``body(client)`` against a new server; the server is killed if it is still running after."""

    async def session() -> None:
        client = await RawClient.start(root)
        try:
            await body(client)
        finally:
            client.kill()
            await client.process.wait()

    asyncio.run(session())


def answered(answer: dict[str, Any]) -> tuple[Any, int | None]:
    """An answer as (its id, its error code), the code None for a result."""
    return answer["id"], answer["error"]["code"] if "error" in answer else None


HELLO = json.dumps(
    {"jsonrpc": "2.0", "id": 5, "method": "onellm/unknown", "params": {"é": "…"}}, ensure_ascii=False
).encode()
CUT = HELLO.index("é".encode()) + 1  # inside the two bytes of 'é'

OPEN = {"processId": None, "capabilities": {}}

#: What one initialized server is sent, row after row, and the (id, error code) it answers (None: a result).
ROWS: list[tuple[str, list[bytes], list[tuple[int | None, int | None]]]] = [
    ("an unknown request: MethodNotFound", [request(2, "onellm/unknown", {})], [(2, METHOD_NOT_FOUND)]),
    (
        "unknown notifications and $/cancelRequest: no answer",
        [notification("onellm/unknown", {}), notification("$/cancelRequest", {"id": 2}), request(3, "nothing/here")],
        [(3, METHOD_NOT_FOUND)],
    ),
    (
        "two messages in one write",
        [request(4, "onellm/one") + request(6, "onellm/two")],
        [(4, METHOD_NOT_FOUND), (6, METHOD_NOT_FOUND)],
    ),
    (
        "one message cut across four reads: inside a header name, between header and body, inside a UTF-8 character",
        [b"Content-Len", b"gth: %d\r\n\r" % len(HELLO), b"\n" + HELLO[:CUT], HELLO[CUT:]],
        [(5, METHOD_NOT_FOUND)],
    ),
    (
        "a header without Content-Length: ParseError, and reading goes on at the next message",
        [b"Content-Type: application/vscode-jsonrpc\r\n\r\n" + b'{"jsonrpc": "2.0"}' + request(7, "onellm/after")],
        [(None, PARSE_ERROR), (7, METHOD_NOT_FOUND)],
    ),
    (
        "a body that is not JSON: ParseError",
        [b"Content-Length: 9\r\n\r\n{not json" + request(8, "onellm/after")],
        [(None, PARSE_ERROR), (8, METHOD_NOT_FOUND)],
    ),
    (
        "JSON that is no JSON-RPC 2.0 message (an array, a jsonrpc other than 2.0): InvalidRequest",
        [b"Content-Length: 6\r\n\r\n[1, 2]", frame({"jsonrpc": "1.0", "id": 9, "method": "x"})],
        [(None, INVALID_REQUEST), (9, INVALID_REQUEST)],
    ),
    ("initialize a second time: InvalidRequest", [request(10, "initialize", OPEN)], [(10, INVALID_REQUEST)]),
    (
        "shutdown answers null; a request after it: InvalidRequest",
        [request(11, "shutdown"), notification("textDocument/didOpen", {}), request(12, "textDocument/codeAction")],
        [(11, None), (12, INVALID_REQUEST)],
    ),
]


def test_one_server_answers_each_row_in_turn_and_exits_0_after_shutdown(tmp_path: Path) -> None:
    async def body(client: RawClient) -> None:
        await client.initialize(tmp_path)
        for name, sent, expected in ROWS:
            await client.send(*sent, pause=0.05)
            assert [answered(await client.answer()) for _ in expected] == expected, name
        await client.send(notification("exit"))
        assert await client.exit_code() == 0

    run(tmp_path, body)


def test_exit_without_shutdown_exits_1(tmp_path: Path) -> None:
    async def body(client: RawClient) -> None:
        await client.initialize(tmp_path)
        await client.send(notification("exit"))
        assert await client.exit_code() == 1

    run(tmp_path, body)


def test_a_request_before_initialize_is_refused_and_the_end_of_input_ends_the_server(tmp_path: Path) -> None:
    async def body(client: RawClient) -> None:
        await client.send(request(1, "textDocument/codeAction", {}), notification("textDocument/didOpen", {}))
        assert answered(await client.answer()) == (1, SERVER_NOT_INITIALIZED)
        await client.initialize(tmp_path)  # the notification before it was dropped, as the LSP says
        stdin = client.process.stdin
        assert stdin is not None
        stdin.close()
        assert await client.exit_code() == 0

    run(tmp_path, body)


def test_pygls_client_unknown_request_and_incremental_edits(tmp_path: Path) -> None:
    """What a client library sends: an unknown request (MethodNotFound), and edits of ranges, applied
    in order, counted in UTF-16 code units (the LSP's default) past a character outside the BMP."""
    app = tmp_path / "app.py"
    line = 'def f(n: Annotated[int, Range(1, 9)], s: str = "😀", m: Annotated[int, Range(1, 2)] = 1) -> str:'
    text = f"from typing import Annotated\n\nfrom onellm_runtime import Range, tool\n\n\n@tool\n{line}\n    return s\n"
    low = line.rindex("Range(1") + len("Range(")  # the second Range's minimum, after the emoji
    low_utf16 = len(line[:low].encode("utf-16-le")) // 2
    assert low_utf16 == low + 1

    async def session() -> None:
        s = Session(0)
        await s.start(tmp_path)
        try:
            with pytest.raises(JsonRpcMethodNotFound):
                await asyncio.wait_for(s.client.protocol.send_request_async("onellm/unknown", {}), WAIT)
            s.open(app, text)
            assert (await s.diagnostics(1)).diagnostics == ()
            at = types.Position
            edits: list[types.TextDocumentContentChangeEvent] = [
                types.TextDocumentContentChangePartial(types.Range(at(0, 0), at(0, 0)), "# top\n"),
                types.TextDocumentContentChangePartial(types.Range(at(7, low_utf16), at(7, low_utf16 + 1)), "3"),
            ]
            s.client.text_document_did_change(
                types.DidChangeTextDocumentParams(types.VersionedTextDocumentIdentifier(2, app.as_uri()), edits)
            )
            [finding] = (await s.diagnostics(2)).diagnostics
            assert (finding.code, finding.range.start.line) == ("OLT013", 7)
            assert "Parameter 'm': Range(3, 2) has its minimum above its maximum" in finding.message
        finally:
            await s.stop()

    asyncio.run(session())


# -- without a server ------------------------------------------------------------------


def test_the_server_imports_no_lsp_framework(tmp_path: Path) -> None:
    """The server's start is what an editor waits for first: pygls and lsprotocol are the tests' client only.

    A whole session (initialize, an open buffer, shutdown, exit) is served, then the modules
    the process imported are listed as it exits.
    """
    app = tmp_path / "app.py"
    listing = (
        "import atexit, sys\n"
        "atexit.register(lambda: print(sorted({m.split('.')[0] for m in sys.modules} & {'pygls', 'lsprotocol', 'cattrs'}),"
        " file=sys.stderr))\n"
        "from onellm_mypy.lsp import main\n"
        "sys.exit(main([]))\n"
    )
    conversation = (
        request(1, "initialize", {"processId": None, "rootUri": tmp_path.as_uri(), "capabilities": {}})
        + notification("initialized", {})
        + notification(
            "textDocument/didOpen",
            {"textDocument": {"uri": app.as_uri(), "languageId": "python", "version": 1, "text": "x = 1\n"}},
        )
        + request(2, "shutdown")
        + notification("exit")
    )
    env = dict(os.environ)
    env.setdefault("ONELLM_LSP_CACHE_DIR", os.path.join(tempfile.gettempdir(), "onellm-lsp-test-cache"))
    done = subprocess.run(
        [sys.executable, "-c", listing], input=conversation, capture_output=True, cwd=tmp_path, env=env, timeout=WAIT
    )
    assert done.returncode == 0
    assert done.stderr.decode().strip().splitlines()[-1] == "[]"


def test_without_mypy_the_server_refuses_at_once_with_the_extra_to_install(tmp_path: Path) -> None:
    """An interpreter without site-packages, given onellm and typing_extensions alone: no mypy to check with."""
    import typing_extensions

    shutil.copy(typing_extensions.__file__, tmp_path / "typing_extensions.py")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path), str(ROOT)]))
    done = subprocess.run(
        [sys.executable, "-S", "-m", "onellm_runtime", "lsp"],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        env=env,
        timeout=WAIT,
    )
    assert (done.returncode, done.stdout) == (2, "")
    assert "the language server needs mypy: pip install -e '.[lsp]'" in done.stderr


#: Bytes fed in pieces, and the messages read: a message's dict, or a Bad's (id, code).
FRAME_ROWS = [
    pytest.param([frame({"jsonrpc": "2.0", "method": "m"})], [{"jsonrpc": "2.0", "method": "m"}], id="one message"),
    pytest.param([b"Content-Length: 2\r\n\r\n{}"], [(None, INVALID_REQUEST)], id="an empty object: InvalidRequest"),
    pytest.param(
        [b"content-length:  2 \r\n\r\n", b'{"'], [(None, PARSE_ERROR)], id="header name in any case; a body not JSON"
    ),
    pytest.param([b"\xff" * 2 + b"Content-Length"], [], id="waiting for the header's end"),
    pytest.param([b"X" * 9000], [(None, PARSE_ERROR)], id="no header end within 8 KiB: ParseError"),
    pytest.param(
        [b"Content-Length: 1\r\n\r\n{}" + frame({"jsonrpc": "2.0", "id": 3, "method": "m"})],
        [(None, PARSE_ERROR), (None, PARSE_ERROR), {"jsonrpc": "2.0", "id": 3, "method": "m"}],
        id="a Content-Length short of its body: the rest is no header, the next message is read",
    ),
    pytest.param(
        [b"Content-Length: " + b"9" * 16 + b"\r\n\r\n{}"], [(None, PARSE_ERROR)], id="a length past 15 digits"
    ),
    pytest.param(
        [b"Content-Length: %d\r\n\r\n" % len(deep) + deep for deep in [b"[" * 100_000 + b"]" * 100_000]]
        + [b"Content-Length: 5000\r\n\r\n" + b"7" * 5000],
        [(None, PARSE_ERROR), (None, PARSE_ERROR)],
        id="JSON nested 100,000 deep; a number of 5,000 digits",
    ),
    pytest.param(
        [frame({"jsonrpc": "2.0", "id": True, "method": "m"}), frame({"jsonrpc": "2.0", "id": 4, "method": 1})],
        [(None, INVALID_REQUEST), (4, INVALID_REQUEST)],
        id="an id neither number nor string; a method not a string",
    ),
]


@pytest.mark.parametrize(("pieces", "expected"), FRAME_ROWS)
def test_frames(pieces: list[bytes], expected: list[object]) -> None:
    frames = Frames()
    read = [m for piece in pieces for m in frames.feed(piece)]
    assert [(m.id, m.code) if isinstance(m, Bad) else m for m in read] == expected


def test_frames_read_the_same_however_the_stream_is_cut() -> None:
    stream = (
        frame({"jsonrpc": "2.0", "id": 1, "method": "a", "params": {"t": "é😀\r\n\r\n"}})
        + b"Content-Type: x\r\n\r\n"
        + b"Content-Length: 3\r\n\r\n{x}"
        + frame({"jsonrpc": "2.0", "method": "b"})
    )
    whole = Frames().feed(stream)
    assert [(m.id, m.code) if isinstance(m, Bad) else m["method"] for m in whole] == [
        "a",
        (None, PARSE_ERROR),
        (None, PARSE_ERROR),
        "b",
    ]
    rng = random.Random(7)
    for _ in range(300):
        cuts = sorted(rng.sample(range(1, len(stream)), rng.randint(1, 12)))
        frames = Frames()
        pieces = [stream[a:b] for a, b in zip([0, *cuts], [*cuts, len(stream)])]
        assert [m for piece in pieces for m in frames.feed(piece)] == whole, cuts


def test_encode_is_read_back_byte_by_byte() -> None:
    message = {"jsonrpc": "2.0", "id": 1, "result": {"text": "é😀"}}
    body = '{"jsonrpc":"2.0","id":1,"result":{"text":"é😀"}}'.encode()
    framed = encode(message)
    assert framed == b"Content-Length: %d\r\n\r\n" % len(body) + body
    frames = Frames()
    assert [m for i in range(len(framed)) for m in frames.feed(framed[i : i + 1])] == [message]


def _at(line: int, character: int) -> dict[str, int]:
    return {"line": line, "character": character}


#: text, change, position encoding, text after.
EDIT_ROWS = [
    pytest.param("a\nb\n", {"text": "x"}, UTF16, "x", id="the whole text"),
    pytest.param(
        "ab\ncd\n", {"range": {"start": _at(1, 1), "end": _at(1, 2)}, "text": "X"}, UTF16, "ab\ncX\n", id="one line"
    ),
    pytest.param(
        "ab\r\ncd\ref",
        {"range": {"start": _at(0, 1), "end": _at(2, 1)}, "text": "-"},
        UTF16,
        "a-f",
        id="CRLF and CR end lines",
    ),
    pytest.param(
        "😀x\n",
        {"range": {"start": _at(0, 2), "end": _at(0, 3)}, "text": "y"},
        UTF16,
        "😀y\n",
        id="UTF-16: past the BMP is two",
    ),
    pytest.param(
        "😀x\n",
        {"range": {"start": _at(0, 1), "end": _at(0, 2)}, "text": "y"},
        UTF32,
        "😀y\n",
        id="UTF-32: code points",
    ),
    pytest.param(
        "ab\n",
        {"range": {"start": _at(0, 9), "end": _at(5, 0)}, "text": "!"},
        UTF16,
        "ab!",
        id="past a line's end, past the text's end",
    ),
    pytest.param("ab", {"range": {"start": _at(0, 0), "end": _at(0, 0)}, "text": "é"}, UTF16, "éab", id="an insertion"),
]


@pytest.mark.parametrize(("text", "change", "encoding", "expected"), EDIT_ROWS)
def test_apply_change(text: str, change: dict[str, Any], encoding: str, expected: str) -> None:
    assert apply_change(text, change, encoding) == expected


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX paths")
@pytest.mark.parametrize(
    ("uri", "path"),
    [
        ("file:///p/app.py", "/p/app.py"),
        ("file:///p/a%20b/%C3%A9.py", "/p/a b/é.py"),
        ("file:///c%3A/p/app.py", "c:/p/app.py"),
        ("file://server/share/app.py", "//server/share/app.py"),
    ],
)
def test_file_uris(uri: str, path: str) -> None:
    assert to_path(uri) == path
    assert to_path(to_uri(path)) == path
    assert to_path("untitled:Untitled-1") is None
