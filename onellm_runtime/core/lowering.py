"""The one lowering: forms (``core.forms``) -> model nodes (``core.model``).

Both front ends evaluate an annotation into a form and hand it here, so every decision
taken after evaluation (which class is an array, a map, a record, which is unsupported and
why) is made once. What only a front end can tell about a class (its record kind and
fields, its enum members, a NewType's supertype, ...) it answers through ``FrontEnd``.
"""

from __future__ import annotations

from typing import Literal, Protocol

from . import foreign, rules
from .forms import (
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
    NodeMeta,
)
from .model import (
    MAX_RECORD_DEPTH,
    Annotated,
    ArrayType,
    EnumType,
    JsonType,
    LiteralType,
    MapType,
    Marker,
    NotARecord,
    Nullable,
    Record,
    RecordKind,
    SelfReference,
    TypeNode,
    TypeVarRef,
    UnionType,
    Unsupported,
)

__all__ = ["CannotLower", "FrontEnd", "Lowering", "Subst", "ARRAYS", "BARE", "form_repr", "returned"]


class CannotLower(Exception):
    """A shape the lowering does not understand: report nothing rather than something wrong."""


#: A record's type arguments: type variable full name -> the form written for it.
Subst = dict[str, Form]

# The tables below name each class as the runtime does (``collections.abc.Sequence``) and, where
# typeshed defines it elsewhere, as mypy does (``typing.Sequence``): one row per class either way.

#: Classes whose parameterisation is a homogeneous array, with the container they bind to.
ARRAYS: dict[str, Literal["list", "set", "frozenset"]] = {
    "builtins.list": "list",
    "collections.abc.Sequence": "list",
    "typing.Sequence": "list",
    "collections.abc.MutableSequence": "list",
    "typing.MutableSequence": "list",
    "collections.abc.Iterable": "list",
    "typing.Iterable": "list",
    "collections.abc.Collection": "list",
    "typing.Collection": "list",
    "builtins.set": "set",
    "collections.abc.Set": "set",
    "typing.AbstractSet": "set",
    "collections.abc.MutableSet": "set",
    "typing.MutableSet": "set",
    "builtins.frozenset": "frozenset",
}
#: Classes whose parameterisation ``[str, T]`` is a map.
_MAPS = frozenset(
    {
        "builtins.dict",
        "collections.abc.Mapping",
        "typing.Mapping",
        "collections.abc.MutableMapping",
        "typing.MutableMapping",
    }
)
_TUPLE = "builtins.tuple"
#: The classes above, met without type arguments.
BARE = frozenset(ARRAYS) | _MAPS | {_TUPLE}
_CALLABLES = frozenset({"collections.abc.Callable", "typing.Callable"})
#: Parameters and returns of these classes are read by ``lower_function``; as a type they are nothing.
_SPECIAL_CLASSES = frozenset(
    f"onellm_runtime.{name}"
    for name in (
        "context.ToolContext",
        "context.CancellationToken",
        "results.TextPart",
        "results.JsonPart",
        "results.ImagePart",
        "results.FilePart",
        "results.ToolResult",
    )
)
#: Modules whose other classes are the standard library's own collections and kin.
_LIBRARY_MODULES = frozenset({"builtins", "collections", "collections.abc", "typing"})


class FrontEnd(Protocol):
    """What only the front end that evaluated a form can tell about the classes it names."""

    def known(self, cls: FClass) -> TypeNode | None:
        """A node the front end already holds for the class: a scalar type's (the contract's
        Types table), or one it lowered before and kept (an enum, or a record that is acyclic
        and within the depth limit, so the same wherever it is met); None otherwise."""
        ...

    def enum(self, cls: FClass) -> EnumType | None:
        """An ``Enum`` subclass's node (members in definition order); None for other classes."""
        ...

    def record_kind(self, cls: FClass) -> RecordKind | None: ...

    def model_feature(self, cls: FClass) -> str:
        """For a pydantic ``BaseModel`` record: what makes its written form differ from its
        fields (``"computed_field 'total'"``, OLT005), "" when nothing does."""
        ...

    def record_params(self, cls: FClass) -> tuple[str, ...]:
        """A generic record's type variables (full names), in the order its arguments bind them."""
        ...

    def is_protocol(self, cls: FClass) -> bool:
        """A ``Protocol`` or an abstract class (one with abstract methods)."""
        ...

    def is_metaclass(self, cls: FClass) -> bool:
        """A subclass of ``type``."""
        ...

    def supertype(self, newtype: FNewType) -> Form:
        """What a ``NewType`` was made from, evaluated where it was made."""
        ...

    def cached_record(self, cls: FClass, subst: Subst) -> Record | None:
        """A record lowered before with these type arguments (``cache_record``), if kept."""
        ...

    def read_record(self, lowering: Lowering, cls: FClass) -> tuple[Record, object]:
        """Read a record's fields and lower each with ``lowering``; also something for ``cache_record``."""
        ...

    def cache_record(self, cls: FClass, subst: Subst, record: Record, read: object) -> None:
        """Keep a record that is right under any enclosing records (acyclic, within the depth)."""
        ...


