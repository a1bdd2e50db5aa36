"""A pydantic ``Field(...)`` written as a default (``x: int = Field(...)``), in the model.

Both front ends read the ``Field`` with ``core.fields`` (the runtime from the ``FieldInfo``,
the static side from the call) and hand the reading here: its markers go around the type,
as if written in ``Annotated``, and its default becomes the ``Default`` of the parameter or
model field. Shared, so that the two sides place them alike.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import markers
from .fields import FieldReading
from .model import NO_DEFAULT, OPAQUE_DEFAULT, Annotated, Default, Marker, TypeNode

__all__ = ["field_default", "with_markers", "stored_field"]


def field_default(reading: FieldReading, default_of: Callable[[Any], Default]) -> Default:
    """A ``Field``'s default: none (required), a value (``default_of`` reads it as its front end
    reads any default), or a factory (optional, nothing written)."""
    found = reading.default
    if found.kind == "value":
        return default_of(found.value)
    if found.kind == "factory":
        return OPAQUE_DEFAULT
    return NO_DEFAULT


def with_markers(node: TypeNode, added: tuple[Marker, ...]) -> TypeNode:
    """``node`` with ``added`` after the markers its own ``Annotated`` holds."""
    if not added:
        return node
    if isinstance(node, Annotated):
        return Annotated(node.inner, (*node.markers, *added))
    return Annotated(node, added)


def stored_field(kind: str) -> Marker:
    """The refusal of a ``Field(...)`` as the default of a field of a class that stores its
    defaults itself (a stdlib dataclass, a NamedTuple): it would hold the ``FieldInfo``."""
    return markers.refusal(
        f"a pydantic Field(...) as a {kind} field's default is stored by the class as it is, not read; "
        "use Annotated[T, Field(...)] = default, or a BaseModel"
    )
