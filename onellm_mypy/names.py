"""What a name written in a module means: the static side's one name resolver.

mypy's symbol tables answer first (a class body's own names, the module's, builtins; a full
name through the modules that define it); the source text answers what they cannot: a name
bound only under ``TYPE_CHECKING`` (unknown to the runtime's lazy annotations), the value a
name is bound to once (defaults, options, marker arguments, enum members), an alias's
expression as written. ``NameResolver`` also owns the sources it reads and notes each module
read, since what a name means depends on that module. Every other module of the static side
asks here; none reads a symbol table by name itself.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from mypy.lookup import lookup_fully_qualified
from mypy.nodes import FUNC_NO_INFO, GDEF, MypyFile, SymbolTableNode, TypeInfo, Var
from mypy.types import Type

from onellm_runtime.core.frozen import quick_init

from . import source as src
from .enums import EnumReader
from .source import Bound, ModuleSource, Resolution, SourceCache

__all__ = [
    "Hidden",
    "NameResolver",
    "Scope",
    "alias_value",
    "attribute_type",
    "function_bindings",
    "module_of_fullname",
    "qualname",
    "symbol_of_fullname",
]


@quick_init
@dataclass(frozen=True)
class Scope:
    """Where an expression was written, and how the runtime resolves its names there.

    ``lazy``: the annotation is a string when the function runs (``from __future__ import
    annotations`` or quotes), so ``typing.get_type_hints`` resolves it in the module's
    globals: a name bound only under ``TYPE_CHECKING`` is then unresolvable.
    ``class_names``: names of the enclosing class body are visible (record fields; eager
    method annotations and defaults).
    """

    module: str
    cls: TypeInfo | None = None
    lazy: bool = False
    class_names: bool = False


class Hidden:
    """A name bound only under ``TYPE_CHECKING``, looked up lazily."""

    def __init__(self, name: str) -> None:
        self.name = name


def module_of_fullname(fullname: str, modules: dict[str, MypyFile]) -> str | None:
    """The build's module that defines ``fullname``: its longest prefix that is a module."""
    parts = fullname.split(".")
    for i in range(len(parts) - 1, 0, -1):
        candidate = ".".join(parts[:i])
        if candidate in modules:
            return candidate
    return None


def symbol_of_fullname(fullname: str, modules: dict[str, MypyFile]) -> SymbolTableNode | None:
    """The symbol a full name (``pkg.mod.Class.method``) names in the build's modules, as the
    plugin interface's ``lookup_fully_qualified`` finds it."""
    return lookup_fully_qualified(fullname, modules)


def qualname(info: TypeInfo) -> str:
    """A class's ``__qualname__``, as the runtime names a metadata object's type."""
    module = info.module_name
    return info.fullname[len(module) + 1 :] if module and info.fullname.startswith(module + ".") else info.name


