"""Recorded provider replies with 0, 1 and 3 tool calls, shaped as each API returns them.

The envelopes (ids, usage, model) are written as the APIs write them; ``test_providers_dispatch``
parses every reply with the SDK's response type to hold the shapes to it. The 3-call replies
hold one call with bad arguments, one to an unknown tool and one to a tool that raises.
"""

from __future__ import annotations

import json
from typing import Annotated, Any

from onellm_runtime import Range, tool


@tool
def weather(city: str, days: Annotated[int, Range(1, 7)] = 1) -> str:
    """The forecast for a city.

    Args:
        city: The city's name.
        days: How many days ahead.
    """
    return f"{city}: sunny for {days} day(s)"


@tool
def explode(reason: str) -> str:
    """A tool that always fails."""
    raise RuntimeError(reason)


TOOLS = [weather, explode]

#: The calls of each reply: (id, name, arguments).
ONE = [("call_1", "weather", {"city": "Paris", "days": 2})]
THREE = [
    ("call_1", "weather", {"city": "Oslo", "days": 9}),
    ("call_2", "forecast", {"city": "Oslo"}),
    ("call_3", "explode", {"reason": "disk full"}),
]
#: The texts the three calls answer, in order.
ONE_TEXTS = ["Paris: sunny for 2 day(s)"]
THREE_TEXTS = [
    "Argument 'days' must be between 1 and 7, got 9.",
    "Unknown tool 'forecast'; the tools are: weather, explode.",
    "Tool 'explode' failed: RuntimeError: disk full",
]
THREE_ERRORS = [True, True, True]


def responses(calls: list[tuple[str, str, dict[str, Any]]]) -> dict[str, Any]:
    """An OpenAI Responses ``Response``."""
    output: list[dict[str, Any]] = [
        {
            "type": "function_call",
            "id": f"fc_{i}",
            "call_id": cid,
            "name": name,
            "arguments": json.dumps(args),
            "status": "completed",
        }
        for i, (cid, name, args) in enumerate(calls, 1)
    ]
    if not calls:
        output = [
            {
                "type": "message",
                "id": "msg_1",
                "status": "completed",
                "role": "assistant",
                "content": [{"type": "output_text", "text": "It is sunny in Paris.", "annotations": []}],
            }
        ]
    return {
        "id": "resp_68af1c2e",
        "object": "response",
        "created_at": 1764571200,
        "status": "completed",
        "error": None,
        "incomplete_details": None,
        "instructions": None,
        "max_output_tokens": None,
        "model": "gpt-5.1-2025-11-13",
        "output": output,
        "parallel_tool_calls": True,
        "previous_response_id": None,
        "temperature": 1.0,
        "tool_choice": "auto",
        "tools": [],
        "top_p": 1.0,
        "truncation": "disabled",
        "metadata": {},
        "usage": {
            "input_tokens": 120,
            "input_tokens_details": {"cached_tokens": 0, "cache_write_tokens": 0},
            "output_tokens": 40,
            "output_tokens_details": {"reasoning_tokens": 0},
            "total_tokens": 160,
        },
    }


def chat(calls: list[tuple[str, str, dict[str, Any]]]) -> dict[str, Any]:
    """An OpenAI ``ChatCompletion``."""
    message: dict[str, Any] = {"role": "assistant", "content": None, "refusal": None}
    if calls:
        message["tool_calls"] = [
            {"id": cid, "type": "function", "function": {"name": name, "arguments": json.dumps(args)}}
            for cid, name, args in calls
        ]
    else:
        message["content"] = "It is sunny in Paris."
    return {
        "id": "chatcmpl-CX1a",
        "object": "chat.completion",
        "created": 1764571200,
        "model": "gpt-4.1-2025-04-14",
        "choices": [
            {"index": 0, "message": message, "logprobs": None, "finish_reason": "tool_calls" if calls else "stop"}
        ],
        "usage": {"prompt_tokens": 120, "completion_tokens": 40, "total_tokens": 160},
    }


def anthropic(calls: list[tuple[str, str, dict[str, Any]]]) -> dict[str, Any]:
    """An Anthropic ``Message``."""
    content: list[dict[str, Any]] = [{"type": "text", "text": "Let me check." if calls else "It is sunny in Paris."}]
    content += [
        {"type": "tool_use", "id": f"toolu_0{cid[-1]}", "name": name, "input": args} for cid, name, args in calls
    ]
    return {
        "id": "msg_01XFDUDYJgAACzvnptvVoYEL",
        "type": "message",
        "role": "assistant",
        "model": "claude-sonnet-4-5-20250929",
        "content": content,
        "stop_reason": "tool_use" if calls else "end_turn",
        "stop_sequence": None,
        "usage": {"input_tokens": 120, "output_tokens": 40},
    }


def gemini(calls: list[tuple[str, str, dict[str, Any]]]) -> dict[str, Any]:
    """A Gemini ``GenerateContentResponse`` (REST, camelCase)."""
    parts: list[dict[str, Any]] = [
        {"functionCall": {"id": cid, "name": name, "args": args}} for cid, name, args in calls
    ]
    if not calls:
        parts = [{"text": "It is sunny in Paris."}]
    return {
        "candidates": [{"content": {"role": "model", "parts": parts}, "finishReason": "STOP", "index": 0}],
        "usageMetadata": {"promptTokenCount": 120, "candidatesTokenCount": 40, "totalTokenCount": 160},
        "modelVersion": "gemini-2.5-flash",
        "responseId": "yU0taKHdJ9aGz7IP",
    }


WRITERS = {"openai": responses, "openai-chat": chat, "anthropic": anthropic, "gemini": gemini}
