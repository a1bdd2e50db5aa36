"""The static front end's records, and its answers to the lowering's questions about classes.

``Classes`` is what ``core.lowering.Lowering`` asks (``core.lowering.FrontEnd``) when a form
names a class: its record kind and fields (dataclass, NamedTuple, TypedDict: defaults,
docstrings, hashability, as ``front/records.py`` reads them at runtime), enum members, a
NewType's supertype. Records are read from the source where it is available, from mypy's
symbols otherwise, and kept in the build's ``RecordMemo`` with the modules each read.
"""

from __future__ import annotations

import ast

from mypy.nodes import SymbolTableNode, TypeInfo
from mypy.types import Type

from onellm_runtime.core import rules
from onellm_runtime.core.fielddefaults import annotated_default, field_default, stored_field, with_markers
from onellm_runtime.core.forms import FClass, FNewType, Form
from onellm_runtime.core.lowering import Lowering, Subst
from onellm_runtime.core.model import (
    NO_DEFAULT,
    OPAQUE_DEFAULT,
    Default,
    EnumType,
    Record,
    RecordField,
    RecordKind,
    Scalar,
    TypeNode,
)
from onellm_runtime.core.scalars import BY_FULLNAME

from . import models
from . import source as src
from .mypy_front import Frontend, NeedMypy
from .names import Scope, attribute_type
from .source import ModuleSource

__all__ = ["Classes", "lower_form", "settle"]

#: How deep a tool's types may nest before the tool is left unreported (``CannotLower``).
_MAX_DEPTH = 200
_FIELD_FUNCS = frozenset({"dataclasses.field"})
_DATACLASS_DECORATORS = frozenset({"dataclasses.dataclass", "pydantic.dataclasses.dataclass"})


def lower_form(fe: Frontend, form: Form) -> TypeNode:
    """Lower one evaluated annotation of a tool (a parameter's or the return's)."""
    return Lowering(Classes(fe), max_depth=_MAX_DEPTH).lower(form)


def _info(cls: FClass | FNewType) -> TypeInfo:
    info = cls.handle
    assert isinstance(info, TypeInfo)
    return info


class Classes:
    """``core.lowering.FrontEnd`` over mypy's symbols and the sources of one front end."""

    def __init__(self, fe: Frontend) -> None:
        self.fe = fe

    def known(self, cls: FClass) -> TypeNode | None:
        """A scalar's node; records and enums are lowered each time (the memo is the record's)."""
        kind = BY_FULLNAME.get(cls.fullname)  # the rows of core.scalars
        return Scalar(kind) if kind is not None else None

    def enum(self, cls: FClass) -> EnumType | None:
        info = _info(cls)
        if not info.is_enum:
            return None
        return self.fe.enums.node(self.fe, info)

    def record_kind(self, cls: FClass) -> RecordKind | None:
        return record_kind(self.fe, _info(cls))

    def model_feature(self, cls: FClass) -> str:
        return models.model_feature(self.fe, _info(cls))

    def record_params(self, cls: FClass) -> tuple[str, ...]:
        info = _info(cls)
        if info.defn.type_vars:
            return tuple(tv.fullname for tv in info.defn.type_vars)
        return tuple(f"{info.fullname}.{n}" for n in info.type_vars)

    def is_protocol(self, cls: FClass) -> bool:
        info = _info(cls)
        return info.is_protocol or info.is_abstract

    def is_metaclass(self, cls: FClass) -> bool:
        return any(c.fullname == "builtins.type" for c in _info(cls).mro)

    def supertype(self, newtype: FNewType) -> Form:
        return self.fe.newtype_supertype(newtype)

    def cached_record(self, cls: FClass, subst: Subst) -> Record | None:
        cached = self.fe.memo.records.get((cls.fullname, tuple(subst.items())))
        if cached is None:
            return None
        self.fe.note_read(cached[1])
        return cached[0]

    def read_record(self, lowering: Lowering, cls: FClass) -> tuple[Record, object]:
        read: set[str] = set()
        self.fe.reading.append(read)
        try:
            record = _read_record(self.fe, lowering, _info(cls))
        finally:
            self.fe.reading.pop()
        self.fe.note_read(read)
        return record, frozenset(read)

    def cache_record(self, cls: FClass, subst: Subst, record: Record, read: object) -> None:
        assert isinstance(read, frozenset)
        self.fe.memo.records[(cls.fullname, tuple(subst.items()))] = (record, read)


