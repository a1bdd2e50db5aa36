"""What the runtime objects forgot, read back from the source text.

Two things the static side reads from the source are lost at runtime:

- **The order of a ``Literal``'s values, behind a cached typing construct.** ``typing`` caches
  ``Union[...]``, ``Optional[...]``, ``Annotated[...]`` and its generics (``List[...]``) by
  the equality of their arguments, and ``Literal["a", "b"] == Literal["b", "a"]``. So
  ``Optional[Literal["b", "a"]]`` evaluated after ``Optional[Literal["a", "b"]]`` anywhere in
  the process *is* the first object, and its ``enum`` would come out ``["a", "b"]`` while the
  user (and mypy) wrote ``["b", "a"]`` (CPython issue #103749). ``Union[A, B] == Union[B, A]``
  as well, so a union's members (a record union's ``anyOf``) lose their order the same way.
  A schema must not depend on what else the process imported, so the written order is read
  from the annotation's source: :class:`Origin` names where an annotation was written (a
  function's parameter or return, a record's field) and hands out, in walk order, the value
  tuples of the ``Literal[...]`` and the (flattened, evaluated) members of the unions written
  there, following names to module-level aliases (``X = ...``, ``X: TypeAlias = ...``,
  ``type X = ...``, ``from m import X``, ``m.X``) a few hops deep.
- **The bases of a ``typing.TypedDict`` subclass on Python 3.10/3.11**, which keeps neither
  ``__orig_bases__`` nor its bases in ``__bases__`` (:func:`class_bases`).

Where no source is to be had (a REPL, ``exec``, a NamedTuple made by a call), the caller keeps
what the objects say: typing's order, no base. This module is imported only when one of these
cases is actually met, and parses each file once (``linecache``, so it reads what the module
was imported from).
"""

from __future__ import annotations

import ast
import builtins
import linecache
import sys
import types
import typing
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, ClassVar, cast

import typing_extensions

from ..core.caches import BoundedCache

__all__ = ["Origin", "class_bases"]

_LITERALS: tuple[object, ...] = (typing.Literal, typing_extensions.Literal)
_ANNOTATED: tuple[object, ...] = (typing.Annotated, typing_extensions.Annotated)
_NEWTYPES: tuple[object, ...] = (typing.NewType, typing_extensions.NewType)
#: Alias hops followed from one annotation (``A = B``, ``from m import B``, ...).
_MAX_HOPS = 8

Values = tuple[object, ...]


def _key(values: Sequence[object]) -> frozenset[tuple[type, object]]:
    """A value set as ``Literal`` equality sees it: ``1`` and ``True`` are distinct values."""
    return frozenset((type(v), v) for v in values)


class Origin:
    """Where one annotation was written: parameter ``name`` (or ``"return"``) of a function,
    or field ``name`` of a record class. Its source is read only when first asked."""

    __slots__ = ("owner", "name", "_walk", "_last_values", "_last_members")

    def __init__(self, owner: object, name: str) -> None:
        self.owner: object = owner
        self.name: str = name
        self._walk: _Walk | None = None
        self._last_values: dict[frozenset[tuple[type, object]], Values] = {}
        self._last_members: list[Values] = []

    def _walked(self) -> _Walk:
        if self._walk is None:
            self._walk = _walked(self.owner, self.name).copy()
        return self._walk

    def written_order(self, args: Values) -> Values:
        """``args`` (a Literal's values) in the order of the next Literal written here with
        the same values; what was met last with them when none is left (a type argument
        used twice); ``args`` as they are when the source has none."""
        try:
            key = _key(args)
        except TypeError:  # an unhashable value: typing refuses it anyway
            return args
        literals = self._walked().literals
        for i, values in enumerate(literals):
            if _key(values) == key:
                del literals[i]
                self._last_values[key] = values
                break
        written = self._last_values.get(key)
        if written is None:
            return args
        rank = {(type(v), v): i for i, v in enumerate(written)}
        return tuple(sorted(args, key=lambda v: rank[(type(v), v)]))

    def written_members(self, args: Values) -> Values:
        """``args`` (a union's members, as typing flattened them) in the order of the next
        union written here with the same members, as ``written_order`` does for values."""
        unions = self._walked().unions
        written = next((u for u in unions if _same_members(u, args)), None)
        if written is not None:
            unions.remove(written)
            self._last_members.append(written)
        else:
            written = next((u for u in reversed(self._last_members) if _same_members(u, args)), None)
        if written is None:
            return args
        order = written
        return tuple(sorted(args, key=lambda a: next(i for i, m in enumerate(order) if m == a)))


