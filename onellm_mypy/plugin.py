"""The mypy hooks: find each tool where mypy checks the decorator call, report the core's findings.

Three calls lead to a tool, and each has a hook on its full name:

- ``@tool`` (also ``@pkg.tool``, an alias ``t = tool``): ``_ToolDecorator.__call__``,
  with the ``Decorator`` (or the ``ClassDef``, for OLT001) as context; a direct
  ``tool(fn)`` call has the ``CallExpr`` as context.
- ``@tool(...)``: the first call builds a ``_ToolFactory``, whose ``__call__`` is then
  checked with the ``Decorator`` as context.
- ``Tool.create(fn, ...)``: ``Tool.create``, with the ``CallExpr``.

Each hook lowers the tool (``mypy_front``), runs ``diagnostics.check_tool`` /
``check_class``, and reports every finding at its location with its own error code, so
``# type: ignore[OLT002]`` and ``disable_error_code`` work. Hooks never change a type
and never raise: an unexpected shape reports nothing (set ``ONELLM_MYPY_DEBUG=1`` to
see the exception instead). The plugin keeps no state between hooks except a parse
cache keyed by file stamps and the modules each checked module read (for
``get_additional_indirect_deps``), both per plugin instance.
"""

from __future__ import annotations

import os
from typing import Callable

from mypy.errorcodes import ErrorCode
from mypy.nodes import GDEF, CallExpr, ClassDef, Context, Decorator, MypyFile, SymbolTableNode, Var
from mypy.options import Options
from mypy.plugin import MethodContext, Plugin
from mypy.types import Instance, Type, get_proper_type

from onellm_runtime.diagnostics import CODES as _MEANINGS
from onellm_runtime.diagnostics import check_tool

from .mypy_front import (
    CannotLower,
    Frontend,
    LoweredTool,
    class_duplicates,
    class_tool,
    create_tool,
    decorator_tools,
    is_tool_ref,
    tool_decorator_index,
)
from .mypy_front import _method_info  # noqa: PLC2701 - shared helper
from .source import SourceCache, source_digest

__all__ = ["OnellmPlugin", "ERROR_CODES", "report"]

#: One mypy error code per OLT code, in the category "onellm" (registered on import).
ERROR_CODES: dict[str, ErrorCode] = {code: ErrorCode(code, meaning, "onellm") for code, meaning in _MEANINGS.items()}

_TOOL_CALL = "onellm_runtime.tool._ToolDecorator.__call__"
_FACTORY_CALL = "onellm_runtime.tool._ToolFactory.__call__"
_CREATE = "onellm_runtime.tool.Tool.create"
_TOOL_CLASS = "onellm_runtime.tool.Tool"


def report(
    fe: Frontend, lowered: LoweredTool, module: str, fail: Callable[[str, Context, ErrorCode], None], context: object
) -> None:
    """Every finding of one tool, each at its location (the parameter, the def, the class)."""
    default = lowered.def_context
    assert default is not None
    for d in check_tool(lowered.model):
        loc = d.loc if isinstance(d.loc, Context) else default
        fail(d.message, loc, ERROR_CODES[d.code])
    for code, message in lowered.extra:
        fail(message, default, ERROR_CODES[code])
    if isinstance(context, Decorator):
        cls = _method_info(context.func)
        decos = context.original_decorators
        if cls is not None and decos and tool_decorator_index(decos[:1]) == 0:
            for code, message in class_duplicates(fe, cls, module, context.func):
                fail(message, context.func, ERROR_CODES[code])


