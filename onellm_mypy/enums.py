"""Enums as the static side reads them: mypy's enum types into the core's ``EnumType``.

The runtime iterates an enum class (``core/enums.py`` decides what its members are written
as); the static side reads the same from the source: each member's value as the contract's
value rule computes it (``enum_members``, over a class body, or over the body a functional
``Enum("E", names)`` stands for), the data type that converts it (a ``str`` mixin), what
``auto()`` gives, and so which members are aliases and whether the enum is written by value
or by name. ``EnumReader`` keeps what it read per class for one front end's lifetime.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Callable
from typing import Literal, Protocol, cast

from mypy.nodes import TypeInfo, Var

from onellm_runtime.core.model import EnumType

from .source import Binding, ModuleSource, read_constant
from .values import EnumValue, Opaque, Resolution, Resolve, Unreadable

__all__ = ["EnumReader", "EnumFront", "enum_members", "as_str_value", "AutoValue"]

_UNREADABLE = Unreadable()


def _is_descriptor_value(value: ast.expr) -> bool:
    if isinstance(value, ast.Lambda):
        return True
    if isinstance(value, ast.Call):
        func = value.func
        name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
        return name in ("property", "staticmethod", "classmethod", "nonmember")
    return False


#: ``auto()``'s value for a member: its name and the values assigned before it.
AutoValue = Callable[[str, "list[object]"], object]


_WRITTEN_BY_STR = (str, int, float, bool, complex, bytes, type(None))


def as_str_value(value: object) -> object:
    """A member's value as a ``str`` mixin (or ``StrEnum``) makes it: ``str(v)``, or
    ``str(*v)`` for a tuple; ``Unreadable`` where the result is not known from the source."""
    args = value if type(value) is tuple else (value,)
    if not all(type(a) in _WRITTEN_BY_STR for a in args):
        return _UNREADABLE
    try:
        return str(*args)
    except Exception:  # str("a", 1), an integer over the digit limit: the class itself fails
        return _UNREADABLE


def enum_members(
    node: ast.ClassDef,
    resolve: Resolve,
    is_auto: Callable[[ast.expr], bool] | None = None,
    auto_value: AutoValue | None = None,
    values_out: dict[str, object] | None = None,
    convert: Callable[[object], object] | None = None,
    exprs_out: dict[str, ast.expr] | None = None,
) -> dict[str, str]:
    """Every member name (aliases too) -> the member it names, in definition order.

    The distinct values are ``tuple(m.name for m in E)``: a member whose value equals an
    earlier member's is an alias of it. ``auto()`` takes the value ``auto_value`` computes
    (``is_auto`` tells the call); values the source does not let us read (other calls)
    are taken to be distinct. ``convert`` is what the enum's data type does to a value
    (``as_str_value`` for a ``str`` mixin). ``values_out`` receives each member's value
    as the enum holds it, ``exprs_out`` the expression it was written as.
    """
    ignore: set[str] = set()
    #: the distinct values so far -> their member (unhashable values in a list)
    by_value: dict[object, str] = {}
    unhashable: list[tuple[object, str]] = []
    assigned: list[object] = []
    names: dict[str, str] = {}
    for stmt in node.body:
        targets: list[ast.expr]
        if isinstance(stmt, ast.Assign):
            targets, value = stmt.targets, stmt.value
        elif isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
            targets, value = [stmt.target], stmt.value
        else:
            continue
        for target in targets:
            if not isinstance(target, ast.Name):
                continue
            name = target.id
            if name == "_ignore_":
                items = value.elts if isinstance(value, (ast.List, ast.Tuple)) else [value]
                for item in items:
                    read = read_constant(item, resolve)
                    if isinstance(read, str):
                        ignore.update(read.replace(",", " ").split())
                continue
            if name in ignore or (name.startswith("__") and name.endswith("__")):
                continue
            if len(name) > 2 and name.startswith("_") and name.endswith("_") and name[1] != "_":
                continue
            if name.startswith(f"_{node.name.lstrip('_')}__"):
                continue
            if _is_descriptor_value(value):
                continue
            if isinstance(value, ast.Call) and is_auto is not None and is_auto(value.func):
                read = auto_value(name, assigned) if auto_value is not None and not value.args else _UNREADABLE
            else:
                read = read_constant(value, resolve)
            assigned.append(read)  # auto() sees the values as written, before the data type
            if isinstance(read, (Opaque, Unreadable)):
                if isinstance(value, ast.Tuple):
                    elts = [read_constant(e, resolve) for e in value.elts]
                    if not any(isinstance(e, (Opaque, Unreadable)) for e in elts):
                        read = tuple(elts)
            if convert is not None:
                read = convert(read)
            if values_out is not None:
                values_out[name] = read
            if exprs_out is not None:
                exprs_out[name] = value
            canonical = _earlier_equal(read, by_value, unhashable)
            if canonical is not None:
                names[name] = canonical
                continue
            names[name] = name
            if not isinstance(read, (Opaque, Unreadable)):
                try:
                    by_value.setdefault(read, name)
                except TypeError:
                    unhashable.append((read, name))
    return names


def _earlier_equal(read: object, by_value: dict[object, str], unhashable: list[tuple[object, str]]) -> str | None:
    """The first member whose value equals ``read`` (an alias's canonical member), found as
    ``Enum`` finds it: by hash, else (an unhashable value) by comparing with each."""
    if isinstance(read, (Opaque, Unreadable)):
        return None
    try:
        return by_value.get(read)
    except TypeError:
        return next((m for seen, m in unhashable if _same_value(read, seen)), None)


def _same_value(a: object, b: object) -> bool:
    if isinstance(a, (Opaque, Unreadable)) or isinstance(b, (Opaque, Unreadable)):
        return False
    try:
        return bool(a == b)
    except Exception:  # pragma: no cover - values are literals
        return False


class EnumFront(Protocol):
    """What the reader asks of the name resolver (``names.NameResolver``): sources, and names
    resolved where they are written."""

    def source(self, module: str) -> ModuleSource | None: ...

    def class_ast(self, info: TypeInfo) -> tuple[ModuleSource, ast.ClassDef] | None: ...

    def class_resolver(self, info: TypeInfo) -> Resolve:
        """Resolves a name written in the class's body (its own names first)."""
        ...

    def module_resolver(self, module: str) -> Resolve:
        """Resolves a name written at the module's top level."""
        ...

    def module_fullname(self, expr: ast.expr, module: str) -> str | None:
        """The full name a name written at the module's top level refers to."""
        ...

    def bindings_of(self, module: str, name: str) -> list[Binding]:
        """The statements that bind ``name`` at the module's top level."""
        ...


class EnumReader:
    """One front end's enums, each read once: its members, aliases, values and node."""

    # The front end is passed to each call rather than held: the front end holds this
    # reader, and a cycle between them would leave each hook's front end to the collector.
    def __init__(self) -> None:
        self._names: dict[str, dict[str, str]] = {}
        self._values: dict[str, dict[str, object]] = {}
        self._exprs: dict[str, dict[str, ast.expr]] = {}
        self._nodes: dict[str, EnumType] = {}

    def value(self, front: EnumFront, info: TypeInfo, member: str) -> Resolution:
        """An enum member as a value: written as the member it names (an alias's canonical one)."""
        canonical = self.names(front, info).get(member)
        if canonical is None:
            return None
        value = self._values.get(info.fullname, {}).get(canonical, Unreadable())
        shown = None if isinstance(value, (Opaque, Unreadable)) else repr(value)
        node = self.node(front, info)
        wire = None if node.values is None else node.values[node.members.index(canonical)]
        return EnumValue(info.name, canonical, shown, wire)

    def members(self, front: EnumFront, info: TypeInfo) -> tuple[str, ...]:
        """The members in definition order, aliases left out (``tuple(m.name for m in E)``)."""
        return tuple(dict.fromkeys(self.names(front, info).values()))

    def node(self, front: EnumFront, info: TypeInfo) -> EnumType:
        """An enum's node: by value when every member's value, as the enum holds it, is a
        ``str`` computed from the source; by name when one is surely not; else the wire form
        is not known (OLT014, with the member whose value cannot be computed)."""
        cached = self._nodes.get(info.fullname)
        if cached is not None:
            return cached
        members = self.members(front, info)
        is_flag = any(c.fullname == "enum.Flag" for c in info.mro)
        node = EnumType(info.name, members, is_flag)
        data = _enum_data_type(info)
        values = self._values.get(info.fullname)
        if data == "custom":
            node = EnumType(info.name, members, is_flag, not_computed=_ENUM_NEW.format(name=info.name))
        elif data != "other" and values is None:
            node = EnumType(info.name, members, is_flag, not_computed=_ENUM_NO_SOURCE.format(name=info.name))
        elif data != "other" and values is not None:
            read = [values.get(m, Unreadable()) for m in members]
            if all(type(v) is str for v in read):
                node = EnumType(info.name, members, is_flag, cast("tuple[str, ...]", tuple(read)))
            elif not any(type(v) is not str and not isinstance(v, Unreadable) for v in read):
                member = next(m for m, v in zip(members, read) if isinstance(v, Unreadable))
                expr = self._exprs.get(info.fullname, {}).get(member)
                shown = _shorten(ast.unparse(expr)) if expr is not None else "?"
                text = _ENUM_NOT_COMPUTED.format(name=info.name, member=member, expr=shown)
                node = EnumType(info.name, members, is_flag, not_computed=text)
        self._nodes[info.fullname] = node
        return node

    def names(self, front: EnumFront, info: TypeInfo) -> dict[str, str]:
        """Every member name, aliases too, -> the member it names."""
        cached = self._names.get(info.fullname)
        if cached is not None:
            return cached
        found = front.class_ast(info)
        in_class = True
        if found is None:
            found = self._functional(front, info)
            in_class = False
        if found is not None:
            resolve = front.class_resolver(info) if in_class else front.module_resolver(info.module_name)

            def is_auto(expr: ast.expr) -> bool:
                return expr is _FUNCTIONAL_AUTO.func or front.module_fullname(expr, info.module_name) == "enum.auto"

            values: dict[str, object] = {}
            exprs: dict[str, ast.expr] = {}
            convert = as_str_value if _enum_data_type(info) == "str" else None
            names = enum_members(found[1], resolve, is_auto, self._auto_value(front, info), values, convert, exprs)
            self._values[info.fullname] = values
            self._exprs[info.fullname] = exprs
        else:
            names = {
                name: name
                for name, sym in info.names.items()
                if isinstance(sym.node, Var) and not name.startswith("__") and not sym.node.is_property
            }
        self._names[info.fullname] = names
        return names

    def _functional(self, front: EnumFront, info: TypeInfo) -> tuple[ModuleSource, ast.ClassDef] | None:
        """A module-level ``E = Enum("E", names)`` read as the class body it stands for
        (``NAME = auto()`` per name, ``NAME = value`` per pair), or None when its names
        are not literals or a ``type=`` mixin changes its values."""
        ms = front.source(info.module_name)
        if ms is None or info.fullname != f"{info.module_name}.{info.name}":
            return None
        bindings = front.bindings_of(info.module_name, info.name)
        call = bindings[0].value if len(bindings) == 1 else None
        if not isinstance(call, ast.Call) or any(k.arg == "type" for k in call.keywords):
            return None
        names = call.args[1] if len(call.args) > 1 else next((k.value for k in call.keywords if k.arg == "names"), None)
        pairs: list[tuple[str, ast.expr]] = []
        if isinstance(names, ast.Constant) and isinstance(names.value, str):
            pairs = [(n, _FUNCTIONAL_AUTO) for n in names.value.replace(",", " ").split()]
        elif isinstance(names, (ast.List, ast.Tuple)):
            for item in names.elts:
                if isinstance(item, ast.Constant) and isinstance(item.value, str):
                    pairs.append((item.value, _FUNCTIONAL_AUTO))
                elif isinstance(item, (ast.List, ast.Tuple)) and len(item.elts) == 2:
                    key = item.elts[0]
                    if not (isinstance(key, ast.Constant) and isinstance(key.value, str)):
                        return None
                    pairs.append((key.value, item.elts[1]))
                else:
                    return None
        elif isinstance(names, ast.Dict):
            for k, v in zip(names.keys, names.values):
                if not (isinstance(k, ast.Constant) and isinstance(k.value, str)):
                    return None
                pairs.append((k.value, v))
        else:
            return None
        body: list[ast.stmt] = [ast.Assign([ast.Name(n, ast.Store())], v, lineno=0) for n, v in pairs]
        return ms, ast.ClassDef(info.name, [], [], body, [])

    def _auto_value(self, front: EnumFront, info: TypeInfo) -> AutoValue | None:
        """What ``auto()`` gives in this enum (``Enum._generate_next_value_`` and kin), if known."""
        stdlib = {"enum.Enum", "enum.IntEnum", "enum.StrEnum", "enum.Flag", "enum.IntFlag", "enum.ReprEnum"}
        for c in info.mro:
            if c.fullname not in stdlib and "_generate_next_value_" in c.names:
                return self._own_auto_value(front, c)  # a generator of the user's: known only when it returns the name
        names = {c.fullname for c in info.mro}
        if "enum.StrEnum" in names:
            return lambda name, assigned: name.lower()
        flag = "enum.Flag" in names
        # ``assigned`` only grows, one value per member: what has been seen of it is kept, so a
        # class of n members costs n steps, not n * n.
        read = 0  # how many of ``assigned`` have been looked at
        all_ints = True
        largest = 0

        def numeric(name: str, assigned: list[object]) -> object:
            nonlocal read, all_ints, largest
            if not assigned:
                return 1
            for v in assigned[read:]:
                if type(v) is not int:
                    all_ints = False
                elif read == 0 or v > largest:
                    largest = v
                read += 1
            if not all_ints:
                return Unreadable()
            if flag:
                return 2 ** largest.bit_length()
            # Enum: the last value plus one (the largest plus one from Python 3.13).
            last = assigned[-1]
            assert isinstance(last, int)
            return (largest if sys.version_info >= (3, 13) else last) + 1

        return numeric

    def _own_auto_value(self, front: EnumFront, cls: TypeInfo) -> AutoValue | None:
        """A ``_generate_next_value_`` whose body is ``return name`` (or ``name.lower()`` /
        ``name.upper()``): what it gives; None for any other body, whose values are unknown."""
        found = front.class_ast(cls)
        if found is None:
            return None
        fn = next(
            (
                st
                for st in found[1].body
                if isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef)) and st.name == "_generate_next_value_"
            ),
            None,
        )
        if fn is None or not fn.args.args:
            return None
        body = fn.body[1:] if ast.get_docstring(fn) is not None else fn.body
        first = fn.args.args[0].arg
        if len(body) != 1 or not isinstance(body[0], ast.Return) or body[0].value is None:
            return None
        value = body[0].value
        if isinstance(value, ast.Name) and value.id == first:
            return lambda name, assigned: name
        if (
            isinstance(value, ast.Call)
            and not value.args
            and not value.keywords
            and isinstance(value.func, ast.Attribute)
            and isinstance(value.func.value, ast.Name)
            and value.func.value.id == first
            and value.func.attr in ("lower", "upper")
        ):
            upper = value.func.attr == "upper"
            return (lambda name, assigned: name.upper()) if upper else (lambda name, assigned: name.lower())
        return None


