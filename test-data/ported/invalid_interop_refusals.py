"""Habits of FastMCP, pydantic-ai, openai-agents and LangChain code that the contract refuses,
each with the fix its message names: a secret or a runtime object as a parameter (they reach a
tool through ``ToolContext.services``), ``Any`` as a parameter type, the parts of pydantic's
constrained types that no schema keyword says, and ``Field(int, ...)``.

Annotations are evaluated eagerly. See ../README.md for the ``# expect:`` convention;
``tests/ported_items.py`` holds each refusal's exact message.
"""

import asyncio
import logging
from typing import Annotated, Any

from pydantic import Field, SecretStr, confloat, conint, constr

from onellm_runtime import ToolInvoker, tool


# pydantic-ai: an API key handed to the tool as an argument.
@tool
def query_weather_api(
    city: str,
    api_key: SecretStr,  # expect: OLT002
) -> str:
    """Ask the weather service."""
    return city


# openai-agents: the invoker itself passed in, to call other tools.
@tool
def orchestrate(
    goal: str,
    invoker: ToolInvoker,  # expect: OLT002
) -> str:
    """Reach a goal with other tools."""
    return goal


# FastMCP: a logger and the event loop as parameters.
@tool
def background_sync(
    log: logging.Logger,  # expect: OLT002
    loop: asyncio.AbstractEventLoop,  # expect: OLT002
) -> str:
    """Synchronise in the background."""
    return ""


# LangChain: a lock shared between calls.
@tool
def bump_counter(
    lock: asyncio.Lock,  # expect: OLT002
) -> int:
    """Add one to the shared counter."""
    return 1


# openai-agents: a free-form payload.
@tool
def post_event(
    payload: Any,  # expect: OLT002
) -> str:
    """Post an event."""
    return ""


# pydantic v1 habits: what a constrained type says that no schema keyword does.
@tool
def order_boxes(
    count: conint(gt=0, multiple_of=5),  # type: ignore[valid-type]  # expect: OLT013
    weight: confloat(gt=0),  # type: ignore[valid-type]  # expect: OLT013
    label: constr(strip_whitespace=True, max_length=20),  # type: ignore[valid-type]  # expect: OLT013
) -> str:
    """Order boxes."""
    return ""


# FastMCP: the type given again as Field's first argument, which is its default.
@tool
def list_items(
    limit: Annotated[int, Field(int, description="How many", ge=1)] = 100,  # expect: OLT013
) -> str:
    """List items."""
    return ""
