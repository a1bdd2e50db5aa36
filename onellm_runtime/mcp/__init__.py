"""Serving tools to MCP clients, on the official ``mcp`` package (the ``mcp`` extra).

``serve_mcp(tools, services=..., approve=...)`` serves a tool set over stdio, or with
``http_port`` over streamable HTTP on loopback; ``onellm serve-mcp MODULE... [--http PORT]
[--services MODULE:ATTR]`` runs it over the tools the modules define. The parts:

| Module | Job |
|---|---|
| ``_app`` | the SDK's lowlevel ``Server`` for one ``ToolSet``: ``tools/list``, ``tools/call`` through ``dispatch``, progress and log notifications, the job tools |
| ``_approval`` | whether a ``requires_approval`` call runs: the ``approve`` callback (held to True/False) or an elicitation question |
| ``_services`` | the services object, made and entered for the server's lifetime |
| ``_frames``, ``_transport`` | each JSON-RPC frame read before the SDK parses it: the arguments kept as written, every request answered |
| ``_http`` | the HTTP bounds: connections, header, idle and body timeouts |

``docs/mcp.md`` is the guide.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import ipaddress
import os
import signal
import sys
import threading
from collections.abc import AsyncGenerator, Generator, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, cast

from ..errortext import install_hint
from ._app import server

if TYPE_CHECKING:
    from mcp.server.lowlevel import Server

    from ..invoking.invoker import ToolInvoker
    from ..providers import Approver
    from ..tool import Tool

__all__ = ["server", "serve_mcp", "serve_stdio", "serve_http", "tools_in", "main"]

_LOOPBACK_NAMES = ("localhost",)

Tools = Iterable["Tool[..., Any]"] | Mapping[str, "Tool[..., Any]"]


def _require_mcp() -> None:
    import importlib.util

    if importlib.util.find_spec("mcp") is None:
        raise ModuleNotFoundError(f"serving MCP needs the mcp package: {install_hint('mcp')}", name="mcp")


@contextlib.asynccontextmanager
async def _serving(
    tools: Tools, services: Any, invoker: ToolInvoker | None, options: dict[str, Any]
) -> AsyncGenerator[Server[Any]]:
    """The server for ``tools``, with its services entered; on leaving, the jobs stop, then the services exit."""
    _require_mcp()
    from ..invoking.invoker import ToolInvoker
    from ..toolset import as_tool_set
    from ._services import held

    if invoker is not None and services is not None:
        raise ValueError("give services= to serve_mcp or to the ToolInvoker, not to both")
    tool_set = as_tool_set(tools)  # a repeated name fails here, before any service starts
    async with held(services) as given:
        runner = invoker if invoker is not None else ToolInvoker(services=given)
        try:
            yield server(tool_set, invoker=runner, raw_arguments=True, **options)
        finally:
            await runner.aclose()


async def serve_stdio(
    tools: Tools,
    *,
    services: Any = None,
    approve: Approver | None = None,
    invoker: ToolInvoker | None = None,
    name: str = "onellm",
    version: str = "",
) -> None:
    """Serve ``tools`` over stdin/stdout until the client closes the connection."""
    async with _serving(tools, services, invoker, {"approve": approve, "name": name, "version": version}) as app:
        from mcp.server.stdio import stdio_server

        from ._transport import ScreenedLines

        lines = ScreenedLines()
        async with stdio_server(stdin=cast(Any, lines)) as (read, write):
            lines.answer_on(write)
            await app.run(read, write, app.create_initialization_options())


def _loopback(host: str) -> bool:
    if host in _LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _uvicorn_server(config: Any) -> Any:
    """A ``uvicorn.Server`` that stops on SIGINT/SIGTERM without raising the signal again afterwards
    (uvicorn's own would end the process before the services exit)."""
    import uvicorn

    class Server(uvicorn.Server):
        @contextlib.contextmanager
        def capture_signals(self) -> Generator[None]:
            if threading.current_thread() is not threading.main_thread():
                yield
                return
            before = {s: signal.signal(s, self.handle_exit) for s in (signal.SIGINT, signal.SIGTERM)}
            try:
                yield
            finally:
                for s, handler in before.items():
                    signal.signal(s, handler)

    return Server(config)


async def serve_http(
    tools: Tools,
    *,
    host: str = "127.0.0.1",
    port: int = 8000,
    path: str = "/mcp",
    services: Any = None,
    approve: Approver | None = None,
    invoker: ToolInvoker | None = None,
    name: str = "onellm",
    version: str = "",
    max_connections: int = 100,
    header_timeout: float = 10.0,
    idle_timeout: float = 30.0,
    body_timeout: float = 30.0,
    started: asyncio.Event | None = None,
    ports: list[int] | None = None,
) -> None:
    """Serve ``tools`` over streamable HTTP at ``http://host:port/path`` until cancelled or signalled.

    Only a loopback host is served (a wider bind needs authentication this server does
    not have). The bounds are ``_http``'s. ``port=0`` takes a free port: it is appended to
    ``ports`` and ``started`` is set once the server listens.
    """
    if not _loopback(host):
        raise ValueError(f"serve_http serves loopback hosts only (127.0.0.1, ::1, localhost), not {host!r}")
    async with _serving(tools, services, invoker, {"approve": approve, "name": name, "version": version}) as app:
        import uvicorn

        from ._http import Limits, guarded_protocol, screened_app

        limits = Limits(
            max_connections=max_connections,
            header_timeout=header_timeout,
            idle_timeout=idle_timeout,
            body_timeout=body_timeout,
        )
        web = screened_app(app.streamable_http_app(streamable_http_path=path, host=host), path, limits)
        config = uvicorn.Config(
            web,
            host=host,
            port=port,
            log_level="warning",
            lifespan="on",
            http=guarded_protocol(limits),
            timeout_keep_alive=int(idle_timeout) or 1,
            backlog=limits.accept_burst,
            timeout_graceful_shutdown=5,
        )
        http = _uvicorn_server(config)

        async def announce() -> None:
            while not http.started:
                await asyncio.sleep(0.01)
            if ports is not None:
                ports.extend(s.getsockname()[1] for srv in http.servers for s in srv.sockets)
            if started is not None:
                started.set()

        watcher = asyncio.ensure_future(announce())
        try:
            await http.serve()
        finally:
            watcher.cancel()


def serve_mcp(
    tools: Tools,
    *,
    services: Any = None,
    approve: Approver | None = None,
    http_port: int | None = None,
    host: str = "127.0.0.1",
    path: str = "/mcp",
    name: str = "onellm",
    version: str = "",
) -> None:
    """Serve ``tools`` to MCP clients until the client leaves (stdio) or the process is signalled (HTTP).

    ``tools``: a ``ToolSet`` or tools (made a set at once: a repeated name raises OLT007).
    ``services``: what ``ToolContext.services`` holds (an object; a zero-argument callable
    called once at start; a context manager, sync or async, entered for the server's
    lifetime). ``approve``: decides each ``requires_approval`` call, answering True or False;
    without it the client is asked through elicitation. ``http_port``: streamable HTTP at
    ``http://host:port/path`` (loopback only) instead of stdio.
    """
    options: dict[str, Any] = {"services": services, "approve": approve, "name": name, "version": version}
    if http_port is None:
        _run_until_signalled(serve_stdio(tools, **options))
    else:
        asyncio.run(serve_http(tools, host=host, port=http_port, path=path, **options))


def _run_until_signalled(serving: Any) -> None:
    """Run ``serving``; SIGTERM cancels it, so its services exit as on a normal end."""

    async def run() -> None:
        task = asyncio.ensure_future(serving)
        if sys.platform != "win32" and threading.current_thread() is threading.main_thread():
            asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, task.cancel)
        with contextlib.suppress(asyncio.CancelledError):
            await task

    asyncio.run(run())