def record_kind(fe: Frontend, info: TypeInfo) -> RecordKind | None:
    key = info.fullname
    if key not in fe.record_kinds:
        fe.record_kinds[key] = _record_kind_of(fe, info)
    return fe.record_kinds[key]


def is_dataclass_class(fe: Frontend, info: TypeInfo) -> bool:
    key = info.fullname
    if key not in fe.dataclass_classes:
        fe.dataclass_classes[key] = _read_is_dataclass_class(fe, info)
    return fe.dataclass_classes[key]


def _read_is_dataclass_class(fe: Frontend, info: TypeInfo) -> bool:
    """Has mypy's dataclass metadata from ``@dataclass`` itself (not a ``dataclass_transform``)."""
    if "dataclass" not in info.metadata:
        return False
    found = fe.class_ast(info)
    if found is None:
        return True
    return any(name in _DATACLASS_DECORATORS for name in fe.decorator_names(found[1], Scope(info.module_name)))


def _record_kind_of(fe: Frontend, info: TypeInfo) -> RecordKind | None:
    for c in info.mro:
        if is_dataclass_class(fe, c):
            return "dataclass"
    if info.typeddict_type is not None:
        return "typeddict"
    if info.tuple_type is not None and any("namedtuple" in c.metadata for c in info.mro):
        return "namedtuple"
    if models.is_basemodel(info):
        return "basemodel"
    return None


def _bases(fe: Frontend, info: TypeInfo) -> list[TypeInfo]:
    """The class's bases as written (``__orig_bases__``), resolved; mypy's bases without source."""
    found = fe.class_ast(info)
    if found is None:
        return [b.type for b in info.bases]
    out: list[TypeInfo] = []
    scope = Scope(info.module_name)
    for base in found[1].bases:
        target = base.value if isinstance(base, ast.Subscript) else base
        sym = fe.lookup(target, scope)
        if isinstance(sym, SymbolTableNode) and isinstance(sym.node, TypeInfo):
            out.append(sym.node)
    return out


def _typeddict_keys(fe: Frontend, info: TypeInfo, depth: int = 0) -> list[str]:
    """A TypedDict's keys in the runtime's order: its bases' keys (the first base's first, each in
    its own such order), then its own. mypy lists a later base's keys first."""
    td = info.typeddict_type
    assert td is not None
    order: dict[str, None] = {}
    if depth < 50:
        for base in _bases(fe, info):
            if base.typeddict_type is not None:
                order.update(dict.fromkeys(k for k in _typeddict_keys(fe, base, depth + 1) if k not in order))
    order.update(dict.fromkeys(k for k in td.items if k not in order))
    return [k for k in order if k in td.items]


def _field_site(fe: Frontend, info: TypeInfo, name: str) -> tuple[ast.AnnAssign, TypeInfo, ModuleSource] | None:
    """The ``name: T = ...`` statement that declares a record field: the class first, then its bases."""
    seen: set[str] = set()
    order: list[TypeInfo] = [info]
    while order:
        c = order.pop(0)
        if c.fullname in seen:
            continue
        seen.add(c.fullname)
        found = fe.class_ast(c)
        if found is not None:
            for stmt in found[1].body:
                if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name) and stmt.target.id == name:
                    return stmt, c, found[0]
        order.extend(_bases(fe, c))
        order.extend(m for m in c.mro[1:] if m.fullname not in seen)
    return None


