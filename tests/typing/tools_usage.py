"""Typed usage of onellm_runtime, checked by real pyright and mypy (tests/test_typing_surface.py).

Lines marked ``# error`` must be reported; every other line must be clean.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from onellm_runtime import Tool, ToolContext, ToolResult, ToolSet, tool, tools_of


@tool
def add(a: int, b: int = 2) -> int:
    """Add two numbers."""
    return a + b


@tool(name="shout", requires_approval=True)
async def shout_async(text: str, context: ToolContext) -> str:
    return text.upper()


@dataclass
class Tracker:
    prefix: str

    @tool
    def open_ticket(self, title: str) -> str:
        return self.prefix + title


total: int = add(1, 2)
total_kw: int = add(a=1)
schema: dict[str, Any] = add.input_schema
name: str = add.name
flags: tuple[bool, bool, float] = (add.ends_loop, add.parallel_safe, add.timeout_seconds)
created: Tool[[int, int], int] = Tool.create(add.fn, name="add2")
tracker = Tracker("T-")
opened: str = tracker.open_ticket("Login page is blank")
unbound: str = Tracker.open_ticket(tracker, "x")
bound_tools: list[Tool[..., Any]] = tools_of(tracker)
bound_args: dict[str, object] = add.bind('{"a": 1}')


async def use_async() -> ToolResult | None:
    loud: str = await shout_async("hi", ToolContext())
    del loud
    return None


@dataclass
class Deps:
    """The caller's services, typed end to end through ``ToolContext[Deps]``."""

    rates: dict[str, float]


@tool
def convert(amount: float, currency: str, context: ToolContext[Deps]) -> float:
    context.progress(1, 1, "looked up")
    context.log("converted", "debug")
    return amount * context.services.rates[currency]


typed_context = ToolContext(services=Deps({"EUR": 1.1}))
typed_services: Deps = typed_context.services
rates: dict[str, float] = typed_context.services.rates
declared: ToolContext[Deps] = ToolContext("call-1", Deps({}), tool_name="convert")
untyped_services: Mapping[str, Any] = ToolContext().services
plain_context: ToolContext = ToolContext(services={"db": object()})
converted: float = convert(2.0, "EUR", typed_context)

wrong_services: Mapping[str, Any] = typed_context.services  # error
wrong_rates: dict[str, str] = typed_context.services.rates  # error
wrong_context: float = convert(2.0, "EUR", ToolContext(services={"EUR": 1.1}))  # error
typed_context.log("x", "loud")  # error
wrong_type: int = add("1", 2)  # error
wrong_arity: int = add(1, 2, 3)  # error
wrong_result: str = add(1)  # error
wrong_method: str = tracker.open_ticket(42)  # error

# Tools offered together: one name, one tool (a read-only mapping of name -> Tool).
offered: ToolSet = ToolSet(add, shout_async, *tools_of(tracker))
offered_tool: Tool[..., Any] = offered["add"]
offered_names: list[str] = list(offered)
joined: ToolSet = offered | [created]
wrong_set = ToolSet([add])  # error
offered["add"] = add  # error
