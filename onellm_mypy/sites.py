"""Finding tools and lowering functions: decorators, ``Tool.create`` calls, classes of tools.

Shared by the plugin's hooks and the extractor. ``decorator_tools`` handles every way a
``def`` can be decorated (``@tool``, ``@tool(...)``, over or under ``staticmethod``,
``classmethod``, ``property``, ``overload``, twice), ``class_tool`` ``@tool`` on a class,
``create_tool`` ``Tool.create(fn, ...)`` and ``tool(fn)``, ``class_duplicates`` OLT007.
``_ToolLowering`` mirrors ``onellm_runtime.front.typing_front.lower_function``.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar, cast

from mypy.nodes import (
    ARG_POS,
    FUNC_NO_INFO,
    Block,
    CallExpr,
    ClassDef,
    Context,
    Decorator,
    FuncDef,
    LambdaExpr,
    MemberExpr,
    MypyFile,
    NameExpr,
    OverloadedFuncDef,
    RefExpr,
    StrExpr,
    TypeInfo,
    Var,
)
from mypy.types import CallableType, Instance, LiteralType, Type, get_proper_type

from onellm_runtime.core import rules
from onellm_runtime.core.fielddefaults import annotated_default, field_default, with_markers
from onellm_runtime.core.forms import FClass, FGeneric, FNone, Form, FUnion
from onellm_runtime.core.lowering import ARRAYS, returned
from onellm_runtime.core.model import Param, ParamKind, Returns, ToolModel, TypeNode, Unsupported
from onellm_runtime.core.options import DEFAULT_OPTIONS, OPTION_NAMES, ToolOptions

from . import source as src
from .decorators import (
    CLASSMETHOD,
    OVERLOAD,
    PROPERTY,
    STATIC,
    TOOL_CLASS,
    is_tool_decorator,
    is_tool_ref,
    ref_fullname,
    tool_decorator_index,
)
from .models import FIELD_FUNCS
from .mypy_front import (
    _AWAITABLES,
    _CANCELLATION,
    _CONTEXT,
    _PARTS,
    CannotLower,
    Frontend,
    NeedMypy,
)
from .names import Scope, module_of_fullname
from .records import lower_form, settle
from .source import EnumValue, Opaque, Unreadable

T = TypeVar("T")

__all__ = [
    "LoweredTool",
    "ToolSite",
    "is_tool_ref",
    "tool_decorator_index",
    "method_info",
    "decorator_tools",
    "class_tool",
    "create_tool",
    "class_duplicates",
]


@dataclass
class LoweredTool:
    """One tool found in the source, lowered, with where to report and list it."""

    model: ToolModel
    module: str
    qualname: str
    #: The first line of the definition (its first decorator), for ordering like the runtime.
    first_line: int
    line: int
    column: int
    #: Findings that are not the model's (``@tool`` applied twice).
    extra: list[tuple[str, str]] = field(default_factory=list)
    #: Context nodes for the extra findings / the tool itself.
    def_context: Context | None = None
    #: Whether the runtime would list this tool in a module manifest (module level or class level).
    listed: bool = True
    #: The module whose code made the tool (for ``Tool.create``, where the call is).
    site_module: str = ""
    #: How many findings the plugin reported for it (a tool with none has a schema).
    findings: int = 0


#: ``@tool(...)``/``Tool.create(...)`` options the source does not let us compute: (option, expression).
NotComputed = tuple[tuple[str, str], ...]


@dataclass
class ToolSite:
    """What is needed to lower one function into a tool."""

    module: str
    fn_ast: src.FunctionNode | ast.Lambda
    options: ToolOptions
    skip_first: bool
    cls: TypeInfo | None
    class_type_params: tuple[str, ...]
    #: mypy's function (for fallback types and argument locations), or the lambda.
    func: FuncDef | LambdaExpr | None
    def_loc: Context
    arg_locs: dict[str, Context]
    #: Options the source does not let us compute (OLT014 on the tool).
    not_computed: NotComputed = ()


def _is_str_annotation(expr: ast.expr | None) -> bool:
    return isinstance(expr, ast.Constant) and isinstance(expr.value, str)


def _unwrap_awaitable(form: Form) -> Form:
    if isinstance(form, FGeneric) and form.origin.fullname in _AWAITABLES and form.args:
        return form.args[-1]
    return form


def _is_part(form: Form | None) -> bool:
    return isinstance(form, FClass) and form.fullname in _PARTS


def _is_parts_union(form: Form | None) -> bool:
    return isinstance(form, FUnion) and all(_is_part(a) for a in form.args)


def _func_qualname(func: FuncDef, module: str) -> str:
    fullname = func.fullname
    return fullname[len(module) + 1 :] if fullname.startswith(module + ".") else func.name


def _first_line(node: Decorator | FuncDef | ClassDef) -> int:
    if isinstance(node, Decorator):
        return min([node.func.line, *(d.line for d in node.original_decorators)])
    if isinstance(node, ClassDef):
        return min([node.line, *(d.line for d in node.decorators)])
    return node.line


def method_info(func: FuncDef) -> TypeInfo | None:
    info = func.info
    if info is FUNC_NO_INFO or info is None:
        return None
    return info


def _class_type_params(info: TypeInfo | None) -> tuple[str, ...]:
    """The enclosing class's type variables, as ``Tool.__set_name__`` reads them."""
    if info is None:
        return ()
    return tuple(dict.fromkeys(info.type_vars))


