"""What hostile argument documents cost: CPU time, peak memory and event-loop stall per document.

A corpus of documents of 1 KB, 64 KB and 1 MB, one per shape a hostile model (or a
compromised proxy) can send: huge exponents, a base64 string, deep nesting (of one-item and
two-item arrays, and of objects), a long string,
many keys, duplicate keys, many small integers, big-digit integers. Each is handed to
``ToolInvoker().invoke`` for a tool that takes that shape, in an event loop that also runs a
ticker task (sleeping 1 ms at a time) whose largest lateness is the loop's longest stall.

Per document it prints the CPU time of ``invoke`` (process CPU, so a worker thread's time
counts too), of ``tool.bind`` alone, of ``json.loads`` on the same bytes (the floor: reading
the text at all), the ratio of the last two, the peak memory ``tracemalloc`` sees during one ``invoke``
(a separate run, traced from just before the call inside a running loop), that peak per MB of input (and ``json.loads``'s own, for scale), the longest stall, and whether the result was an error.
Each CPU figure is the smallest of ``--repeat`` runs (the machine is shared; the smallest is
the least disturbed). The stall is the largest over the runs (the target's figure); beside it
the median of the runs' largest stalls, and, in a last row, the stall beside a thread of
pure Python work (which gives up the GIL every switch interval): what the machine's load
alone costs the loop. Then the decoration costs (a ``Literal`` of 20,000 values, a
10,000-member ``Enum`` under mypy with and without the plugin) and the peak memory of
binding a valid 50 MB ``bytes`` argument, with the former regex check as a reference row.
Then one provider reply holding 1,000 and 16,000 calls of a plain ``def`` tool, through
``dispatch``: its CPU time (the worker threads' included) and the loop's longest stall, each
beside ``json.loads`` of the same reply (the floor: reading the reply at all).
Then the MCP server: each document read as a ``tools/call`` frame the way the server reads it
before the SDK (against ``json.loads`` of the frame), and a normal client's ``initialize``
latency against ``onellm serve-mcp --http`` alone and beside 1,100 connections that each sent
half a request head (a ratio).
Then the static evaluator: modules of 1 MB that ask it for far more than their size (a tuple of
3,000 references to a long string, formatted or not; many reads of one large tuple, of format
widths, of concatenations; a huge integer literal), each marker argument read as the static side
reads it: the reads' CPU against ``ast.parse`` of the same bytes and their peak memory per MB
(and, unless ``--skip-mypy``, mypy's own CPU and peak memory on the first one, with the plugin
and without). The last line is the worst ratio of bind CPU time to ``json.loads`` CPU time.

    python benchmarks/hostile.py [--repeat 3] [--smoke] [--skip-mypy]

Targets: no document above 20x ``json.loads``, none above 50 MB of peak memory
per MB of input, no loop stall above 50 ms for documents up to 1 MB; the same CPU and
stall bounds for ``dispatch`` of a reply; no evaluator module above 20x ``ast.parse`` or 50 MB
of peak memory per MB.
"""

from __future__ import annotations

import argparse
import ast
import asyncio
import base64
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, Literal, TypeVar

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from onellm_runtime import JsonValue, Tool, ToolInvoker, ToolResult  # noqa: E402

KB = 1024
MB = 1024 * KB

R = TypeVar("R")


# --- the tools ------------------------------------------------------------------------------


async def ints(values: list[int]) -> str:
    return ""


async def blob(data: bytes) -> str:
    return ""


async def anything(value: JsonValue) -> str:
    return ""


async def text(body: str) -> str:
    return ""


async def table(entries: dict[str, int]) -> str:
    return ""


TOOLS: dict[str, Tool[..., Any]] = {
    "ints": Tool.create(ints),
    "blob": Tool.create(blob),
    "anything": Tool.create(anything),
    "text": Tool.create(text),
    "table": Tool.create(table),
}


# --- the documents ------------------------------------------------------------------------------