#: ``Any`` where a return annotation writes it: any JSON value, written by the value's own type.
_ANY_RETURNED = JsonType("value", own_type=True)


def returned(node: TypeNode) -> TypeNode:
    """A return type's node with each ``Any`` written in the annotation itself (alone, in a
    container, under ``Optional`` or ``Annotated``) read as ``JsonValue``: a result needs no
    schema for a model to fill. A record's fields are its class's, not the annotation's, and
    stay as they are; a node without ``Any`` is returned as it is."""
    if isinstance(node, Unsupported):
        return _ANY_RETURNED if node.reason == "any" else node
    if isinstance(node, Annotated):
        inner = returned(node.inner)
        return node if inner is node.inner else Annotated(inner, node.markers)
    if isinstance(node, Nullable):
        inner = returned(node.inner)
        return node if inner is node.inner else Nullable(inner)
    if isinstance(node, ArrayType):
        item = returned(node.item)
        return node if item is node.item else ArrayType(item, node.kind)
    if isinstance(node, MapType):
        value = returned(node.value)
        return node if value is node.value else MapType(value)
    if isinstance(node, UnionType):
        members = tuple(returned(m) for m in node.members)
        return node if all(a is b for a, b in zip(members, node.members)) else UnionType(members)
    return node


def form_repr(form: Form) -> str:
    """Roughly ``repr()`` of the typing object a form stands for (``type[int]``), for messages."""
    if isinstance(form, FGeneric):
        head = form.spelled or form.origin.name
        return f"{head}[{', '.join(form_repr(a) for a in form.args)}]"
    if isinstance(form, (FClass, FNewType)):
        module, _, name = form.fullname.rpartition(".")
        return name if module == "builtins" else form.fullname
    if isinstance(form, FNone):
        return "None"
    if isinstance(form, FAny):
        return "typing.Any"
    if isinstance(form, FTypeVar):
        return f"~{form.name}"
    if isinstance(form, FOther):
        return form.name
    return type(form).__name__