class _ToolLowering:
    """``typing_front.lower_function``, on a function's source and mypy's view of it."""

    def __init__(self, fe: Frontend, site: ToolSite) -> None:
        self.fe = fe
        self.site = site

    def _fallback(self, name: str | None) -> Type | None:
        func = self.site.func
        t = func.type if isinstance(func, FuncDef) else None
        if not isinstance(t, CallableType):
            return None
        if name is None:
            return t.ret_type
        if name in t.arg_names:
            return t.arg_types[t.arg_names.index(name)]
        return None

    def _key(self, what: str, expr: ast.expr, scope: Scope) -> tuple[object, ...] | None:
        """What ``expr`` is, for the annotation memo: equal keys evaluate and lower alike.

        The text as written and what each of its names resolves to where it is written (so
        ``Customer`` imported from one module is one key in every module importing it); the
        module itself instead where a name is bound in it (its value is read from this
        module's source) or the expression has parts whose meaning the names do not describe.
        """
        fe = self.fe
        ms = fe.source(scope.module)
        text = ms.span(expr) if ms is not None else None
        if ms is None or text is None:
            return None
        cls = scope.cls.fullname if scope.cls is not None and scope.class_names else None
        written = (what, scope.module, cls, scope.lazy, text)
        key = fe.memo.keys.get(written)
        if key is None:
            resolved = fe.resolutions(ms, src.written_names(expr), scope)
            key = written if resolved is None else (what, "", cls, scope.lazy, text, resolved)
            fe.memo.keys[written] = key
        return key

    def _remembered(self, key: tuple[object, ...] | None, compute: Callable[[Frontend], T]) -> T:
        """``compute``'s result for ``key`` in this generation, with the modules it read.

        A miss computes on a new front end over the same build, so every module the result
        depends on is noted (the front end's own memos would skip modules an earlier
        annotation of this tool already read); a hit notes them from the memo.
        """
        fe = self.fe
        if key is None:
            return compute(fe)
        hit = fe.memo.annotations.get(key)
        if hit is not None:
            fe.note_read(hit[1])
            return cast(T, hit[0])
        fresh = Frontend(fe.modules, fe.sources, fe.memo)
        value = compute(fresh)
        read = frozenset(fresh.deps)
        fe.memo.annotations[key] = (value, read)
        fe.note_read(read)
        return value

    def form(self, expr: ast.expr, scope: Scope, name: str | None) -> tuple[Form, tuple[object, ...] | None]:
        """``expr``'s form, and its key when the form follows from its text alone (not mypy's
        view of this function, the fallback where the source cannot be evaluated)."""
        key = self._key("form", expr, scope)
        try:
            return self._remembered(key, lambda fe: fe.evaluate(expr, scope)), key
        except NeedMypy:
            return self.fe.from_mypy(self._fallback(name)), None

    def lowered(self, form: Form, key: tuple[object, ...] | None, what: str = "node") -> TypeNode:
        """``form``'s node; ``key`` is its text's (from ``form``), ``what`` tells a return apart
        (whose form is unwrapped from ``Awaitable`` first, so the same text lowers otherwise)."""
        return self._remembered(None if key is None else (what, *key[1:]), lambda fe: lower_form(fe, form))

    def model(self) -> ToolModel:
        site, fe = self.site, self.fe
        ms = fe.source(site.module)
        if ms is None:
            raise CannotLower(no_source(site.module))
        fn = site.fn_ast
        a = fn.args
        positional = [*a.posonlyargs, *a.args]
        pos_defaults: list[ast.expr | None] = [None] * (len(positional) - len(a.defaults)) + list(a.defaults)
        entries: list[tuple[ast.arg, ParamKind, ast.expr | None]] = [
            (arg, "normal", d) for arg, d in zip(positional, pos_defaults)
        ]
        if a.vararg is not None:
            entries.append((a.vararg, "var_positional", None))
        entries.extend((arg, "normal", d) for arg, d in zip(a.kwonlyargs, a.kw_defaults))
        if a.kwarg is not None:
            entries.append((a.kwarg, "var_keyword", None))
        if site.skip_first and entries and entries[0][1] == "normal":
            entries = entries[1:]
        returns_ann = fn.returns if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) else None
        lazy = ms.lazy or _is_str_annotation(returns_ann) or any(_is_str_annotation(e[0].annotation) for e in entries)
        ann_scope = Scope(site.module, site.cls, lazy, site.cls is not None and not lazy)
        value_scope = Scope(site.module, site.cls, False, site.cls is not None)
        resolve = fe.resolver(value_scope)
        params: list[Param] = []
        for arg, kind, default_expr in entries:
            name = arg.arg
            loc = site.arg_locs.get(name, site.def_loc)
            if kind != "normal":
                params.append(Param(name, Unsupported("other"), kind, loc=loc))
                continue
            reading = None
            if isinstance(default_expr, ast.Call) and fe.fullname_of(default_expr.func, value_scope) in FIELD_FUNCS:
                reading = src.field_from_call(default_expr, resolve, fe.class_namer(value_scope))  # a pydantic Field
                default = field_default(reading, src.default_of)
            elif default_expr is not None:
                read = default_expr
                default = self._remembered(
                    self._key("default", read, value_scope), lambda fe: src.read_default(read, fe.resolver(value_scope))
                )
            else:
                default = src.read_default(None, resolve)
            if arg.annotation is None:
                node: TypeNode = Unsupported("missing")
                if reading is not None:
                    node = with_markers(node, reading.markers)
                params.append(Param(name, node, "normal", settle(default, node), loc))
                continue
            form, key = self.form(arg.annotation, ann_scope, name)
            if isinstance(form, FGeneric) and form.origin.fullname == _CONTEXT:  # ToolContext[Deps]
                form = form.origin
            if isinstance(form, FClass) and form.fullname in (_CONTEXT, _CANCELLATION):
                context: ParamKind = "context" if form.fullname == _CONTEXT else "cancellation"
                params.append(Param(name, Unsupported("other"), context, settle(default, Unsupported("other")), loc))
                continue
            node = self.lowered(form, key)
            if reading is not None:
                node = with_markers(node, reading.markers)
            node, found, _ = annotated_default(node, default_expr is not None, src.default_of)
            if found is not None:
                default = found
            params.append(Param(name, node, "normal", settle(default, node), loc))
        returns = self.returns(returns_ann, ann_scope)
        if returns_ann is not None and site.def_loc is site.func:  # the def is in the module checked
            returns = replace(returns, loc=_located(returns_ann))
        type_params = tuple(getattr(t, "name", "") for t in getattr(fn, "type_params", ()) or ())
        is_lambda = isinstance(fn, ast.Lambda)
        return ToolModel(
            function_name="<lambda>" if is_lambda else getattr(fn, "name", "<lambda>"),
            docstring=None if isinstance(fn, ast.Lambda) else src.docstring(fn),
            params=tuple(params),
            returns=returns,
            options=site.options,
            type_params=type_params,
            class_type_params=site.class_type_params,
            is_lambda=is_lambda,
            not_computed=site.not_computed,
            loc=site.def_loc,
        )

    def returns(self, ann: ast.expr | None, scope: Scope) -> Returns:
        if ann is None:
            return Returns("unannotated")
        written, key = self.form(ann, scope, None)
        form = _unwrap_awaitable(written)
        if isinstance(form, FNone):
            return Returns("none")
        if _is_part(form) or _is_parts_union(form):
            return Returns("parts")
        if isinstance(form, FGeneric) and (
            ARRAYS.get(form.origin.fullname) == "list" or form.origin.fullname == "builtins.tuple"
        ):
            item = form.args[0] if form.args else None
            if _is_part(item) or _is_parts_union(item):
                return Returns("parts")
        return Returns("type", returned(self.lowered(form, key, "return")))


