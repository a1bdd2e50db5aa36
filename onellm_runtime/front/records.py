"""The runtime's records, and its answers to the lowering's questions about classes.

``Classes`` is what ``core.lowering.Lowering`` asks (``core.lowering.FrontEnd``) when a form
names a class: its record kind and fields (dataclass, NamedTuple, TypedDict, pydantic model:
defaults, docstrings, hashability), enum members, a NewType's supertype. Lowered records are
kept per class (and type arguments), bounded.
"""

from __future__ import annotations

import dataclasses
import enum
import sys
import typing
from collections.abc import Mapping
from typing import Any, cast

import typing_extensions

from ..core import fields as field_args
from ..core.caches import BoundedCache
from ..core.enums import enum_node, enum_wire, kept_enum
from ..core.fielddefaults import annotated_default, field_default, stored_field, with_markers
from ..core.forms import (
    FClass,
    FNewType,
    Form,
)
from ..core.lowering import Lowering, Subst
from ..core.model import (
    NO_DEFAULT,
    NONE_DEFAULT,
    OPAQUE_DEFAULT,
    Default,
    EnumType,
    Record,
    RecordField,
    RecordKind,
    Scalar,
    TypeNode,
    writable_number,
)
from ..core.scalars import BY_TYPE
from . import models
from .evaluation import Evaluation
from .hints import NONE_TYPE, resolved_hints, unevaluated
from .specials import ANNOTATED, NOT_REQUIRED, REQUIRED, TD_WRAPPERS

if typing.TYPE_CHECKING:
    from .sourcetext import Origin

#: One node per scalar type (the rows of ``core.scalars``), shared: nodes are immutable, and
#: the commonest annotations (``str``, ``int``) then cost a dictionary look-up.
_SCALAR_NODES: dict[object, Scalar] = {tp: Scalar(kind) for tp, kind in BY_TYPE.items()}


class Classes:
    """``core.lowering.FrontEnd`` over classes: what the runtime knows of them."""

    def __init__(self) -> None:
        self.origins: dict[tuple[int, str], Origin] = {}

    def known(self, cls: FClass) -> TypeNode | None:
        handle = cls.handle
        return _SCALAR_NODES.get(handle) or _RECORDS.get(handle) or kept_enum(handle)

    def enum(self, cls: FClass) -> EnumType | None:
        tp = cast(type, cls.handle)
        return enum_node(tp) if issubclass(tp, enum.Enum) else None

    def record_kind(self, cls: FClass) -> RecordKind | None:
        return record_kind(cast(type, cls.handle))

    def model_feature(self, cls: FClass) -> str:
        return models.model_feature(cast(type, cls.handle))

    def record_params(self, cls: FClass) -> tuple[str, ...]:
        params: tuple[typing.TypeVar, ...] = getattr(cls.handle, "__parameters__", ())
        return tuple(f"{p.__module__}.{p.__name__}" for p in params)

    def is_protocol(self, cls: FClass) -> bool:
        return bool(getattr(cls.handle, "_is_protocol", False)) or _is_abstract(cast(type, cls.handle))

    def is_metaclass(self, cls: FClass) -> bool:
        return issubclass(cast(type, cls.handle), type)

    def supertype(self, newtype: FNewType) -> Form:
        return Evaluation(self.origins, None, None, True).evaluate(getattr(newtype.handle, "__supertype__"))

    def cached_record(self, cls: FClass, subst: Subst) -> Record | None:
        return _RECORDS.get((cls.handle, tuple(subst.items())) if subst else cls.handle)

    def read_record(self, lowering: Lowering, cls: FClass) -> tuple[Record, object]:
        return lower_record(self, lowering, cast(type, cls.handle)), None

    def cache_record(self, cls: FClass, subst: Subst, record: Record, read: object) -> None:
        try:
            _RECORDS.put((cls.handle, tuple(subst.items())) if subst else cls.handle, record)
        except TypeError:  # unhashable type arguments
            pass

    def field(self, lowering: Lowering, cls: type, name: str, tp: object) -> TypeNode:
        """Lower the annotation of field ``name`` of record ``cls`` (written there)."""
        return lowering.lower(Evaluation(self.origins, (cls, name), tp, True).evaluate(tp))


_RECORDS: BoundedCache[object, Record] = BoundedCache()


def _is_abstract(tp: type) -> bool:
    return bool(getattr(tp, "__abstractmethods__", None))


