"""Faulty annotations and unions: OLT012 and OLT013.

Annotations are evaluated eagerly (no ``from __future__ import annotations``).
See README.md for the ``# expect:`` convention.
"""

import datetime
from dataclasses import dataclass
from typing import Annotated, Literal, Optional

import annotated_types as at

from onellm_runtime import (
    Description,
    Discriminator,
    Email,
    JsonName,
    Length,
    MaxLength,
    MinLength,
    Pattern,
    Range,
    StringLength,
    Url,
    tool,
)


@dataclass
class Open:
    action: Literal["open"]
    path: str


@dataclass
class Close:
    action: Literal["close"]
    path: str


@dataclass
class Untagged:
    path: str


@dataclass
class AlsoOpen:
    action: Literal["open"]
    mode: str


@dataclass
class TwoTagsA:
    kind: Literal["a"]
    op: Literal["x"]


@dataclass
class TwoTagsB:
    kind: Literal["b"]
    op: Literal["y"]


@dataclass
class MaybeTagA:
    action: Optional[Literal["a"]]


@dataclass
class MaybeTagB:
    action: Optional[Literal["b"]]


@dataclass
class WideTag:
    action: Literal["w", "v"]


@dataclass
class Wrapper:
    choice: Open | Untagged
    name: Annotated[str, Range(1, 2)]


@tool
def no_discriminator(
    a: Open | Untagged,  # expect: OLT012
    b: Open | AlsoOpen,  # expect: OLT012
    c: MaybeTagA | MaybeTagB,  # expect: OLT012
    d: Open | WideTag,  # expect: OLT012
) -> str:
    return ""


@tool
def ambiguous(
    x: TwoTagsA | TwoTagsB,  # expect: OLT012
) -> str:
    return ""


@tool
def bad_explicit(
    a: Annotated[Open | Close, Discriminator("path")],  # expect: OLT012
    b: Annotated[Open | Close, Discriminator("missing")],  # expect: OLT012
    c: Annotated[str, Discriminator("action")],  # expect: OLT012
    d: Annotated[Open, Discriminator("action")],  # expect: OLT012
) -> str:
    return ""


@tool
def misfit_markers(
    a: Annotated[int, Pattern("^a")],  # expect: OLT013
    b: Annotated[str, Range(1, 5)],  # expect: OLT013
    c: Annotated[list[str], StringLength(5)],  # expect: OLT013
    d: Annotated[int, MinLength(1)],  # expect: OLT013
    e: Annotated[int, Email()],  # expect: OLT013
    f: Annotated[list[str], Url()],  # expect: OLT013
    g: Annotated[bool, Range(0, 1)],  # expect: OLT013
    h: Annotated[datetime.timedelta, Pattern("x")],  # expect: OLT013
    i: Annotated[dict[str, int], Length(1, 2)],  # expect: OLT013
    j: Annotated[float, at.MaxLen(3)],  # expect: OLT013
    k: Annotated[str, at.Ge(1)],  # expect: OLT013
) -> str:
    return ""


@tool
def bad_values(
    a: Annotated[int, Range(5, 1)],  # expect: OLT013
    b: Annotated[str, MaxLength(-1)],  # expect: OLT013
    c: Annotated[str, Pattern("(?<=a)b")],  # expect: OLT013
    d: Annotated[str, Pattern("(?P<name>a)")],  # expect: OLT013
    e: Annotated[str, Pattern(r"a\Z")],  # expect: OLT013
    f: Annotated[str, Pattern("a++")],  # expect: OLT013
    g: Annotated[str, Pattern("(")],  # expect: OLT013
    h: Annotated[str, Length(5, 2)],  # expect: OLT013
    i: Annotated[str, StringLength(5, min_length=9)],  # expect: OLT013
) -> str:
    return ""


@tool
def json_name_on_parameter(
    file_path: Annotated[str, JsonName("path"), Description("Renaming a parameter is refused.")],  # expect: OLT013
) -> str:
    return ""


@tool
def inside_records(
    w: Wrapper,  # expect: OLT012 OLT013
    items: list[Annotated[int, Email()]],  # expect: OLT013
) -> str:
    return ""


@tool
def on_optional(
    a: Annotated[int | None, Pattern("x")],  # expect: OLT013
    b: Optional[Annotated[int, MaxLength(2)]],  # expect: OLT013
) -> str:
    return ""
