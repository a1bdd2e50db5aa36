"""The static front end: mypy's symbols and types plus the source text -> neutral forms.

It *evaluates* an annotation into a ``core.forms`` form: what the annotation object would
be at runtime (``Optional[X]`` is a union with ``None``, nested unions and ``Annotated``
are flattened, ``typing.List`` is ``list``, an alias is its value). Names are resolved by
``names.NameResolver`` (which ``Frontend`` extends); the expression itself is read from the
source with ``ast`` (mypy drops ``Annotated`` metadata), and where the source is not
available, from mypy's analysed type. It judges nothing: ``core.lowering`` turns forms into the model, and the
shared core (``diagnostics``, ``schema``) decides what is supported and what the schema is.

Records (fields, defaults, docstrings, hashability) are read in ``records``; finding tools
and lowering functions is in ``sites``, the source-only readings in ``source``. An
unexpected shape raises ``CannotLower``: the caller then reports nothing for that tool
rather than something wrong.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import Literal

from mypy.nodes import (
    Decorator,
    FuncDef,
    MypyFile,
    OverloadedFuncDef,
    ParamSpecExpr,
    SymbolTableNode,
    TypeAlias,
    TypeInfo,
    TypeVarExpr,
    TypeVarTupleExpr,
    Var,
    type_aliases,
)
from mypy.types import (
    AnyType,
    CallableType,
    Instance,
    NoneType,
    Overloaded,
    TupleType,
    Type,
    TypeAliasType,
    TypedDictType,
    TypeOfAny,
    TypeType,
    TypeVarLikeType,
    get_proper_type,
)
from mypy.types import (
    LiteralType as MypyLiteralType,
)
from mypy.types import (
    UnionType as MypyUnionType,
)

from onellm_runtime.aliases import SIZED_INTS
from onellm_runtime.core import constrained, fields, foreign, markers, metadata
from onellm_runtime.core.diagnostics import Diagnostic
from onellm_runtime.core.forms import (
    FAnnotated,
    FAny,
    FBare,
    FCallable,
    FClass,
    FEllipsis,
    FGeneric,
    FLiteral,
    FNewType,
    FNone,
    Form,
    FOther,
    FTypeVar,
    FUnion,
    FUnresolved,
    LitValue,
    Meta,
    NodeMeta,
    annotated,
    union,
)
from onellm_runtime.core.lowering import BARE, CannotLower
from onellm_runtime.core.model import JsonType, Record, RecordKind, Scalar, ScalarKind, TypeNode

from . import source as src
from .names import Hidden, NameResolver, Scope, alias_value, module_of_fullname, qualname
from .source import Bound, EnumValue, Opaque, SourceCache, Unreadable

#: The runtime type of a literal expression the source does not let us compute further.
_OPAQUE_TYPES: dict[type, str] = {
    ast.List: "list",
    ast.Tuple: "tuple",
    ast.Set: "set",
    ast.Dict: "dict",
    ast.ListComp: "list",
    ast.SetComp: "set",
    ast.DictComp: "dict",
    ast.GeneratorExp: "generator",
    ast.Lambda: "function",
}


def _returned_class(node: object) -> TypeInfo | None:
    """The class a function's call returns, where mypy knows it."""
    if isinstance(node, Decorator):
        node = node.func
    if isinstance(node, FuncDef) and isinstance(node.type, CallableType):
        ret = get_proper_type(node.type.ret_type)
        if isinstance(ret, Instance):
            return ret.type
    return None


def _unreadable_metadata(expr: ast.expr) -> str:
    return (
        f"the metadata {ast.unparse(expr)} cannot be read from the source, so the static schema could differ from "
        "the runtime's; use a marker call, a plain string, or a module or class constant bound to one"
    )


__all__ = ["CannotLower", "Frontend", "NeedMypy", "RecordMemo", "special_node"]

_CONTEXT = "onellm_runtime.context.ToolContext"
_CANCELLATION = "onellm_runtime.context.CancellationToken"
_PARTS = frozenset(
    f"onellm_runtime.results.{name}" for name in ("TextPart", "JsonPart", "ImagePart", "FilePart", "ToolResult")
)

