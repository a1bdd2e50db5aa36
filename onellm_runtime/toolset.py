"""``ToolSet``: the tools offered together, one tool per name.

A model calls a tool by its name, so a set refuses a second tool with a name it already
holds (OLT007, naming both definitions) instead of letting the later one win. Everything
that offers tools to a model (``dispatch``, the provider adapters' list forms, the MCP
server) makes what it is given into a ``ToolSet`` at once with ``as_tool_set``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    from .tool import Tool

__all__ = ["ToolSet", "as_tool_set", "where_defined"]


def where_defined(t: Tool[..., Any]) -> str:
    """``module.qualname`` of the function behind ``t``: how OLT007 names a definition."""
    return f"{t.__module__}.{t.__qualname__}"


class ToolSet(Mapping[str, "Tool[..., Any]"]):
    """A read-only mapping of tool name to ``Tool``, in the order the tools were given.

    ``ToolSet(search, report, *tools_of(tracker))``. Two tools with one name raise
    ``ToolDefinitionError`` (OLT007) naming both definitions.
    """

    __slots__ = ("_tools",)

    def __init__(self, *tools: Tool[..., Any]) -> None:
        from .core.diagnostics import IN_A_TOOL_SET, Offered, check_offered_together
        from .tool import Tool, ToolDefinitionError

        for t in cast("tuple[object, ...]", tools):  # the annotation is not a check: a caller may pass anything
            if not isinstance(t, Tool):
                raise TypeError(
                    f"ToolSet takes tools (made with @tool or Tool.create), not {type(t).__name__}"
                    + ("; unpack a list with ToolSet(*tools)" if isinstance(t, (list, tuple, ToolSet)) else "")
                )
        offered = [Offered(t.name, where_defined(t), t) for t in tools]
        findings = check_offered_together(offered, IN_A_TOOL_SET)
        if findings:
            raise ToolDefinitionError(findings)
        self._tools: dict[str, Tool[..., Any]] = {t.name: t for t in tools}

    def __getitem__(self, name: str, /) -> Tool[..., Any]:
        return self._tools[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._tools)

    def __len__(self) -> int:
        return len(self._tools)

    def __contains__(self, name: object) -> bool:
        return name in self._tools

    def __repr__(self) -> str:
        return f"ToolSet({', '.join(self._tools)})"

    def __or__(self, other: Iterable[Tool[..., Any]]) -> ToolSet:
        """The tools of both, this set's first; a name in both is OLT007 as in the constructor."""
        return ToolSet(*self.values(), *as_tool_set(other).values())


def as_tool_set(tools: ToolSet | Mapping[str, Tool[..., Any]] | Iterable[Tool[..., Any]]) -> ToolSet:
    """``tools`` as a ``ToolSet``: a set as it is; a mapping by its values (its keys must be the
    tools' own names, the names the model calls); any other iterable of tools in its order."""
    if isinstance(tools, ToolSet):
        return tools
    if isinstance(tools, Mapping):
        table = cast("Mapping[str, Tool[..., Any]]", tools)
        for key, t in table.items():
            if getattr(t, "name", key) != key:
                raise ValueError(
                    f"the tool under key {key!r} is named {t.name!r}: a model calls a tool by its own name; "
                    "pass ToolSet(*tools) or rename the tool with @tool(name=...)"
                )
        return ToolSet(*table.values())
    return ToolSet(*tools)
