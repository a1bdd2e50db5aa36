"""Which decorator expressions are ``tool``: mypy names only, no ``onellm_runtime`` import.

Kept apart so the plugin can answer mypy's per-attribute hook questions (is ``K.s`` a
tool over a ``staticmethod``?) without loading the front end.
"""

from __future__ import annotations

from mypy.nodes import ARG_NAMED, ARG_STAR2, CallExpr, Expression, RefExpr, Var
from mypy.types import Instance, get_proper_type

__all__ = [
    "TOOL",
    "TOOL_DECORATOR",
    "TOOL_CLASS",
    "STATIC",
    "CLASSMETHOD",
    "PROPERTY",
    "OVERLOAD",
    "is_tool_ref",
    "is_tool_decorator",
    "tool_decorator_index",
    "ref_fullname",
]

TOOL = "onellm_runtime.tool.tool"
TOOL_DECORATOR = "onellm_runtime.tool._ToolDecorator"
TOOL_CLASS = "onellm_runtime.tool.Tool"
STATIC = "builtins.staticmethod"
CLASSMETHOD = "builtins.classmethod"
PROPERTY = frozenset({"builtins.property", "abc.abstractproperty"})
OVERLOAD = frozenset({"typing.overload", "typing_extensions.overload"})


def is_tool_ref(expr: Expression) -> bool:
    """``tool`` itself, however it is reached (``tool``, ``pkg.tool``, an alias ``t = tool``)."""
    if not isinstance(expr, RefExpr):
        return False
    if expr.fullname == TOOL:
        return True
    node = expr.node
    if isinstance(node, Var) and node.type is not None:
        t = get_proper_type(node.type)
        return isinstance(t, Instance) and t.type.fullname == TOOL_DECORATOR
    return False


def is_tool_decorator(expr: Expression) -> bool:
    if isinstance(expr, CallExpr):  # @tool(...): keyword arguments only (``**options`` too: OLT014)
        return is_tool_ref(expr.callee) and all(k in (ARG_NAMED, ARG_STAR2) for k in expr.arg_kinds)
    return is_tool_ref(expr)


def tool_decorator_index(decorators: list[Expression]) -> int | None:
    """The innermost ``@tool``/``@tool(...)`` in a decorator list (top to bottom), if any."""
    for i in range(len(decorators) - 1, -1, -1):
        if is_tool_decorator(decorators[i]):
            return i
    return None


def ref_fullname(expr: Expression) -> str:
    if isinstance(expr, CallExpr):
        expr = expr.callee
    return expr.fullname if isinstance(expr, RefExpr) else ""
