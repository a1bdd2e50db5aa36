"""``dispatch``: recorded replies in, each API's tool-result items out, refereed by the SDKs.

Every recorded reply (``provider_replies``) must parse with the SDK's response type; every
item ``dispatch`` writes must validate as the SDK's request type (pydantic over the SDK's
TypedDicts; Gemini's and MCP's models forbid or keep unknown fields, so they are compared
after a round trip too). The expected items are written out by hand, per API.
"""

from __future__ import annotations

import asyncio
import contextvars
import json
import threading
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Callable

import provider_replies as rec
import pytest
from anthropic.types import Message, MessageParam, ToolResultBlockParam
from async_support import WAIT
from google.genai import types as genai
from mcp_types import CallToolRequestParams, CallToolResult
from openai.types.chat import ChatCompletion, ChatCompletionMessageParam, ChatCompletionToolMessageParam
from openai.types.responses import Response, ResponseInputParam
from openai.types.responses.response_input_item_param import FunctionCallOutput
from pydantic import TypeAdapter

from onellm_runtime import FilePart, ImagePart, JsonPart, TextPart, Tool, ToolContext, ToolInvoker, ToolResult, tool
from onellm_runtime.context import ToolEvent
from onellm_runtime.invoking.invoker import BIND_OFF_LOOP_CHARS, SLICE
from onellm_runtime.providers import Dispatch, ProviderWarning, dispatch
from onellm_runtime.providers._adapter import Reply
from onellm_runtime.providers._outputs import text_only
from onellm_runtime.providers.registry import REPLIES

PROVIDERS = ["openai", "openai-chat", "anthropic", "gemini"]

RESPONSE_TYPES: dict[str, Callable[[dict[str, Any]], object]] = {
    "openai": Response.model_validate,
    "openai-chat": ChatCompletion.model_validate,
    "anthropic": Message.model_validate,
    "gemini": lambda r: genai.GenerateContentResponse.model_validate_json(json.dumps(r)),
}


def _materialized(value: Any) -> Any:
    """Pydantic validates ``Iterable[X]`` fields lazily: walk them so every item is checked."""
    if isinstance(value, dict):
        return {k: _materialized(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)) or isinstance(value, Iterator) or type(value).__name__ == "ValidatorIterator":
        return [_materialized(v) for v in value]
    return value


def _typed_dict(adapter: TypeAdapter[Any], item: Any) -> None:
    """Valid as the TypedDict, and nothing dropped (a TypedDict ignores unknown keys)."""
    assert _materialized(adapter.validate_python(item)) == item


RESULT_TYPES: dict[str, Callable[[Any], None]] = {
    "openai": lambda item: _typed_dict(TypeAdapter(FunctionCallOutput), item),
    "openai-chat": lambda item: _typed_dict(TypeAdapter(ChatCompletionToolMessageParam), item),
    "anthropic": lambda item: _typed_dict(TypeAdapter(ToolResultBlockParam), item),
    "gemini": lambda item: _same_model(genai.Part, item),
    "mcp": lambda item: _same_model(CallToolResult, item, ignore=("resultType",)),
}


def _same_model(model: Any, item: Any, ignore: tuple[str, ...] = ()) -> None:
    parsed = model.model_validate_json(json.dumps(item))
    dumped = parsed.model_dump(mode="json", by_alias=True, exclude_none=True)
    assert {k: v for k, v in dumped.items() if k not in ignore} == item


def _next_request(provider: str, reply: dict[str, Any], items: list[dict[str, Any]]) -> None:
    """The whole next request holding the reply and the answers validates too."""
    if provider == "openai":
        _typed_dict(TypeAdapter(ResponseInputParam), [*reply["output"], *items])
    elif provider == "openai-chat":
        message = {k: v for k, v in reply["choices"][0]["message"].items() if v is not None}
        TypeAdapter(list[ChatCompletionMessageParam]).validate_python([message, *items])
    elif provider == "anthropic":
        _typed_dict(TypeAdapter(MessageParam), {"role": "user", "content": items})
    else:
        genai.Content.model_validate_json(json.dumps({"role": "user", "parts": items}))


#: The item each API answers a call with: (call's index in the reply, text, is_error) -> item.
def _expected(
    provider: str, calls: list[tuple[str, str, dict[str, Any]]], texts: list[str], errors: list[bool]
) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for (cid, name, _), text, error in zip(calls, texts, errors, strict=True):
        if provider == "openai":
            out.append({"type": "function_call_output", "call_id": cid, "output": text})
        elif provider == "openai-chat":
            out.append({"role": "tool", "tool_call_id": cid, "content": text})
        elif provider == "anthropic":
            out.append({"type": "tool_result", "tool_use_id": f"toolu_0{cid[-1]}", "content": text, "is_error": error})
        else:
            out.append(
                {"functionResponse": {"id": cid, "name": name, "response": {"error" if error else "output": text}}}
            )
    return out


def _run(coro: Any) -> Any:
    return asyncio.run(coro)