def _record_docstrings(fe: Frontend, info: TypeInfo) -> tuple[str, ...]:
    docs: list[str] = []
    seen: set[str] = set()

    def visit(c: TypeInfo) -> None:
        if c.fullname in seen or c.fullname in ("builtins.object", "builtins.tuple", "builtins.dict"):
            return
        seen.add(c.fullname)
        found = fe.class_ast(c)
        if found is not None:
            doc = src.docstring(found[1])
            if doc is not None:
                docs.append(doc)
        for base in _bases(fe, c):
            if _record_kind_of(fe, base) is not None:
                visit(base)

    visit(info)
    return tuple(docs)


def _explicit_hash(fe: Frontend, info: TypeInfo) -> bool | None:
    """A ``__hash__`` the class body sets itself: True (a method), False (``= None``), None (none)."""
    found = fe.class_ast(info)
    if found is None:
        return None
    for stmt in found[1].body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)) and stmt.name == "__hash__":
            return True
        if isinstance(stmt, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__hash__" for t in stmt.targets):
            return not (isinstance(stmt.value, ast.Constant) and stmt.value.value is None)
    return None


def _defines_eq(fe: Frontend, info: TypeInfo) -> bool:
    found = fe.class_ast(info)
    return found is not None and any(
        isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef)) and s.name == "__eq__" for s in found[1].body
    )


def _hashable(fe: Frontend, info: TypeInfo, depth: int = 0) -> bool:
    """``getattr(cls, "__hash__", None) is not None``, following ``dataclasses``' hash rules; a
    dataclass declared ``eq=False`` is not hashable by value, so never a set item."""
    if depth > 50 or info.fullname == "builtins.object":
        return True
    if "dataclass" in info.metadata and is_dataclass_class(fe, info):
        eq, frozen, unsafe_hash = True, bool(info.metadata["dataclass"].get("frozen", False)), False
        found = fe.class_ast(info)
        if found is not None:
            resolve = fe.resolver(Scope(info.module_name))
            for dec in found[1].decorator_list:
                if isinstance(dec, ast.Call):
                    for kw in dec.keywords:
                        value = src.read_constant(kw.value, resolve)
                        if kw.arg == "eq" and isinstance(value, bool):
                            eq = value
                        elif kw.arg == "unsafe_hash" and isinstance(value, bool):
                            unsafe_hash = value
                        elif kw.arg == "frozen" and isinstance(value, bool):
                            frozen = value
        explicit = _explicit_hash(fe, info)
        if explicit is False and _defines_eq(fe, info):
            explicit = None  # ``__hash__ = None`` implied by ``__eq__`` is not explicit
        if not eq:
            return False  # instances equal only themselves: not hashable by value (front/records.py, _declared_eq)
        if unsafe_hash:
            return True
        if explicit is not None:
            return explicit
        return frozen
    explicit = _explicit_hash(fe, info)
    if explicit is not None:
        return explicit
    if _defines_eq(fe, info):
        return False
    return _hashable(fe, info.bases[0].type, depth + 1) if info.bases else True


