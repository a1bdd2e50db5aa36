"""A long build run in the background, driven the way a model would drive it.

``build_target`` is declared with ``invocation_mode="model_choice"``, so its schema gains
the framework control ``invocationMode`` (``"wait"`` or ``"background"``). A model that
does not want to block on a slow build sends ``"background"`` and gets a job handle at
once; it then uses the two ready-made tools ``read_job`` and ``stop_job`` that
``job_tools(invoker)`` returns. Run it with ``python examples/background_build.py``
(about two seconds); ``docs/background.md`` shows its output.
"""

from __future__ import annotations

import asyncio
import json
from typing import Annotated, Any

from onellm_runtime import Description, Range, Tool, ToolContext, ToolInvoker, ToolResult, job_tools, tool

STEP_SECONDS = 0.2


@tool(invocation_mode="model_choice", timeout_seconds=60)
async def build_target(
    target: Annotated[str, Description("The build target, such as 'app' or 'docs'.")],
    ctx: ToolContext,
    steps: Annotated[int, Range(1, 20), Description("How many compile steps to run.")] = 5,
) -> str:
    """Compile and link one build target. Slow: prefer "invocationMode": "background"."""
    for _ in range(steps):
        ctx.cancellation.raise_if_cancelled()
        await asyncio.sleep(STEP_SECONDS)
        ctx.add_cost("compile_steps", 1)
    return f"{target}: {steps} steps compiled, 0 warnings"


def _show(result: ToolResult) -> str:
    totals: dict[str, float] = {}
    for line in result.costs:
        totals[line.label] = totals.get(line.label, 0) + line.amount
    costs = ", ".join(f"{amount:g} {label}" for label, amount in totals.items())
    return ("ERROR " if result.is_error else "") + result.text + (f"   [costs: {costs}]" if costs else "")


async def _call(invoker: ToolInvoker, t: Tool[..., Any], arguments: dict[str, object]) -> ToolResult:
    """One tool call as a model makes it: the arguments arrive as a JSON document."""
    document = json.dumps(arguments)
    result = await invoker.invoke(t, document)
    print(f"model -> {t.name} {document}")
    print(f"      <- {_show(result)}")
    return result


async def _demo() -> None:
    async with ToolInvoker() as invoker:
        read_job, stop_job = job_tools(invoker)
        offered: list[Tool[..., Any]] = [build_target, read_job, stop_job]
        print("tools offered:", ", ".join(t.name for t in offered))
        print("control:", json.dumps(build_target.input_schema["properties"]["invocationMode"]))

        started = await _call(invoker, build_target, {"target": "app", "invocationMode": "background"})
        job: str = json.loads(started.text)["job"]
        await _call(invoker, read_job, {"job": job})  # still running: the model goes on with other work

        other = await _call(invoker, build_target, {"target": "docs", "steps": 20, "invocationMode": "background"})
        await asyncio.sleep(STEP_SECONDS * 1.5)
        await _call(invoker, stop_job, {"job": json.loads(other.text)["job"]})  # changed its mind

        await invoker.jobs[job].wait()  # (here the host simply waits for the build to finish)
        await _call(invoker, read_job, {"job": job})  # the build's own result, given once
        await _call(invoker, read_job, {"job": json.loads(other.text)["job"]})
        await _call(invoker, read_job, {"job": job})  # already read: forgotten
        print("jobs left:", list(invoker.jobs))


if __name__ == "__main__":
    asyncio.run(_demo())
