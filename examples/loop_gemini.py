"""A two-turn tool loop on the Gemini API, ended by a tool, driven by recorded replies (runs offline).

The model asks for a forecast, then hands in its answer through ``final_answer``, a tool
declared with ``ends_loop=True``. ``dispatch("gemini", ...)`` finds the ``functionCall``
parts, binds each with ``provider="gemini"``, runs them through one ``ToolInvoker`` and
answers with ``functionResponse`` parts (the next ``user`` content); when ``final_answer``
succeeds, ``done.ends_loop`` is true and ``done.final.typed_result`` is the ``Answer`` the
tool returned, typed. With the real SDK, ``reply = client.models.generate_content(
model=MODEL, contents=conversation, config=...)``; ``dispatch`` reads the SDK's
``GenerateContentResponse`` as it reads the JSON here. ``docs/loop.md`` shows the output of
``python examples/loop_gemini.py``.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
from typing import Annotated, Any

from onellm_runtime import Range, ToolContext, ToolInvoker, ToolSet, tool
from onellm_runtime.providers import dispatch, gemini_tool

MODEL = "gemini-2.5-flash"


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


@dataclass
class Answer:
    """The model's answer, handed in through a tool so that it arrives typed.

    Attributes:
        summary: One sentence for the user.
        snow_expected: Whether snow is in any forecast.
    """

    summary: str
    snow_expected: bool


@tool(ends_loop=True)
def final_answer(answer: Answer) -> Answer:
    """Hand in the final answer; this ends the conversation."""
    return answer


def _response(response_id: str, parts: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "candidates": [{"content": {"role": "model", "parts": parts}, "finishReason": "STOP", "index": 0}],
        "usageMetadata": {"promptTokenCount": 280, "candidatesTokenCount": 24, "totalTokenCount": 304},
        "modelVersion": MODEL,
        "responseId": response_id,
    }


#: What the API answered, turn by turn (a ``GenerateContentResponse`` each, as JSON).
REPLIES: list[dict[str, Any]] = [
    _response("resp-1", [{"functionCall": {"name": "get_forecast", "args": {"city": "Oslo", "days": 2}}}]),
    _response(
        "resp-2",
        [
            {
                "functionCall": {
                    "name": "final_answer",
                    "args": {"answer": {"summary": "Oslo: snow, then sleet.", "snow_expected": True}},
                }
            }
        ],
    ),
]


class RecordedModel:
    """Stands in for ``client.models.generate_content``: hands out the recorded replies in order."""

    def __init__(self, replies: list[dict[str, Any]]) -> None:
        self.replies = list(replies)
        self.requests: list[list[dict[str, Any]]] = []

    def generate_content(
        self, *, model: str, contents: list[dict[str, Any]], tools: list[dict[str, Any]]
    ) -> dict[str, Any]:
        self.requests.append(list(contents))
        return self.replies.pop(0)


async def run_loop(model: RecordedModel) -> Answer:
    station = Station({"Oslo": ["snow", "sleet"], "Paris": ["sun", "clouds", "rain"]})
    tools = ToolSet(get_forecast, final_answer)  # one name, one tool: a repeated name is refused here
    definitions = [{"functionDeclarations": [dict(gemini_tool(t)) for t in tools.values()]}]
    conversation: list[dict[str, Any]] = [{"role": "user", "parts": [{"text": "Will it snow in Oslo soon?"}]}]
    async with ToolInvoker(services=station) as invoker:
        for turn in (1, 2, 3):
            reply = model.generate_content(model=MODEL, contents=conversation, tools=definitions)
            done = await dispatch("gemini", reply, tools, invoker=invoker)
            print(f"turn {turn}: {len(done.calls)} tool call(s)")
            for call, item in zip(done.calls, done.items, strict=True):
                print(f"  {call.name}({json.dumps(call.arguments)}) -> {json.dumps(item)}")
            if done.final is not None:
                answer = done.final.typed_result
                assert isinstance(answer, Answer)
                print(f"final: {answer}")
                return answer
            conversation += [reply["candidates"][0]["content"], {"role": "user", "parts": done.items}]
    raise RuntimeError("the model did not finish in three turns")


if __name__ == "__main__":
    asyncio.run(run_loop(RecordedModel(REPLIES)))