class Lowering:
    """One lowering pass: the records being entered (OLT006) and their type arguments."""

    def __init__(self, front: FrontEnd, max_depth: int | None = None) -> None:
        self.front = front
        #: How deep forms may nest before ``CannotLower`` (None: as deep as the stack allows).
        self.max_depth = max_depth
        self.stack: list[str] = []
        self.subst: Subst = {}
        self.depth: int = 0
        #: The depth limit was met: where it cuts depends on the way in, so nothing enclosing
        #: the cut is to be remembered as the lowering of its form alone.
        self.cut: bool = False

    def lower(self, f: Form) -> TypeNode:
        self.depth += 1
        if self.max_depth is not None and self.depth > self.max_depth:
            raise CannotLower("type nests too deeply")
        try:
            return self._lower(f)
        finally:
            self.depth -= 1

    def _lower(self, f: Form) -> TypeNode:
        if isinstance(f, FClass):
            if f.fullname == "builtins.object":
                return Unsupported("object")
            if f.fullname in foreign.FULLNAMES:  # the runtime's handle is the class object itself
                found = foreign.node_for(f.fullname, f.handle if isinstance(f.handle, type) else None)
                if found is not None:
                    return found
            known = self.front.known(f)
            if known is not None:
                return known
            return self._class(f)
        if isinstance(f, FGeneric):
            return self._generic(f)
        if isinstance(f, FUnresolved):
            return Unsupported("syntax" if f.syntax else "unresolved", f.name)
        if isinstance(f, FNone):
            return Unsupported("none")
        if isinstance(f, FAny):
            return Unsupported("any")
        if isinstance(f, FTypeVar):
            if f.fullname in self.subst:
                return self.lower(self.subst[f.fullname])
            return TypeVarRef(f.name)
        if isinstance(f, FNewType):
            return self.lower(self.front.supertype(f))
        if isinstance(f, FAnnotated):
            return self._annotated(f)
        if isinstance(f, FUnion):
            return self._union(f)
        if isinstance(f, FLiteral):
            return self._literal(f)
        if isinstance(f, FCallable):
            return Unsupported("callable")
        if isinstance(f, FBare):
            return Unsupported("bare", f.name)
        if isinstance(f, FEllipsis):
            return Unsupported("other", "Ellipsis")
        return Unsupported("other", f.name)  # FOther

    def _annotated(self, f: FAnnotated) -> TypeNode:
        markers: list[Marker] = []
        node: TypeNode | None = None
        for meta in f.metadata:
            if isinstance(meta, NodeMeta):
                node = meta.node
            else:
                markers.append(meta)
        if node is None:
            node = self.lower(f.base)
        if isinstance(node, Annotated):  # Annotated flattened through a NewType or alias
            markers = [*node.markers, *markers]
            node = node.inner
        return Annotated(node, tuple(markers)) if markers else node

    def _union(self, f: FUnion) -> TypeNode:
        nullable = any(isinstance(a, FNone) for a in f.args)
        members = [self.lower(a) for a in f.args if not isinstance(a, FNone)]
        if not members:
            return Unsupported("none")
        node: TypeNode = members[0] if len(members) == 1 else UnionType(tuple(members))
        return Nullable(node) if nullable else node

    def _literal(self, f: FLiteral) -> TypeNode:
        values: list[str | int | bool] = []
        nullable = False
        for v in f.values:
            if v.kind == "NoneType":
                nullable = True
            elif v.kind in ("str", "int", "bool"):
                assert isinstance(v.value, (str, int, bool))
                values.append(v.value)
            else:
                return Unsupported("other", f"Literal[{v.text}]")
        if not values:
            return Unsupported("none")
        node = LiteralType(tuple(values))
        return Nullable(node) if nullable else node

    def _generic(self, f: FGeneric) -> TypeNode:
        origin, args = f.origin, f.args
        fullname = origin.fullname
        if fullname == "builtins.type" and args:  # type[X]: a class object, not a collection
            return Unsupported("other", form_repr(f))
        if not args:
            return Unsupported("bare", origin.name)
        array = ARRAYS.get(fullname)
        if array is not None:
            return ArrayType(self.lower(args[0]), array)
        if fullname == _TUPLE:
            if len(args) == 2 and isinstance(args[1], FEllipsis):
                return ArrayType(self.lower(args[0]), "tuple")
            return Unsupported("fixed_tuple")
        if fullname in _MAPS:
            key = args[0]
            while isinstance(key, FNewType):
                key = self.front.supertype(key)
            if not (isinstance(key, FClass) and key.fullname == "builtins.str"):
                return Unsupported("dict_key")
            if len(args) < 2:
                raise CannotLower("a mapping with one type argument")
            return MapType(self.lower(args[1]))
        if fullname in _CALLABLES:
            return Unsupported("callable")
        kind = self.front.record_kind(origin)
        if kind is not None:
            feature = self.front.model_feature(origin) if kind == "basemodel" else ""
            if feature:
                return NotARecord(origin.name, feature=feature)
            params = self.front.record_params(origin)
            return self._record(origin, dict(zip(params, (self._subst(a) for a in args))))
        return Unsupported("collection", origin.name)

    def _subst(self, arg: Form) -> Form:
        if isinstance(arg, FTypeVar):
            return self.subst.get(arg.fullname, arg)
        return arg

    def _class(self, cls: FClass) -> TypeNode:
        enum = self.front.enum(cls)
        if enum is not None:
            return enum
        fullname = cls.fullname
        if fullname in BARE:
            return Unsupported("bare", cls.name)
        kind = self.front.record_kind(cls)
        if kind is not None:
            feature = self.front.model_feature(cls) if kind == "basemodel" else ""
            return NotARecord(cls.name, feature=feature) if feature else self._record(cls, {})
        if self.front.is_protocol(cls):
            return Unsupported("protocol", cls.name)
        if fullname in _SPECIAL_CLASSES:
            return Unsupported("other", cls.name)
        if self.front.is_metaclass(cls) or cls.module in _LIBRARY_MODULES:
            return Unsupported("collection" if cls.module != "builtins" else "other", cls.name)
        return NotARecord(cls.name, cls.module)

    def _record(self, cls: FClass, subst: Subst) -> TypeNode:
        if cls.fullname in self.stack:
            return SelfReference(cls.name)
        if len(self.stack) > MAX_RECORD_DEPTH:  # reported by the checker (rules.record_depth)
            self.cut = True
            return Unsupported("too_deep", str(MAX_RECORD_DEPTH))
        cached = self.front.cached_record(cls, subst)
        if cached is not None:  # kept records are acyclic, so right under any stack
            return cached
        self.stack.append(cls.fullname)
        outer_subst, outer_cut = self.subst, self.cut
        self.subst, self.cut = subst, False
        try:
            record, read = self.front.read_record(self, cls)
        finally:
            cut = self.cut
            self.subst, self.cut = outer_subst, outer_cut or cut
            self.stack.pop()
        if not cut and not rules.contains_self_reference(record) and rules.record_depth(record) <= MAX_RECORD_DEPTH:
            self.front.cache_record(cls, subst, record, read)
        return record