@pytest.mark.parametrize("provider", PROVIDERS)
@pytest.mark.parametrize(
    ("calls", "texts", "errors"),
    [([], [], []), (rec.ONE, rec.ONE_TEXTS, [False]), (rec.THREE, rec.THREE_TEXTS, rec.THREE_ERRORS)],
    ids=["0-calls", "1-call", "3-calls"],
)
def test_recorded_replies(provider: str, calls: Any, texts: list[str], errors: list[bool]) -> None:
    reply = rec.WRITERS[provider](calls)
    parsed = RESPONSE_TYPES[provider](reply)  # the recording has the API's shape
    done: Dispatch = _run(dispatch(provider, reply, rec.TOOLS))  # type: ignore[arg-type]
    expected = _expected(provider, calls, texts, errors)
    assert done.items == expected
    assert [r.is_error for r in done.results] == errors
    assert [c.name for c in done.calls] == [name for _, name, _ in calls]
    assert done.done is (not calls) and done.ends_loop is False and done.jobs == [] and done.warnings == []
    for item in done.items:
        RESULT_TYPES[provider](item)
    if calls:
        _next_request(provider, reply, done.items)
    from_sdk: Dispatch = _run(dispatch(provider, parsed, rec.TOOLS))  # type: ignore[arg-type]
    assert from_sdk.items == expected  # the SDK's object reads as its JSON does


def test_openai_strict_null_reads_as_omitted() -> None:
    """Responses tools are strict, so an optional parameter comes back null: the default applies."""
    reply = rec.responses([("call_1", "weather", {"city": "Paris", "days": None})])
    done = _run(dispatch("openai", reply, rec.TOOLS))
    assert done.items == [{"type": "function_call_output", "call_id": "call_1", "output": "Paris: sunny for 1 day(s)"}]


def test_arguments_that_are_not_json() -> None:
    reply = rec.responses([])
    reply["output"] = [{"type": "function_call", "id": "fc_1", "call_id": "c", "name": "weather", "arguments": "{city"}]
    done = _run(dispatch("openai", reply, rec.TOOLS))
    assert done.results[0].is_error
    assert done.items[0]["output"].startswith("Arguments are not valid JSON: ")


@pytest.mark.parametrize(
    ("call", "expected"),
    [
        (
            {"name": "weather", "arguments": {"city": "Rome"}},
            {"content": [{"type": "text", "text": "Rome: sunny for 1 day(s)"}], "isError": False},
        ),
        (
            {"name": "weather", "arguments": {"city": "Rome", "days": 0}},
            {"content": [{"type": "text", "text": "Argument 'days' must be between 1 and 7, got 0."}], "isError": True},
        ),
        (
            {"name": "forecast", "arguments": {}},
            {
                "content": [{"type": "text", "text": "Unknown tool 'forecast'; the tools are: weather, explode."}],
                "isError": True,
            },
        ),
        (
            {"params": {"name": "explode", "arguments": {"reason": "x"}}},
            {"content": [{"type": "text", "text": "Tool 'explode' failed: RuntimeError: x"}], "isError": True},
        ),
    ],
    ids=["ok", "bad-arguments", "unknown", "raises"],
)
def test_mcp_call(call: dict[str, Any], expected: dict[str, Any]) -> None:
    CallToolRequestParams.model_validate(call.get("params", call))  # the request has the protocol's shape
    done = _run(dispatch("mcp", call, rec.TOOLS))
    assert done.items == [expected]
    RESULT_TYPES["mcp"](expected)


@tool
def area(width: int, height: int) -> dict[str, int]:
    return {"area": width * height}


def test_mcp_structured_content() -> None:
    done = _run(dispatch("mcp", {"name": "area", "arguments": {"width": 2, "height": 3}}, [area]))
    assert done.items == [
        {"content": [{"type": "text", "text": '{"area":6}'}], "isError": False, "structuredContent": {"area": 6}}
    ]
    RESULT_TYPES["mcp"](done.items[0])


# -- order, approval, background jobs, ends_loop ------------------------------------------


def test_parallel_safe_calls_overlap_and_others_run_alone() -> None:
    log: list[str] = []

    @tool
    async def fetch(url: str) -> str:
        log.append(f"start {url}")
        await asyncio.sleep(0)
        log.append(f"end {url}")
        return url

    @tool(parallel_safe=False)
    async def write(path: str) -> str:
        log.append(f"write {path}")
        return path

    reply = rec.anthropic(
        [
            ("c1", "fetch", {"url": "a"}),
            ("c2", "fetch", {"url": "b"}),
            ("c3", "write", {"path": "p"}),
            ("c4", "fetch", {"url": "c"}),
        ]
    )
    done = _run(dispatch("anthropic", reply, [fetch, write]))
    assert log == ["start a", "start b", "end a", "end b", "write p", "start c", "end c"]
    assert [i["content"] for i in done.items] == ["a", "b", "p", "c"]


@tool(requires_approval=True)
def delete(path: str) -> str:
    return f"deleted {path}"


