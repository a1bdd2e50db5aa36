"""LangChain habits (``@tool`` with an ``args_schema`` model) that the contract refuses:
``Field`` arguments inside a model that the binder could not honour (``examples``,
``validation_alias``), and a bound given twice (``Field(min_length=)`` with ``MinLen``).

Annotations are evaluated eagerly (no ``from __future__ import annotations``).
See ../README.md for the ``# expect:`` convention.
"""

from typing import Annotated

import annotated_types as at
from pydantic import BaseModel, Field

from onellm_runtime import tool


class WeatherInput(BaseModel):
    location: str = Field(..., description="City and state", examples=["Boston, MA"])


class LegacySearchInput(BaseModel):
    query: str = Field(validation_alias="q", description="Search words")


@tool
def current_weather(
    args: WeatherInput,  # expect: OLT013
) -> str:
    """Get the current weather."""
    return ""


@tool
def legacy_search(
    args: LegacySearchInput,  # expect: OLT013
) -> str:
    """Search the old index."""
    return ""


@tool
def count_words(
    text: Annotated[str, "The text", Field(min_length=1), at.MinLen(1)],  # expect: OLT013
) -> int:
    """Count the words in a text."""
    return 0
