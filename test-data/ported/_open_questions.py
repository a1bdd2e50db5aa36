"""Peer habits where the contract is silent or ambiguous: each tool carries the number of its
question in ../README.md ("Questions for the contract"). No ``# expect:`` lines and no golden:
this is no corpus module (the leading underscore), and nothing here may be turned into a rule
until the contract answers.

Annotations are evaluated eagerly (no ``from __future__ import annotations``).
"""

from typing import Annotated

from pydantic import BaseModel, ConfigDict, EmailStr, Field, HttpUrl, PositiveInt, conint

from onellm_runtime import Range, tool

LIMIT = 10000


# Q1 (Semantic Kernel): a description on a `str` return, which has no output schema.
@tool
def get_news(location: Annotated[str, "The location name"]) -> Annotated[str, "The news as text"]:
    """Get the news for a place."""
    return location


# Q2 (FastMCP / fetch server): a Field default inside Annotated, with no Python default.
@tool
def fetch_page(
    url: str,
    max_length: Annotated[int, Field(default=5000, gt=0, description="Most characters to return")],
) -> str:
    """Fetch a page."""
    return url[:max_length]


# Q3 (MCP SDK): the default given positionally to Field.
@tool
def list_commits(branch: str = Field("main", description="Branch to read")) -> str:
    """List the commits of a branch."""
    return branch


# Q4 (pydantic-ai): serialization_alias on a model field: OLT013 (Field row) or OLT005 (models)?
class Report(BaseModel):
    total_count: int = Field(serialization_alias="totalCount")


@tool
def make_report(days: int) -> Report:
    """Count what happened in the last days."""
    return Report(total_count=days)


# Q5: the same keyword twice from one marker kind, and two plain strings.
@tool
def pick_range(
    n: Annotated[int, Range(1, 2), Range(3, 4)],
    label: Annotated[str, "First text", "Second text"],
) -> str:
    """Pick a number."""
    return label * n


# Q6 (pydantic-ai / LangChain): Field arguments the contract's lists do not name.
@tool
def set_level(
    level: Annotated[int, Field(strict=False, description="Level to set")],
    mode: Annotated[str, Field(deprecated="use level only", description="Old switch")] = "auto",
) -> str:
    """Set the level."""
    return mode


# Q7 (pydantic users): pydantic's constrained aliases and con* functions.
@tool
def reserve_seats(
    seats: PositiveInt,
    rows: conint(ge=1, le=40),  # type: ignore[valid-type]
) -> str:
    """Reserve seats."""
    return str(seats * rows)


# Q8 (pydantic users): pydantic's own string types.
@tool
def subscribe(email: EmailStr, homepage: HttpUrl) -> str:
    """Subscribe to the newsletter."""
    return str(email)


# Q10 (LangChain, FastMCP): model_config settings the binder does not follow.
class LooseInput(BaseModel):
    model_config = ConfigDict(extra="allow", str_strip_whitespace=True)

    query: str


@tool
def loose_search(args: LooseInput) -> str:
    """Search with a loosely configured model."""
    return args.query


# Q11: an f-string with a format spec or a conversion.
@tool
def export_rows(
    limit: Annotated[int, Field(le=LIMIT, description=f"At most {LIMIT:,} rows ({LIMIT!r} exactly)")] = 100,
) -> str:
    """Export rows."""
    return str(limit)
