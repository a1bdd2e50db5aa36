"""MCP ``tools/call`` round trips: onellm's server beside the mcp package's own, stdio and streamable HTTP.

Both servers serve the same function (``add(a: int, b: int) -> int``) in a process of their
own, driven by the ``mcp`` package's ``Client``: over stdio the client starts the server; over
HTTP the server listens on 127.0.0.1 on a free port, says which on its standard output, and
stops when its standard input closes (the benchmark's end, or its death) or after
``LIFETIME`` seconds, whichever comes first. A session lists the tools, makes one call
(whose answer must be the same from both servers: checked before anything is measured),
``WARMUP`` more, then times ``--calls`` calls one after another.

Figures per session: wall time per call (a round trip spans two processes, so that is what a
client waits for), and the server process's CPU time per call (``/proc``, Linux; steadier on
a shared machine). The target: onellm's calls per second >= the SDK server's, i.e. its time
per call / the SDK's <= 1.0, per transport, taken round by round.

    python benchmarks/mcp_roundtrip.py [--calls 300] [--rounds 5]

The section ``servers`` of ``benchmarks/run.py`` takes the same figures in its rounds.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import signal
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve()
ROOT = HERE.parent.parent

#: The servers, as the ``--serve`` argument names them, and their labels.
KINDS = {"onellm": "onellm serve-mcp", "sdk": "mcp SDK MCPServer (FastMCP)"}
TRANSPORTS = ("stdio", "http")
#: Calls made before the timed ones (imports, caches, the first thread of a pool).
WARMUP = 20
#: An HTTP server stops by itself after this many seconds even if nobody closes its stdin.
LIFETIME = 900.0


def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


# -- the server processes -------------------------------------------------------------


def _stop_on_stdin_end(stop: Callable[[], None]) -> None:
    """Call ``stop`` (thread-safe) once standard input ends or ``LIFETIME`` passes."""
    done = threading.Event()

    def watch() -> None:
        with contextlib.suppress(OSError):
            while os.read(0, 4096):
                pass
        done.set()

    threading.Thread(target=watch, daemon=True).start()
    threading.Thread(target=lambda: (done.wait(LIFETIME), stop()), daemon=True).start()


def _terminate_self() -> None:
    """Stop the way an operator would: both servers end gracefully on SIGTERM (uvicorn's handler)."""
    os.kill(os.getpid(), signal.SIGTERM)


def _announce(port: int) -> None:
    sys.stdout.write(f"port {port}\n")
    sys.stdout.flush()


async def _serve_onellm_http() -> None:
    from onellm_runtime import Tool
    from onellm_runtime.mcp import serve_http

    started, ports = asyncio.Event(), list[int]()
    task = asyncio.ensure_future(serve_http([Tool.create(add)], port=0, started=started, ports=ports))
    _stop_on_stdin_end(_terminate_self)
    await asyncio.wait((task, asyncio.ensure_future(started.wait())), return_when=asyncio.FIRST_COMPLETED)
    if ports:
        _announce(ports[0])
    with contextlib.suppress(asyncio.CancelledError):
        await task


async def _serve_sdk_http() -> None:
    import uvicorn
    from mcp.server.mcpserver import MCPServer

    app = MCPServer("peer")
    app.tool()(add)
    config = uvicorn.Config(app.streamable_http_app(), host="127.0.0.1", port=0, log_level="warning")
    http = uvicorn.Server(config)
    logging.getLogger("mcp").setLevel(logging.WARNING)  # its session manager's start and stop lines
    _stop_on_stdin_end(_terminate_self)
    serving = asyncio.ensure_future(http.serve())
    while not http.started and not serving.done():
        await asyncio.sleep(0.01)
    if http.started:
        _announce(http.servers[0].sockets[0].getsockname()[1])
    await serving


def serve(kind: str, transport: str) -> None:
    """The server side: ``--serve onellm|sdk --transport stdio|http``."""
    if transport == "http":
        asyncio.run(_serve_onellm_http() if kind == "onellm" else _serve_sdk_http())
    elif kind == "onellm":
        from onellm_runtime import Tool
        from onellm_runtime.mcp import serve_stdio

        asyncio.run(serve_stdio([Tool.create(add)]))
    else:
        from mcp.server.mcpserver import MCPServer

        app = MCPServer("peer")
        app.tool()(add)
        app.run("stdio")


# -- the client side ------------------------------------------------------------------


def _cpu_seconds(pid: int) -> float:
    """A process's user + system CPU time (``/proc``; 0.0 where it cannot be read)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return 0.0


def _children() -> list[int]:
    found: list[int] = []
    me = os.getpid()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            if int(stat.read_text().rsplit(")", 1)[1].split()[1]) == me:
                found.append(int(stat.parent.name))
        except (OSError, ValueError, IndexError):
            continue
    return found


def _command(kind: str, transport: str) -> list[str]:
    return [sys.executable, str(HERE), "--serve", kind, "--transport", transport]


@contextlib.asynccontextmanager
async def _connected(kind: str, transport: str) -> AsyncIterator[tuple[Any, int | None]]:
    """A client session to a new server process, and that process's id (None where it cannot be told)."""
    from mcp import Client
    from mcp.client.stdio import StdioServerParameters

    # A --baseline child's PYTHONPATH names the tree it measures first: keep it first.
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (os.environ.get("PYTHONPATH"), str(ROOT)) if p)}
    if transport == "stdio":
        before = set(_children())
        command = _command(kind, transport)
        params = StdioServerParameters(command=command[0], args=command[1:], env=env)
        async with Client(params) as client:
            started = [pid for pid in _children() if pid not in before]
            yield client, started[0] if len(started) == 1 else None
        return
    process = subprocess.Popen(
        _command(kind, transport), stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env, text=True
    )
    try:
        assert process.stdout is not None
        line = await asyncio.get_running_loop().run_in_executor(None, process.stdout.readline)
        if not line.startswith("port "):
            raise RuntimeError(f"the {kind} HTTP server did not start (it said {line!r})")
        async with Client(f"http://127.0.0.1:{int(line.split()[1])}/mcp") as client:
            yield client, process.pid
    finally:
        assert process.stdin is not None
        process.stdin.close()  # the server's signal to stop
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


