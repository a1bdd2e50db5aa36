"""Tools under other decorators (test-data/valid_decorated.py): described from the ``def``,
run through every decorator.

The corpus tests pin the schemas on both sides; these pin the calls: the decorators' wrappers
run, positional-only parameters still reach the function, an async wrapper is awaited, and a
sync wrapper around an ``async def`` has its coroutine awaited.
"""

from __future__ import annotations

import functools
import inspect
from pathlib import Path
from typing import Any, Awaitable, Callable

import pytest
from async_support import run

from onellm_runtime import JsonPart, TextPart, Tool, ToolInvoker, tool

_CORPUS = Path(__file__).resolve().parent.parent / "test-data"


@pytest.fixture(scope="module")
def mod() -> Any:
    import sys

    sys.path.insert(0, str(_CORPUS))
    try:
        from _corpus import load_module

        return load_module(_CORPUS / "valid_decorated.py")
    finally:
        sys.path.remove(str(_CORPUS))


def _invoke(t: Tool[..., Any], raw: str) -> Any:
    return run(lambda: ToolInvoker().invoke(t, raw))


def test_a_call_runs_the_wrapper_and_places_positional_only_arguments(mod: Any) -> None:
    mod.CALLS.clear()
    result = _invoke(mod.lookup, '{"sku": "abc", "warehouse": 2}')
    assert result.error is None and result.parts == [JsonPart(6)]
    assert mod.CALLS == ["lookup"]


def test_an_untyped_wrapper_runs_too(mod: Any) -> None:
    mod.CALLS.clear()
    assert _invoke(mod.ping, "{}").parts == [TextPart("pong")]
    assert mod.CALLS == ["counted"]


def test_an_async_wrapper_is_awaited(mod: Any) -> None:
    mod.CALLS.clear()
    assert mod.fetch.is_async
    assert _invoke(mod.fetch, '{"url": "u"}').parts == [TextPart("u")]
    assert mod.CALLS == ["timed"]


def test_a_cached_function_is_described_from_its_def_and_called_through_the_cache(mod: Any) -> None:
    mod.square.fn.cache_clear()
    assert _invoke(mod.square, '{"n": 7}').parts == [JsonPart(49)]
    assert _invoke(mod.square, '{"n": 7}').parts == [JsonPart(49)]
    assert mod.square.fn.cache_info().hits == 1


def test_methods_under_a_wrapper_bind_self_and_static_ones_do_not(mod: Any) -> None:
    mod.CALLS.clear()
    shelf = mod.Shelf()
    assert "self" not in mod.Shelf.count.input_schema["properties"]
    assert _invoke(shelf.count, '{"sku": "x"}').parts == [JsonPart(0)]
    assert _invoke(mod.Shelf.unit, "{}").parts == [TextPart("piece")]
    assert mod.CALLS == ["count", "unit"]


def test_a_sync_wrapper_around_an_async_def_has_its_coroutine_awaited() -> None:
    def plain(fn: Callable[..., Awaitable[str]]) -> Callable[..., Awaitable[str]]:
        @functools.wraps(fn)
        def inner(*args: Any, **kwargs: Any) -> Awaitable[str]:
            return fn(*args, **kwargs)

        return inner

    @tool
    @plain
    async def shout(text: str) -> str:
        return text.upper()

    assert shout.is_async
    assert _invoke(shout, '{"text": "hi"}').parts == [TextPart("HI")]


def test_the_def_is_what_inspect_unwrap_reaches(mod: Any) -> None:
    assert inspect.unwrap(mod.lookup).__qualname__ == "lookup"
    assert inspect.unwrap(mod.lookup).__code__.co_posonlyargcount == 1


def test_a_wrapper_without_functools_wraps_hides_the_signature() -> None:
    """The runtime cannot see through it (no ``__wrapped__``): the wrapper itself is described,
    and its ``*args``/``**kwargs`` have no schema (its ``Any`` return reads as any JSON value).
    (The mypy plugin reads the ``def`` and cannot know; docs/diagnostics.md says to use
    ``functools.wraps``.)"""
    from onellm_runtime import ToolDefinitionError

    def bare(fn: Callable[..., Any]) -> Callable[..., Any]:
        def inner(*args: Any, **kwargs: Any) -> Any:
            return fn(*args, **kwargs)

        return inner

    with pytest.raises(ToolDefinitionError) as err:

        @tool
        @bare
        def hidden(x: int) -> str:
            return ""

    found = [(d.code, d.message.split(":")[1].strip()) for d in err.value.diagnostics]
    assert found == [("OLT002", "Parameter 'args'"), ("OLT002", "Parameter 'kwargs'")]