def _same_members(written: Values, args: Values) -> bool:
    """The same members, compared as typing compares them (by equality, in any order)."""
    return len(written) == len(args) and all(any(a == m for m in written) for a in args)


# -- where an annotation is written


#: Walks by where they were written (the def's code object, or the record class, and the
#: name; each kept, so its id is not reused): a tool built again from the same ``def`` reads
#: no source twice. Bounded.
_WALKS: BoundedCache[tuple[int, str], tuple[object, _Walk]] = BoundedCache()


def _walked(owner: object, name: str) -> _Walk:
    home: object = owner
    if not isinstance(owner, type):
        home = getattr(owner, "__code__", owner)
    hit = _WALKS.get((id(home), name))
    if hit is not None and hit[0] is home:
        return hit[1]
    walk = _walk(owner, name)
    _WALKS.put((id(home), name), (home, walk))
    return walk


def _walk(owner: object, name: str) -> _Walk:
    """The Literals and unions written where the annotation was (none without source)."""
    walk = _Walk()
    found = _function_annotation(owner, name) if not isinstance(owner, type) else _field_annotation(owner, name, 0)
    if found is not None:
        walk.expr(*found)
    return walk


def _function_annotation(fn: object, name: str) -> tuple[ast.expr, _Module] | None:
    raw: object = getattr(fn, "__annotations__", {}).get(name)
    module = _Module.of(getattr(fn, "__module__", None), getattr(fn, "__globals__", None))
    if isinstance(raw, str):  # from __future__ import annotations: the string is the source
        expr = _parse(raw)
        return (expr, module) if expr is not None and module is not None else None
    code: Any = getattr(fn, "__code__", None)
    if code is None or module is None:
        return None
    tree = _Tree.of(code.co_filename, module.globals)
    node = tree.definition(getattr(fn, "__qualname__", ""), code.co_firstlineno) if tree else None
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return None
    if name == "return":
        return (node.returns, module) if node.returns is not None else None
    a = node.args
    for arg in [*a.posonlyargs, *a.args, *a.kwonlyargs]:
        if arg.arg == name and arg.annotation is not None:
            return arg.annotation, module
    return None


def _field_annotation(cls: type, name: str, depth: int) -> tuple[ast.expr, _Module] | None:
    """The annotation of field ``name`` as written in ``cls`` or the base that declares it."""
    if depth > _MAX_HOPS:
        return None
    module = _Module.of(cls.__module__, None)
    if module is None:
        return None
    own: object = cls.__dict__.get("__annotations__", {}).get(name)
    text = own if isinstance(own, str) else getattr(own, "__forward_arg__", None)
    if isinstance(text, str):  # a string annotation is the source (a TypedDict wraps it in a ForwardRef)
        forward_module: object = getattr(own, "__forward_module__", None)
        if isinstance(forward_module, str) and forward_module != cls.__module__:
            module = _Module.of(forward_module, None)  # a 3.10/3.11 TypedDict copies its bases' keys
        expr = _parse(text)
        return (expr, module) if expr is not None and module is not None else None
    node = _class_node(cls)
    if node is not None:
        for stmt in node.body:
            if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name) and stmt.target.id == name:
                return stmt.annotation, module
    for base in _bases(cls):
        if isinstance(base, type) and base is not object:
            found = _field_annotation(base, name, depth + 1)
            if found is not None:
                return found
    return None


def _bases(cls: type) -> tuple[object, ...]:
    raw: object = cls.__dict__.get("__orig_bases__")
    if not isinstance(raw, tuple) and typing_extensions.is_typeddict(cls):
        return class_bases(cls) or ()
    bases: tuple[object, ...] = cast("tuple[object, ...]", raw) if isinstance(raw, tuple) else cls.__bases__
    return tuple(typing.get_origin(b) or b for b in bases)


def _class_node(cls: type) -> ast.ClassDef | None:
    module = sys.modules.get(cls.__module__)
    filename = getattr(module, "__file__", None)
    if not isinstance(filename, str):
        return None
    tree = _Tree.of(filename, vars(module))
    node = tree.definition(cls.__qualname__, None) if tree else None
    return node if isinstance(node, ast.ClassDef) else None