#: The runtime class's ``__name__`` behind a mypy name, where they differ (``get_origin(AbstractSet) is abc.Set``).
_RUNTIME_NAMES = {"typing.AbstractSet": "Set", "typing.Type": "type"}
_AWAITABLES = frozenset({"typing.Awaitable", "typing.Coroutine"})

_ANNOTATED = frozenset({"typing.Annotated", "typing_extensions.Annotated"})
_OPTIONAL = frozenset({"typing.Optional", "typing_extensions.Optional"})
_UNION = frozenset({"typing.Union", "typing_extensions.Union"})
_LITERAL = frozenset({"typing.Literal", "typing_extensions.Literal"})
_ANY = frozenset({"typing.Any", "typing_extensions.Any"})
_WRAPPERS = frozenset(
    {
        f"{m}.{n}"
        for m in ("typing", "typing_extensions")
        for n in ("Required", "NotRequired", "ReadOnly", "ClassVar", "Final")
    }
)
_CALLABLES = frozenset({"typing.Callable", "collections.abc.Callable", "typing_extensions.Callable"})
_TUPLES = frozenset({"typing.Tuple", "builtins.tuple", "typing_extensions.Tuple"})
_TYPES = frozenset({"typing.Type", "builtins.type", "typing_extensions.Type"})


class NeedMypy(Exception):
    """An eager annotation names something we cannot look up: use mypy's analysed type."""


@dataclass
class RecordMemo:
    """Lowered records shared by the front ends of one build, with the modules each read.

    A record's model depends only on mypy's symbols and the sources, which do not change
    while mypy checks (the plugin starts a new memo whenever mypy parses a module again,
    as the daemon does after an edit). Keeping the modules read lets a hook that reuses a
    record still report them as its dependencies.
    """

    records: dict[object, tuple[Record, frozenset[str]]] = field(default_factory=dict)
    #: Each alias's form (by full name) evaluated outside any other alias, with the modules
    #: read and the depth it was evaluated at (reused at that depth or shallower, where the
    #: nesting limit cannot be reached either).
    aliases: dict[str, tuple[Form, frozenset[str], int]] = field(default_factory=dict)
    #: Each tool annotation's form and lowered node, by where it was written (module, class,
    #: laziness) and its text there, with the modules read: a name in one module and scope
    #: resolves alike wherever it is written, and most tools repeat ``str``, ``int``, a record.
    annotations: dict[tuple[object, ...], tuple[object, frozenset[str]]] = field(default_factory=dict)
    #: The memo's key of each text as written in a module and scope (its names resolved once).
    keys: dict[tuple[object, ...], tuple[object, ...]] = field(default_factory=dict)
    #: Each module's OLT007 findings among its module-level tools (``toolsets.module_duplicates``),
    #: found once for all of them.
    module_tools: dict[str, list[Diagnostic]] = field(default_factory=dict)


