"""pydantic ``BaseModel`` classes as the runtime front end reads them, without importing pydantic.

A class is a model when ``pydantic.main.BaseModel`` is among its bases (by full name: a
user's class can only be one if the user's code imported pydantic already). Its fields are
``model_fields`` in order (base classes first); each field's annotation is evaluated where
it was written, as any record field's, and its ``= ...`` as written (``FieldInfo``'s
``_original_assignment``): a plain default, or a ``Field(...)`` read by ``core.fields``.
A model whose written form differs from its fields is refused, naming the feature.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, cast

__all__ = [
    "BASEMODEL",
    "is_basemodel",
    "is_model_class",
    "model_feature",
    "UNASSIGNED",
    "assigned",
    "owner_of",
]

BASEMODEL = "pydantic.main.BaseModel"
_ROOTMODEL = "pydantic.root_model.RootModel"
_UNDEFINED = "pydantic_core._pydantic_core.PydanticUndefinedType"


def _fullname(cls: type) -> str:
    return f"{cls.__module__}.{cls.__qualname__}"


def is_basemodel(tp: type) -> bool:
    """A subclass of pydantic's ``BaseModel`` (not ``BaseModel`` itself)."""
    mro: tuple[type, ...] = getattr(tp, "__mro__", ())
    return any(_fullname(c) == BASEMODEL for c in mro[1:])


def is_model_class(cls: type) -> bool:
    """A class of a model's MRO whose own annotations may declare fields: not pydantic's own."""
    return is_basemodel(cls) and not cls.__module__.startswith("pydantic.")


def _first(names: object) -> str:
    if not isinstance(names, (Mapping, list, tuple)):
        return ""
    found = sorted(str(n) for n in cast("Iterable[object]", names))
    return found[0] if found else ""


def model_feature(cls: type) -> str:
    """What makes the model's written form differ from its fields, named; "" when nothing does.

    Checked in a fixed order, each naming the alphabetically first member, so that the static
    side, which reads the same things from the source, names the same one.
    """
    if any(_fullname(c) == _ROOTMODEL for c in cls.__mro__):
        return "RootModel"
    config: object = getattr(cls, "model_config", {})
    if isinstance(config, Mapping) and cast("Mapping[str, object]", config).get("alias_generator") is not None:
        return "alias_generator"
    computed = _first(getattr(cls, "__pydantic_computed_fields__", {}))
    if computed:
        return f"computed_field '{computed}'"
    decorators: Any = getattr(cls, "__pydantic_decorators__", None)
    for kind, label in (("field_serializers", "field_serializer"), ("model_serializers", "model_serializer")):
        name = _first(getattr(decorators, kind, {}))
        if name:
            return f"{label} '{name}'"
    model_fields: Mapping[str, Any] = getattr(cls, "model_fields", {})
    for name, info in model_fields.items():
        serialization: object = getattr(info, "serialization_alias", None)
        if serialization is not None and serialization != getattr(info, "alias", None):
            return f"serialization_alias on field '{name}'"
    return ""


def owner_of(cls: type, name: str) -> type:
    """The class of the model's MRO whose own annotations declare field ``name``."""
    for c in cls.__mro__:
        own: object = c.__dict__.get("__annotations__", {})
        if isinstance(own, Mapping) and name in own:
            return c
    return cls


def _undefined(value: object) -> bool:
    return _fullname(type(value)) == _UNDEFINED


class _Unassigned:
    """No ``= ...`` was written for a field."""


UNASSIGNED: Any = _Unassigned()


def assigned(info: object) -> object:
    """What the class body assigned to a field (``x: int = <this>``), or ``UNASSIGNED``.

    pydantic keeps it as the ``FieldInfo``'s ``_original_assignment``; one that keeps no such
    record gives the ``FieldInfo`` itself, which it merged from everything written."""
    value: object = getattr(info, "_original_assignment", info)
    return UNASSIGNED if _undefined(value) else value
