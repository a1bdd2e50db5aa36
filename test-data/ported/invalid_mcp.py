"""MCP SDK / reference-server habits (FastMCP ``@mcp.tool()``) that the contract refuses: a
``Field(alias=...)`` on a tool parameter, ``StringConstraints`` transformations, annotated_types
markers the binder does not enforce (``Predicate``, ``Timezone``, ``Unit``), a pydantic validator
in ``Annotated``, ``json_schema_extra``; and values the static side cannot compute (a
description or default computed by a call, as the time server computes its local zone), which
are OLT014 on the static side only.

Annotations are evaluated eagerly (no ``from __future__ import annotations``).
See ../README.md for the ``# expect:`` convention.
"""

import datetime
from typing import Annotated

import annotated_types as at
from pydantic import BeforeValidator, Field, StringConstraints

from onellm_runtime import tool


def _local_tz() -> str:
    return "Europe/Warsaw"


def _page_size() -> int:
    return 25


@tool
def read_file(
    file_path: str = Field(alias="path", description="File to read"),  # expect: OLT013
    encoding: Annotated[str, StringConstraints(strip_whitespace=True, to_lower=True)] = "utf-8",  # expect: OLT013
) -> str:
    """Read a text file."""
    return ""


@tool
def rename_symbol(
    symbol: Annotated[str, at.Predicate(str.isidentifier)],  # expect: OLT013
    new_name: Annotated[str, BeforeValidator(str.strip)],  # expect: OLT013
) -> str:
    """Rename a symbol across the project."""
    return ""


@tool
def schedule_meeting(
    when: Annotated[datetime.datetime, at.Timezone("UTC")],  # expect: OLT013
    hours: Annotated[float, at.Unit("h")],  # expect: OLT013
    title: Annotated[str, Field(json_schema_extra={"x-order": 1})],  # expect: OLT013
) -> str:
    """Schedule a meeting."""
    return ""


@tool
def local_time(
    timezone: str = Field(description=f"IANA timezone name; '{_local_tz()}' if the user names none"),  # expect-static: OLT014
    zone_default: str = Field(default=_local_tz(), description="Zone used when none is named"),  # expect-static: OLT014
    limit: int = Field(default=_page_size(), description="Most entries"),  # expect-static: OLT014
) -> str:
    """Tell the time in the server's zone."""
    return ""