def _located(node: ast.expr) -> Context:
    """A mypy location spanning ``node`` (a return annotation), for the diagnostics about it."""
    loc = Context(node.lineno, node.col_offset)
    loc.end_line = node.end_lineno
    loc.end_column = node.end_col_offset
    return loc


def no_source(module: str) -> str:
    return f"the source text of module {module} could not be read"


def not_there(what: str, line: int) -> str:
    return f"the source text read has no {what} at line {line}, where mypy has it"


def _read_options(fe: Frontend, call: ast.Call | None, skip: int, scope: Scope) -> tuple[ToolOptions, NotComputed]:
    """``@tool(...)``/``Tool.create(fn, ...)`` options as written: ``ToolOptions``'s fields,
    positional ones in field order after ``skip`` arguments, and those that cannot be computed
    (each keeps its default here and is reported, OLT014). One whose value ``ToolOptions``
    refuses (the runtime raises on it at import) keeps its default."""
    if call is None:
        return DEFAULT_OPTIONS, ()
    resolve = fe.resolver(scope)
    unread: list[tuple[str, str]] = []
    given: dict[str, ast.expr] = {}
    for key, arg in zip(OPTION_NAMES, call.args[skip:]):
        if isinstance(arg, ast.Starred):
            unread.append(("", src.expression_text(arg)))
            break
        given[key] = arg
    for kw in call.keywords:
        if kw.arg is None:
            unread.append(("", "**" + src.expression_text(kw.value)))
        elif kw.arg in OPTION_NAMES:
            given[kw.arg] = kw.value
    options = DEFAULT_OPTIONS
    for key, expr in given.items():
        value = src.read_constant(expr, resolve)
        if isinstance(value, (Opaque, Unreadable, EnumValue)):
            unread.append((key, src.expression_text(expr)))
            continue
        written: dict[str, Any] = {key: value}  # of any type, as at runtime
        try:
            options = replace(options, **written)
        except (TypeError, ValueError):
            pass
    return options, tuple(unread)