def record_kind(tp: type[Any]) -> RecordKind | None:
    if dataclasses.is_dataclass(tp):
        return "dataclass"
    if typing_extensions.is_typeddict(tp) or typing.is_typeddict(tp):
        return "typeddict"
    if issubclass(tp, tuple) and all(hasattr(cast(Any, tp), a) for a in ("_fields", "__annotations__")):
        return "namedtuple"
    if models.is_basemodel(cast(type, tp)):
        return "basemodel"
    return None


def value_default(value: object) -> Default:
    if value is None:
        return NONE_DEFAULT
    if isinstance(value, enum.Enum):
        return Default.of(enum_wire(value))
    if type(value) in (str, bool):
        return Default.of(value)  # type: ignore[arg-type]
    if type(value) in (int, float):
        return Default.of(value) if writable_number(value) else OPAQUE_DEFAULT  # type: ignore[arg-type]
    return OPAQUE_DEFAULT


def _generated_doc(cls: type, doc: str) -> bool:
    """The signature line ``dataclass``/``namedtuple`` write on a class without a docstring.

    No user wrote it and the static side cannot see it, so it is not read as a docstring
    (it never holds a field entry; leaving it out keeps both front ends' models equal).
    """
    name = cls.__name__
    if not doc.startswith(name + "("):
        return False
    fields: object = getattr(cls, "_fields", None)
    if isinstance(fields, tuple):
        return doc == f"{name}({', '.join(str(f) for f in cast(tuple[object, ...], fields))})"
    if dataclasses.is_dataclass(cls):
        import inspect

        try:
            text_sig = str(inspect.signature(cls)).replace(" -> None", "")
        except (TypeError, ValueError):
            text_sig = ""
        return doc == name + text_sig
    return False


def _written_bases(cls: type) -> tuple[object, ...]:
    """A record's bases; read from its source for a ``typing.TypedDict`` subclass on Python
    3.10/3.11, which keeps no trace of them (no ``__orig_bases__``, ``__bases__`` is ``(dict,)``)."""
    bases: object = getattr(cls, "__orig_bases__", None)
    if isinstance(bases, tuple):
        return cast("tuple[object, ...]", bases)
    if sys.version_info < (3, 12) and typing.is_typeddict(cls):
        from .sourcetext import class_bases

        return class_bases(cls) or ()
    return cls.__bases__


def _record_docstrings(cls: type) -> tuple[str, ...]:
    docs: list[str] = []
    seen: set[type] = set()

    def visit(c: type) -> None:
        if c in seen or c in (object, tuple, dict):
            return
        seen.add(c)
        doc = c.__dict__.get("__doc__")
        if isinstance(doc, str) and not _generated_doc(c, doc):
            docs.append(doc)
        for base in _written_bases(c):
            base = typing.get_origin(base) or base
            if isinstance(base, type) and record_kind(base) is not None:
                visit(base)

    visit(cls)
    return tuple(docs)


class _OwnAnnotations:
    """One class's own annotations of some fields, with its module's globals, for ``resolved_hints``
    (a model's hints are read class by class: pydantic's own classes are not evaluated)."""

    def __init__(self, annotations: dict[str, Any], globalns: dict[str, Any]) -> None:
        self.__annotations__ = annotations
        self.__globals__ = globalns


def _model_hints(cls: type, model_fields: Mapping[str, Any]) -> dict[str, tuple[type, Any]]:
    """Each field's owner (the class that annotates it) and its evaluated annotation.

    pydantic has evaluated each annotation already (``_original_annotation``), in the
    namespaces it saw when the class was made (a function's locals too); one it could not
    finish is evaluated here, as any record field's, so that a missing name is retried."""
    by_owner: dict[type, dict[str, Any]] = {}
    found: dict[str, tuple[type, Any]] = {}
    for name, info in model_fields.items():
        owner = models.owner_of(cls, name)
        evaluated: object = getattr(info, "_original_annotation", NO_VALUE)
        if evaluated is not NO_VALUE and not unevaluated(evaluated):
            found[name] = (owner, NONE_TYPE if evaluated is None else evaluated)
            continue
        by_owner.setdefault(owner, {})[name] = owner.__dict__["__annotations__"][name]
    for owner, own in by_owner.items():
        module = sys.modules.get(owner.__module__)
        stand_in = _OwnAnnotations(own, dict(vars(module)) if module else {})
        for name, hint in resolved_hints(stand_in, dict(vars(owner))).items():
            found[name] = (owner, hint)
    return found