@pytest.mark.parametrize(
    ("approve", "text"),
    [
        (None, "Tool 'delete' requires approval."),
        (lambda call: False, "Tool 'delete' requires approval."),
        (lambda call: call.arguments == {"path": "/tmp/x"}, "deleted /tmp/x"),
    ],
    ids=["no-callback", "refused", "approved"],
)
def test_approval(approve: Any, text: str) -> None:
    reply = rec.gemini([("c1", "delete", {"path": "/tmp/x"})])
    done = _run(dispatch("gemini", reply, [delete], approve=approve))
    assert done.results[0].text == text


def test_async_approval_sees_the_call() -> None:
    seen: list[tuple[str, str, object]] = []

    async def approve(call: Any) -> bool:
        seen.append((call.id, call.name, call.arguments))
        return True

    reply = rec.chat([("c1", "delete", {"path": "a"}), ("c2", "weather", {"city": "Oslo"})])
    done = _run(dispatch("openai-chat", reply, [delete, *rec.TOOLS], approve=approve))
    assert seen == [("c1", "delete", '{"path": "a"}')]  # asked only for the tool that requires it
    assert [r.text for r in done.results] == ["deleted a", "Oslo: sunny for 1 day(s)"]


@dataclass
class Answer:
    answer: str
    confidence: float


@tool(ends_loop=True)
def final_answer(answer: str, confidence: float) -> Answer:
    return Answer(answer, confidence)


def test_ends_loop_surfaces() -> None:
    reply = rec.responses(
        [
            ("c1", "weather", {"city": "Oslo", "days": None}),
            ("c2", "final_answer", {"answer": "sunny", "confidence": 0.9}),
        ]
    )
    done = _run(dispatch("openai", reply, [*rec.TOOLS, final_answer]))
    assert done.ends_loop and done.done
    assert done.final is not None and done.final.typed_result == Answer("sunny", 0.9)


def test_a_failed_ends_loop_call_does_not_end_the_loop() -> None:
    reply = rec.responses([("c1", "final_answer", {"answer": "sunny"})])
    done = _run(dispatch("openai", reply, [final_answer]))
    assert not done.ends_loop and not done.done
    assert done.items[0]["output"] == "Argument 'confidence' is required."


@tool(invocation_mode="model_choice")
async def build(target: str) -> str:
    await asyncio.sleep(0)
    return f"built {target}"


def test_background_job_surfaces() -> None:
    async def scenario() -> tuple[Dispatch, ToolResult]:
        async with ToolInvoker() as invoker:
            reply = rec.anthropic([("c1", "build", {"target": "docs", "invocationMode": "background"})])
            done = await dispatch("anthropic", reply, [build], invoker=invoker)
            return done, await done.jobs[0].wait()

    done, finished = _run(scenario())
    assert done.items == [
        {
            "type": "tool_result",
            "tool_use_id": "toolu_01",
            "content": '{"job":"job-1","status":"running"}',
            "is_error": False,
        }
    ]
    assert [j.id for j in done.jobs] == ["job-1"]
    assert finished.text == "built docs"


def test_events_reach_the_subscriber() -> None:
    @tool
    def crawl(pages: int, context: ToolContext) -> str:
        for i in range(1, pages + 1):
            context.progress(i, pages, f"page {i}")
        context.log("crawled", "warning")
        return "ok"

    events: list[ToolEvent] = []
    _run(dispatch("gemini", rec.gemini([("c1", "crawl", {"pages": 2})]), [crawl], on_event=events.append))
    assert events == [
        ToolEvent("progress", "crawl", "c1", "page 1", 1, 2),
        ToolEvent("progress", "crawl", "c1", "page 2", 2, 2),
        ToolEvent("log", "crawl", "c1", "crawled", level="warning"),
    ]


def test_an_unknown_provider_is_the_callers_mistake() -> None:
    with pytest.raises(
        ValueError, match="provider must be one of openai, openai-chat, anthropic, gemini, mcp, not 'bedrock'"
    ):
        _run(dispatch("bedrock", {}, rec.TOOLS))  # type: ignore[arg-type]


# -- images and files -------------------------------------------------------------------

PNG = b"\x89PNG\r\n\x1a\n"
PDF = b"%PDF-1.7"


@tool
def chart() -> list[TextPart | ImagePart | FilePart]:
    return [
        TextPart("Sales:"),
        ImagePart(PNG, "image/png"),
        FilePart(PDF, "application/pdf", "report.pdf"),
        FilePart(b"a,b\n", "text/csv", "data.csv"),
    ]


PNG64, PDF64, CSV64 = "iVBORw0KGgo=", "JVBERi0xLjc=", "YSxiCg=="