def _misapplied(function_name: str, options: ToolOptions, what: str, loc: Context) -> ToolModel:
    return ToolModel(
        function_name=function_name,
        docstring=None,
        params=(),
        returns=Returns("none"),
        options=options,
        misapplied_to=what,
        loc=loc,
    )


def _make_lowered(
    model: ToolModel, module: str, qualname: str, first_line: int, loc: Context, listed: bool
) -> LoweredTool:
    return LoweredTool(
        model, module, qualname, first_line, loc.line, loc.column, def_context=loc, listed=listed, site_module=module
    )


def decorator_tools(fe: Frontend, dec: Decorator, module: str) -> list[LoweredTool]:
    """The tool(s) a decorated ``def`` makes: the model of the innermost ``@tool``, with OLT001 cases."""
    decos = dec.original_decorators
    i = tool_decorator_index(decos)
    if i is None:
        return []
    func = dec.func
    ms = fe.source(module)
    if ms is None:
        raise CannotLower(no_source(module))
    fn_ast = ms.function(func.line, func.name)
    if fn_ast is None or len(fn_ast.decorator_list) != len(decos):
        raise CannotLower(not_there(f"def '{func.name}'", func.line))
    cls = method_info(func)
    scope = Scope(module, cls, False, cls is not None)
    dec_ast = fn_ast.decorator_list[i]
    options, unread = _read_options(fe, dec_ast if isinstance(dec_ast, ast.Call) else None, 0, scope)
    qualname = _func_qualname(func, module)
    first = _first_line(dec)
    listed = i == 0
    out: list[LoweredTool] = []

    above = ref_fullname(decos[i - 1]) if i > 0 else ""
    if cls is not None and above in (STATIC, CLASSMETHOD):
        # @staticmethod/@classmethod on top of @tool: the class sees no Tool (tools_of reports it).
        what = "staticmethod" if above == STATIC else "classmethod"
        model = _misapplied(func.name, options, what, func)
        return [_make_lowered(model, module, qualname, first, func, False)]

    below = [ref_fullname(d) for d in decos[i + 1 :]]
    binding = "method" if cls is not None else "function"
    if below:
        first_below = below[0]
        if first_below in PROPERTY:
            display = options.name if isinstance(options.name, str) else rules.snake_case(func.name)
            model = _misapplied(display, options, "property", func)
            return [_make_lowered(model, module, qualname, first, func, listed)]
        if first_below in OVERLOAD or func.is_overload:
            display = options.name if isinstance(options.name, str) else "<overload>"
            model = _misapplied(display, options, "overload", func)
            return [_make_lowered(model, module, qualname, first, func, listed)]
        if first_below in (STATIC, CLASSMETHOD):
            binding = "staticmethod" if first_below == STATIC else "classmethod"
            below = below[1:]
        # Any other decorator is read through, as the runtime follows ``__wrapped__``: the
        # tool is described from the ``def`` itself (tool.py, ``_described``).
        if any(b in PROPERTY or b in OVERLOAD or b in (STATIC, CLASSMETHOD) for b in below):
            raise CannotLower("@staticmethod, @classmethod, @property or @overload under another decorator")

    site = ToolSite(
        module=module,
        fn_ast=fn_ast,
        options=options,
        skip_first=binding in ("method", "classmethod"),
        cls=cls,
        class_type_params=_class_type_params(cls),
        func=func,
        def_loc=func,
        arg_locs={arg.variable.name: arg for arg in func.arguments},
        not_computed=unread,
    )
    model = _ToolLowering(fe, site).model()
    lowered = _make_lowered(model, module, qualname, first, func, listed)
    # @tool applied twice: each outer @tool receives a Tool (tool.py's own message).
    j = i - 1
    while j >= 0 and is_tool_decorator(decos[j]):
        lowered.extra.append(("OLT001", f"Tool '{rules.tool_name(model)}': @tool is applied twice; remove one"))
        lowered.listed = False
        j -= 1
    out.append(lowered)
    return out


