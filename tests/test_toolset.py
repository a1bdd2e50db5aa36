"""Contract, "Tool sets": ``ToolSet(*tools)`` holds tools in the order given as a read-only mapping
name -> ``Tool``; two tools with one name raise ``ToolDefinitionError`` (OLT007) naming both
(``module.qualname`` of each). Everything that offers tools to a model makes what it is given a
``ToolSet`` at once: ``dispatch`` and the adapters' list forms refuse a repeated name, never
"last one wins". Manifest entries are listings (``onellm schemas``) and pass as they are.

The message texts are written out here by hand from the contract's wording; the static side's
cases (tests/mypy/test-tool-sets.yml, tests/test_toolset_static.py) pin the same strings.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

import provider_replies as rec
import pytest

from onellm_runtime import Tool, ToolDefinitionError, ToolSet, tool, tools_of
from onellm_runtime.providers import (
    anthropic_tools,
    check_anthropic_limits,
    dispatch,
    provider_definitions,
)
from onellm_runtime.toolset import as_tool_set

HERE = __name__  # the module the tools below are defined in, as ``module.qualname`` starts


@tool
def search_tickets(query: str) -> str:
    """Search the tickets."""
    return f"searched {query}"


@tool(name="search_tickets")
def find_tickets(query: str) -> str:
    """Find tickets (renamed to the first one's name)."""
    return f"found {query}"


@tool
def close_ticket(ticket: str) -> str:
    return f"closed {ticket}"


@tool(name="close_ticket")
def shut_ticket(ticket: str) -> str:
    return f"shut {ticket}"


@tool
def find_ticket_by_id(ticket: str) -> str:
    return ticket


class Tracker:
    @tool
    def reopen(self, ticket: str) -> str:
        return f"reopened {ticket}"

    @tool(name="close_ticket")
    def close(self, ticket: str) -> str:
        return f"tracker closed {ticket}"


def _olt007(name: str, first: str, second: str) -> str:
    return (
        f"Tool '{name}': '{HERE}.{second}' has the same tool name as '{HERE}.{first}' in one tool set; "
        "give one of them another name with @tool(name=...)"
    )


SEARCH_TWICE = _olt007("search_tickets", "search_tickets", "find_tickets")


# --- the mapping ------------------------------------------------------------------------------


def test_the_tools_in_the_order_given() -> None:
    tools = ToolSet(search_tickets, *tools_of(Tracker()), find_ticket_by_id)
    assert list(tools) == ["search_tickets", "reopen", "close_ticket", "find_ticket_by_id"] == list(tools.keys())
    assert len(tools) == 4
    values = list(tools.values())
    assert values[0] is search_tickets and values[3] is find_ticket_by_id
    assert [name for name, _ in tools.items()] == list(tools)
    assert repr(tools) == "ToolSet(search_tickets, reopen, close_ticket, find_ticket_by_id)"


def test_lookup_by_the_name_the_model_calls() -> None:
    tools = ToolSet(search_tickets, shut_ticket)
    assert tools["search_tickets"] is search_tickets
    assert tools["close_ticket"] is shut_ticket  # its @tool(name=...), not the function's name
    assert "close_ticket" in tools and "shut_ticket" not in tools and 3 not in tools
    assert tools.get("nothing") is None
    with pytest.raises(KeyError):
        tools["shut_ticket"]


def test_the_mapping_is_read_only() -> None:
    tools: Any = ToolSet(search_tickets)
    with pytest.raises(TypeError):
        tools["other"] = close_ticket
    with pytest.raises(TypeError):
        del tools["search_tickets"]
    with pytest.raises(AttributeError):
        tools.extra = 1
    assert not hasattr(tools, "update") and not hasattr(tools, "pop")
    assert list(tools) == ["search_tickets"]


def test_an_empty_set() -> None:
    assert len(ToolSet()) == 0 and list(ToolSet()) == []


def test_methods_through_tools_of_are_bound_and_named_by_their_class() -> None:
    tracker = Tracker()
    tools = ToolSet(*tools_of(tracker), search_tickets)
    assert tools["reopen"]("t-1") == "reopened t-1"
    assert tools["close_ticket"]("t-2") == "tracker closed t-2"
    assert tools["reopen"].input_schema["properties"] == {"ticket": {"type": "string"}}  # no self
    with pytest.raises(ToolDefinitionError) as raised:
        ToolSet(close_ticket, *tools_of(tracker))
    assert str(raised.value) == _olt007("close_ticket", "close_ticket", "Tracker.close") + "  [OLT007]"


# --- one name, one tool ---------------------------------------------------------------------


def test_a_repeated_name_names_both_definitions() -> None:
    with pytest.raises(ToolDefinitionError) as raised:
        ToolSet(search_tickets, find_tickets)
    error = raised.value
    assert error.code == "OLT007"
    assert isinstance(error, TypeError)
    assert str(error) == SEARCH_TWICE + "  [OLT007]"
    assert [d.loc for d in error.diagnostics] == [find_tickets]


def test_every_repeated_name_is_reported_at_the_later_tool() -> None:
    with pytest.raises(ToolDefinitionError) as raised:
        ToolSet(search_tickets, close_ticket, find_tickets, shut_ticket)
    assert [d.message for d in raised.value.diagnostics] == [
        SEARCH_TWICE,
        _olt007("close_ticket", "close_ticket", "shut_ticket"),
    ]


def test_the_same_tool_twice_is_a_repeated_name() -> None:
    with pytest.raises(ToolDefinitionError, match="OLT007"):
        ToolSet(search_tickets, search_tickets)


def test_joining_two_sets_refuses_a_name_in_both() -> None:
    joined = ToolSet(search_tickets) | ToolSet(close_ticket)
    assert list(joined) == ["search_tickets", "close_ticket"]
    assert list(ToolSet(search_tickets) | [close_ticket]) == ["search_tickets", "close_ticket"]
    with pytest.raises(ToolDefinitionError) as raised:
        ToolSet(search_tickets) | ToolSet(find_tickets)
    assert str(raised.value) == SEARCH_TWICE + "  [OLT007]"


@pytest.mark.parametrize(
    ("argument", "message"),
    [
        (
            lambda q: q,
            "ToolSet takes tools (made with @tool or Tool.create), not function",
        ),
        (
            [search_tickets],
            "ToolSet takes tools (made with @tool or Tool.create), not list; unpack a list with ToolSet(*tools)",
        ),
        (
            "search_tickets",
            "ToolSet takes tools (made with @tool or Tool.create), not str",
        ),
    ],
    ids=["function", "list", "name"],
)
def test_something_that_is_not_a_tool_is_refused(argument: object, message: str) -> None:
    with pytest.raises(TypeError) as raised:
        ToolSet(argument)  # type: ignore[arg-type]
    assert str(raised.value) == message
    assert not isinstance(raised.value, ToolDefinitionError)


def test_tool_create_tools_join_a_set_by_their_own_name() -> None:
    def lookup(key: str) -> str:
        return key

    made = Tool.create(lookup, name="search_tickets")
    with pytest.raises(ToolDefinitionError) as raised:
        ToolSet(search_tickets, made)
    assert (
        str(raised.value)
        == _olt007(
            "search_tickets", "search_tickets", "test_tool_create_tools_join_a_set_by_their_own_name.<locals>.lookup"
        )
        + "  [OLT007]"
    )


# --- as_tool_set: what the list forms are given -----------------------------------------------


def test_as_tool_set_takes_a_set_as_it_is_a_list_and_a_mapping_by_name() -> None:
    tools = ToolSet(search_tickets)
    assert as_tool_set(tools) is tools
    assert list(as_tool_set([close_ticket, search_tickets])) == ["close_ticket", "search_tickets"]
    assert list(as_tool_set({"search_tickets": search_tickets})) == ["search_tickets"]
    with pytest.raises(ValueError, match="the tool under key 'lookup' is named 'search_tickets'"):
        as_tool_set({"lookup": search_tickets})
    with pytest.raises(ToolDefinitionError, match="OLT007"):
        as_tool_set(iter([search_tickets, find_tickets]))


# --- every list form refuses a repeated name --------------------------------------------------


def _dispatch(tools: Any) -> Any:
    return asyncio.run(dispatch("openai", rec.responses(rec.ONE), tools))


def _unknown_tool_answer(tools: Any) -> list[str]:
    """The names ``dispatch`` offers, read from its answer to a call of a tool it does not hold."""
    done = asyncio.run(dispatch("openai", rec.responses([("call_1", "forecast", {})]), tools))
    return str(done.results[0].text).removeprefix("Unknown tool 'forecast'; the tools are: ").rstrip(".").split(", ")


def _names(definitions: Any) -> list[str]:
    return [d["name"] for d in definitions]


#: Each list form, and the names it offers in its output, in order.
LIST_FORMS: dict[str, Callable[[Any], list[str]]] = {
    "dispatch": _unknown_tool_answer,
    "provider_definitions openai": lambda tools: _names(provider_definitions("openai", tools)),
    "provider_definitions anthropic": lambda tools: _names(provider_definitions("anthropic", tools)),
    "provider_definitions gemini": lambda tools: _names(provider_definitions("gemini", tools)),
    "provider_definitions mcp": lambda tools: _names(provider_definitions("mcp", tools)),
    "anthropic_tools": lambda tools: _names(anthropic_tools(tools)),
    "check_anthropic_limits": lambda tools: ["strict"] * check_anthropic_limits(tools).strict_tools,
}
#: What each form gives for weather and search_tickets (check_anthropic_limits counts them).
OFFERED = {form: ["weather", "search_tickets"] for form in LIST_FORMS} | {"check_anthropic_limits": ["strict"] * 2}


@pytest.mark.parametrize("form", list(LIST_FORMS))
@pytest.mark.parametrize(
    "shape",
    [lambda a, b: [a, b], lambda a, b: (t for t in (a, b)), lambda a, b: {"x": a, "y": b}.values()],
    ids=["list", "generator", "values"],
)
def test_each_list_form_refuses_a_repeated_name(form: str, shape: Callable[[Any, Any], Any]) -> None:
    with pytest.raises(ToolDefinitionError) as raised:
        LIST_FORMS[form](shape(search_tickets, find_tickets))
    assert str(raised.value) == SEARCH_TWICE + "  [OLT007]"


@pytest.mark.parametrize("form", list(LIST_FORMS))
def test_each_list_form_takes_a_tool_set_a_mapping_and_a_list(form: str) -> None:
    for tools in (
        ToolSet(rec.weather, search_tickets),
        {"weather": rec.weather, "search_tickets": search_tickets},
        [rec.weather, search_tickets],
    ):
        assert LIST_FORMS[form](tools) == OFFERED[form]


def test_dispatch_with_a_tool_set_runs_the_call_it_names() -> None:
    done = _dispatch(ToolSet(rec.weather, rec.explode))
    assert [r.text for r in done.results] == rec.ONE_TEXTS


def test_dispatch_refuses_before_any_call_runs() -> None:
    ran: list[str] = []

    @tool(name="weather")
    def other_weather(city: str) -> str:
        ran.append(city)
        return city

    with pytest.raises(ToolDefinitionError, match="OLT007"):
        _dispatch([rec.weather, other_weather])
    assert ran == []


def test_manifest_entries_are_a_listing_and_pass_with_a_repeated_name() -> None:
    """``onellm schemas --provider`` lists every tool of the modules given, each under its module."""
    entries = [
        {"module": m, "qualname": "search", "name": "search", "description": "", "input_schema": schema}
        for m, schema in (("a", search_tickets.input_schema), ("b", find_tickets.input_schema))
    ]
    for provider in ("openai", "anthropic", "gemini", "mcp"):
        assert [d["name"] for d in provider_definitions(provider, entries)] == ["search", "search"]
    assert json.dumps(anthropic_tools(entries)).count('"search"') == 2