MEDIA_ITEMS: dict[str, tuple[dict[str, Any], list[str]]] = {
    "openai": (
        {
            "type": "function_call_output",
            "call_id": "c1",
            "output": [
                {"type": "input_text", "text": "Sales:"},
                {"type": "input_image", "image_url": f"data:image/png;base64,{PNG64}"},
                {"type": "input_file", "file_data": f"data:application/pdf;base64,{PDF64}", "filename": "report.pdf"},
                {"type": "input_file", "file_data": f"data:text/csv;base64,{CSV64}", "filename": "data.csv"},
            ],
        },
        [],
    ),
    "openai-chat": (
        {
            "role": "tool",
            "tool_call_id": "c1",
            "content": "Sales:[image: image/png, 8 bytes][file: report.pdf, application/pdf, 8 bytes]"
            "[file: data.csv, text/csv, 4 bytes]",
        },
        [
            "Tool 'chart': Chat Completions tool messages cannot carry image/png; sent as the text [image: image/png, 8 bytes].",
            "Tool 'chart': Chat Completions tool messages cannot carry application/pdf; sent as the text "
            "[file: report.pdf, application/pdf, 8 bytes].",
            "Tool 'chart': Chat Completions tool messages cannot carry text/csv; sent as the text [file: data.csv, text/csv, 4 bytes].",
        ],
    ),
    "anthropic": (
        {
            "type": "tool_result",
            "tool_use_id": "toolu_01",
            "content": [
                {"type": "text", "text": "Sales:"},
                {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": PNG64}},
                {
                    "type": "document",
                    "source": {"type": "base64", "media_type": "application/pdf", "data": PDF64},
                    "title": "report.pdf",
                },
                {"type": "text", "text": "[file: data.csv, text/csv, 4 bytes]"},
            ],
            "is_error": False,
        },
        [
            "Tool 'chart': Anthropic tool_result cannot carry text/csv; sent as the text [file: data.csv, text/csv, 4 bytes].",
        ],
    ),
    "gemini": (
        {
            "functionResponse": {
                "id": "c1",
                "name": "chart",
                "response": {
                    "output": "Sales:[image: image/png, 8 bytes][file: report.pdf, application/pdf, 8 bytes][file: data.csv, text/csv, 4 bytes]"
                },
                "parts": [
                    {"inlineData": {"mimeType": "image/png", "data": PNG64}},
                    {"inlineData": {"mimeType": "application/pdf", "data": PDF64, "displayName": "report.pdf"}},
                ],
            }
        },
        [
            "Tool 'chart': Gemini functionResponse cannot carry text/csv; sent as the text [file: data.csv, text/csv, 4 bytes].",
        ],
    ),
    "mcp": (
        {
            "content": [
                {"type": "text", "text": "Sales:"},
                {"type": "image", "data": PNG64, "mimeType": "image/png"},
                {
                    "type": "resource",
                    "resource": {"uri": "file:///report.pdf", "mimeType": "application/pdf", "blob": PDF64},
                },
                {"type": "resource", "resource": {"uri": "file:///data.csv", "mimeType": "text/csv", "blob": CSV64}},
            ],
            "isError": False,
        },
        [],
    ),
}


@pytest.mark.parametrize("provider", [*PROVIDERS, "mcp"])
def test_media_results(provider: str) -> None:
    reply: Any = (
        {"name": "chart", "arguments": {}} if provider == "mcp" else rec.WRITERS[provider]([("c1", "chart", {})])
    )
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        done = _run(dispatch(provider, reply, [chart]))  # type: ignore[arg-type]
    item, notes = MEDIA_ITEMS[provider]
    assert done.items == [item]
    assert done.warnings == notes
    assert [str(w.message) for w in caught if issubclass(w.category, ProviderWarning)] == notes
    RESULT_TYPES[provider](item)


@pytest.mark.parametrize(
    ("part", "anthropic_block"),
    [
        (
            FilePart(b"hello", "text/plain", "notes.txt"),
            {
                "type": "document",
                "source": {"type": "text", "media_type": "text/plain", "data": "hello"},
                "title": "notes.txt",
            },
        ),
        (ImagePart(b"BM", "image/bmp"), "[image: image/bmp, 2 bytes]"),
        (FilePart(b"\xff", "text/plain"), "[file: text/plain, 1 bytes]"),
    ],
    ids=["plain-text-document", "bmp-described", "undecodable-text-described"],
)
def test_anthropic_media_rows(part: Any, anthropic_block: Any) -> None:
    """A medium Anthropic takes is a block; one it does not is described (the content is then text)."""

    @tool
    def one() -> list[ImagePart | FilePart]:
        return [part]

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ProviderWarning)
        done = _run(dispatch("anthropic", rec.anthropic([("c1", "one", {})]), [one]))
    assert done.items[0]["content"] == (anthropic_block if isinstance(anthropic_block, str) else [anthropic_block])
    RESULT_TYPES["anthropic"](done.items[0])


def test_text_of_a_result_with_media() -> None:
    result = ToolResult([TextPart("a"), ImagePart(PNG, "image/png"), FilePart(PDF, "application/pdf")])
    assert result.text == "a[image: image/png, 8 bytes][file: application/pdf, 8 bytes]"


def test_a_single_image_return() -> None:
    @tool
    def snap() -> ImagePart:
        return ImagePart(PNG, "image/png")

    assert snap.output_schema is None
    done = _run(dispatch("mcp", {"name": "snap", "arguments": {}}, [snap]))
    assert done.items == [{"content": [{"type": "image", "data": PNG64, "mimeType": "image/png"}], "isError": False}]


# -- approval answers are held to True or False ----------------------------------------------