async def session(kind: str, transport: str, calls: int) -> tuple[float, float, Any]:
    """Wall seconds per call, the server's CPU seconds per call (0.0 unknown), and the first answer."""
    async with _connected(kind, transport) as (client, pid):
        await client.list_tools()
        first = await client.call_tool("add", {"a": 1, "b": 2})
        for i in range(WARMUP):
            await client.call_tool("add", {"a": i, "b": 1})
        cpu0 = _cpu_seconds(pid) if pid is not None else 0.0
        start = time.perf_counter()
        for i in range(calls):
            await client.call_tool("add", {"a": i, "b": 1})
        wall = time.perf_counter() - start
        cpu = (_cpu_seconds(pid) - cpu0) if pid is not None else 0.0
    answer = first.model_dump(mode="json", exclude_none=True)
    return (
        wall / max(calls, 1),
        cpu / max(calls, 1),
        (answer["content"], answer.get("structured_content"), answer["is_error"]),
    )


def check_same_answers(transport: str) -> None:
    """Both servers answer the first call alike over ``transport``, or the run stops: else the race is unfair."""
    answers = {kind: asyncio.run(session(kind, transport, 0))[2] for kind in KINDS}
    if answers["onellm"] != answers["sdk"]:
        raise SystemExit(f"the servers answer differently over {transport}: {answers}")


# -- the ``servers`` section of benchmarks/run.py --------------------------------------------

#: The CPU comparison of a transport reads the figures its wall comparison's sessions took in the same round.
_cpu_taken: dict[tuple[str, str], float] = {}


def _wall_sample(kind: str, transport: str, calls: int) -> Callable[[], float]:
    def sample() -> float:
        wall, cpu, _ = asyncio.run(session(kind, transport, calls))
        _cpu_taken[kind, transport] = cpu
        return wall * 1e9

    return sample


def _cpu_sample(kind: str, transport: str) -> Callable[[], float]:
    def sample() -> float:
        cpu = _cpu_taken.pop((kind, transport))
        if not cpu:
            raise RuntimeError("the server's CPU time could not be read (/proc)")
        return cpu * 1e9

    return sample


def _wall_label(kind: str) -> str:
    return f"{KINDS[kind]}, per call"


def _cpu_label(kind: str) -> str:
    return f"{KINDS[kind]}, server CPU per call"


