"""Faulty tools, whole-function problems: OLT001, 003, 004, 008, 009, 011, 015.

Annotations are evaluated eagerly (no ``from __future__ import annotations``).
See README.md for the ``# expect:`` convention.
"""

import enum
from collections.abc import Callable
from typing import Any, Literal, TypeVar, overload

from onellm_runtime import CancellationToken, ToolContext, tool

T = TypeVar("T")


class Plain:
    def __init__(self, x: int) -> None:
        self.x = x


class Flags(enum.Flag):
    A = 1
    B = 2


@tool
class NotAFunction:  # expect: OLT001
    pass


@tool
@tool
def decorated_twice(x: int) -> str:  # expect: OLT001
    return ""


@tool
@overload
def pick(x: int) -> int: ...  # expect: OLT001
@overload
def pick(x: str) -> str: ...
def pick(x: int | str) -> int | str:
    return x


class Holder:
    @tool
    @property
    def value(self) -> int:  # expect: OLT001
        return 1


@tool
def takes_any(x: Any) -> int:  # expect: OLT002
    return 1


@tool
def returns_object() -> object:  # expect: OLT003
    return 1


@tool
def returns_callable() -> Callable[[], int]:  # expect: OLT003
    return lambda: 1


@tool
def returns_pair() -> tuple[int, str]:  # expect: OLT003
    return (1, "")


@tool
def returns_int_keys() -> dict[int, str]:  # expect: OLT003
    return {}


@tool
def returns_union() -> int | str:  # expect: OLT003
    return 1


@tool
def returns_mixed_literal() -> Literal["a", 1]:  # expect: OLT003
    return 1


@tool
def returns_flags() -> Flags:  # expect: OLT003
    return Flags.A


@tool
def returns_plain() -> Plain:  # expect: OLT005
    return Plain(1)


@tool
def generic_param(x: T) -> str:  # expect: OLT004
    return ""


@tool
def generic_return(x: int) -> T:  # expect: OLT004
    raise NotImplementedError


@tool
def generic_inside(items: list[T], first: dict[str, T]) -> str:  # expect: OLT004
    return ""


@tool(name="has space")
def bad_name_space(x: int) -> str:  # expect: OLT008
    return ""


@tool(name="")
def bad_name_empty(x: int) -> str:  # expect: OLT008
    return ""


@tool(name="a234567890123456789012345678901234567890123456789012345678901234x")
def bad_name_long(x: int) -> str:  # expect: OLT008
    return ""


@tool(name="naïve")
def bad_name_ascii(x: int) -> str:  # expect: OLT008
    return ""


@tool
def café(x: int) -> str:  # expect: OLT008
    return ""


@tool
def two_contexts(
    a: ToolContext,
    x: int,
    b: ToolContext,  # expect: OLT009
) -> str:
    return ""


@tool
def two_tokens(
    a: CancellationToken,
    ctx: ToolContext,
    b: CancellationToken,  # expect: OLT009
    c: CancellationToken,  # expect: OLT009
) -> str:
    return ""


@tool(naming="snake_case")
def bad_naming(x: int) -> str:  # expect: OLT011
    return ""


@tool(naming="camelcase")
def bad_naming_case(x: int) -> str:  # expect: OLT011
    return ""


@tool(invocation_mode="model_choice")
def clashing_control(
    path: str,
    invocationMode: str,  # expect: OLT015
) -> str:
    return ""


@tool(name="two words", naming="kebab")
def two_findings(x: int) -> object:  # expect: OLT008 OLT011 OLT003
    return ""
