"""A tool's findings, each reported where mypy shows it; and what the tool hooks call.

``plugin.py`` imports this module on its first hook that lowers a tool (loading the plugin
imports no front end), and everything a hook calls comes through it, imported once here at
module level: an import statement inside a function costs a few microseconds on every call.
"""

from __future__ import annotations

from collections.abc import Callable

from mypy.nodes import Context, Decorator

from onellm_runtime.core.diagnostics import check_tool

from .decorators import tool_decorator_index
from .mypy_front import Frontend, RecordMemo
from .sites import LoweredTool, class_duplicates, class_tool, create_tool, decorator_tools, method_info
from .toolsets import module_duplicates

__all__ = ["Fail", "Frontend", "RecordMemo", "class_tool", "create_tool", "decorator_tools", "report"]

Fail = Callable[[str, Context, str], None]


def report(fe: Frontend, lowered: LoweredTool, module: str, fail: Fail, context: object) -> int:
    """Every finding of one tool, each at its location (the parameter, the def, the class); how many."""
    default = lowered.def_context
    assert default is not None
    count = 0
    for d in check_tool(lowered.model):
        fail(d.message, d.loc if isinstance(d.loc, Context) else default, d.code)
        count += 1
    for code, message in lowered.extra:
        fail(message, default, code)
        count += 1
    if isinstance(context, Decorator):
        cls = method_info(context.func)
        decos = context.original_decorators
        if cls is not None and decos and tool_decorator_index(decos[:1]) == 0:
            for code, message in class_duplicates(fe, cls, module, context.func):
                fail(message, context.func, code)
                count += 1
        elif cls is None and decos and tool_decorator_index(decos[:1]) == 0:
            for code, message in module_duplicates(fe, module, context.func):
                fail(message, context.func, code)
                count += 1
    return count