def _module(name: str) -> Any:
    """A module by dotted name, or by the path of a ``.py`` file (its folder put on ``sys.path``)."""
    if name.endswith(".py") and os.path.exists(name):
        root, file = os.path.split(os.path.abspath(name))
        if root not in sys.path:
            sys.path.insert(0, root)
        name = file[: -len(".py")]
    return importlib.import_module(name)


def tools_in(module_names: Sequence[str]) -> list[Tool[..., Any]]:
    """The tools each module (a dotted name or a ``.py`` path) defines at its top level, in order."""
    from ..tool import Tool

    found: list[Tool[..., Any]] = []
    for name in module_names:
        module = _module(name)
        values = list(cast("dict[str, object]", vars(module)).values())
        for value in values:
            if isinstance(value, Tool) and value.__module__ == module.__name__:
                found.append(value)  # pyright: ignore[reportUnknownArgumentType]
    return found


class _Refused(Exception):
    """A command-line value ``serve-mcp`` cannot use; the message says which and why."""


def _services_named(spec: str) -> Any:
    """``MODULE:ATTR`` (``ATTR`` may be dotted) as the object it names."""
    module_name, colon, attribute = spec.rpartition(":")
    if not colon or not module_name or not attribute:
        raise _Refused(f"--services takes MODULE:ATTR (a module, a colon, a name in it), not {spec!r}")
    value: Any = _module(module_name)
    for part in attribute.split("."):
        if not hasattr(value, part):
            raise _Refused(f"--services {spec}: {module_name} has no attribute {attribute!r}")
        value = getattr(value, part)
    return value


async def _serve_http_announced(tools: Tools, services: Any, port: int) -> None:
    """``serve_http``, saying on standard error where it listens once it does (``--http 0``: a free port)."""
    started, ports = asyncio.Event(), list[int]()
    serving = asyncio.ensure_future(serve_http(tools, port=port, services=services, started=started, ports=ports))
    waiting = asyncio.ensure_future(started.wait())
    await asyncio.wait((serving, waiting), return_when=asyncio.FIRST_COMPLETED)
    if started.is_set():
        print(f"onellm: serving MCP at http://127.0.0.1:{ports[0]}/mcp", file=sys.stderr, flush=True)
    waiting.cancel()
    await serving


def main(modules: Sequence[str], http_port: int | None = None, services: str | None = None) -> int:
    """``onellm serve-mcp``: stdio by default, streamable HTTP on 127.0.0.1 with a port."""
    from ..tool import ToolDefinitionError
    from ..toolset import as_tool_set
    from ._services import ServicesError

    tools = tools_in(modules)
    if not tools:
        print(f"onellm: error: no tools found in {', '.join(modules)}", file=sys.stderr)
        return 2
    try:
        tool_set = as_tool_set(tools)
        given = _services_named(services) if services is not None else None
    except ToolDefinitionError as e:
        print(f"onellm: error: {e}", file=sys.stderr)
        return 1
    except _Refused as e:
        print(f"onellm: error: {e}", file=sys.stderr)
        return 2
    try:
        if http_port is None:
            serve_mcp(tool_set, services=given)
        else:
            asyncio.run(_serve_http_announced(tool_set, given, http_port))
    except (ServicesError, ToolDefinitionError) as e:
        print(f"onellm: error: {e}", file=sys.stderr)
        return 1
    return 0