def _repeat_items(head: str, item: str, tail: str, size: int, sep: str = ",") -> str:
    n = max(1, (size - len(head) - len(tail)) // (len(item) + len(sep)))
    return head + sep.join([item] * n) + tail


def _keys(size: int, duplicate: bool) -> str:
    parts: list[str] = []
    total = 12
    i = 0
    while total < size:
        part = f'"k":{i}' if duplicate else f'"k{i}":{i}'
        parts.append(part)
        total += len(part) + 1
        i += 1
    return '{"entries":{' + ",".join(parts) + "}}"


def _small_ints(size: int) -> str:
    parts: list[str] = []
    total = 12
    i = 0
    while total < size:
        part = str(i % 1000)
        parts.append(part)
        total += len(part) + 1
        i += 1
    return '{"values":[' + ",".join(parts) + "]}"


def _base64(size: int) -> str:
    raw = os.urandom(max(3, (size - 12) * 3 // 4 // 3 * 3))
    return '{"data":"' + base64.b64encode(raw).decode("ascii") + '"}'


def _deep(size: int) -> str:
    depth = max(1, (size - 12) // 2)
    return '{"value":' + "[" * depth + "]" * depth + "}"


def _deep_objects(size: int) -> str:
    depth = max(1, (size - 13) // 5)
    return '{"value":' + '{"":' * depth + "0" + "}" * depth + "}"


def _deep_pairs(size: int) -> str:
    depth = max(1, (size - 13) // 4)
    return '{"value":' + "[" * depth + "0" + ",0]" * depth + "}"


def _big_digits(size: int) -> str:
    number = "9" * 4000  # under the interpreter's 4,300-digit limit: json.loads reads it too
    return _repeat_items('{"values":[', number, "]}", size)


SHAPES: dict[str, tuple[str, Callable[[int], str]]] = {
    "huge exponents": ("ints", lambda n: _repeat_items('{"values":[', "1e4299", "]}", n)),
    "base64": ("blob", _base64),
    "deep nesting": ("anything", _deep),
    "deep objects": ("anything", _deep_objects),
    "deep two-item arrays": ("anything", _deep_pairs),
    "long string": ("text", lambda n: '{"body":"' + "a" * max(1, n - 11) + '"}'),
    "many keys": ("table", lambda n: _keys(n, False)),
    "duplicate keys": ("table", lambda n: _keys(n, True)),
    "many small ints": ("ints", _small_ints),
    "big-digit numbers": ("ints", _big_digits),
}


# --- measuring ------------------------------------------------------------------------------------


def _cpu(op: Callable[[], object], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        try:
            op()
        except Exception:
            pass  # json.loads on the deepest document: RecursionError; still a cost
        best = min(best, time.process_time() - start)
    return best


async def _with_ticker(call: Callable[[], Awaitable[R]]) -> tuple[R, float, float]:
    """Run ``call`` beside a ticker; the CPU time of the call and the loop's longest stall (s)."""
    loop = asyncio.get_running_loop()
    stall = 0.0
    done = False

    async def ticker() -> None:
        nonlocal stall
        while not done:
            before = loop.time()
            await asyncio.sleep(0.001)
            stall = max(stall, loop.time() - before - 0.001)

    task = asyncio.create_task(ticker())
    await asyncio.sleep(0)  # the ticker is waiting before the call starts
    start = time.process_time()
    result = await call()
    cpu = time.process_time() - start
    done = True
    await task
    return result, cpu, stall


async def _busy_thread(seconds: float) -> ToolResult:
    """Pure Python work in the loop's default executor: it gives up the GIL every switch
    interval, so the stall it causes is the machine's own (scheduling, other sessions)."""

    def spin() -> None:
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            pass

    await asyncio.get_running_loop().run_in_executor(None, spin)
    return ToolResult.failure("not a tool: only its stall counts")


def measure_stall_floor(repeat: int) -> tuple[float, float]:
    """The longest stall beside a thread that never holds the GIL for long: (max, median) ms."""
    stalls = [asyncio.run(_with_ticker(lambda: _busy_thread(0.2)))[2] * 1e3 for _ in range(repeat)]
    return max(stalls), statistics.median(stalls)


def _invoke(t: Tool[..., Any], doc: str) -> tuple[ToolResult, float, float]:
    return asyncio.run(_with_ticker(lambda: ToolInvoker().invoke(t, doc)))


def _invoke_peak(t: Tool[..., Any], doc: str) -> int:
    """The peak memory ``tracemalloc`` sees during one ``invoke`` (bytes): traced from just before
    the call to its end, inside a running loop with a warmed invoker, so what is counted is the
    call's own memory and not the event loop's or the invoker's creation."""

    async def run() -> int:
        invoker = ToolInvoker()
        await invoker.invoke(t, "{}")
        tracemalloc.start()
        try:
            await invoker.invoke(t, doc)
            return tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()

    return asyncio.run(run())


def _loads_quietly(doc: str) -> object:
    try:
        return json.loads(doc)
    except RecursionError:
        return None


def _peak(op: Callable[[], object]) -> int:
    tracemalloc.start()
    try:
        op()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def measure_documents(sizes: list[int], repeat: int) -> float:
    print(
        f"{'document':<20} {'size':>8} {'invoke CPU':>11} {'bind CPU':>10} {'json.loads':>11} {'ratio':>7} "
        f"{'peak MB':>8} {'MB/MB in':>9} {'json.loads MB/MB':>17} {'stall ms':>9} {'median':>7}  result"
    )
    for t in TOOLS.values():  # compile each binder and warm the invoker before anything is measured
        _invoke(t, "{}")
    worst = (0.0, "")
    worst_memory = (0.0, "")
    worst_stall = (0.0, "")
    worst_typical = (0.0, "")
    for name, (tool_name, make) in SHAPES.items():
        t = TOOLS[tool_name]
        for size in sizes:
            doc = make(size)
            floor = _cpu(lambda: json.loads(doc), repeat)
            bind = _cpu(lambda: t.bind(doc), repeat)  # ArgumentError for the refused ones
            runs = [_invoke(t, doc) for _ in range(repeat)]
            cpu = min(r[1] for r in runs)
            stall = max(r[2] for r in runs)
            typical = statistics.median(r[2] for r in runs)
            result = runs[0][0]
            peak = _invoke_peak(t, doc)
            per_mb = peak / MB / (len(doc) / MB)
            floor_per_mb = _peak(lambda: _loads_quietly(doc)) / MB / (len(doc) / MB)
            ratio = bind / floor if floor > 0 else float("inf")
            label = f"{name} {_size_text(size)}"
            shown = "ok" if not result.is_error else (result.error or "")[:60].replace("\n", " ")
            print(
                f"{name:<20} {_size_text(len(doc)):>8} {cpu * 1e3:>9.2f}ms {bind * 1e3:>8.2f}ms {floor * 1e3:>9.2f}ms {ratio:>6.1f}x "
                f"{peak / MB:>8.2f} {per_mb:>9.1f} {floor_per_mb:>17.1f} {stall * 1e3:>9.1f} {typical * 1e3:>7.1f}  {shown}"
            )
            worst = max(worst, (ratio, label))
            worst_memory = max(worst_memory, (per_mb, label))
            if size <= MB:
                worst_stall = max(worst_stall, (stall * 1e3, label))
                worst_typical = max(worst_typical, (typical * 1e3, label))
    floor_max, floor_median = measure_stall_floor(repeat)
    print(
        f"{'(a thread of pure Python work, 0.2 s: the machine' + chr(39) + 's own stall)':<96} {floor_max:>9.1f} {floor_median:>7.1f}"
    )
    print()
    print(f"TARGET bind <= 20x json.loads: worst {worst[0]:.1f}x ({worst[1]}) {'met' if worst[0] <= 20 else 'MISSED'}")
    print(
        f"TARGET peak memory <= 50 MB per MB of input: worst {worst_memory[0]:.1f} ({worst_memory[1]}) "
        f"{'met' if worst_memory[0] <= 50 else 'MISSED'}"
    )
    print(
        f"TARGET loop stall <= 50 ms up to 1 MB: worst {worst_stall[0]:.1f} ms ({worst_stall[1]}) "
        f"{'met' if worst_stall[0] <= 50 else 'MISSED'}"
    )
    print(
        f"  (the median over {repeat} runs of each run's longest stall: worst {worst_typical[0]:.1f} ms ({worst_typical[1]}); "
        f"beside pure Python work {floor_max:.1f} ms, median {floor_median:.1f} ms)"
    )
    return worst[0]


def _size_text(n: int) -> str:
    if n >= MB:
        return f"{n / MB:.1f} MB"
    return f"{n / KB:.0f} KB" if n >= KB else f"{n} B"


# --- dispatch: one reply with many tool calls ------------------------------------------------------


def add(a: int, b: int) -> int:
    return a + b


ADD = Tool.create(add)


def dispatch_reply(calls: int) -> str:
    """An OpenAI Responses reply of ``calls`` ``function_call`` items, as the API writes it."""
    compact = {"separators": (",", ":")}
    output = [
        {
            "type": "function_call",
            "call_id": f"c{i}",
            "name": "add",
            "arguments": json.dumps({"a": i, "b": 2}, **compact),
        }
        for i in range(calls)
    ]
    return json.dumps({"id": "resp_1", "object": "response", "output": output}, **compact)


def measure_dispatch(counts: list[int], repeat: int) -> tuple[float, float]:
    """Per reply: ``dispatch`` CPU (worker threads included) / ``json.loads`` CPU of the same
    reply, and the loop's longest stall; the worst ratio, and the worst stall up to 1 MB."""
    from onellm_runtime.providers import dispatch

    asyncio.run(dispatch("openai", json.loads(dispatch_reply(2)), [ADD]))  # imports and compiles first
    print(
        f"{'calls':>7} {'size':>8} {'dispatch CPU':>13} {'json.loads':>11} {'ratio':>7} {'stall ms':>9} {'stall/loads':>12}"
    )
    worst_ratio = worst_stall = 0.0
    for count in counts:
        doc = dispatch_reply(count)
        floor = _cpu(lambda: json.loads(doc), repeat)
        reply = json.loads(doc)  # as an SDK hands it over: parsed (dispatch reads it, never changes it)
        cpu, stall = float("inf"), 0.0
        for _ in range(repeat):  # each run's Dispatch dropped before the next: every run starts on the same heap
            done, run_cpu, run_stall = asyncio.run(_with_ticker(lambda: dispatch("openai", reply, [ADD])))
            if any(r.is_error for r in done.results):
                raise SystemExit("dispatch answered a call with an error: the measure is wrong")
            del done
            cpu, stall = min(cpu, run_cpu), max(stall, run_stall)
        ratio = cpu / floor if floor > 0 else float("inf")
        print(
            f"{count:>7,} {_size_text(len(doc)):>8} {cpu * 1e3:>11.1f}ms {floor * 1e3:>9.2f}ms {ratio:>6.1f}x "
            f"{stall * 1e3:>9.1f} {stall / floor if floor > 0 else float('inf'):>11.1f}x"
        )
        worst_ratio = max(worst_ratio, ratio)
        if len(doc) <= MB:
            worst_stall = max(worst_stall, stall * 1e3)
    print()
    print(f"TARGET dispatch <= 20x json.loads: worst {worst_ratio:.1f}x {'met' if worst_ratio <= 20 else 'MISSED'}")
    print(
        f"TARGET dispatch loop stall <= 50 ms up to 1 MB: worst {worst_stall:.1f} ms "
        f"{'met' if worst_stall <= 50 else 'MISSED'}"
    )
    return worst_ratio, worst_stall


# --- bytes: peak memory of a valid large argument -----------------------------------------------

_FORMER_BASE64 = re.compile(r"(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?")


def measure_base64(size: int) -> None:
    from onellm_runtime.core import formats

    encoded = base64.b64encode(os.urandom(size * 3 // 4)).decode("ascii")
    doc = '{"data":"' + encoded + '"}'
    t = TOOLS["blob"]
    rows: list[tuple[str, Callable[[], object]]] = [
        ("formats.read_base64 (binascii)", lambda: formats.read_base64(encoded)),
        (
            "the former regex fullmatch, then binascii",
            lambda: _FORMER_BASE64.fullmatch(encoded) and base64.b64decode(encoded),
        ),
        ("bind the whole document", lambda: t.bind(doc)),
    ]
    print(f"valid base64 argument of {_size_text(len(encoded))}: peak memory (tracemalloc)")
    for label, op in rows:
        peak = _peak(op)
        print(f"  {label:<44} {peak / MB:>8.1f} MB  ({peak / len(encoded):.2f} bytes per input character)")


# --- decoration ------------------------------------------------------------------------------------


def measure_literal(n: int) -> None:
    values = tuple(f"v{i}" for i in range(n))

    def pick(choice: Any) -> str:
        return ""

    pick.__annotations__["choice"] = Literal.__getitem__(values)  # type: ignore[attr-defined]
    start = time.process_time()
    Tool.create(pick)
    print(f"Tool.create with a Literal of {n:,} values: {(time.process_time() - start) * 1e3:.1f} ms CPU")


def _child_cpu(args: list[str], cwd: str) -> float:
    start = os.times()
    subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=1200, check=False)
    end = os.times()
    return (end.children_user - start.children_user) + (end.children_system - start.children_system)


def measure_enum_under_mypy(n: int) -> None:
    members = "\n".join(f"    M{i} = {i}" for i in range(n))
    aliases = "\n".join(f"    A{i} = {i}" for i in range(0, n, max(1, n // 10)))
    module = (
        "import enum\nfrom onellm_runtime import tool\n\n\n"
        f"class Big(enum.Enum):\n{members}\n{aliases}\n\n\n"
        "@tool\ndef pick(x: Big) -> str:\n    return ''\n"
    )
    with tempfile.TemporaryDirectory() as tmp:
        Path(tmp, "big_enum.py").write_text(module)
        base = [sys.executable, "-m", "mypy", "--no-incremental", "--follow-imports=silent", "big_enum.py"]
        plain = _child_cpu([*base, "--config-file", os.devnull], tmp)
        Path(tmp, "with_plugin.ini").write_text("[mypy]\nplugins = onellm_mypy\n")
        plugged = _child_cpu([*base, "--config-file", "with_plugin.ini"], tmp)
    print(
        f"mypy on a {n:,}-member Enum (+{len(range(0, n, max(1, n // 10)))} aliases): "
        f"{plain:.2f} s CPU without the plugin, {plugged:.2f} s with it ({plugged / plain:.2f}x)"
    )


# --- the MCP server --------------------------------------------------------------------------------


def _frame(doc: str) -> str:
    return '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":' + doc + "}}"


def measure_mcp_frames(sizes: list[int], repeat: int) -> None:
    """Reading each hostile document as a ``tools/call`` frame, as the server does before the SDK
    (``onellm_runtime.mcp._transport.screen``: the scan, and the SDK's parse of the rewritten frame),
    against ``json.loads`` of the same frame."""
    from onellm_runtime.mcp._transport import screen

    screen(_frame("{}"))  # the SDK's message types are loaded on first use: not a cost of any frame
    print(f"{'frame':<26} {'size':>8} {'screen CPU':>11} {'json.loads':>11} {'ratio':>7} {'MB/MB in':>9}")
    worst = (0.0, "")
    worst_memory = (0.0, "")
    for name, (_, make) in SHAPES.items():
        for size in sizes:
            frame = _frame(make(size))
            cost = _cpu(lambda: screen(frame), repeat)
            floor = _cpu(lambda: json.loads(frame), repeat)
            ratio = cost / floor if floor > 0 else float("inf")
            per_mb = _peak(lambda: screen(frame)) / len(frame)
            label = f"{name} {_size_text(size)}"
            worst = max(worst, (ratio, label))
            worst_memory = max(worst_memory, (per_mb, label))
            print(
                f"frame {name:<20} {_size_text(len(frame)):>8} {cost * 1e3:>9.2f}ms {floor * 1e3:>9.2f}ms "
                f"{ratio:>6.1f}x {per_mb:>9.1f}"
            )
    print(
        f"TARGET frame screening <= 20x json.loads: worst {worst[0]:.1f}x ({worst[1]}) {'met' if worst[0] <= 20 else 'MISSED'}"
    )
    print(
        f"TARGET frame screening peak memory <= 50 MB per MB of input: worst {worst_memory[0]:.1f} ({worst_memory[1]}) "
        f"{'met' if worst_memory[0] <= 50 else 'MISSED'}"
    )


def _initialize_seconds(url: str, repeat: int) -> float:
    """The median time a normal client takes to connect and finish ``initialize`` (s)."""
    from mcp import Client

    async def once() -> float:
        start = time.perf_counter()
        async with asyncio.timeout(60), Client(url, mode="legacy"):
            return time.perf_counter() - start

    return statistics.median(asyncio.run(once()) for _ in range(repeat))


def measure_mcp_half_open(half_open: int, repeat: int) -> None:
    """A normal client's ``initialize`` latency against ``onellm serve-mcp --http`` alone, and with
    ``half_open`` connections each holding half a request head (the server's open-file limit is the
    machine's default; the half-open connections are opened first and held during the measurement)."""
    import socket

    if sys.platform != "win32":
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        wanted = min(hard, half_open + 256)
        if soft < wanted:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    tools = ROOT / "tests" / "mcp_tools.py"
    server = subprocess.Popen(
        [sys.executable, "-m", "onellm_runtime", "serve-mcp", "--http", "0", str(tools)],
        cwd=ROOT,
        stdin=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    held: list[socket.socket] = []
    try:
        assert server.stderr is not None
        found = re.search(r"(http://127\.0\.0\.1:(\d+)/mcp)", server.stderr.readline())
        assert found is not None, "the server did not say where it listens"
        url, port = found.group(1), int(found.group(2))
        alone = _initialize_seconds(url, repeat)
        for _ in range(half_open):
            connection = socket.create_connection(("127.0.0.1", port), timeout=60)
            connection.sendall(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: appl")
            held.append(connection)
        crowded = _initialize_seconds(url, repeat)
    finally:
        for connection in held:
            connection.close()
        server.kill()
        server.wait(60)
    print(
        f"initialize, median of {repeat}: {alone * 1e3:.1f} ms alone, {crowded * 1e3:.1f} ms beside "
        f"{half_open:,} half-open connections ({crowded / alone:.2f}x)"
    )


# --- the static evaluator: constant values read from hostile source ---------------------------------


def _evaluator_modules(size: int) -> dict[str, str]:
    """Modules of about ``size`` bytes, one per way source can ask the static evaluator for more
    than it is: each tool's ``Description(...)`` argument is one read."""
    head = "from typing import Annotated\nfrom onellm_runtime import Description, tool\n"

    def tools(template: str, fill: int) -> str:
        out: list[str] = []
        total, i = 0, 0
        while total < fill:
            line = f"@tool\ndef t{i}(a: Annotated[str, Description({template.format(i=i)})]) -> str:\n    return a\n"
            out.append(line)
            total += len(line)
            i += 1
        return "".join(out)

    refs = 3000
    long = "S = '" + "x" * max(1, size - 4 * refs - 200) + "'\n"
    refs_line = "T = (" + ", ".join(["S"] * refs) + ")\n"
    ones = "T = (" + ", ".join(["1"] * min(9000, size // 8)) + ")\n"
    piece = "A = '" + "a" * min(40_000, size // 4) + "'\n"
    hex_int = "H = 0x" + "f" * (size - 200) + "\n"
    return {
        "tuple of refs, f-string": head + long + refs_line + tools('f"{{T}}"', 0),
        "tuple of refs as a value": head + long + refs_line + tools("T", 0),
        "many reads of one tuple": head + ones + tools('f"{{T}}{i}"', size - len(ones)),
        "many format widths": head + tools('f"{{{i}:>10000}}"', size),
        "many concatenations": head + piece + tools("A + A + '{i}'", size - len(piece)),
        "a huge integer literal": head + hex_int + tools('f"{{H % 7}}"', 0),
    }


def _parsed(text: str) -> tuple[Any, Any]:
    """``text`` parsed by the static side's source cache: the module and the cache."""
    from onellm_mypy import source as src

    cache = src.SourceCache()
    cache.texts["hostile.py"] = text
    return cache.module("hostile.py"), cache


def _evaluate_markers(ms: Any, cache: Any) -> int:
    """Read every ``Description`` argument of a parsed module as the static side reads marker
    arguments (names bound once at module level, the cache's allowance); how many were computed.
    The values are kept until the end, as the static side keeps what it read in the tools' models."""
    from onellm_mypy import source as src
    from onellm_mypy.compute import evaluate

    cache.new_generation()  # each measured run starts with the allowance whole

    def resolve(expr: ast.expr) -> src.Resolution:
        if isinstance(expr, ast.Name):
            found = ms.bindings.get(expr.id, [])
            if len(found) == 1 and found[0].value is not None:
                return src.Bound(found[0].value, resolver)
        return None

    resolver = src.Resolver(resolve, cache.allowance)
    kept: list[object] = []
    for node in ast.walk(ms.tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.args:
            if node.func.id == "Description":
                kept.append(evaluate(node.args[0], resolver))
    return sum(not src.not_computed(value) for value in kept)


def _mypy_peak(module: str, plugin: bool) -> tuple[float, float]:
    """mypy on ``module`` in a child: its CPU seconds and peak resident memory (MB)."""
    with tempfile.TemporaryDirectory() as tmp:
        Path(tmp, "hostile_module.py").write_text(module)
        Path(tmp, "mypy.ini").write_text("[mypy]\n" + ("plugins = onellm_mypy\n" if plugin else ""))
        probe = (
            "import resource, sys\nfrom mypy import api\n"
            "api.run(['--no-incremental', '--config-file', 'mypy.ini', 'hostile_module.py'])\n"
            "u = resource.getrusage(resource.RUSAGE_SELF)\n"
            "print(u.ru_utime + u.ru_stime, u.ru_maxrss)\n"
        )
        out = subprocess.run([sys.executable, "-c", probe], cwd=tmp, capture_output=True, text=True, timeout=1200)
        cpu, rss = out.stdout.split()[-2:]
    return float(cpu), int(rss) / KB


def measure_evaluator(size: int, repeat: int, with_mypy: bool) -> tuple[float, float]:
    """Per module: the CPU of reading every marker argument against ``ast.parse`` of the same
    bytes, and the reads' peak memory per MB of input; returns the worst of each."""
    print(
        f"{'module':<26} {'size':>8} {'computed':>8} {'reads ms':>9} {'/ast.parse':>10} {'peak MB':>8} {'MB/MB in':>9}"
    )
    _evaluate_markers(*_parsed("from x import y\nDescription(1)\n"))  # imports, before anything is timed
    worst, worst_memory = 0.0, 0.0
    for label, text in _evaluator_modules(size).items():
        ms, cache = _parsed(text)
        cpu = _cpu(lambda: _evaluate_markers(ms, cache), repeat)
        parse = _cpu(lambda: ast.parse(text), repeat)
        computed = _evaluate_markers(ms, cache)
        peak = _peak(lambda: _evaluate_markers(ms, cache))
        worst = max(worst, cpu / parse)
        worst_memory = max(worst_memory, peak / len(text))
        print(
            f"{label:<26} {_size_text(len(text)):>8} {computed:>8} {cpu * 1e3:>9.1f} {cpu / parse:>9.1f}x "
            f"{peak / MB:>8.1f} {peak / len(text):>9.1f}"
        )
    if with_mypy:
        module = _evaluator_modules(size)["tuple of refs, f-string"]
        plain_cpu, plain_rss = _mypy_peak(module, False)
        cpu, rss = _mypy_peak(module, True)
        print(
            f"mypy on the first module ({_size_text(len(module))}): {plain_cpu:.1f} s CPU and {plain_rss:.0f} MB peak "
            f"without the plugin, {cpu:.1f} s and {rss:.0f} MB with it "
            f"({(rss - plain_rss) / (len(module) / MB):.0f} MB more per MB of input)"
        )
    return worst, worst_memory


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--smoke", action="store_true", help="tiny sizes, seconds: checks that every part runs")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--skip-mypy", action="store_true", help="leave out the mypy run (the slowest part)")
    args = parser.parse_args()
    sizes = [KB, 8 * KB] if args.smoke else [KB, 64 * KB, MB]
    repeat = 1 if args.smoke else args.repeat
    print(f"Python {sys.version.split()[0]}, {'smoke' if args.smoke else 'full'} run")
    print()
    print("1. Hostile documents through ToolInvoker.invoke")
    worst = measure_documents(sizes, repeat)
    print()
    print("2. One reply with many tool calls through dispatch")
    measure_dispatch([100, 1_000] if args.smoke else [1_000, 16_000], repeat)
    print()
    print("3. bytes")
    measure_base64(64 * KB if args.smoke else 50 * MB)
    print()
    print("4. Decoration")
    measure_literal(200 if args.smoke else 20_000)
    if not args.skip_mypy:
        measure_enum_under_mypy(100 if args.smoke else 10_000)
    print()
    print("4. The MCP server")
    measure_mcp_frames(sizes, repeat)
    measure_mcp_half_open(50 if args.smoke else 1_100, 1 if args.smoke else 5)
    print()
    print("5. The static evaluator (constant values in markers, defaults, options)")
    cpu, memory = measure_evaluator(64 * KB if args.smoke else MB, repeat, not args.skip_mypy)
    print(f"TARGET evaluator <= 20x ast.parse: worst {cpu:.1f}x {'met' if cpu <= 20 else 'MISSED'}")
    print(
        f"TARGET evaluator peak memory <= 50 MB per MB of input: worst {memory:.1f} {'met' if memory <= 50 else 'MISSED'}"
    )
    print()
    print(f"worst ratio of bind CPU time to json.loads CPU time: {worst:.1f}x")


if __name__ == "__main__":
    main()