def class_tool(fe: Frontend, cdef: ClassDef, module: str) -> LoweredTool | None:
    """``@tool`` on a class (OLT001)."""
    i = tool_decorator_index(cdef.decorators)
    if i is None:
        return None
    ms = fe.source(module)
    options = DEFAULT_OPTIONS
    if ms is not None:
        node = ms.classes_at.get((cdef.line, cdef.name))
        if node is not None and len(node.decorator_list) == len(cdef.decorators):
            d = node.decorator_list[i]
            options, _ = _read_options(fe, d if isinstance(d, ast.Call) else None, 0, Scope(module))
    name = options.name if isinstance(options.name, str) else rules.snake_case(cdef.name)
    model = _misapplied(name, options, "class", cdef)
    qualname = cdef.fullname[len(module) + 1 :] if cdef.fullname.startswith(module + ".") else cdef.name
    return _make_lowered(model, module, qualname, _first_line(cdef), cdef, False)


#: The attributes of a statement that hold nested statements (a ``Block`` or a list of them).
_NESTED = ("defs", "body", "else_body", "finally_body", "handlers", "func", "items")


def _decorated_by(nodes: list[Any], call: CallExpr) -> Decorator | None:
    """The decorated definition among ``nodes`` (at any depth) that ``call`` decorates (a call
    has no parent link, so the statements are searched; this runs only for the faulty call)."""
    stack = list(nodes)
    while stack:
        node = stack.pop()
        if isinstance(node, Decorator) and any(d is call for d in node.original_decorators):
            return node
        for name in _NESTED:
            inner = getattr(node, name, None)
            if inner is None:
                continue
            for part in inner if isinstance(inner, list) else [inner]:
                if isinstance(part, Block):
                    stack.extend(part.body)
                elif isinstance(part, (Decorator, FuncDef, OverloadedFuncDef, ClassDef)):
                    stack.append(part)
    return None


def _positional_str(call: CallExpr) -> bool:
    """Whether ``call``'s first argument is a string: a literal, or a name bound to a ``str``."""
    if not call.args or call.arg_kinds[0] != ARG_POS:
        return False
    first = call.args[0]
    if isinstance(first, StrExpr):
        return True
    if isinstance(first, RefExpr) and isinstance(first.node, Var) and first.node.type is not None:
        t = get_proper_type(first.node.type)
        if isinstance(t, LiteralType):
            t = t.fallback
        return isinstance(t, Instance) and t.type.fullname == "builtins.str"
    return False