class Frontend(NameResolver):
    """One lowering context over a build's modules; records which modules it read.

    It holds no state that changes results: ``deps`` only collects module names for
    ``get_additional_indirect_deps``, and the source cache is keyed by file stamps. Names
    are resolved by ``NameResolver`` (``names``); this class evaluates annotations.
    """

    def __init__(self, modules: dict[str, MypyFile], sources: SourceCache, memo: RecordMemo | None = None) -> None:
        super().__init__(modules, sources)
        self.memo = memo if memo is not None else RecordMemo()
        #: Aliases being expanded: an alias met again inside itself cannot be resolved at
        #: runtime either (``typing.get_type_hints`` leaves the inner forward reference).
        self._expanding: list[str] = []
        #: Per class full name: its record kind, and whether ``@dataclass`` itself made it
        #: (read and kept by ``records``).
        self.record_kinds: dict[str, RecordKind | None] = {}
        self.dataclass_classes: dict[str, bool] = {}

    # -- evaluating annotations ---------------------------------------------------------

    def evaluate(self, expr: ast.expr, scope: Scope, depth: int = 0) -> Form:
        if depth > 40:
            raise CannotLower("annotation nests too deeply")
        d = depth + 1
        if isinstance(expr, ast.Constant):
            value = expr.value
            if isinstance(value, str):
                try:
                    parsed = ast.parse(value.strip(), mode="eval").body
                except SyntaxError:
                    return FUnresolved(value, syntax=True)
                return self.evaluate(parsed, Scope(scope.module, scope.cls, True, scope.class_names), d)
            if value is None:
                return FNone()
            if value is Ellipsis:
                return FEllipsis()
            return FOther(repr(value))
        if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.BitOr):
            return union([self.evaluate(expr.left, scope, d), self.evaluate(expr.right, scope, d)])
        if isinstance(expr, (ast.Name, ast.Attribute)):
            sym = self.lookup(expr, scope)
            if isinstance(sym, Hidden):
                return FUnresolved(sym.name)
            if sym is None:
                if scope.lazy:
                    return FUnresolved(_leftmost(expr))
                raise NeedMypy(ast.unparse(expr))
            return self._symbol_form(sym, expr, scope, d)
        if isinstance(expr, ast.Subscript):
            return self._subscript(expr, scope, d)
        if isinstance(expr, ast.Call):
            made = self._constrained(expr, scope, d)
            if made is not None:
                return made
        return FOther(ast.unparse(expr))

    def _constrained(self, call: ast.Call, scope: Scope, depth: int) -> Form | None:
        """A pydantic ``conint(...)``/``constr(...)``/... call in a type's place, as the
        ``Annotated`` type it returns at runtime (``constrained.RETURNS``); None for any other call."""
        sym = self.lookup(call.func, Scope(scope.module, scope.cls, False, scope.class_names))
        if not isinstance(sym, SymbolTableNode) or sym.fullname not in constrained.RETURNS:
            return None
        shape = constrained.RETURNS[sym.fullname]
        resolve = self.resolver(Scope(scope.module, scope.cls, False, True))
        args: dict[str, object] = {}
        for kw in call.keywords:
            if kw.arg is None:
                return FAnnotated(
                    FOther(ast.unparse(call)), (markers.refusal(_unreadable_metadata(call), markers.NOT_COMPUTED),)
                )
            value = src.read_constant(kw.value, resolve)
            if isinstance(value, (src.Unreadable, src.Opaque, EnumValue)):
                return FAnnotated(
                    FOther(ast.unparse(call)), (markers.refusal(_unreadable_metadata(call), markers.NOT_COMPUTED),)
                )
            args[kw.arg] = value
        base: Form | None
        if shape.item:
            if len(call.args) != 1:
                return None
            origin = self._cls(shape.base)
            if origin is None:
                return None
            base = FGeneric(origin, (self.evaluate(call.args[0], scope, depth),))
        else:
            if call.args:
                return None
            base = self._cls(shape.base)
            if base is None:
                return None
        return FAnnotated(base, constrained.metadata(shape, args))

    def _symbol_form(self, sym: SymbolTableNode, expr: ast.expr, scope: Scope, depth: int) -> Form:
        node = sym.node
        fullname = sym.fullname
        if fullname in _ANY:
            return FAny()
        if fullname in foreign.FULLNAMES:  # read by its row, whatever typeshed or pydantic's stubs make of it
            module, _, name = fullname.rpartition(".")
            return FClass(fullname, module, name, node)
        if fullname in type_aliases:  # typing.List and friends: a bare alias of their origin
            origin = self._cls(type_aliases[fullname])
            return FGeneric(origin, ()) if origin is not None else FOther(ast.unparse(expr))
        if fullname in _TUPLES and not isinstance(node, TypeInfo):
            origin = self._cls("builtins.tuple")
            return FGeneric(origin, ()) if origin is not None else FOther(ast.unparse(expr))
        if fullname in _TYPES and not isinstance(node, TypeInfo):
            origin = self._cls("builtins.type")
            return FGeneric(origin, ()) if origin is not None else FOther(ast.unparse(expr))
        if fullname in _CALLABLES:  # a bare Callable: get_origin gives collections.abc.Callable
            return FBare("Callable")
        if isinstance(node, TypeInfo):
            if node.is_newtype:
                return FNewType(node.fullname, node)
            if node.fullname.startswith("typing.") and node.type_vars and node.fullname not in BARE:
                # typing.Iterator and friends: at runtime a bare alias of the collections.abc class.
                return FGeneric(_fclass(node), ())
            return _fclass(node)
        if isinstance(node, TypeAlias):
            special = special_node(node.fullname)
            if special is not None:
                return self._fix_special(special)
            if node.python_3_12_type_alias:
                return FOther(node.name)
            return self._alias_form(node, depth)
        if isinstance(node, (TypeVarExpr, ParamSpecExpr, TypeVarTupleExpr)):
            return FTypeVar(node.name, node.fullname)
        if isinstance(node, (FuncDef, OverloadedFuncDef, Decorator)):
            return FCallable()
        if isinstance(node, Var):
            t = get_proper_type(node.type) if node.type is not None else None
            if isinstance(t, AnyType) and t.type_of_any != TypeOfAny.explicit:
                raise CannotLower(f"{ast.unparse(expr)} comes from a module mypy does not follow")
        return FOther(ast.unparse(expr))

    def _fix_special(self, form: Form) -> Form:
        """Give the special aliases' base class its TypeInfo (it only matters for equality)."""
        assert isinstance(form, FAnnotated) and isinstance(form.base, FOther)
        info = self.info(form.base.name)
        base: Form = _fclass(info) if info is not None else form.base
        if info is not None and info.fullname in ("builtins.dict", "builtins.list"):
            obj = self.info("builtins.object")
            string = self.info("builtins.str")
            args: tuple[Form, ...] = ()
            if obj is not None and string is not None:
                o = _fclass(obj)
                args = (_fclass(string), o) if info.fullname == "builtins.dict" else (o,)
            base = FGeneric(_fclass(info), args)
        return FAnnotated(base, form.metadata)

    def _cls(self, fullname: str) -> FClass | None:
        info = self.info(fullname)
        return _fclass(info) if info is not None else None

    def _alias_form(self, alias: TypeAlias, depth: int) -> Form:
        if self._expanding:
            return self._expand_alias(alias, depth)
        kept = self.memo.aliases.get(alias.fullname)
        if kept is not None and depth <= kept[2]:
            self.note_read(kept[1])
            return kept[0]
        read: set[str] = set()
        self.reading.append(read)
        try:
            form = self._expand_alias(alias, depth)
        finally:
            self.reading.pop()  # what was read is noted already (``note_read`` fills every set)
        self.memo.aliases[alias.fullname] = (form, frozenset(read), depth)
        return form

    def _expand_alias(self, alias: TypeAlias, depth: int) -> Form:
        if alias.fullname in self._expanding:
            return FUnresolved(alias.name)
        self._expanding.append(alias.fullname)
        try:
            module = module_of_fullname(alias.fullname, self.modules)
            if module is not None:
                ms = self.source(module)
                if ms is not None:
                    short = alias.fullname[len(module) + 1 :]
                    value = alias_value(ms, short, alias.line)
                    if value is not None:
                        return self.evaluate(value, Scope(module), depth)
            return self.from_mypy(alias.target, depth)
        finally:
            self._expanding.pop()

    def _subscript(self, expr: ast.Subscript, scope: Scope, depth: int) -> Form:
        head = expr.value
        elts = list(expr.slice.elts) if isinstance(expr.slice, ast.Tuple) else [expr.slice]
        sym = self.lookup(head, scope)
        if isinstance(sym, Hidden):
            return FUnresolved(sym.name)
        if sym is None:
            if scope.lazy:
                return FUnresolved(_leftmost(head))
            raise NeedMypy(ast.unparse(head))
        fullname = sym.fullname
        node = sym.node
        if fullname in _ANNOTATED:
            base = self.evaluate(elts[0], scope, depth)
            metas = metadata.without_placeholders(tuple(m for e in elts[1:] for m in self._meta(e, scope, depth)))
            return annotated(base, metas)
        if fullname in _OPTIONAL:
            return union([self.evaluate(elts[0], scope, depth), FNone()])
        if fullname in _UNION:
            return union([self.evaluate(e, scope, depth) for e in elts])
        if fullname in _LITERAL:
            return FLiteral(tuple(self._literal_values(elts, scope, depth)))
        if fullname in _WRAPPERS:
            return self.evaluate(elts[0], scope, depth)
        if fullname in _CALLABLES:
            return FCallable()
        args = tuple(self.evaluate(e, scope, depth) for e in elts)
        if fullname in type_aliases:
            origin = self._cls(type_aliases[fullname])
            return FGeneric(origin, args) if origin is not None else FOther(ast.unparse(expr))
        if fullname in _TUPLES:
            origin = self._cls("builtins.tuple")
            return FGeneric(origin, args) if origin is not None else FOther(ast.unparse(expr))
        if fullname in _TYPES:
            origin = self._cls("builtins.type")
            spelled = "" if fullname == "builtins.type" else "typing.Type"
            return FGeneric(origin, args, spelled) if origin is not None else FOther(ast.unparse(expr))
        if isinstance(node, TypeInfo):
            return FGeneric(_fclass(node), args)
        if isinstance(node, TypeAlias) and special_node(node.fullname) is None:
            value = self._alias_form(node, depth)
            params = _type_vars_in(value)
            return _substitute(value, dict(zip([p.fullname for p in params], args)))
        return FOther(ast.unparse(expr))

    def _meta(self, expr: ast.expr, scope: Scope, depth: int) -> tuple[Meta, ...]:
        """One ``Annotated`` metadata expression as the runtime's ``_meta`` reads it: its
        markers (a table row's, a ``Field``'s, a plain string's) or its refusal."""
        for _ in range(8):
            if isinstance(expr, ast.Call):
                return self._meta_call(expr, scope)
            if isinstance(expr, (ast.Name, ast.Attribute)):
                found = self.resolve_value(expr, scope)
                if isinstance(found, Bound) and isinstance(found.scope, Scope):
                    # A marker bound to a name: read the call where the name was bound.
                    scope = found.scope
                    expr = found.value
                    continue
                sym = self.lookup(expr, Scope(scope.module, scope.cls, False, scope.class_names))
                if isinstance(sym, SymbolTableNode) and isinstance(sym.node, TypeInfo):
                    for base in sym.node.mro:  # a marker class written without a call (InjectedToolCallId)
                        if base.fullname in metadata.REFUSED_CLASSES:
                            refused = metadata.refused_class(base.fullname)
                            return () if refused is None else (refused,)
                    return (metadata.class_as_metadata(qualname(sym.node)),)
            return self._meta_value(expr, scope)
        return ()

    def _meta_call(self, call: ast.Call, scope: Scope) -> tuple[Meta, ...]:
        resolve = self.resolver(Scope(scope.module, scope.cls, False, True))
        sym = self.lookup(call.func, Scope(scope.module, scope.cls, False, scope.class_names))
        if not isinstance(sym, SymbolTableNode):
            return ()
        fullname = sym.fullname
        if fullname is None:
            return ()
        if fullname == src.FIELD_FUNCTION:
            return fields.in_annotated(src.field_from_call(call, resolve, self.class_namer(scope)))
        if markers.spec_for_call(fullname) is not None:
            found = src.marker_from_call(fullname, call, resolve)
            return () if found is None else (found,)
        if fullname in metadata.REFUSED_CLASSES:
            refused = metadata.refused_class(fullname)
            return () if refused is None else (refused,)
        node = sym.node
        if isinstance(node, TypeInfo):
            for base in node.mro[1:]:
                if base.fullname in metadata.REFUSED_CLASSES:
                    refused = metadata.refused_class(base.fullname)
                    return () if refused is None else (refused,)
            return (metadata.other_metadata(qualname(node)),)
        made = _returned_class(node)
        if made is not None:
            return (metadata.other_metadata(qualname(made)),)
        return (markers.refusal(_unreadable_metadata(call), markers.NOT_COMPUTED),)

    def _meta_value(self, expr: ast.expr, scope: Scope) -> tuple[Meta, ...]:
        """A metadata expression that is not a call: a plain string is a description, any
        other value is refused by its type's name."""
        value = src.read_constant(expr, self.resolver(scope))
        if isinstance(value, str):
            return (markers.text_marker(value),)
        if isinstance(value, EnumValue):
            return (metadata.other_metadata(value.enum.rpartition(".")[2]),)
        if isinstance(value, Opaque):
            shown = _OPAQUE_TYPES.get(type(expr))
            if shown is not None:
                return (metadata.other_metadata(shown),)
        elif not isinstance(value, Unreadable):
            return (metadata.other_metadata(type(value).__name__),)
        return (markers.refusal(_unreadable_metadata(expr), markers.NOT_COMPUTED),)

    def _literal_values(self, elts: list[ast.expr], scope: Scope, depth: int) -> list[LitValue]:
        values: list[LitValue] = []
        keys: set[tuple[str, object]] = set()
        for e in elts:
            if isinstance(e, ast.Subscript) and self.fullname_of(e.value, scope) in _LITERAL:
                inner = list(e.slice.elts) if isinstance(e.slice, ast.Tuple) else [e.slice]
                found = self._literal_values(inner, scope, depth)
            else:
                found = [self._literal_value(e, scope)]
            for v in found:
                key = (v.kind, v.value)
                if key not in keys:  # by kind too: True == 1, but they are different values here
                    keys.add(key)
                    values.append(v)
        return values

    def _literal_value(self, expr: ast.expr, scope: Scope) -> LitValue:
        read = src.read_constant(expr, self.resolver(scope))
        if isinstance(read, EnumValue):
            shown = f": {read.value_repr}" if read.value_repr is not None else ""
            return LitValue("enum", (read.enum, read.member), f"<{read.enum}.{read.member}{shown}>")
        if isinstance(read, (Opaque, Unreadable, tuple, list)):
            return LitValue("other", ast.unparse(expr), ast.unparse(expr))
        return LitValue(type(read).__name__, read, repr(read))

    # -- mypy types, where the source is not available ----------------------------------

    def from_mypy(self, t: Type | None, depth: int = 0) -> Form:
        if t is None or depth > 40:
            raise CannotLower("no type")
        d = depth + 1
        if isinstance(t, TypeAliasType) and t.alias is not None:
            special = special_node(t.alias.fullname)
            if special is not None:
                return self._fix_special(special)
            if t.is_recursive and depth > 20:
                raise CannotLower("recursive alias")
            return self.from_mypy(get_proper_type(t), d)
        p = get_proper_type(t)
        if isinstance(p, NoneType):
            return FNone()
        if isinstance(p, AnyType):
            if p.type_of_any == TypeOfAny.explicit:
                return FAny()
            raise CannotLower("an implicit Any")
        if isinstance(p, MypyUnionType):
            return union([self.from_mypy(item, d) for item in p.items])
        if isinstance(p, MypyLiteralType):
            v = p.value
            if p.fallback.type.is_enum:
                return FLiteral((LitValue("enum", (p.fallback.type.name, v), f"<{p.fallback.type.name}.{v}>"),))
            return FLiteral((LitValue(type(v).__name__, v, repr(v)),))
        if isinstance(p, TypeVarLikeType):
            return FTypeVar(p.name, p.fullname)
        if isinstance(p, (CallableType, Overloaded)):
            return FCallable()
        if isinstance(p, TupleType):
            fallback = p.partial_fallback.type
            if fallback.fullname != "builtins.tuple":
                return _fclass(fallback)
            origin = self._cls("builtins.tuple")
            if origin is None:
                raise CannotLower("no tuple")
            return FGeneric(origin, tuple(self.from_mypy(i, d) for i in p.items))
        if isinstance(p, TypedDictType):
            info = p.fallback.type
            return _fclass(info)
        if isinstance(p, TypeType):
            origin = self._cls("builtins.type")
            if origin is None:
                raise CannotLower("no type")
            return FGeneric(origin, (self.from_mypy(p.item, d),))
        if isinstance(p, Instance):
            info = p.type
            if info.is_newtype:
                return FNewType(info.fullname, info)
            if info.fullname == "builtins.tuple":
                return FGeneric(_fclass(info), (self.from_mypy(p.args[0], d), FEllipsis()))
            if p.args:
                return FGeneric(_fclass(info), tuple(self.from_mypy(a, d) for a in p.args))
            return _fclass(info)
        raise CannotLower(f"unexpected type {type(p).__name__}")

    def newtype_supertype(self, form: FNewType) -> Form:
        info = form.handle
        assert isinstance(info, TypeInfo)
        module = info.module_name
        for b in self.bindings_of(module, info.name):
            value = b.value
            if isinstance(value, ast.Call) and len(value.args) == 2:
                return self.evaluate(value.args[1], Scope(module))
        if not info.bases:
            raise CannotLower("NewType without a base")
        return self.from_mypy(info.bases[0])