def class_bases(cls: type) -> tuple[object, ...] | None:
    """The bases written in ``cls``'s ``class`` statement, evaluated in its module (names and
    dotted names only; a subscripted base gives its origin). None without source.

    For a ``typing.TypedDict`` subclass on Python 3.10/3.11, which keeps no trace of them.
    """
    node = _class_node(cls)
    module = _Module.of(cls.__module__, None)
    if node is None or module is None:
        return None
    bases: list[object] = []
    for expr in node.bases:
        if isinstance(expr, ast.Subscript):
            expr = expr.value
        value = module.resolve(expr)
        if value is not None:
            bases.append(value)
    return tuple(bases)


# -- parsed sources


def _parse(text: str) -> ast.expr | None:
    try:
        return ast.parse(text.strip(), mode="eval").body
    except SyntaxError:
        return None


class _Tree:
    """One parsed module file, with its definitions indexed (parsed once per file)."""

    _cache: ClassVar[dict[str, tuple[list[str], _Tree | None]]] = {}

    def __init__(self, tree: ast.Module) -> None:
        self.defs: dict[str, list[ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef]] = {}
        self.names: dict[str, ast.stmt] = {}  # module-level name -> the statement that binds it last
        self._index(tree.body, "")
        for stmt in _module_level(tree.body):
            for bound in _bound_names(stmt):
                self.names[bound] = stmt

    @classmethod
    def of(cls, filename: str, module_globals: Mapping[str, Any] | None) -> _Tree | None:
        lines = linecache.getlines(filename, cast("dict[str, Any] | None", module_globals))
        if not lines:
            return None
        cached = cls._cache.get(filename)
        if cached is not None and cached[0] is lines:  # linecache hands out the same list while it holds the file
            return cached[1]
        try:
            tree: _Tree | None = cls(ast.parse("".join(lines), filename))
        except (SyntaxError, ValueError):
            tree = None
        cls._cache[filename] = (lines, tree)
        return tree

    def _index(self, body: list[ast.stmt], prefix: str) -> None:
        for stmt in body:
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                qualname = prefix + stmt.name
                self.defs.setdefault(qualname, []).append(stmt)
                inner = qualname + (".<locals>." if not isinstance(stmt, ast.ClassDef) else ".")
                self._index(stmt.body, inner)
            elif isinstance(stmt, (ast.If, ast.Try)):
                self._index([*_module_level([stmt])], prefix)

    def definition(self, qualname: str, firstlineno: int | None) -> ast.stmt | None:
        """The def/class of that qualname; the one starting at ``firstlineno`` when given."""
        nodes = self.defs.get(qualname, [])
        if firstlineno is not None:
            for node in nodes:
                start = min([node.lineno, *(d.lineno for d in node.decorator_list)])
                if start == firstlineno or node.lineno == firstlineno:
                    return node
        return nodes[-1] if nodes else None