def refused_call(call: CallExpr) -> bool:
    """Whether ``call`` is a ``tool(...)`` that no overload takes, in a way ``refused_call_findings``
    words: a name given first (``tool("search")``), or a keyword that is not an option."""
    if not is_tool_ref(call.callee):
        return False
    return _positional_str(call) or any(n is not None and n not in OPTION_NAMES for n in call.arg_names)


def refused_call_findings(
    fe: Frontend, call: CallExpr, tree: MypyFile, module: str
) -> tuple[FuncDef, list[tuple[str, str]]] | None:
    """The OLT001 findings of a refused ``@tool(...)`` decorator call, and the ``def`` they go on,
    as the runtime raises them: ``@tool("search")`` (another library's positional name) first,
    then each keyword that is not an option (``args_schema=...``); None if no ``def`` has it."""
    from onellm_runtime.core.diagnostics import check_tool, unknown_options

    dec = _decorated_by(tree.defs, call)
    if dec is None:
        return None
    func = dec.func
    ms = fe.source(module)
    if ms is None:
        raise CannotLower(no_source(module))
    fn_ast = ms.function(func.line, func.name)
    decos = dec.original_decorators
    call_ast: ast.expr | None = None
    if fn_ast is not None and len(fn_ast.decorator_list) == len(decos):
        call_ast = fn_ast.decorator_list[next(k for k, d in enumerate(decos) if d is call)]
    cls = method_info(func)
    scope = Scope(module, cls, False, cls is not None)
    options, _ = _read_options(fe, call_ast if isinstance(call_ast, ast.Call) else None, 0, scope)
    name = options.name if isinstance(options.name, str) else rules.snake_case(func.name)
    found: list[tuple[str, str]] = []
    if _positional_str(call):
        found += [(d.code, d.message) for d in check_tool(_misapplied(name, options, "name", func))]
    unknown = [n for n in call.arg_names if n is not None and n not in OPTION_NAMES]
    found += unknown_options(name, unknown)
    return func, found


def _member_function(target: MemberExpr) -> FuncDef | Decorator | None:
    """``obj.method`` / ``Cls().method``: the method, from the object's class."""
    base = target.expr
    info: TypeInfo | None = None
    if isinstance(base, CallExpr) and isinstance(base.callee, RefExpr) and isinstance(base.callee.node, TypeInfo):
        info = base.callee.node
    elif isinstance(base, RefExpr) and isinstance(base.node, Var) and base.node.type is not None:
        t = get_proper_type(base.node.type)
        if isinstance(t, Instance):
            info = t.type
    if info is None:
        return None
    sym = info.get(target.name)
    node = sym.node if sym is not None else None
    return node if isinstance(node, (FuncDef, Decorator)) else None


def create_tool(
    fe: Frontend, call: CallExpr, module: str, with_options: bool, fn_type: Type | None = None
) -> LoweredTool | None:
    """``Tool.create(fn, ...)`` or ``tool(fn)``, on a function reference or a lambda.

    ``fn_type`` is the argument's type where mypy computed it (in a hook): its definition
    finds the function behind any expression (``obj.method``).
    """
    if not call.args or call.arg_kinds[0] != ARG_POS:
        return None
    ms = fe.source(module)
    if ms is None:
        raise CannotLower(no_source(module))
    call_ast = ms.calls.get((call.line, call.column))
    target = call.args[0]
    if isinstance(target, LambdaExpr):
        scope = Scope(module)
        options, unread = _read_options(fe, call_ast if with_options else None, 1, scope)
        lam = ms.lambdas.get((target.line, target.column))
        if lam is None:
            raise CannotLower(not_there("lambda", target.line))
        arg_locs: dict[str, Context] = {arg.variable.name: arg for arg in target.arguments}
        site = ToolSite(module, lam, options, False, None, (), target, target, arg_locs, unread)
        model = _ToolLowering(fe, site).model()
        return _make_lowered(
            model, module, "<lambda>", target.line, target, (call.line, call.column) in ms.assigned_calls
        )
    if not isinstance(target, (NameExpr, MemberExpr)):
        return None
    node = target.node
    if node is None and isinstance(target, MemberExpr):
        node = _member_function(target)
    if node is None and fn_type is not None:
        p = get_proper_type(fn_type)
        if isinstance(p, CallableType) and isinstance(p.definition, FuncDef):
            node = p.definition
    func: FuncDef | None = None
    first: int
    if isinstance(node, FuncDef):
        func, first = node, node.line
    elif isinstance(node, Decorator) and all(
        ref_fullname(d) in (STATIC, CLASSMETHOD) for d in node.original_decorators
    ):
        func, first = node.func, _first_line(node)
    if func is None:
        return None
    fmodule = module_of_fullname(func.fullname, fe.modules) or module
    fms = fe.source(fmodule)
    if fms is None:
        raise CannotLower(no_source(fmodule))
    fn_ast = fms.function(func.line, func.name)
    if fn_ast is None:
        raise CannotLower(not_there(f"def '{func.name}'", func.line))
    cls = method_info(func)
    options, unread = _read_options(fe, call_ast if with_options else None, 1, Scope(module))
    here = fmodule == module
    site = ToolSite(
        module=fmodule,
        fn_ast=fn_ast,
        options=options,
        # A function from a class is a method (bound or not) to Tool.create: its first parameter goes.
        skip_first=cls is not None,
        cls=cls,
        class_type_params=(),
        func=func,
        def_loc=func if here else call,
        arg_locs={arg.variable.name: arg for arg in func.arguments} if here else {},
        not_computed=unread,
    )
    model = _ToolLowering(fe, site).model()
    lowered = _make_lowered(model, fmodule, _func_qualname(func, fmodule), first, site.def_loc, here)
    lowered.site_module = module
    listed = (call.line, call.column) in ms.assigned_calls
    lowered.listed = lowered.listed and listed
    return lowered