def comparisons(peers: Any, smoke: bool, rounds: int) -> list[Any]:
    from benchmarks.rounds import Comparison, Entry

    try:
        import mcp  # noqa: F401  (onellm's server and the client are the SDK's)
    except ImportError as e:
        missing = f"the mcp package is not installed ({e.name}); pip install -e '.[mcp]'"
        return [
            Comparison(
                "servers",
                f"{t} wall",
                f"MCP tools/call over {t}",
                [Entry(_wall_label(k), None, missing) for k in KINDS],
                "us",
            )
            for t in TRANSPORTS
        ]
    calls = 20 if smoke else 300
    sdk_skipped = "" if peers.available("mcp") else peers.why_missing("mcp")
    found: list[Comparison] = []
    for transport in TRANSPORTS:
        if not sdk_skipped:
            check_same_answers(transport)
        entries = [Entry(_wall_label("onellm"), _wall_sample("onellm", transport, calls), is_onellm=True)]
        entries.append(
            Entry(_wall_label("sdk"), None if sdk_skipped else _wall_sample("sdk", transport, calls), sdk_skipped)
        )
        heading = f"MCP tools/call over {transport}: wall time per round trip, {calls} calls per session (one new server each)"
        found.append(Comparison("servers", f"{transport} wall", heading, entries, "us"))
    for transport in TRANSPORTS:
        entries = [Entry(_cpu_label("onellm"), _cpu_sample("onellm", transport), is_onellm=True)]
        entries.append(Entry(_cpu_label("sdk"), None if sdk_skipped else _cpu_sample("sdk", transport), sdk_skipped))
        heading = f"MCP tools/call over {transport}: the server process's CPU time per call (the same sessions)"
        found.append(Comparison("servers", f"{transport} cpu", heading, entries, "us"))
    return found


def show(report: Any, results: Any, smoke: bool) -> None:
    report.section(
        "MCP servers (benchmarks/mcp_roundtrip.py): onellm's beside the SDK's own, the same tool, the SDK's client",
        "each session starts a new server process (127.0.0.1 for HTTP) and times calls one after another",
    )
    for t in results.section_tables("servers"):
        report.rounds_table(t)


def targets(results: Any) -> list[Any]:
    from benchmarks.rounds import Target, ratios

    found = []
    for transport in TRANSPORTS:
        ours = results.figure("servers", f"{transport} wall", _wall_label("onellm"))
        theirs = results.figure("servers", f"{transport} wall", _wall_label("sdk"))
        found.append(
            Target(
                f"servers: onellm / SDK server time per tools/call over {transport} (calls/s >= the SDK's)",
                [] if ours is None or theirs is None else ratios(ours, theirs),
                1.0,
                why_not="not measured (the SDK's server left out with --without, or the mcp package missing)",
            )
        )
    return found


# -- the standalone command -------------------------------------------------------------


async def measure(calls: int, rounds: int) -> dict[tuple[str, str], tuple[list[float], list[float]]]:
    """Per (server, transport): wall and CPU seconds per call, one figure per round, servers alternating."""
    figures: dict[tuple[str, str], tuple[list[float], list[float]]] = {}
    for r in range(rounds):
        for transport in TRANSPORTS:
            order = list(KINDS) if r % 2 == 0 else list(KINDS)[::-1]
            for kind in order:
                wall, cpu, _ = await session(kind, transport, calls)
                walls, cpus = figures.setdefault((kind, transport), ([], []))
                walls.append(wall)
                cpus.append(cpu)
    return figures


def _spread(values: list[float], scale: float = 1.0, fmt: str = "{:.0f}") -> str:
    shown = [v * scale for v in values]
    return f"{fmt.format(statistics.median(shown))} ({fmt.format(min(shown))}-{fmt.format(max(shown))})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--serve", choices=tuple(KINDS), help=argparse.SUPPRESS)
    parser.add_argument("--transport", choices=TRANSPORTS, default="stdio", help=argparse.SUPPRESS)
    parser.add_argument("--calls", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=5)
    ns = parser.parse_args()
    if ns.serve:
        serve(ns.serve, ns.transport)
        return
    import mcp  # noqa: F401  (fail early with the import error when the extra is missing)

    for transport in TRANSPORTS:
        check_same_answers(transport)
    figures = asyncio.run(measure(ns.calls, ns.rounds))
    print(f"tools/call round trips, {ns.calls} calls x {ns.rounds} rounds: median (min-max) over the rounds")
    for transport in TRANSPORTS:
        print(f"  {transport}:")
        for kind, label in KINDS.items():
            walls, cpus = figures[kind, transport]
            rate = [1 / w for w in walls]
            print(f"    {label:30} {_spread(rate)} calls/s; server CPU {_spread(cpus, 1e6)} us per call")
        ours, theirs = figures["onellm", transport][0], figures["sdk", transport][0]
        ratio = [t / o for o, t in zip(ours, theirs)]  # onellm's calls/s over the SDK's, round by round
        verdict = "met" if statistics.median(ratio) >= 1.0 else "missed"
        print(f"    onellm / SDK calls per second: {_spread(ratio, fmt='{:.2f}')}x, target >= 1.00x: {verdict}")


if __name__ == "__main__":
    main()
