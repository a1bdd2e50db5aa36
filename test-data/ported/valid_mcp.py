"""Tools written the way users of the MCP Python SDK (FastMCP ``@mcp.tool()``) and the MCP
reference servers (time, fetch, memory, filesystem, git, sequential thinking) write them.

Habits followed: pydantic ``Field(...)`` as a parameter's default (with and without a default
value), descriptions built with f-strings from module constants, constraints as annotated_types
markers and ``Field`` arguments, ``str`` enums, pydantic models as inputs and as structured outputs,
constants imported from a settings module, computed ``@tool`` options and enum values. Only the decorator is
onellm's. Annotations are evaluated eagerly (no ``from __future__ import annotations``).
"""

from enum import Enum
from typing import Annotated

import annotated_types as at
from _settings import DEFAULT_TZ, MAX_RESULTS
from pydantic import BaseModel, Field

from onellm_runtime import tool

LOCAL_TZ = "Europe/Warsaw"
MAX_DEPTH = 5
PAGE = 20
LIMIT = 1000 * 1000


class LogOrder(str, Enum):
    NEWEST = "newest-" + "first"
    OLDEST = "oldest-first"


class TimeConversion(BaseModel):
    source: str
    target: str
    difference_hours: float


class FetchRequest(BaseModel):
    url: Annotated[str, Field(description="URL to fetch")]
    max_length: Annotated[int, Field(default=5000, description="Maximum number of characters to return.", gt=0, lt=1000000)]
    start_index: Annotated[int, Field(default=0, ge=0, description="Start the content at this character index.")]
    raw: Annotated[bool, Field(default=False, description="Return the page as it is, without conversion.")]


class Entity(BaseModel):
    name: str = Field(description="Unique name of the entity")
    entity_type: str = Field(description="What kind of thing it is")
    observations: list[str] = Field(default_factory=list, description="Facts about it")


class ThoughtStatus(BaseModel):
    thought_number: int
    total_thoughts: int
    next_thought_needed: bool


@tool
def get_current_time(
    timezone: str = Field(
        description=f"IANA timezone name (e.g. 'America/New_York'); use '{LOCAL_TZ}' when the user names none."
    ),
) -> str:
    """Get the current time in a timezone."""
    return timezone


@tool
def convert_time(
    source_timezone: str = Field(description=f"Source IANA timezone name; '{LOCAL_TZ}' if none is given."),
    time: str = Field(description="Time in 24-hour form, HH:MM", pattern=r"^([01]\d|2[0-3]):[0-5]\d$"),
    target_timezone: str = Field(description=f"Target IANA timezone name; '{LOCAL_TZ}' if none is given."),
) -> TimeConversion:
    """Convert a time between timezones."""
    return TimeConversion(source=source_timezone, target=target_timezone, difference_hours=0.0)


@tool
def fetch(request: FetchRequest) -> str:
    """Fetch a URL and return its content as text."""
    return request.url


@tool
def create_entities(entities: list[Entity] = Field(description="Entities to create")) -> list[Entity]:
    """Create entities in the knowledge graph."""
    return entities


@tool
def search_nodes(
    query: str = Field(description="Text matched against names, types and observations"),
    limit: int = Field(default=PAGE, ge=1, le=PAGE * 5, description="How many nodes to return"),
) -> list[str]:
    """Search the knowledge graph."""
    return [query][:limit]


@tool
def directory_tree(
    path: str = Field(description="Directory to list"),
    depth: Annotated[int, at.Ge(1), at.Le(MAX_DEPTH)] = MAX_DEPTH // 2,
    exclude: list[str] = Field(default_factory=list, description="Glob patterns to skip"),
) -> str:
    """List a directory as a tree."""
    return path


@tool
def git_log(
    repo_path: str,
    max_count: int = Field(default=10, ge=1, description="Most commits to show"),
    order: LogOrder = LogOrder.NEWEST,
) -> list[str]:
    """Show the commit log.

    Args:
        repo_path: Path to the repository.
        order: Which commits come first.
    """
    return [repo_path][:max_count]


@tool
def record_thought(
    thought: str = Field(description="Your current thinking step"),
    thought_number: Annotated[int, at.Gt(0)] = Field(description="Number of this thought"),
    total_thoughts: Annotated[int, at.Gt(0)] = Field(description="Thoughts you expect to need"),
    next_thought_needed: bool = Field(description="Whether another thought follows"),
) -> ThoughtStatus:
    """Record one step of step-by-step thinking."""
    return ThoughtStatus(
        thought_number=thought_number, total_thoughts=total_thoughts, next_thought_needed=next_thought_needed
    )


@tool(name="add", description=f"Add two integers between -{LIMIT} and {LIMIT}.")
def add_numbers(
    a: Annotated[int, at.Interval(ge=-LIMIT, le=LIMIT)],
    b: Annotated[int, at.Interval(ge=-LIMIT, le=LIMIT)],
) -> int:
    return a + b


@tool
def list_events(
    calendar: str = Field(description="Calendar id"),
    tz: str = Field(default=DEFAULT_TZ, description="Timezone of the listed times"),
    limit: Annotated[int, Field(le=MAX_RESULTS, description="Most events to list")] = 10,
) -> list[str]:
    """List upcoming events."""
    return [calendar][:limit]
