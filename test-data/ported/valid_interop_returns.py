"""Tools that return loosely typed JSON, as FastMCP servers, pydantic-ai, openai-agents and
LangChain tools often do: ``-> dict[str, Any]``, ``-> list[dict[str, Any]]``, ``-> Any``.

``Any`` in a return annotation reads as ``JsonValue`` there (the contract's Results row): no
output schema for ``-> Any`` alone, ``{}`` where it stands inside a container. The values are
written by their own types at call time (``tests/test_interop_results.py``). Annotations are
evaluated eagerly (no ``from __future__ import annotations``).
"""

from typing import Any, Optional

from onellm_runtime import tool


# FastMCP (the MCP quickstart's weather server): the API's JSON passed on as a dict.
@tool
async def get_forecast(latitude: float, longitude: float) -> dict[str, Any]:
    """Get the weather forecast for a location."""
    return {"latitude": latitude, "longitude": longitude, "periods": []}


# pydantic-ai: search hits as a list of loose records.
@tool
def search_flights(origin: str, destination: str) -> list[dict[str, Any]]:
    """Find flights between two airports."""
    return [{"origin": origin, "destination": destination}]


# openai-agents: a tool that hands back whatever the service answered.
@tool
def fetch_json(path: str) -> Any:
    """Fetch a JSON document from the internal API."""
    return {"path": path}


# LangChain: a lookup that may find nothing.
@tool
def lookup_record(record_id: str) -> Optional[dict[str, Any]]:
    """Look a record up by its id."""
    return None


# LangChain: rows of any shape.
@tool
def run_query(sql: str) -> list[Any]:
    """Run a read-only SQL query."""
    return []


# FastMCP: a map of lists of anything.
@tool
def group_events(field: str) -> dict[str, list[Any]]:
    """Group the calendar's events by a field."""
    return {}