class _Falsy:
    def __bool__(self) -> bool:
        raise RuntimeError("no truth value")

    def __repr__(self) -> str:
        return "<Falsy>"


@pytest.mark.parametrize(
    ("answer", "shown"),
    [
        ("no", "'no'"),
        ("false", "'false'"),
        ([False], "[False]"),
        (2, "2"),
        (1, "1"),
        (None, "None"),
        (_Falsy(), "<Falsy>"),
    ],
)
def test_an_approval_answer_that_is_not_a_bool_is_an_error_result(answer: object, shown: str) -> None:
    ran: list[str] = []

    @tool(requires_approval=True)
    def remove(path: str) -> str:
        ran.append(path)
        return "removed"

    reply = rec.anthropic([("c1", "remove", {"path": "a"}), ("c2", "weather", {"city": "Oslo"})])
    done = _run(dispatch("anthropic", reply, [remove, *rec.TOOLS], approve=lambda call: answer))
    text = f"Tool 'remove' was not approved: the approver answered {shown}, not True or False."
    assert [(r.is_error, r.text) for r in done.results] == [(True, text), (False, "Oslo: sunny for 1 day(s)")]
    assert ran == []


def test_an_object_answer_is_shown_by_its_repr() -> None:
    answer = object()
    done = _run(dispatch("gemini", rec.gemini([("c1", "delete", {"path": "x"})]), [delete], approve=lambda c: answer))
    assert (
        done.results[0].text == f"Tool 'delete' was not approved: the approver answered {answer!r}, not True or False."
    )


async def _raises_later(call: Any) -> bool:
    await asyncio.sleep(0)
    raise ValueError(f"no rule for {call.name}")


def _raises_now(call: Any) -> bool:
    raise ValueError(f"no rule for {call.name}")


async def _answers_later(call: Any) -> object:
    return "yes"


@pytest.mark.parametrize(
    ("approve", "text"),
    [
        (_raises_now, "Tool 'delete' was not approved: the approver raised ValueError: no rule for delete."),
        (_raises_later, "Tool 'delete' was not approved: the approver raised ValueError: no rule for delete."),
        (_answers_later, "Tool 'delete' was not approved: the approver answered 'yes', not True or False."),
    ],
    ids=["raises", "async-raises", "async-answers-a-string"],
)
def test_an_approver_that_fails_answers_that_call_alone(approve: Any, text: str) -> None:
    reply = rec.chat(
        [("c1", "weather", {"city": "Oslo"}), ("c2", "delete", {"path": "x"}), ("c3", "delete", {"path": "y"})]
    )
    done = _run(dispatch("openai-chat", reply, [delete, *rec.TOOLS], approve=approve))
    assert [(r.is_error, r.text) for r in done.results] == [
        (False, "Oslo: sunny for 1 day(s)"),
        (True, text),
        (True, text),
    ]
    assert [i["tool_call_id"] for i in done.items] == ["c1", "c2", "c3"]


def test_an_approver_true_or_false_as_answered() -> None:
    reply = rec.gemini([("c1", "delete", {"path": "a"}), ("c2", "delete", {"path": "b"})])
    done = _run(dispatch("gemini", reply, [delete], approve=lambda call: call.arguments == {"path": "a"}))
    assert [r.text for r in done.results] == ["deleted a", "Tool 'delete' requires approval."]


# -- malformed calls are answered, never raised or dropped ----------------------------------------


@pytest.mark.parametrize(
    ("arguments", "text"),
    [
        ({"a", "b"}, "Arguments must be a JSON object, got set."),
        (b'{"city": "Oslo"}', "Arguments must be a JSON object, got bytes."),
        ([1], "Arguments must be a JSON object, got array."),
        (None, "Arguments must be a JSON object, got null."),
        (5, "Arguments must be a JSON object, got integer."),
    ],
)
def test_anthropic_input_that_is_not_an_object(arguments: object, text: str) -> None:
    reply = rec.anthropic([("c1", "weather", {}), ("c2", "weather", {"city": "Oslo"})])
    reply["content"][1]["input"] = arguments
    done = _run(dispatch("anthropic", reply, rec.TOOLS))
    assert done.items[0] == {"type": "tool_result", "tool_use_id": "toolu_01", "content": text, "is_error": True}
    assert done.items[1]["content"] == "Oslo: sunny for 1 day(s)"


def test_openai_arguments_as_bytes_are_the_json_text() -> None:
    reply = rec.responses([("c1", "weather", {})])
    reply["output"][0]["arguments"] = b'{"city": "Oslo"}'
    done = _run(dispatch("openai", reply, rec.TOOLS))
    assert done.items[0]["output"] == "Oslo: sunny for 1 day(s)"