def class_duplicates(fe: Frontend, info: TypeInfo, module: str, current: Context) -> list[tuple[str, str]]:
    """OLT007 for the tool at ``current``: the tools of its class in ``__dict__`` order, and
    those it inherits (``Tool._check_duplicates``)."""
    from mypy.nodes import AssignmentStmt

    from onellm_runtime.core.diagnostics import check_class
    from onellm_runtime.core.model import ClassModel

    attrs: dict[str, ToolModel | None] = {}
    for stmt in info.defn.defs.body:
        dec = stmt.impl if isinstance(stmt, OverloadedFuncDef) else stmt
        if isinstance(dec, Decorator):
            is_tool = bool(dec.original_decorators) and is_tool_decorator(dec.original_decorators[0])
            attrs[dec.func.name] = _named_tool(fe, info, dec.func) if is_tool else None
        elif isinstance(stmt, FuncDef):
            attrs[stmt.name] = None
        elif isinstance(stmt, AssignmentStmt):
            for lv in stmt.lvalues:
                if isinstance(lv, NameExpr):
                    attrs[lv.name] = None
    inherited: dict[str, tuple[str, ToolModel]] = {}
    for base in reversed(info.mro[1:]):
        # The symbol table, not the class body: a base read from mypy's cache has no body.
        for attr, sym in base.names.items():
            node = sym.node
            if isinstance(node, Decorator) and _is_tool_type(node.var.type):
                inherited[attr] = (base.name, _named_tool(fe, base, node.func))
            elif isinstance(node, (FuncDef, OverloadedFuncDef, Decorator)) or (
                isinstance(node, Var) and node.is_initialized_in_class
            ):
                inherited.pop(attr, None)  # a plain attribute hides a base's tool
    for attr in attrs:
        inherited.pop(attr, None)  # redefined here: an override, not a second tool
    tools = tuple(m for m in attrs.values() if m is not None)
    model = ClassModel(info.name, tools, tuple(inherited.values()))
    return [(d.code, d.message) for d in check_class(model) if d.loc is current]


def _is_tool_type(t: Type | None) -> bool:
    proper = get_proper_type(t) if t is not None else None
    return isinstance(proper, Instance) and proper.type.fullname == TOOL_CLASS


def _named_tool(fe: Frontend, info: TypeInfo, func: FuncDef) -> ToolModel:
    """A tool method with just what OLT007 reads: its name and its ``@tool(...)`` options."""
    ms = fe.source(info.module_name)
    options = DEFAULT_OPTIONS
    fn_ast = ms.function(func.line, func.name) if ms is not None else None
    if fn_ast is not None and fn_ast.decorator_list and isinstance(fn_ast.decorator_list[0], ast.Call):
        options, _ = _read_options(fe, fn_ast.decorator_list[0], 0, Scope(info.module_name, info, False, True))
    return ToolModel(
        function_name=func.name, docstring=None, params=(), returns=Returns("none"), options=options, loc=func
    )