def _leftmost(expr: ast.expr) -> str:
    while isinstance(expr, ast.Attribute):
        expr = expr.value
    return expr.id if isinstance(expr, ast.Name) else ast.unparse(expr)


def _type_vars_in(form: Form) -> list[FTypeVar]:
    """Type variables in order of first appearance (a generic alias's parameters)."""
    found: list[FTypeVar] = []

    def visit(f: Form) -> None:
        if isinstance(f, FTypeVar):
            if f not in found:
                found.append(f)
        elif isinstance(f, FGeneric):
            for a in f.args:
                visit(a)
        elif isinstance(f, FUnion):
            for a in f.args:
                visit(a)
        elif isinstance(f, FAnnotated):
            visit(f.base)

    visit(form)
    return found


def _substitute(form: Form, mapping: dict[str, Form]) -> Form:
    if isinstance(form, FTypeVar):
        return mapping.get(form.fullname, form)
    if isinstance(form, FGeneric):
        return FGeneric(form.origin, tuple(_substitute(a, mapping) for a in form.args), form.spelled)
    if isinstance(form, FUnion):
        return union([_substitute(a, mapping) for a in form.args])
    if isinstance(form, FAnnotated):
        return annotated(_substitute(form.base, mapping), form.metadata)
    return form


def _fclass(info: TypeInfo) -> FClass:
    return FClass(info.fullname, info.module_name, _RUNTIME_NAMES.get(info.fullname, info.name), info)


_JSON_KINDS: dict[str, Literal["value", "object", "array"]] = {
    "JsonValue": "value",
    "JsonObject": "object",
    "JsonArray": "array",
}


def special_node(fullname: str) -> Form | None:
    """The aliases of ``onellm_runtime.aliases``, as the runtime sees them (``Annotated[int, SizedInt]``)."""
    module, _, name = fullname.rpartition(".")
    if module not in ("onellm_runtime.aliases", "onellm_runtime"):
        return None
    sized = SIZED_INTS.get(name)
    if sized is not None:
        base = "builtins.int"
        node: TypeNode = Scalar(ScalarKind.INT, sized.minimum, sized.maximum, sized.name)
    elif name == "Char":
        base, node = "builtins.str", Scalar(ScalarKind.CHAR)
    elif name in ("JsonValue", "JsonObject", "JsonArray"):
        kind: Literal["value", "object", "array"] = _JSON_KINDS[name]
        base, node = (
            {"value": "builtins.object", "object": "builtins.dict", "array": "builtins.list"}[kind],
            JsonType(kind),
        )
    else:
        return None
    return FAnnotated(FOther(base), (NodeMeta(node),))
