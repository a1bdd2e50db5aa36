"""pydantic's string and constrained types in tools, as FastMCP servers (the fetch server's
``AnyUrl``), pydantic-ai, openai-agents and LangChain code writes them.

Read by the contract's rule-zero rows: ``AnyUrl`` as ``format: uri``; ``AnyHttpUrl`` adds the
http(s) pattern, ``HttpUrl`` also ``maxLength`` 2083; ``EmailStr`` as ``format: email``; the
``con*`` functions as the ``Annotated`` types they return (``conlist``'s ``Len(min_length or
0, max_length)`` writes a minimum of 0 when none is given). Annotations are evaluated eagerly.
"""

from decimal import Decimal
from typing import Annotated

from pydantic import (
    AnyHttpUrl,
    AnyUrl,
    BaseModel,
    EmailStr,
    Field,
    HttpUrl,
    condecimal,
    confloat,
    conint,
    conlist,
    conset,
    constr,
)

from onellm_runtime import tool


# FastMCP fetch server: the URL is an AnyUrl with a Field description.
@tool
def fetch(url: Annotated[AnyUrl, Field(description="URL to fetch")], raw: bool = False) -> str:
    """Fetch a URL and return its content."""
    return str(url)


# pydantic-ai: an email address as EmailStr.
@tool
def send_invite(email: EmailStr, team: str) -> str:
    """Invite someone to a team."""
    return email


class Company(BaseModel):
    name: str
    homepage: HttpUrl


# openai-agents: a model with an HttpUrl field.
@tool
def register_company(company: Company) -> str:
    """Register a company."""
    return company.name


# LangChain: a webhook that must be http(s).
@tool
def subscribe(callback: AnyHttpUrl, topic: str) -> str:
    """Subscribe a webhook to a topic."""
    return topic


# LangChain: shortening answers with the pydantic URL type itself.
@tool
def shorten(url: HttpUrl) -> HttpUrl:
    """Shorten a link."""
    return url


# pydantic-ai's dice example, with pydantic v1's constrained types.
@tool
def roll_dice(sides: conint(ge=2, le=100) = 6, bias: confloat(ge=0, le=1) = 0) -> int:  # type: ignore[valid-type]
    """Roll a die."""
    return 1


# LangChain: constrained strings and lists in an old args_schema, ported as parameters.
@tool
def tag_ticket(
    ticket: constr(pattern=r"^T-\d+$", max_length=12),  # type: ignore[valid-type]
    tags: conlist(str, min_length=1, max_length=10),  # type: ignore[valid-type]
    watchers: conset(int, max_length=3),  # type: ignore[valid-type]
) -> str:
    """Tag a ticket."""
    return ticket


# openai-agents: an amount as a constrained Decimal.
@tool
def refund(amount: condecimal(ge=0, le=1000)) -> Decimal:  # type: ignore[valid-type]
    """Refund an amount."""
    return amount