#: The value of each name of a functional ``Enum("E", "A B")``: an ``auto()`` (its identity tells it).
_FUNCTIONAL_AUTO = ast.Call(ast.Name("auto", ast.Load()), [], [])

#: The standard library's enum classes: no data type, no ``__new__`` of the user's.
_STDLIB_ENUMS = frozenset({"enum.Enum", "enum.IntEnum", "enum.StrEnum", "enum.Flag", "enum.IntFlag", "enum.ReprEnum"})

_ENUM_NOT_COMPUTED = (
    "the value of enum member '{name}.{member}', {expr}, cannot be computed from the source, so whether "
    "'{name}' is written by value or by name could differ from the runtime's; "
    "use a string literal or a module or class constant"
)
_ENUM_NEW = (
    "enum '{name}' sets its members' values in __new__, which cannot be computed from the source, so whether "
    "it is written by value or by name could differ from the runtime's; "
    "give its members their values in the class body"
)
_ENUM_NO_SOURCE = (
    "the members of enum '{name}' are not given in a class body or as literals, so their values cannot be "
    "computed from the source, and whether it is written by value or by name could differ from the runtime's"
)


def _enum_data_type(info: TypeInfo) -> Literal["str", "other", "none", "custom"]:
    """What makes an enum's member values, read off its MRO as ``Enum`` finds its data type:
    ``"str"`` (a ``str`` mixin, ``StrEnum``: every value becomes a string), ``"other"``
    (``int``, ``float``, ...: no value is a string), ``"none"`` (a plain ``Enum``: the values
    as written), ``"custom"`` (a ``__new__`` of the user's sets them)."""
    for c in info.mro:
        name = c.fullname
        if name in _STDLIB_ENUMS or name == "builtins.object":
            continue
        if name == "builtins.str":
            return "str"
        if name.startswith("builtins."):
            return "other"
        if "__new__" in c.names:
            return "custom"
    return "none"


def _shorten(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