def test_a_chat_tool_call_that_is_not_a_function_is_answered() -> None:
    reply = rec.chat([("c1", "weather", {"city": "Oslo"}), ("c2", "weather", {"city": "Rome"})])
    calls = reply["choices"][0]["message"]["tool_calls"]
    calls[0] = {"id": "c1", "type": "custom", "custom": {"name": "grep", "input": "TODO"}}
    calls.append({"id": "c3", "type": 7})
    done = _run(dispatch("openai-chat", reply, rec.TOOLS))
    assert done.items == [
        {
            "role": "tool",
            "tool_call_id": "c1",
            "content": "Tool call type 'custom' is not supported; only function tools are offered.",
        },
        {"role": "tool", "tool_call_id": "c2", "content": "Rome: sunny for 1 day(s)"},
        {
            "role": "tool",
            "tool_call_id": "c3",
            "content": "Tool call type integer is not supported; only function tools are offered.",
        },
    ]
    assert [c.name for c in done.calls] == ["grep", "weather", ""]
    assert all(r.is_error for r in (done.results[0], done.results[2]))


@pytest.mark.parametrize(("written", "kind"), [("weather", "string"), ([{"name": "weather"}], "array"), (3, "integer")])
def test_a_gemini_function_call_that_is_not_an_object_is_answered(written: object, kind: str) -> None:
    reply = rec.gemini([("c1", "weather", {"city": "Oslo"})])
    reply["candidates"][0]["content"]["parts"].insert(0, {"functionCall": written})
    done = _run(dispatch("gemini", reply, rec.TOOLS))
    assert done.items == [
        {"functionResponse": {"name": "", "response": {"error": f"A functionCall must be an object, got {kind}."}}},
        {"functionResponse": {"id": "c1", "name": "weather", "response": {"output": "Oslo: sunny for 1 day(s)"}}},
    ]


def test_a_reply_nested_deeper_than_the_recursion_limit_reads_as_no_calls() -> None:
    deep: list[Any] = []
    for _ in range(100_000):
        deep = [deep]
    assert _run(dispatch("anthropic", deep, rec.TOOLS)).items == []


# -- a large reply gives the event loop its turns ---------------------------------------------------


def test_a_large_reply_returns_to_the_loop_every_slice() -> None:
    """Between two turns of another task, at most ``SLICE`` calls are asked about (the
    approver) and at most ``SLICE`` are run: the reply's size never holds the loop at once."""
    asked = ran = 0

    @tool(requires_approval=True)
    async def note(n: int) -> int:
        nonlocal ran
        ran += 1
        return n

    def approve(call: Any) -> bool:
        nonlocal asked
        asked += 1
        return True

    async def scenario() -> tuple[Dispatch, int, int, int]:
        most_asked = most_ran = turns = 0
        finished = False

        async def other_task() -> None:
            nonlocal most_asked, most_ran, turns
            seen_asked = seen_ran = 0
            while not finished:
                most_asked = max(most_asked, asked - seen_asked)
                most_ran = max(most_ran, ran - seen_ran)
                seen_asked, seen_ran = asked, ran
                turns += 1
                await asyncio.sleep(0)

        watcher = asyncio.create_task(other_task())
        await asyncio.sleep(0)
        n = 5 * SLICE + 3
        done = await dispatch(
            "anthropic", rec.anthropic([(f"c{i}", "note", {"n": i}) for i in range(n)]), [note], approve=approve
        )
        finished = True
        await watcher
        return done, most_asked, most_ran, turns

    done, most_asked, most_ran, turns = _run(scenario())
    assert [r.text for r in done.results] == [str(i) for i in range(5 * SLICE + 3)]
    assert asked == ran == 5 * SLICE + 3
    assert most_asked <= SLICE and most_ran <= SLICE
    assert turns >= 3 * 5  # at least a turn per slice while asking, running and writing


# -- the order of a call's checks, and the batch's ways of running calls ----------------------


def test_the_approver_is_asked_only_about_calls_whose_arguments_bind() -> None:
    """Bind first, then approval (the contract's order): a call with wrong arguments is an
    argument error, and the approver never sees it."""
    seen: list[object] = []

    def approve(call: Any) -> bool:
        seen.append(call.arguments)
        return True

    reply = rec.responses([("c1", "delete", {"path": 5}), ("c2", "delete", {}), ("c3", "delete", {"path": "a"})])
    done = _run(dispatch("openai", reply, [delete], approve=approve))
    assert seen == ['{"path": "a"}']
    assert [r.text for r in done.results] == [
        "Argument 'path' must be a string, got integer 5.",
        "Argument 'path' is required.",
        "deleted a",
    ]
    assert [r.is_error for r in done.results] == [True, True, False]


def test_blocking_sync_calls_of_one_reply_use_every_worker_and_no_more() -> None:
    """200 plain-function calls that each wait for three others (a barrier of 4) with 4
    workers: the reply's calls run 4 at once (no worker's share of the calls waits behind
    another's), never 5."""
    lock = threading.Lock()
    inside = most = 0
    wave = threading.Barrier(4, timeout=WAIT)

    @tool
    def work(n: int) -> int:
        nonlocal inside, most
        with lock:
            inside += 1
            most = max(most, inside)
        wave.wait()
        with lock:
            inside -= 1
        return n

    async def scenario() -> Dispatch:
        invoker = ToolInvoker(max_workers=4)
        done = await dispatch(
            "anthropic", rec.anthropic([(f"c{n}", "work", {"n": n}) for n in range(200)]), [work], invoker=invoker
        )
        assert invoker.workers.active == 0
        return done

    done = _run(scenario())
    assert [r.text for r in done.results] == [str(n) for n in range(200)]
    assert most == 4