def _module_level(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """Statements run at module level, also under ``if``/``try`` (``if TYPE_CHECKING:``)."""
    for stmt in body:
        if isinstance(stmt, ast.If):
            yield from _module_level(stmt.body)
            yield from _module_level(stmt.orelse)
        elif isinstance(stmt, ast.Try):
            yield from _module_level(stmt.body)
            yield from _module_level(stmt.orelse)
        else:
            yield stmt


def _bound_names(stmt: ast.stmt) -> Iterator[str]:
    if isinstance(stmt, ast.Assign):
        for target in stmt.targets:
            if isinstance(target, ast.Name):
                yield target.id
    elif isinstance(stmt, ast.AnnAssign) and stmt.value is not None and isinstance(stmt.target, ast.Name):
        yield stmt.target.id
    elif isinstance(stmt, ast.ImportFrom):
        for alias in stmt.names:
            yield alias.asname or alias.name
    elif type(stmt).__name__ == "TypeAlias":  # PEP 695 ``type X = ...`` (Python 3.12+)
        alias_name: object = getattr(stmt, "name", None)
        if isinstance(alias_name, ast.Name):
            yield alias_name.id


class _Module:
    """A module as the walk needs it: its globals and its parsed file."""

    def __init__(self, name: str, globals_: Mapping[str, Any]) -> None:
        self.name = name
        self.globals = globals_
        filename = globals_.get("__file__")
        self._filename = filename if isinstance(filename, str) else None
        self._tree: _Tree | bool | None = False

    @staticmethod
    def of(name: object, globals_: Mapping[str, Any] | None) -> _Module | None:
        if globals_ is None:
            module = sys.modules.get(name) if isinstance(name, str) else None
            globals_ = vars(module) if module is not None else None
        if globals_ is None:
            return None
        return _Module(name if isinstance(name, str) else "", globals_)

    @property
    def tree(self) -> _Tree | None:
        if self._tree is False:
            self._tree = _Tree.of(self._filename, self.globals) if self._filename else None
        return self._tree if isinstance(self._tree, _Tree) else None

    def resolve(self, expr: ast.expr) -> object:
        """The object a name or dotted name stands for in this module (None if unknown)."""
        if isinstance(expr, ast.Name):
            missing = object()
            value = self.globals.get(expr.id, missing)
            return getattr(builtins, expr.id, None) if value is missing else value
        if isinstance(expr, ast.Attribute):
            owner = self.resolve(expr.value)
            return getattr(owner, expr.attr, None) if owner is not None else None
        return None

    def evaluate(self, expr: ast.expr) -> object:
        """A type expression's value in this module (``_UNKNOWN`` when it cannot be had), as
        ``get_type_hints`` evaluates an annotation."""
        try:
            code = compile(ast.Expression(body=expr), "<annotation>", "eval")
            return eval(code, cast("dict[str, Any]", self.globals))
        except Exception:  # a name only a class body or TYPE_CHECKING import knows
            return _UNKNOWN

    def imported(self, stmt: ast.ImportFrom) -> _Module | None:
        """The module a ``from ... import`` statement of this module reads from."""
        name = stmt.module or ""
        if stmt.level:
            package: object = self.globals.get("__package__")
            parts: list[str] = package.split(".") if isinstance(package, str) and package else []
            if stmt.level - 1 > len(parts):
                return None
            parts = parts[: len(parts) - (stmt.level - 1)]
            name = ".".join([*parts, *([name] if name else [])])
        return _Module.of(name, None)


class _Walk:
    """The ``Literal[...]`` value tuples and the unions' members (each flattened, as typing
    flattens them, and evaluated) of one annotation, in the order lowering meets them."""

    def __init__(self) -> None:
        self.literals: list[Values] = []
        self.unions: list[Values] = []
        self.hops = 0

    def copy(self) -> _Walk:
        """A copy to consume (an Origin takes its occurrences one by one)."""
        walk = _Walk()
        walk.literals, walk.unions = list(self.literals), list(self.unions)
        return walk

    def expr(self, expr: ast.expr, module: _Module) -> None:
        if isinstance(expr, ast.Constant) and isinstance(expr.value, str):  # a forward reference
            parsed = _parse(expr.value)
            if parsed is not None:
                self.expr(parsed, module)
        elif (isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.BitOr)) or _is_union(expr, module):
            self._union(expr, module)
        elif isinstance(expr, ast.Subscript):
            self._subscript(expr, module)
        elif isinstance(expr, (ast.Tuple, ast.List)):
            for elt in expr.elts:
                self.expr(elt, module)
        elif isinstance(expr, ast.Call) and len(expr.args) == 2 and _is(module, expr.func, _NEWTYPES, "NewType"):
            self.expr(expr.args[1], module)
        elif isinstance(expr, (ast.Name, ast.Attribute)):
            found = self._alias(expr, module)
            if found is not None:
                self.expr(*found)

    def _subscript(self, expr: ast.Subscript, module: _Module) -> None:
        elts = _elements(expr)
        if _is(module, expr.value, _LITERALS, "Literal"):
            values = _literal_values(elts, module)
            if values is not None:
                self.literals.append(values)
            return
        if _is(module, expr.value, _ANNOTATED, "Annotated"):
            elts = elts[:1]  # the metadata is no type
        elif typing.get_origin(module.resolve(expr.value)) is not None:
            self.expr(expr.value, module)  # a generic alias given arguments: its body first
        for elt in elts:
            self.expr(elt, module)

    def _union(self, expr: ast.expr, module: _Module) -> None:
        """A union: its members in the order written (then each member walked)."""
        leaves: list[tuple[ast.expr, _Module]] = []
        self._flatten(expr, module, leaves)
        if sum(1 for e, _ in leaves if not _is_none(e)) >= 2:
            members: list[object] = []
            for leaf, home in leaves:
                value = type(None) if _is_none(leaf) else home.evaluate(leaf)
                if value is _UNKNOWN:
                    break
                if not any(value == m for m in members):
                    members.append(value)
            else:
                self.unions.append(tuple(members))
        for leaf, home in leaves:
            self.expr(leaf, home)

    def _flatten(self, expr: ast.expr, module: _Module, out: list[tuple[ast.expr, _Module]]) -> None:
        if isinstance(expr, ast.Constant) and isinstance(expr.value, str):
            parsed = _parse(expr.value)
            if parsed is not None:
                self._flatten(parsed, module, out)
                return
        if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.BitOr):
            self._flatten(expr.left, module, out)
            self._flatten(expr.right, module, out)
        elif isinstance(expr, ast.Subscript) and _is_union(expr, module):
            for elt in _elements(expr):
                self._flatten(elt, module, out)
            if _is(module, expr.value, (typing.Optional,), "Optional"):
                out.append((ast.Constant(value=None), module))
        elif isinstance(expr, (ast.Name, ast.Attribute)) and typing.get_origin(module.resolve(expr)) in _UNIONS:
            found = self._alias(expr, module)  # an alias of a union: typing flattens it in
            if found is not None:
                self._flatten(*found, out)
            else:
                out.append((expr, module))
        else:
            out.append((expr, module))

    def _alias(self, expr: ast.Name | ast.Attribute, module: _Module) -> tuple[ast.expr, _Module] | None:
        """The expression of the module-level alias a name stands for, if it names one."""
        if self.hops >= _MAX_HOPS or not _may_hold_literals(module.resolve(expr)):
            return None
        if isinstance(expr, ast.Attribute):  # ``tb.Choice``: a name in another module
            owner = module.resolve(expr.value)
            name = getattr(owner, "__name__", None)
            if not isinstance(owner, type(sys)) or not isinstance(name, str):
                return None
            other = _Module.of(name, None)
            if other is None:
                return None
            self.hops += 1
            return self._name(expr.attr, other)
        self.hops += 1
        return self._name(expr.id, module)

    def _name(self, name: str, module: _Module) -> tuple[ast.expr, _Module] | None:
        tree = module.tree
        stmt = tree.names.get(name) if tree is not None else None
        if isinstance(stmt, ast.ImportFrom):
            source = module.imported(stmt)
            original = next((a.name for a in stmt.names if (a.asname or a.name) == name), name)
            if source is None or self.hops >= _MAX_HOPS:
                return None
            self.hops += 1
            return self._name(original, source)
        value: object = getattr(stmt, "value", None)
        return (value, module) if isinstance(value, ast.expr) else None


