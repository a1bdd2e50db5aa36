"""``ToolContext[Deps]`` at run time, and progress/log events reaching their listeners.

The static side of typed services (mypy and pyright read ``ctx.services`` as ``Deps``) is
held by ``tests/typing/tools_usage.py``.
"""

from __future__ import annotations

import threading
import warnings
from dataclasses import dataclass
from typing import Any

import pytest
from async_support import run

from onellm_runtime import ToolContext, ToolInvoker, tool
from onellm_runtime.context import ToolEvent


@dataclass
class Deps:
    rates: dict[str, float]


@tool
def convert(amount: float, currency: str, context: ToolContext[Deps]) -> float:
    """Convert an amount to euros."""
    context.progress(1, 2, "rate found")
    context.log(f"rate {context.services.rates[currency]}")
    return amount * context.services.rates[currency]


@tool
def untyped(key: str, context: ToolContext) -> str:
    return str(context.services[key])


def test_typed_context_is_a_context_parameter() -> None:
    assert convert.input_schema == {
        "type": "object",
        "properties": {"amount": {"type": "number"}, "currency": {"type": "string"}},
        "required": ["amount", "currency"],
        "additionalProperties": False,
    }


def test_the_invokers_services_reach_a_typed_context() -> None:
    result = run(lambda: ToolInvoker(services=Deps({"USD": 0.5})).invoke(convert, '{"amount": 4, "currency": "USD"}'))
    assert (result.is_error, result.text) == (False, "2.0")


def test_the_mapping_form_keeps_working() -> None:
    result = run(lambda: ToolInvoker(services={"db": "postgres"}).invoke(untyped, '{"key": "db"}'))
    assert result.text == "postgres"
    assert ToolContext().services == {}


def test_events_reach_every_subscriber_from_the_tools_thread() -> None:
    seen: list[tuple[ToolEvent, str]] = []
    context: ToolContext[Deps] = ToolContext("call-7", Deps({"USD": 0.5}))
    context.subscribe(lambda e: seen.append((e, threading.current_thread().name)))
    later: list[ToolEvent] = []
    context.subscribe(later.append)
    result = run(lambda: ToolInvoker().invoke(convert, {"amount": 1, "currency": "USD"}, context))
    assert result.text == "0.5"
    assert (
        [e for e, _ in seen]
        == later
        == [
            ToolEvent("progress", "convert", "call-7", "rate found", 1, 2),
            ToolEvent("log", "convert", "call-7", "rate 0.5", level="info"),
        ]
    )
    assert all(name != threading.main_thread().name for _, name in seen)  # a sync tool reports from its worker


def test_a_failing_listener_does_not_fail_the_call() -> None:
    def broken(event: Any) -> None:
        raise RuntimeError("listener bug")

    got: list[ToolEvent] = []
    context = ToolContext(services=Deps({"USD": 2.0}), listeners=[broken, got.append])
    with pytest.warns(RuntimeWarning, match="^a ToolContext listener raised RuntimeError: listener bug$"):
        context.log("direct")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        result = run(lambda: ToolInvoker().invoke(convert, {"amount": 1, "currency": "USD"}, context))
    assert (result.is_error, result.text, len(got)) == (False, "2.0", 3)


TWO_CONTEXTS = """\
from dataclasses import dataclass

from onellm_runtime import FilePart, ImagePart, TextPart, ToolContext, tool


@dataclass
class Deps:
    rates: dict[str, float]


@tool
def convert(amount: float, context: ToolContext[Deps]) -> float:
    return amount * context.services.rates["EUR"]


@tool
def chart() -> list[TextPart | ImagePart | FilePart]:
    return []


@tool
def both(a: int, first: ToolContext[Deps], second: ToolContext) -> str:
    return ""
"""


def test_static_side_reads_typed_contexts_and_media_parts(tmp_path: Any) -> None:
    """mypy's side: ``ToolContext[Deps]`` is a context (OLT009 counts it), media parts are parts."""
    import contextlib
    import io
    import json

    from onellm_runtime.cli.main import main

    path = tmp_path / "typed_tools.py"
    path.write_text(TWO_CONTEXTS)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["check", str(path)]) == 1
    assert out.getvalue().splitlines()[0] == (
        f"{path}:22:44: error: Tool 'both': Parameter 'second': a tool takes at most one ToolContext parameter "
        "('first' is one already); remove 'second'  [OLT009]"
    )
    path.write_text(TWO_CONTEXTS[: TWO_CONTEXTS.index("@tool\ndef both")])
    printed: list[str] = []
    for mode in ("--static", "--runtime"):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            assert main(["schemas", mode, str(path)]) == 0
        printed.append(out.getvalue())
    assert printed[0] == printed[1]
    manifest = json.loads(printed[1])
    assert [(e["name"], list(e["input_schema"]["properties"]), e["output_schema"]) for e in manifest] == [
        ("convert", ["amount"], {"type": "number"}),
        ("chart", [], None),
    ]


# -- ToolContext.arguments: the document as the invoker received it, on every invoke path ------

SEEN_ARGUMENTS: list[object] = []


@tool
def echo_raw(a: int, context: ToolContext) -> int:
    SEEN_ARGUMENTS.append(context.arguments)
    return a


@tool(invocation_mode="model_choice")
async def echo_raw_later(a: int, context: ToolContext) -> int:
    SEEN_ARGUMENTS.append(context.arguments)
    return a


def _seen(call: Any) -> object:
    SEEN_ARGUMENTS.clear()
    run(call)
    assert len(SEEN_ARGUMENTS) == 1
    return SEEN_ARGUMENTS[0]


def test_arguments_is_the_raw_document_on_every_invoke_path() -> None:
    from types import MappingProxyType

    from onellm_runtime.invoking.invoker import ToolCall
    from onellm_runtime.providers import dispatch

    raw = '{ "a" : 1 }'  # spacing kept as sent
    assert _seen(lambda: ToolInvoker().invoke(echo_raw, raw)) == raw
    assert _seen(lambda: ToolInvoker().invoke(echo_raw, b'{"a":2}')) == b'{"a":2}'
    given = {"a": 3}
    seen = _seen(lambda: ToolInvoker().invoke(echo_raw, given))
    assert isinstance(seen, MappingProxyType) and seen == given
    with pytest.raises(TypeError):
        seen["a"] = 4  # type: ignore[index]
    assert _seen(lambda: ToolInvoker().invoke_all([ToolCall(echo_raw, '{"a":4}', "c1")])) == '{"a":4}'
    reply = {"output": [{"type": "function_call", "call_id": "c2", "name": "echo_raw", "arguments": '{"a": 5}'}]}
    assert _seen(lambda: dispatch("openai", reply, [echo_raw])) == '{"a": 5}'

    async def background() -> None:
        async with ToolInvoker() as invoker:
            document = '{"a": 6, "invocationMode": "background"}'
            handle = await invoker.invoke(echo_raw_later, document)
            assert handle.parts[0].value["job"] in invoker.jobs  # type: ignore[attr-defined]
            await invoker.jobs[handle.parts[0].value["job"]].wait()  # type: ignore[attr-defined]

    assert _seen(background) == '{"a": 6, "invocationMode": "background"}'


def test_arguments_has_no_setter_and_is_none_before_a_call() -> None:
    context = ToolContext()
    assert context.arguments is None
    with pytest.raises(AttributeError):
        context.arguments = "{}"  # type: ignore[misc]
