"""A two-turn tool loop on the Anthropic Messages API, driven by recorded replies (runs offline).

The model asks for two forecasts, one for a city the station does not know. ``dispatch(
"anthropic", ...)`` finds the ``tool_use`` blocks, binds each with ``provider="anthropic"``,
runs them through one ``ToolInvoker`` and answers with ``tool_result`` blocks: the failed
call is a result with ``is_error`` true, not an exception, so the model reads what went
wrong and answers anyway. The blocks go back as the next ``user`` message. With the real SDK,
``reply = client.messages.create(model=MODEL, max_tokens=1024, messages=conversation,
tools=definitions)``; ``dispatch`` reads the SDK's ``Message`` as it reads the JSON here.
``docs/loop.md`` shows the output of ``python examples/loop_anthropic.py``.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
from typing import Annotated, Any

from onellm_runtime import Range, ToolContext, ToolInvoker, ToolSet, tool
from onellm_runtime.providers import anthropic_tools, dispatch

MODEL = "claude-sonnet-4-5-20250929"


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


def _message(message_id: str, content: list[dict[str, Any]], stop_reason: str) -> dict[str, Any]:
    return {
        "id": message_id,
        "type": "message",
        "role": "assistant",
        "model": MODEL,
        "content": content,
        "stop_reason": stop_reason,
        "stop_sequence": None,
        "usage": {"input_tokens": 420, "output_tokens": 61},
    }


#: What the API answered, turn by turn (a ``Message`` each, as JSON).
REPLIES: list[dict[str, Any]] = [
    _message(
        "msg_01",
        [
            {"type": "text", "text": "I'll check both cities."},
            {"type": "tool_use", "id": "toolu_01", "name": "get_forecast", "input": {"city": "Oslo", "days": 2}},
            {"type": "tool_use", "id": "toolu_02", "name": "get_forecast", "input": {"city": "Atlantis"}},
        ],
        "tool_use",
    ),
    _message(
        "msg_02",
        [
            {"type": "text", "text": "Oslo: snow, then sleet. There is no forecast for Atlantis."},
        ],
        "end_turn",
    ),
]


class RecordedModel:
    """Stands in for ``client.messages.create``: hands out the recorded replies in order."""

    def __init__(self, replies: list[dict[str, Any]]) -> None:
        self.replies = list(replies)
        self.requests: list[list[dict[str, Any]]] = []

    def create(
        self, *, model: str, max_tokens: int, messages: list[dict[str, Any]], tools: list[dict[str, Any]]
    ) -> dict[str, Any]:
        self.requests.append(list(messages))
        return self.replies.pop(0)


async def run_loop(model: RecordedModel) -> str:
    station = Station({"Oslo": ["snow", "sleet"], "Paris": ["sun", "clouds", "rain"]})
    tools = ToolSet(get_forecast)  # one name, one tool: a repeated name is refused here
    definitions = [dict(d) for d in anthropic_tools(tools)]
    conversation: list[dict[str, Any]] = [{"role": "user", "content": "Weather in Oslo for two days, and in Atlantis?"}]
    async with ToolInvoker(services=station) as invoker:
        for turn in (1, 2, 3):
            reply = model.create(model=MODEL, max_tokens=1024, messages=conversation, tools=definitions)
            done = await dispatch("anthropic", reply, tools, invoker=invoker)
            print(f"turn {turn}: {len(done.calls)} tool call(s)")
            for call, item in zip(done.calls, done.items, strict=True):
                print(f"  {call.name}({json.dumps(call.arguments)}) -> {json.dumps(item)}")
            if done.done:
                text: str = reply["content"][-1]["text"]
                print(f"final: {text}")
                return text
            conversation += [
                {"role": "assistant", "content": reply["content"]},
                {"role": "user", "content": done.items},
            ]
    raise RuntimeError("the model did not finish in three turns")


if __name__ == "__main__":
    asyncio.run(run_loop(RecordedModel(REPLIES)))
