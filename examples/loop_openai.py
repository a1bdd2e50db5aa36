"""A two-turn tool loop on the OpenAI Responses API, driven by recorded replies (runs offline).

The model asks for two forecasts at once; ``dispatch("openai", ...)`` finds the
``function_call`` items, binds each with ``provider="openai"`` (strict tools send an
omitted optional parameter as null), runs them through one ``ToolInvoker`` and answers
with ``function_call_output`` items, which go back into the next request's ``input``. The
second reply calls no tool, so the loop ends. With the real SDK, ``reply =
client.responses.create(model=MODEL, input=conversation, tools=definitions)``: ``dispatch``
reads the SDK's object as it reads the JSON here. ``docs/loop.md`` shows the output of
``python examples/loop_openai.py``.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
from typing import Annotated, Any

from onellm_runtime import Range, ToolContext, ToolInvoker, ToolSet, tool
from onellm_runtime.providers import dispatch, openai_tool

MODEL = "gpt-5.1-2025-11-13"


@dataclass
class Station:
    """The services the tools read: a weather station's forecasts, by city."""

    forecasts: dict[str, list[str]]


@tool
def get_forecast(city: str, ctx: ToolContext[Station], days: Annotated[int, Range(1, 7)] = 1) -> str:
    """The weather forecast for a city.

    Args:
        city: The city's name, such as "Oslo".
        days: How many days ahead, 1 to 7.
    """
    known = ctx.services.forecasts.get(city)
    if known is None:
        raise LookupError(f"no station reports for {city}")
    return f"{city}: " + ", ".join(known[:days])


def _usage() -> dict[str, Any]:
    return {
        "input_tokens": 310,
        "input_tokens_details": {"cached_tokens": 0, "cache_write_tokens": 0},
        "output_tokens": 52,
        "output_tokens_details": {"reasoning_tokens": 0},
        "total_tokens": 362,
    }


def _response(response_id: str, output: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "id": response_id,
        "object": "response",
        "created_at": 1764571200,
        "status": "completed",
        "error": None,
        "incomplete_details": None,
        "instructions": None,
        "max_output_tokens": None,
        "model": MODEL,
        "output": output,
        "parallel_tool_calls": True,
        "previous_response_id": None,
        "temperature": 1.0,
        "tool_choice": "auto",
        "tools": [openai_tool(get_forecast)],
        "top_p": 1.0,
        "truncation": "disabled",
        "metadata": {},
        "usage": _usage(),
    }


#: What the API answered, turn by turn (a ``Response`` each, as JSON).
REPLIES: list[dict[str, Any]] = [
    _response(
        "resp_01",
        [
            {
                "type": "function_call",
                "id": "fc_01",
                "call_id": "call_oslo",
                "name": "get_forecast",
                "arguments": '{"city":"Oslo","days":null}',
                "status": "completed",
            },
            {
                "type": "function_call",
                "id": "fc_02",
                "call_id": "call_paris",
                "name": "get_forecast",
                "arguments": '{"city":"Paris","days":2}',
                "status": "completed",
            },
        ],
    ),
    _response(
        "resp_02",
        [
            {
                "type": "message",
                "id": "msg_01",
                "status": "completed",
                "role": "assistant",
                "content": [
                    {
                        "type": "output_text",
                        "annotations": [],
                        "text": "Oslo gets snow tomorrow; Paris stays dry: sun, then clouds.",
                    }
                ],
            },
        ],
    ),
]


class RecordedModel:
    """Stands in for ``client.responses.create``: hands out the recorded replies in order."""

    def __init__(self, replies: list[dict[str, Any]]) -> None:
        self.replies = list(replies)
        self.requests: list[list[dict[str, Any]]] = []

    def create(self, *, model: str, input: list[dict[str, Any]], tools: list[dict[str, Any]]) -> dict[str, Any]:
        self.requests.append(list(input))
        return self.replies.pop(0)


async def run_loop(model: RecordedModel) -> str:
    station = Station({"Oslo": ["snow", "sleet"], "Paris": ["sun", "clouds", "rain"]})
    tools = ToolSet(get_forecast)  # one name, one tool: a repeated name is refused here
    definitions = [dict(openai_tool(t)) for t in tools.values()]
    conversation: list[dict[str, Any]] = [{"role": "user", "content": "Weather in Oslo, and Paris for two days?"}]
    async with ToolInvoker(services=station) as invoker:
        for turn in (1, 2, 3):
            reply = model.create(model=MODEL, input=conversation, tools=definitions)
            done = await dispatch("openai", reply, tools, invoker=invoker)
            print(f"turn {turn}: {len(done.calls)} tool call(s)")
            for call, item in zip(done.calls, done.items, strict=True):
                print(f"  {call.name}({call.arguments}) -> {json.dumps(item)}")
            if done.done:
                text: str = reply["output"][-1]["content"][0]["text"]
                print(f"final: {text}")
                return text
            conversation += [*reply["output"], *done.items]
    raise RuntimeError("the model did not finish in three turns")


if __name__ == "__main__":
    asyncio.run(run_loop(RecordedModel(REPLIES)))