SEEN: contextvars.ContextVar[str] = contextvars.ContextVar("SEEN", default="unset")


@tool
def sync_mark(n: int) -> str:
    before = SEEN.get()
    SEEN.set(f"call {n}")
    return before


@tool
async def async_mark(n: int) -> str:
    before = SEEN.get()
    SEEN.set(f"call {n}")
    if n % 2:
        await asyncio.sleep(0)  # goes on in a task, in the context its first step ran in
        assert SEEN.get() == f"call {n}"
        SEEN.set(f"call {n}, resumed")  # while later calls take their first steps
    return before


@pytest.mark.parametrize("mark", [sync_mark, async_mark], ids=["def", "async def"])
def test_each_call_sees_the_callers_context_and_keeps_its_own_changes(mark: Any) -> None:
    """One worker runs every plain-function call, and async calls start in the dispatching
    task: each still reads the caller's values, and what it sets stays its own."""

    async def scenario() -> Dispatch:
        SEEN.set("caller")
        reply = rec.responses([(f"c{n}", mark.name, {"n": n}) for n in range(300)])
        done = await dispatch("openai", reply, [mark], invoker=ToolInvoker(max_workers=1))
        assert SEEN.get() == "caller"
        return done

    done = _run(scenario())
    assert [r.text for r in done.results] == ["caller"] * 300


@tool
async def may_fail(n: int) -> int:
    if n == 1:
        raise ValueError("before any await")
    await asyncio.sleep(0)
    if n == 2:
        raise ValueError("after an await")
    return n


@tool
def hands_back_a_coroutine(n: int) -> Any:
    async def later() -> int:
        await asyncio.sleep(0)
        return n * 10

    return later()


def test_async_calls_fail_alone_whether_before_or_after_they_await() -> None:
    reply = rec.gemini([(f"c{n}", "may_fail", {"n": n}) for n in range(4)])
    done = _run(dispatch("gemini", reply, [may_fail]))
    assert [r.text for r in done.results] == [
        "0",
        "Tool 'may_fail' failed: ValueError: before any await",
        "Tool 'may_fail' failed: ValueError: after an await",
        "3",
    ]


@tool
async def quiet_read(n: int) -> str:
    """Reads the context and changes nothing: the calls after it may share the context it ran in."""
    return SEEN.get()