def _read_record(fe: Frontend, lowering: Lowering, info: TypeInfo) -> Record:
    """A record's fields in contract order, as the runtime's ``front.records.lower_record`` reads them."""
    kind = _record_kind_of(fe, info)
    fields: list[RecordField] = []

    def field_form(name: str, fallback: Type | None) -> tuple[TypeNode, ast.AnnAssign | None, Scope]:
        site = _field_site(fe, info, name)
        if site is not None:
            stmt, owner, ms = site
            scope = Scope(owner.module_name, owner, ms.lazy, True)
            try:
                return lowering.lower(fe.evaluate(stmt.annotation, scope)), stmt, scope
            except NeedMypy:
                pass
            return lowering.lower(fe.from_mypy(fallback)), stmt, scope
        return lowering.lower(fe.from_mypy(fallback)), None, Scope(info.module_name, info, False, True)

    if kind == "dataclass":
        holder = next(c for c in info.mro if is_dataclass_class(fe, c))
        for attr in holder.metadata["dataclass"]["attributes"]:
            if attr.get("is_init_var") or not attr.get("is_in_init", True) or attr.get("type") == "dataclasses.KW_ONLY":
                continue  # dataclasses.fields() leaves out InitVar pseudo-fields and the KW_ONLY marker
            name = attr["name"]
            node, stmt, scope = field_form(name, attribute_type(holder, name))
            has_default = bool(attr.get("has_default"))
            default = NO_DEFAULT
            if has_default and _is_field_call(fe, stmt, scope) and not models.pydantic_dataclass(fe, holder):
                node, default = with_markers(node, (stored_field("dataclass"),)), OPAQUE_DEFAULT
            elif has_default:
                if stmt is not None and stmt.value is not None:

                    def is_field(expr: ast.expr, scope: Scope = scope) -> bool:
                        return fe.fullname_of(expr, Scope(scope.module, scope.cls, False, True)) in _FIELD_FUNCS

                    default = src.field_value(stmt.value, is_field, fe.resolver(scope))
                    if not default.present:
                        default = OPAQUE_DEFAULT
                else:
                    default = OPAQUE_DEFAULT
            fields.append(RecordField(name, node, not has_default, settle(default, node)))
        hashable = _hashable(fe, info)
    elif kind == "namedtuple":
        holder = next(c for c in info.mro if "namedtuple" in c.metadata)
        names: list[str] = list(holder.metadata["namedtuple"].get("fields", []))
        items = holder.tuple_type.items if holder.tuple_type is not None else []
        for i, name in enumerate(names):
            node, stmt, scope = field_form(name, items[i] if i < len(items) else None)
            default = NO_DEFAULT
            if _is_field_call(fe, stmt, scope):
                node, default = with_markers(node, (stored_field("NamedTuple"),)), OPAQUE_DEFAULT
            elif stmt is not None and stmt.value is not None:
                default = src.read_default(stmt.value, fe.resolver(scope))
            fields.append(RecordField(name, node, not default.present, settle(default, node)))
        hashable = True
    elif kind == "basemodel":
        for name in models.model_field_names(fe, info):
            node, stmt, scope = field_form(name, attribute_type(info, name))
            default = NO_DEFAULT
            value = stmt.value if stmt is not None else None
            if isinstance(value, ast.Call) and _is_field_call(fe, stmt, scope):
                reading = src.field_from_call(value, fe.resolver(scope), fe.class_namer(scope))
                node = with_markers(node, reading.markers)
                default = field_default(reading, src.default_of)
            elif value is not None:
                default = src.read_default(value, fe.resolver(scope))
            node, found, _ = annotated_default(node, value is not None, src.default_of)
            if found is not None:
                default = found
            fields.append(RecordField(name, node, not default.present, settle(default, node)))
        hashable = models.frozen(fe, info)
    else:
        td = info.typeddict_type
        assert td is not None
        for name in _typeddict_keys(fe, info):
            typ = td.items[name]
            node, _, _ = field_form(name, typ)
            fields.append(RecordField(name, node, name in td.required_keys, NO_DEFAULT))
        hashable = False
    assert kind is not None
    return Record(info.name, kind, tuple(fields), _record_docstrings(fe, info), hashable)


def _is_field_call(fe: Frontend, stmt: ast.AnnAssign | None, scope: Scope) -> bool:
    """``x: T = Field(...)``, pydantic's ``Field``."""
    value = stmt.value if stmt is not None else None
    return isinstance(value, ast.Call) and fe.fullname_of(value.func, scope) in models.FIELD_FUNCS


def settle(default: Default, node: TypeNode) -> Default:
    """An unreadable default of a type whose defaults are never written is just opaque.

    The runtime holds some value there and writes nothing; only for a writable type
    does the value matter (OLT014).
    """
    if default.state == "unreadable" and not rules.is_writable_type(node):
        return OPAQUE_DEFAULT
    return default