class NameResolver:
    """Names resolved where they are written, over a build's modules and their sources.

    ``deps`` collects the modules read (for ``get_additional_indirect_deps``), and every set
    in ``reading`` too (the records and aliases being lowered, innermost last).
    """

    def __init__(self, modules: dict[str, MypyFile], sources: SourceCache) -> None:
        self.modules = modules
        self.sources = sources
        self.deps: set[str] = set()
        #: The modules read while lowering each record being lowered (innermost last).
        self.reading: list[set[str]] = []
        # Memos for this resolver's lifetime (one hook, or one extraction): nothing they
        # hold can change while mypy checks one module.
        self._source_memo: dict[str, ModuleSource | None] = {}
        self._class_memo: dict[str, tuple[ModuleSource, ast.ClassDef] | None] = {}
        #: Enums, each read once (members, aliases, values, node).
        self.enums = EnumReader()

    # -- sources ----------------------------------------------------------------------

    def note_read(self, modules: set[str] | frozenset[str]) -> None:
        self.deps.update(modules)
        for reading in self.reading:
            reading.update(modules)

    def source(self, module: str) -> ModuleSource | None:
        """A module's parsed source, noting it as read (what is lowered from it depends on it)."""
        if module in self.modules:
            self.deps.add(module)
            for reading in self.reading:
                reading.add(module)
        return self._scope_source(module)

    def _scope_source(self, module: str) -> ModuleSource | None:
        """A module's parsed source, read to resolve a name written in it: not noted, since
        whatever led to an expression written there read that source already (the tool's
        own module, an alias's, a class's), so what is lowered depends on the same modules
        wherever the expression's names resolve alike (the annotation memo's premise)."""
        if module in self._source_memo:
            return self._source_memo[module]
        file = self.modules.get(module)
        ms = self.sources.module(file.path) if file is not None else None
        self._source_memo[module] = ms
        return ms

    def class_ast(self, info: TypeInfo) -> tuple[ModuleSource, ast.ClassDef] | None:
        key = info.fullname
        module = info.module_name
        if key in self._class_memo:
            if module in self.modules:
                self.note_read({module})
            return self._class_memo[key]
        ms = self.source(module)
        found = None
        if ms is not None:
            node = ms.classes.get(key[len(module) + 1 :])
            if node is None:
                line = info.line if info.line > 0 else getattr(info.defn, "line", -1)
                node = ms.classes_at.get((line, info.name))
            found = (ms, node) if node is not None else None
        self._class_memo[key] = found
        return found

    # -- names ------------------------------------------------------------------------

    def lookup(self, expr: ast.expr, scope: Scope) -> SymbolTableNode | Hidden | None:
        if isinstance(expr, ast.Name):
            return self.lookup_name(expr.id, scope)
        if isinstance(expr, ast.Attribute):
            base = self.lookup(expr.value, scope)
            if isinstance(base, Hidden) or base is None:
                return base
            node = base.node
            if isinstance(node, MypyFile):
                found = node.names.get(expr.attr)
                if found is None:  # ``collections.abc`` after ``import collections``: a submodule
                    sub = self.modules.get(f"{node.fullname}.{expr.attr}")
                    if sub is not None:
                        return SymbolTableNode(GDEF, sub)
                return found
            if isinstance(node, TypeInfo):
                return node.names.get(expr.attr)
            return None
        return None

    def lookup_name(self, name: str, scope: Scope) -> SymbolTableNode | Hidden | None:
        """What a plain name written in ``scope`` resolves to, as ``lookup``."""
        if scope.cls is not None and scope.class_names:
            found = scope.cls.names.get(name)
            if found is not None:
                return found
        if scope.lazy:
            ms = self._scope_source(scope.module)
            if ms is not None and ms.type_checking_only(name):
                return Hidden(name)
        file = self.modules.get(scope.module)
        if file is not None:
            found = file.names.get(name)
            if found is not None:
                return found
        builtins = self.modules.get("builtins")
        return builtins.names.get(name) if builtins is not None else None

    def fullname_of(self, expr: ast.expr, scope: Scope) -> str | None:
        sym = self.lookup(expr, scope)
        return sym.fullname if isinstance(sym, SymbolTableNode) else None

    def decorator_names(self, node: ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef, scope: Scope) -> list[str]:
        """The full names the decorators of ``node`` resolve to (``@d`` and ``@d(...)`` alike)."""
        names: list[str] = []
        for dec in node.decorator_list:
            name = self.fullname_of(dec.func if isinstance(dec, ast.Call) else dec, scope)
            if name is not None:
                names.append(name)
        return names

    def class_namer(self, scope: Scope) -> src.ClassNamed:
        """Tells the class a name or attribute names (``Field(int, ...)``), by its name."""
        value_scope = Scope(scope.module, scope.cls, False, scope.class_names)

        def named(expr: ast.expr) -> str | None:
            if not isinstance(expr, (ast.Name, ast.Attribute)):
                return None
            sym = self.lookup(expr, value_scope)
            if isinstance(sym, SymbolTableNode) and isinstance(sym.node, TypeInfo):
                return qualname(sym.node)
            return None

        return named

    def resolver(self, scope: Scope) -> src.Resolve:
        """Name resolution for constant values (defaults, options, marker arguments)."""

        def resolve(expr: ast.expr) -> Resolution:
            return self.resolve_value(expr, scope)

        return src.Resolver(resolve, self.sources.allowance)

    def resolve_value(self, expr: ast.expr, scope: Scope) -> Resolution:
        # A class-body or module-level name bound exactly once: read its value where it was bound.
        if isinstance(expr, ast.Name):
            if scope.cls is not None and scope.class_names:
                found = self.class_ast(scope.cls)
                if found is not None:
                    bindings = found[0].class_bindings(found[1]).get(expr.id)
                    if bindings:
                        return self._bound_once(bindings, Scope(scope.module, scope.cls, False, True))
            ms = self._scope_source(scope.module)
            if ms is not None:
                bindings = ms.bindings.get(expr.id)
                if bindings and not all(isinstance(b.node, (ast.Import, ast.ImportFrom)) for b in bindings):
                    return self._bound_once(bindings, Scope(scope.module))
        sym = self.lookup(expr, Scope(scope.module, scope.cls, False, scope.class_names))
        if not isinstance(sym, SymbolTableNode):
            return None
        node = sym.node
        if isinstance(node, Var):
            owner = node.info if node.info is not FUNC_NO_INFO and node.info is not None else None
            try:
                owner_name = owner.fullname if owner is not None else None
            except Exception:  # an unset TypeInfo placeholder
                owner, owner_name = None, None
            if owner is not None and owner.is_enum:
                return self.enums.value(self, owner, node.name)
            if owner is not None and owner_name is not None:
                found = self.class_ast(owner)
                if found is None:
                    return None
                bindings = found[0].class_bindings(found[1]).get(node.name)
                return self._bound_once(bindings or [], Scope(owner.module_name, owner, False, True))
            module = module_of_fullname(sym.fullname or "", self.modules)
            if module is None:
                return None
            ms = self.source(module)
            if ms is None:
                return None
            return self._bound_once(ms.bindings.get(node.name, []), Scope(module))
        return None

    def class_resolver(self, info: TypeInfo) -> src.Resolve:
        """Resolves a name written in a class's body (its own names first)."""
        return self.resolver(Scope(info.module_name, info, False, True))

    def module_resolver(self, module: str) -> src.Resolve:
        """Resolves a name written at a module's top level."""
        return self.resolver(Scope(module))

    def module_fullname(self, expr: ast.expr, module: str) -> str | None:
        """The full name a name written at a module's top level refers to."""
        return self.fullname_of(expr, Scope(module))

    def bindings_of(self, module: str, name: str) -> list[src.Binding]:
        """The statements that bind ``name`` at ``module``'s top level, as its source shows them
        (none without a source); the source is noted as read."""
        ms = self.source(module)
        return ms.bindings.get(name, []) if ms is not None else []

    def _bound_once(self, bindings: list[src.Binding], scope: Scope) -> Resolution:
        if len(bindings) != 1 or bindings[0].value is None:
            return None
        return Bound(bindings[0].value, self.resolver(scope), scope)

    def info(self, fullname: str) -> TypeInfo | None:
        """The class a full name names, from its module's symbol table (None: not a class)."""
        module = module_of_fullname(fullname, self.modules)
        if module is None:
            return None
        sym = self.modules[module].names.get(fullname[len(module) + 1 :])
        return sym.node if sym is not None and isinstance(sym.node, TypeInfo) else None

    def resolutions(
        self, ms: src.ModuleSource, names: list[str] | None, scope: Scope
    ) -> tuple[tuple[str, str | None], ...] | None:
        """Each name's full name as written in ``scope`` (``"?"`` if hidden, None if unbound), or
        None where the module itself decides: a name it binds, or an expression not described."""
        if names is None:
            return None
        found: list[tuple[str, str | None]] = []
        for name in dict.fromkeys(names):
            bindings = ms.bindings.get(name)
            if bindings and not all(isinstance(b.node, (ast.Import, ast.ImportFrom)) for b in bindings):
                return None
            sym = self.lookup_name(name, scope)
            if sym is None:
                found.append((name, None))
            elif isinstance(sym, SymbolTableNode):
                fullname = sym.fullname
                if not fullname:
                    return None
                found.append((name, fullname))
            else:
                found.append((name, "?"))
        return tuple(found)


def function_bindings(fn_ast: src.FunctionNode, name: str) -> list[src.Binding]:
    """The statements that bind ``name`` in a function's body (a local variable)."""
    return src.body_bindings(fn_ast.body).get(name, [])


def alias_value(ms: ModuleSource, name: str, line: int) -> ast.expr | None:
    """The expression alias ``name`` is bound to at ``line`` of its module, as written (mypy's
    analysed alias drops ``Annotated`` metadata); None for a ``TypeAliasType(...)`` call."""
    if "." in name:
        return None
    for b in ms.bindings.get(name, []):
        if b.value is not None and (line <= 0 or getattr(b.node, "lineno", line) == line):
            value = b.value
            if isinstance(value, ast.Call):  # TypeAliasType("X", value) (typing_extensions)
                return None
            return value
    return None


def attribute_type(info: TypeInfo, name: str) -> Type | None:
    """The declared type of attribute ``name`` of ``info``, from the first class of its MRO that has it."""
    for c in info.mro:
        sym = c.names.get(name)
        if sym is not None and isinstance(sym.node, Var):
            return sym.node.type
    return None