_UNIONS: tuple[object, ...] = (typing.Union, types.UnionType)
_UNKNOWN: Any = object()


def _elements(expr: ast.Subscript) -> list[ast.expr]:
    return list(expr.slice.elts) if isinstance(expr.slice, ast.Tuple) else [expr.slice]


def _is_none(expr: ast.expr) -> bool:
    return isinstance(expr, ast.Constant) and expr.value is None


def _is_union(expr: ast.expr, module: _Module) -> bool:
    """``Union[...]`` or ``Optional[...]`` (``X | Y`` is a BinOp)."""
    return isinstance(expr, ast.Subscript) and (
        _is(module, expr.value, (typing.Union,), "Union") or _is(module, expr.value, (typing.Optional,), "Optional")
    )


def _may_hold_literals(value: object) -> bool:
    """A name worth following: an alias (``Optional[...]``, a NewType, ``type X = ...``), or
    one not known at runtime. Not a class, a module or a typing special form (``Any``)."""
    if value is None or isinstance(value, str):
        return True
    if isinstance(value, (type, type(sys))):
        return False
    return typing.get_origin(value) is not None or any(hasattr(value, a) for a in ("__supertype__", "__value__"))


def _is(module: _Module, expr: ast.expr, objects: tuple[object, ...], name: str) -> bool:
    """``expr`` names one of ``objects`` (by its last identifier when it cannot be resolved)."""
    value = module.resolve(expr)
    if value is not None:
        return any(value is o for o in objects)
    last = expr.attr if isinstance(expr, ast.Attribute) else getattr(expr, "id", None)
    return last == name


def _literal_values(elts: list[ast.expr], module: _Module) -> Values | None:
    """The values of ``Literal[elts]`` as typing keeps them (nested Literals flattened,
    repeats dropped); None when one cannot be read from the text."""
    values: list[object] = []
    for elt in elts:
        if isinstance(elt, ast.Subscript) and _is(module, elt.value, _LITERALS, "Literal"):
            inner = _literal_values(list(elt.slice.elts) if isinstance(elt.slice, ast.Tuple) else [elt.slice], module)
            if inner is None:
                return None
            found: list[object] = list(inner)
        elif isinstance(elt, (ast.Name, ast.Attribute)):
            found = [module.resolve(elt)]  # an enum member
        else:
            try:
                found = [ast.literal_eval(elt)]
            except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
                return None
        for v in found:
            if not any(type(v) is type(s) and v == s for s in values):
                values.append(v)
    return tuple(values)
