"""What the invoker derives once per tool model (``Prepared``), and the cache entry's lifetime."""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..binding import CompiledBinder, compile_binder
from .convert import Converter, compile_converter

if TYPE_CHECKING:
    from ..core.model import ToolModel
    from ..tool import Tool

__all__ = ["Prepared", "forget"]


class Prepared:
    """What the invoker derives once per tool model: its binder, its result converter, its facts.

    It holds nothing that keeps the model alive (the binder keeps only the model's parameters).
    """

    __slots__ = (
        "binder",
        "convert",
        "context_params",
        "token_params",
        "name",
        "thread_name",
        "inline",
        "threaded",
        "private",
        "contextless",
        "ends_loop",
        "requires_approval",
    )

    def __init__(self, tool: Tool[..., Any]) -> None:
        model = tool.model
        self.binder: CompiledBinder = compile_binder(model)
        self.convert: Converter = compile_converter(model)
        self.context_params: tuple[str, ...] = tuple(p.name for p in model.params if p.kind == "context")
        self.token_params: tuple[str, ...] = tuple(p.name for p in model.params if p.kind == "cancellation")
        self.name: str = tool.name
        self.thread_name: str = f"onellm-tool-{tool.name}"
        #: An ``async def`` without a timeout runs in the caller's task: nothing to race it
        #: against, and the caller's cancellation reaches it directly.
        self.inline: bool = tool.is_async and not tool.timeout_seconds > 0
        #: A plain function without a timeout: awaited in a worker thread from the caller's
        #: task, with nothing to race it against (no timer, no task of its own).
        self.threaded: bool = not tool.is_async and not tool.timeout_seconds > 0
        #: Inline or threaded, and no parameter takes the context or the token: a call needs no
        #: context unless the caller hands one in (or the call becomes a job).
        self.private: bool = (self.inline or self.threaded) and not self.context_params and not self.token_params
        #: Private, and the model cannot ask for the background: a batch's call makes no context.
        self.contextless: bool = self.private and tool.invocation_mode == "wait"
        self.ends_loop: bool = tool.ends_loop
        self.requires_approval: bool = tool.requires_approval


def forget(
    cache: dict[int, tuple[weakref.ref[ToolModel], Prepared]], key: int
) -> Callable[[weakref.ref[ToolModel]], None]:
    """The callback that drops a model's entry once the model is gone (unless the id was reused since)."""

    def drop(ref: weakref.ref[ToolModel]) -> None:
        entry = cache.get(key)
        if entry is not None and entry[0] is ref:
            del cache[key]

    return drop