def _lower_model(classes: Classes, lowering: Lowering, cls: type) -> Record:
    """A pydantic model's ``model_fields``, each lowered where it is annotated; a ``= Field(...)``
    adds its markers to the field's type and gives its default."""
    model_fields: Mapping[str, Any] = getattr(cls, "model_fields", {})
    hints = _model_hints(cls, model_fields)
    fields: list[RecordField] = []
    for name, info in model_fields.items():
        owner, hint = hints[name]
        node = classes.field(lowering, owner, name, hint)
        value = models.assigned(info)
        if value is models.UNASSIGNED:
            default = NO_DEFAULT
        elif field_args.is_field_info(value):
            reading = field_args.read_field(field_args.field_arguments(value))
            node = with_markers(node, reading.markers)
            default = field_default(reading, value_default)
        else:
            default = value_default(value)
        node, found, _ = annotated_default(node, value is not models.UNASSIGNED, default_of)
        if found is not None:
            default = found
        fields.append(RecordField(name, node, not default.present, default))
    config: Any = getattr(cls, "model_config", {})
    hashable = config.get("frozen") is True  # a frozen model's instances hash by value
    return Record(cls.__name__, "basemodel", tuple(fields), _record_docstrings(cls), hashable, origin=cls)


def lower_record(classes: Classes, lowering: Lowering, cls: type) -> Record:
    kind = record_kind(cls)
    assert kind is not None
    if kind == "basemodel":
        return _lower_model(classes, lowering, cls)
    hints = resolved_hints(cls)
    fields: list[RecordField] = []
    if kind == "dataclass":
        for f in dataclasses.fields(cls):
            if not f.init:
                continue
            has_default = f.default is not dataclasses.MISSING
            has_factory = f.default_factory is not dataclasses.MISSING
            default = value_default(f.default) if has_default else (OPAQUE_DEFAULT if has_factory else NO_DEFAULT)
            node = classes.field(lowering, cls, f.name, hints[f.name])
            if has_default and field_args.is_field_info(f.default) and not hasattr(cls, "__pydantic_fields__"):
                node = with_markers(node, (stored_field("dataclass"),))
            fields.append(RecordField(f.name, node, not (has_default or has_factory), default))
        # eq=False: instances equal only themselves, so a set of them could not refuse two
        # equal JSON items (the schema's uniqueItems); such a record is no set item
        hashable = getattr(cls, "__hash__", None) is not None and _declared_eq(cls)
    elif kind == "namedtuple":
        defaults: dict[str, object] = getattr(cls, "_field_defaults", {})
        names: tuple[str, ...] = getattr(cls, "_fields")
        for name in names:
            default = value_default(defaults[name]) if name in defaults else NO_DEFAULT
            node = classes.field(lowering, cls, name, hints[name])
            if name in defaults and field_args.is_field_info(defaults[name]):
                node = with_markers(node, (stored_field("NamedTuple"),))
            fields.append(RecordField(name, node, name not in defaults, default))
        hashable = True
    else:
        required_keys = getattr(cls, "__required_keys__", frozenset(hints))
        for name in cls.__annotations__:
            required = _typeddict_qualifier(hints[name])
            if required is None:
                required = name in required_keys
            fields.append(RecordField(name, classes.field(lowering, cls, name, hints[name]), required, NO_DEFAULT))
        hashable = False
    return Record(cls.__name__, kind, tuple(fields), _record_docstrings(cls), hashable, origin=cls)


def _declared_eq(cls: type) -> bool:
    """The ``eq`` its own ``@dataclass(...)`` gave ``cls`` (True when not written)."""
    params = cls.__dict__.get("__dataclass_params__")
    return bool(getattr(params, "eq", True))


def _typeddict_qualifier(hint: object) -> bool | None:
    """``Required``/``NotRequired`` read from a resolved key type, else None.

    Under ``from __future__ import annotations`` the class sees only strings, so its
    ``__required_keys__`` ignores these qualifiers (on every Python version); the
    resolved hints still carry them.
    """
    while True:
        origin = typing.get_origin(hint)
        if origin in REQUIRED:
            return True
        if origin in NOT_REQUIRED:
            return False
        if origin in ANNOTATED or origin in TD_WRAPPERS:
            hint = typing.get_args(hint)[0]
            continue
        return None


NO_VALUE: Any = object()


def default_of(value: object) -> Default:
    return NONE_DEFAULT if value is None else value_default(value)