def test_calls_that_change_their_context_and_calls_that_do_not_alternate() -> None:
    """Async calls that set a value, with or without awaiting, between calls that only read:
    every call reads the caller's value."""

    async def scenario() -> Dispatch:
        SEEN.set("caller")
        calls = [(f"c{n}", "async_mark" if n % 3 == 0 else "quiet_read", {"n": n // 3}) for n in range(300)]
        return await dispatch("openai", rec.responses(calls), [async_mark, quiet_read])

    done = _run(scenario())
    assert [r.text for r in done.results] == ["caller"] * 300


#: An async tool's own exception, raised in its first step or after it awaits something: the
#: call's failure, with the text ``invoke`` gives (the caller's cancellation is not one of these).
RAISED_IN_A_STEP: dict[str, tuple[Callable[[], BaseException], str]] = {
    "ValueError": (lambda: ValueError("disk full"), "Tool 'raises' failed: ValueError: disk full"),
    "StopIteration": (StopIteration, "Tool 'raises' failed: StopIteration"),
    "GeneratorExit": (GeneratorExit, "Tool 'raises' failed: GeneratorExit"),
    "SystemExit(2)": (lambda: SystemExit(2), "Tool 'raises' failed: SystemExit: 2"),
    "KeyboardInterrupt": (KeyboardInterrupt, "Tool 'raises' failed: KeyboardInterrupt"),
    "its own CancelledError": (asyncio.CancelledError, "Tool 'raises' failed: CancelledError"),
}


@pytest.mark.parametrize("awaits_first", [False, True], ids=["first step", "after an await"])
@pytest.mark.parametrize("raised", list(RAISED_IN_A_STEP))
def test_what_an_async_call_raises_is_its_failure_alone(raised: str, awaits_first: bool) -> None:
    make, text = RAISED_IN_A_STEP[raised]

    async def raises(n: int) -> int:
        if awaits_first:
            await asyncio.sleep(0)
        if n == 1:
            raise make()
        return n

    async def scenario() -> tuple[Dispatch, ToolResult]:
        t = Tool.create(raises)
        done = await dispatch("openai", rec.responses([(f"c{n}", "raises", {"n": n}) for n in range(3)]), [t])
        return done, await ToolInvoker().invoke(t, '{"n": 1}')

    done, invoked = _run(scenario())
    assert [r.text for r in done.results] == ["0", text, "2"]
    assert [r.is_error for r in done.results] == [False, True, False]
    assert invoked.text == text


@tool
async def gives_an_awaitable(n: int, later: bool) -> Any:
    async def value() -> int:
        if later:
            await asyncio.sleep(0)
        return n * 10

    return value()


def test_an_async_tool_that_returns_an_awaitable_is_answered_as_invoke_answers_it() -> None:
    """The awaitable it returns is awaited once, whether or not it awaits something itself."""
    arguments = [{"n": 1, "later": False}, {"n": 2, "later": True}]

    async def scenario() -> tuple[Dispatch, list[ToolResult]]:
        reply = rec.responses([(f"c{i}", "gives_an_awaitable", a) for i, a in enumerate(arguments)])
        done = await dispatch("openai", reply, [gives_an_awaitable])
        invoker = ToolInvoker()
        return done, [await invoker.invoke(gives_an_awaitable, json.dumps(a)) for a in arguments]

    done, invoked = _run(scenario())
    assert [r.text for r in done.results] == ["10", "20"]
    assert done.results == invoked


def test_a_plain_function_that_returns_a_coroutine_is_answered_with_its_value() -> None:
    """As ``invoke`` answers it: the coroutine is awaited on the loop."""
    reply = rec.responses([("c1", "hands_back_a_coroutine", {"n": 4}), ("c2", "hands_back_a_coroutine", {"n": 5})])
    done = _run(dispatch("openai", reply, [hands_back_a_coroutine]))
    alone = _run(ToolInvoker().invoke(hands_back_a_coroutine, '{"n": 4}'))
    assert [r.text for r in done.results] == [alone.text, "50"] == ["40", "50"]


def test_a_call_that_blocks_does_not_hold_back_the_calls_queued_behind_it() -> None:
    """The first call of the reply waits until the five after it have run: they are taken by
    another worker while it blocks (the reply is far shorter than a slice of a hand-off)."""
    quick_done = threading.Semaphore(0)

    @tool
    def waits_for_the_others() -> str:
        seen = sum(quick_done.acquire(timeout=WAIT) for _ in range(5))
        return f"saw {seen}"

    @tool
    def quick(n: int) -> int:
        quick_done.release()
        return n

    calls = [("c0", "waits_for_the_others", {})] + [(f"c{n}", "quick", {"n": n}) for n in range(1, 6)]
    done = _run(
        dispatch("openai", rec.responses(calls), [waits_for_the_others, quick], invoker=ToolInvoker(max_workers=2))
    )
    assert [r.text for r in done.results] == ["saw 5", "1", "2", "3", "4", "5"]


def test_a_reply_of_large_arguments_returns_to_the_loop_every_64_kib_bound() -> None:
    """Binding costs by the document's size: the slice that binds on the loop ends after
    ``BIND_OFF_LOOP_CHARS`` of documents, not only after ``SLICE`` calls. The approver, asked
    right after each call binds, counts the calls bound between two turns of another task."""
    asked = 0

    @tool(requires_approval=True)
    def keep(text: str) -> int:
        return len(text)

    def approve(call: Any) -> bool:
        nonlocal asked
        asked += 1
        return True

    async def scenario() -> tuple[Dispatch, int]:
        most = 0
        finished = False

        async def other_task() -> None:
            nonlocal most
            seen = 0
            while not finished:
                most = max(most, asked - seen)
                seen = asked
                await asyncio.sleep(0)

        watcher = asyncio.create_task(other_task())
        await asyncio.sleep(0)
        text = "x" * (BIND_OFF_LOOP_CHARS // 2)  # two of them fill a slice
        done = await dispatch(
            "openai", rec.responses([(f"c{n}", "keep", {"text": text}) for n in range(12)]), [keep], approve=approve
        )
        finished = True
        await watcher
        return done, most

    done, most = _run(scenario())
    assert [r.text for r in done.results] == [str(BIND_OFF_LOOP_CHARS // 2)] * 12
    assert asked == 12
    assert most <= 2


#: Results made of text alone, each of the forms ``text_only`` joins: one text part, one JSON
#: part (an integer, and a value written as compact JSON), several parts, an empty text, an error.
TEXT_RESULTS = [
    ToolResult([TextPart("done")]),
    ToolResult([JsonPart(6)]),
    ToolResult([JsonPart({"a": [1, "é"]})]),
    ToolResult([TextPart("a "), JsonPart(None), TextPart(" b")]),
    ToolResult([TextPart("")]),
    ToolResult.failure("Tool 'x' failed: ValueError: no"),
]


@pytest.mark.parametrize("result", TEXT_RESULTS, ids=lambda r: repr(r.parts)[:40])
@pytest.mark.parametrize("shape", [r for r in REPLIES.values() if r.write_text is not None], ids=lambda r: r.name)
def test_a_shapes_text_item_is_its_writers_item(shape: Reply, result: ToolResult) -> None:
    """``dispatch`` writes a result of text alone with the row's ``write_text``: it must be the
    item the row's ``write`` makes of it, for the same API (the tests above hold ``dispatch``'s
    items to each API's own types)."""
    assert shape.write_text is not None
    text = text_only(result.parts)
    assert text is not None
    assert shape.write_text("call_1", text, result.is_error) == shape.write("call_1", "x", None, result)[0]
    assert shape.write("call_1", "x", None, result)[1] == []
