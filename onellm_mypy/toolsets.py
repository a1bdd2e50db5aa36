"""OLT007 for tools offered together: the module-level tools of one module, and a ``ToolSet(...)`` call.

Both read each tool's name the way ``class_duplicates`` does (the ``def`` and its
``@tool(...)`` options, from the source) and hand the core's ``check_offered_together``
the same ``Offered`` rows the runtime builds (name, ``module.qualname``), so the messages
are the runtime's words. A ``ToolSet(...)`` argument the plugin cannot name (a variable,
a call, ``*tools`` of a list) takes no part: the check never guesses a name.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from mypy.nodes import (
    ARG_POS,
    ARG_STAR,
    AssignmentStmt,
    CallExpr,
    ClassDef,
    Context,
    Decorator,
    Expression,
    FuncDef,
    FuncItem,
    MemberExpr,
    MypyFile,
    NameExpr,
    OverloadedFuncDef,
    RefExpr,
    SymbolTableNode,
    TypeInfo,
    Var,
)
from mypy.types import Instance, get_proper_type

from onellm_runtime.core import rules
from onellm_runtime.core.diagnostics import (
    IN_A_TOOL_SET,
    Diagnostic,
    Offered,
    check_offered_together,
    in_module,
)
from onellm_runtime.core.model import Returns, ToolModel
from onellm_runtime.core.options import DEFAULT_OPTIONS

from . import source as src
from .decorators import is_tool_decorator
from .mypy_front import Frontend
from .names import Scope, function_bindings, module_of_fullname
from .sites import _is_tool_type, _member_function, _read_options, method_info

__all__ = ["TOOLS_OF", "module_duplicates", "tool_set_findings"]

TOOLS_OF = "onellm_runtime.tool.tools_of"


def _is_tool(dec: Decorator) -> bool:
    """``@tool`` outermost (the name holds a ``Tool``); a module read from mypy's cache keeps
    no decorator list, only the type."""
    if dec.original_decorators:
        return is_tool_decorator(dec.original_decorators[0])
    return _is_tool_type(dec.var.type)


def _offered(fe: Frontend, func: FuncDef, loc: object) -> Offered | None:
    """A tool's row, named as the runtime names it; None when its ``name=`` cannot be computed
    (OLT014 on the tool itself: no name is guessed for it)."""
    cls = method_info(func)
    module = cls.module_name if cls is not None else module_of_fullname(func.fullname, fe.modules)
    ms = fe.source(module) if module is not None else None
    if module is None or ms is None:
        return None
    fn_ast = ms.function(func.line, func.name)
    if fn_ast is None:
        return None
    call = fn_ast.decorator_list[0] if fn_ast.decorator_list else None
    options = DEFAULT_OPTIONS
    if isinstance(call, ast.Call):
        options, unread = _read_options(fe, call, 0, Scope(module, cls, False, cls is not None))
        if any(option in ("name", "") for option, _ in unread):
            return None
    model = ToolModel(function_name=func.name, docstring=None, params=(), returns=Returns("none"), options=options)
    return Offered(rules.tool_name(model), func.fullname, loc)


# -- one module's module-level tools ----------------------------------------------------------


def _module_level(tree: MypyFile) -> Iterator[tuple[str, Decorator | None]]:
    """Each name the module's top level binds, in order, with the ``@tool`` definition
    that binds it (None for anything else: a plain def, a class, an assignment)."""
    for stmt in tree.defs:
        dec = stmt.impl if isinstance(stmt, OverloadedFuncDef) else stmt
        if isinstance(dec, Decorator):
            yield dec.func.name, dec if _is_tool(dec) else None
        elif isinstance(stmt, (FuncDef, ClassDef)):
            yield stmt.name, None
        elif isinstance(stmt, AssignmentStmt):
            for lv in stmt.lvalues:
                if isinstance(lv, NameExpr):
                    yield lv.name, None


def module_duplicates(fe: Frontend, module: str, current: FuncDef) -> list[tuple[str, str]]:
    """OLT007 for the module-level tool ``current``: the tools bound at the module's top level
    at its end (what ``vars(module)`` holds), in order; a name bound again replaces the tool."""
    found = fe.memo.module_tools.get(module)
    if found is None:
        tree = fe.modules.get(module)
        bound: dict[str, Decorator | None] = {}
        for name, dec in _module_level(tree) if tree is not None else ():
            bound.pop(name, None)  # the later binding is the one left, at its own place
            bound[name] = dec
        rows = [_offered(fe, dec.func, dec.func) for dec in bound.values() if dec is not None]
        found = check_offered_together([r for r in rows if r is not None], in_module(module))
        fe.memo.module_tools[module] = found
    return [(d.code, d.message) for d in found if d.loc is current]


# -- a ToolSet(...) call ----------------------------------------------------------------------


def _named_function(expr: Expression) -> FuncDef | None:
    """The ``@tool`` function an argument names: ``search``, ``mod.search``, ``Cls.method``,
    ``obj.method``."""
    node = expr.node if isinstance(expr, RefExpr) else None
    if node is None and isinstance(expr, MemberExpr):
        owner = expr.expr.node if isinstance(expr.expr, RefExpr) else None
        if isinstance(owner, TypeInfo):  # ``Cls.method``
            sym = owner.get(expr.name)
            node = sym.node if sym is not None else None
        else:
            node = _member_function(expr)
    if isinstance(node, Decorator) and _is_tool(node):
        return node.func
    return None


def _class_read(fe: Frontend, expr: Expression, function: FuncItem | None) -> TypeInfo | None:
    """The class whose tools ``tools_of(expr)`` returns, where the code says it for certain:
    ``Cls(...)``, ``Cls`` itself, a variable of a ``@final`` class, or a variable its module
    (or else ``function``, the one the call is in) binds once, to ``Cls(...)``."""
    if isinstance(expr, CallExpr) and isinstance(expr.callee, RefExpr) and isinstance(expr.callee.node, TypeInfo):
        return expr.callee.node
    if not isinstance(expr, RefExpr):
        return None
    node = expr.node
    if isinstance(node, TypeInfo):
        return node
    if not isinstance(node, Var) or node.type is None:
        return None
    t = get_proper_type(node.type)
    if isinstance(t, Instance) and t.type.is_final:
        return t.type
    if not isinstance(expr, NameExpr):
        return None  # ``self.tracker`` and other attributes: bound anywhere
    module = module_of_fullname(node.fullname, fe.modules)
    value: ast.expr | None = None
    if module is not None and node.fullname == f"{module}.{node.name}":
        value = _bound_once(fe.bindings_of(module, node.name))
    elif function is not None and isinstance(function, FuncDef):
        module = module_of_fullname(function.fullname, fe.modules)
        ms = fe.source(module) if module is not None else None
        fn_ast = ms.function(function.line, function.name) if ms is not None else None
        a = fn_ast.args if fn_ast is not None else None
        if fn_ast is not None and a is not None and node.name not in _parameter_names(a):
            value = _bound_once(function_bindings(fn_ast, node.name))
    if module is None or not isinstance(value, ast.Call):
        return None
    sym = fe.lookup(value.func, Scope(module))
    cls = sym.node if isinstance(sym, SymbolTableNode) else None
    return cls if isinstance(cls, TypeInfo) and isinstance(t, Instance) and t.type is cls else None


def _bound_once(bindings: list[src.Binding]) -> ast.expr | None:
    """The value of a name bound by one plain ``name = value`` and nothing else."""
    return bindings[0].value if len(bindings) == 1 and not bindings[0].type_checking else None


def _parameter_names(a: ast.arguments) -> set[str]:
    return {p.arg for p in [*a.posonlyargs, *a.args, *a.kwonlyargs, a.vararg, a.kwarg] if p is not None}


def _tools_of(info: TypeInfo) -> list[FuncDef]:
    """The methods ``tools_of`` returns for an instance of ``info``, in its order: each base's
    tools first, an override in its base's place, a plain attribute hiding a base's tool."""
    found: dict[str, FuncDef] = {}
    for klass in reversed(info.mro):
        if klass.fullname == "builtins.object":
            continue
        for attr, sym in klass.names.items():
            node = sym.node
            if isinstance(node, Decorator) and _is_tool(node):
                found[attr] = node.func
            elif isinstance(node, (FuncDef, OverloadedFuncDef, Decorator, TypeInfo)) or (
                isinstance(node, Var) and node.is_initialized_in_class
            ):
                found.pop(attr, None)
    return list(found.values())


def _arguments(fe: Frontend, call: CallExpr, function: FuncItem | None) -> Iterator[Offered | None]:
    """Each tool the call's arguments hand the set, in order, at its argument (None: not named)."""
    for arg, kind in zip(call.args, call.arg_kinds):
        if kind == ARG_POS:
            func = _named_function(arg)
            yield _offered(fe, func, arg) if func is not None else None
        elif (
            kind == ARG_STAR
            and isinstance(arg, CallExpr)
            and isinstance(arg.callee, RefExpr)
            and arg.callee.fullname == TOOLS_OF
            and arg.arg_kinds == [ARG_POS]
        ):
            info = _class_read(fe, arg.args[0], function)
            rows = [_offered(fe, m, arg) for m in (_tools_of(info) if info is not None else ())]
            names = [r.name for r in rows if r is not None]
            if len(set(names)) != len(names):
                continue  # two tools of one class: OLT007 at the class, raised by tools_of itself
            yield from rows
        else:
            yield None


def tool_set_findings(fe: Frontend, call: CallExpr, function: FuncItem | None) -> list[tuple[str, str, Context]]:
    """OLT007 at each argument of ``ToolSet(...)`` that repeats a name an earlier one gave;
    ``function``: the one the call is in (None at module level), where its variables are bound."""
    rows = [r for r in _arguments(fe, call, function) if r is not None]
    found: list[Diagnostic] = check_offered_together(rows, IN_A_TOOL_SET)
    return [(d.code, d.message, d.loc) for d in found if isinstance(d.loc, Context)]