class OnellmPlugin(Plugin):
    """Reports the contract's OLT diagnostics while mypy checks the code."""

    def __init__(self, options: Options) -> None:
        super().__init__(options)
        self.sources = SourceCache()
        self._deps: dict[str, set[str]] = {}

    def get_method_hook(self, fullname: str) -> Callable[[MethodContext], Type] | None:
        if fullname == _TOOL_CALL:
            return self._on_tool
        if fullname == _FACTORY_CALL:
            return self._on_factory
        if fullname == _CREATE:
            return self._on_create
        return None

    def get_additional_indirect_deps(self, file: MypyFile) -> set[str]:
        """The modules a tool's types and metadata were read from, so a change there re-checks it."""
        return self._deps.pop(file.fullname, set()) - {file.fullname}

    def get_additional_deps(self, file: MypyFile) -> list[tuple[int, str, int]]:
        """Record a digest of the module's source in its symbol table (no extra dependencies).

        mypy's cache and the daemon's change detection see analysed types, not the
        ``Annotated`` metadata, docstrings and defaults the static side reads from the
        source. A module-level symbol named after a digest of those (``onellm@<hex>``,
        see ``source.source_digest``) makes a change to them a change of the module's
        interface: its dependents are re-checked (directly, through
        ``get_additional_indirect_deps`` in incremental mode, and through a wildcard
        trigger with the daemon). Names containing ``@`` are kept when the daemon strips
        a module, and never clash with a Python name. Called after parsing, so only for
        modules mypy actually reprocesses; library and stub modules are left alone.
        """
        try:
            _record_digest(file)
        except Exception:
            if os.environ.get("ONELLM_MYPY_DEBUG"):
                raise
        return []

    # -- hooks ------------------------------------------------------------------------

    def _on_tool(self, ctx: MethodContext) -> Type:
        self._guarded(ctx, "bare")
        return ctx.default_return_type

    def _on_factory(self, ctx: MethodContext) -> Type:
        self._guarded(ctx, "factory")
        return ctx.default_return_type

    def _on_create(self, ctx: MethodContext) -> Type:
        self._guarded(ctx, "create")
        return ctx.default_return_type

    def _guarded(self, ctx: MethodContext, kind: str) -> None:
        try:
            self._handle(ctx, kind)
        except (CannotLower, RecursionError):
            if os.environ.get("ONELLM_MYPY_DEBUG"):
                raise
        except Exception:
            if os.environ.get("ONELLM_MYPY_DEBUG"):
                raise

    def _handle(self, ctx: MethodContext, kind: str) -> None:
        tree = getattr(ctx.api, "tree", None)
        if not isinstance(tree, MypyFile) or self._modules is None:
            return
        module = tree.fullname
        fe = Frontend(self._modules, self.sources)
        context = ctx.context
        found: list[LoweredTool] = []
        if isinstance(context, (Decorator, ClassDef)):
            decos = context.original_decorators if isinstance(context, Decorator) else context.decorators
            i = tool_decorator_index(decos)
            if i is None or kind == "create":
                return
            # The innermost @tool's own hook handles the whole definition (once).
            if (kind == "factory") != isinstance(decos[i], CallExpr):
                return
            if kind == "bare" and _is_tool_instance(ctx):
                return
            if isinstance(context, Decorator):
                found = decorator_tools(fe, context, module)
            else:
                one = class_tool(fe, context, module)
                found = [one] if one is not None else []
        elif isinstance(context, CallExpr):
            fn_type = ctx.arg_types[0][0] if ctx.arg_types and ctx.arg_types[0] else None
            if kind == "create":
                one = create_tool(fe, context, module, with_options=True, fn_type=fn_type)
            elif kind == "bare" and context.args and is_tool_ref(context.callee):
                one = create_tool(fe, context, module, with_options=False, fn_type=fn_type)
            else:
                one = None
            found = [one] if one is not None else []

        def fail(message: str, loc: Context, code: ErrorCode) -> None:
            ctx.api.fail(message, loc, code=code)

        for lowered in found:
            report(fe, lowered, module, fail, context)
        read = fe.deps - {module}
        self._deps.setdefault(module, set()).update(read)
        for dep in read:  # the daemon re-checks this module's top level when ``dep``'s digest changes
            tree.plugin_deps.setdefault(f"<{dep}[wildcard]>", set()).add(module)


_DIGEST_PREFIX = "onellm@"


def _record_digest(file: MypyFile) -> None:
    path = file.path
    if not path.endswith(".py") or _is_library(path):
        return
    with open(path, "rb") as f:
        digest = source_digest(f.read())
    if digest is None:
        return
    for name in [n for n in file.names if n.startswith(_DIGEST_PREFIX)]:
        del file.names[name]
    var = Var(_DIGEST_PREFIX + digest)
    var._fullname = f"{file.fullname}.{var.name}"
    file.names[var.name] = SymbolTableNode(GDEF, var, module_public=False)


def _is_library(path: str) -> bool:
    parts = os.path.normpath(path).split(os.sep)
    return "site-packages" in parts or "dist-packages" in parts or "typeshed" in parts


def _is_tool_instance(ctx: MethodContext) -> bool:
    """The decorated value is already a Tool: an outer ``@tool`` of ``@tool @tool``."""
    if not ctx.arg_types or not ctx.arg_types[0]:
        return False
    t = get_proper_type(ctx.arg_types[0][0])
    return isinstance(t, Instance) and t.type.fullname == _TOOL_CLASS
