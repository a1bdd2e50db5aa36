"""Tools written the way LangChain users write them for ``@tool`` (``langchain_core.tools``).

Habits followed: descriptions from Google-style ``Args:`` or Sphinx ``:param:`` docstrings (what
``parse_docstring=True`` reads), an ``args_schema`` pydantic model with ``Field(..., description=...)``
ported as the tool's one parameter, the same model's fields ported as parameters with
``Annotated[T, Field(...)]``, ``str`` enums and ``Literal`` choices, optional nested models. Only the
decorator is onellm's. Annotations are evaluated eagerly (no ``from __future__ import annotations``).
"""

from enum import Enum
from typing import Annotated, Literal

import annotated_types as at
from pydantic import BaseModel, Field

from onellm_runtime import tool


class Operation(str, Enum):
    ADD = "add"
    SUBTRACT = "subtract"
    MULTIPLY = "multiply"
    DIVIDE = "divide"


class SearchInput(BaseModel):
    query: str = Field(..., description="Search query")
    k: int = Field(default=4, ge=1, le=20, description="Results to return")


class CalculatorInput(BaseModel):
    a: float = Field(description="Left operand")
    b: float = Field(description="Right operand")
    op: Operation = Field(default=Operation.ADD, description="What to do with them")


class Filter(BaseModel):
    column: str
    equals: str


class QueryInput(BaseModel):
    table: str = Field(..., description="Table to read")
    filters: list[Filter] | None = Field(default=None, description="Rows must match all of these")
    limit: int = Field(default=100, gt=0, le=1000)


@tool
def multiply(a: int, b: int) -> int:
    """Multiply two integers.

    Args:
        a: First factor.
        b: Second factor.
    """
    return a * b


@tool
def web_search(request: SearchInput) -> list[str]:
    """Search the web and return the top results."""
    return [request.query][: request.k]


@tool
def get_stock_price(
    ticker: Annotated[str, Field(description="Ticker symbol, e.g. MSFT", pattern=r"^[A-Z]{1,5}$")],
    exchange: Annotated[str, Field(description="Exchange code")] = "NASDAQ",
) -> float:
    """Get the latest price of a stock."""
    return 0.0


@tool
def summarize_text(text: str, max_words: int = 100, style: Literal["bullet", "paragraph"] = "paragraph") -> str:
    """Summarize a text.

    Args:
        text: The text to summarize.
        max_words: Longest summary wanted.
        style: Bullet points or one paragraph.
    """
    return text[:max_words]


@tool
def calculate(input: CalculatorInput) -> float:
    """Do arithmetic on two numbers."""
    return input.a + input.b


@tool
def send_message(
    recipient: Annotated[str, Field(description="Username or channel"), at.MinLen(1)],
    body: Annotated[str, Field(max_length=2000)],
    urgent: bool = False,
) -> str:
    """Send a chat message.

    Args:
        body: The message text.
        urgent: Notify the recipient at once.
    """
    return recipient


@tool
def query_table(query: QueryInput) -> list[dict[str, str]]:
    """Read rows from a table."""
    return []


@tool
def translate(text: str, target_language: str) -> str:
    """Translate text into another language.

    :param text: The text to translate.
    :param target_language: Language name or code, e.g. de.
    """
    return text
