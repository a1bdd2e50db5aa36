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
