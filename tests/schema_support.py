"""Small helpers for the table-driven schema tests: build a tool around one annotation.

Kept separate from the tests so each test module reads like the contract table it covers.
"""

from __future__ import annotations

import json
from typing import Any, Callable

from onellm_runtime import Tool, ToolDefinitionError


def tool_with(annotation: object, *, default: object = ..., returns: object = str, **options: Any) -> Tool[..., Any]:
    """A tool ``f(x: annotation [= default]) -> returns``, made with ``Tool.create``."""

    def f(x):  # type: ignore[no-untyped-def]
        return x

    if default is not ...:
        f.__defaults__ = (default,)
    f.__annotations__ = {"x": annotation, "return": returns}
    return Tool.create(f, **options)


def fragment(annotation: object, **kwargs: Any) -> str:
    """``json.dumps`` of the property ``x`` of ``tool_with(annotation)``."""
    return json.dumps(tool_with(annotation, **kwargs).input_schema["properties"]["x"])


def output(returns: object, **options: Any) -> str:
    """``json.dumps`` of the output schema of ``f() -> returns``."""

    def f():  # type: ignore[no-untyped-def]
        return None

    f.__annotations__ = {"return": returns}
    return json.dumps(Tool.create(f, **options).output_schema)


def schema(fn: Callable[..., Any], **options: Any) -> str:
    """``json.dumps`` of a function's whole input schema."""
    return json.dumps(Tool.create(fn, **options).input_schema)


def refusal(fn: Callable[[], object]) -> tuple[list[str], str]:
    """The codes and message of the ``ToolDefinitionError`` that ``fn()`` raises."""
    try:
        fn()
    except ToolDefinitionError as e:
        return [d.code for d in e.diagnostics], str(e)
    raise AssertionError("no ToolDefinitionError was raised")
