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
from .fields import FieldReading, WrittenDefault
from .model import NO_DEFAULT, OPAQUE_DEFAULT, Annotated, Default, Marker, TypeNode

__all__ = ["field_default", "with_markers", "stored_field", "annotated_default"]


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


#: The markers a ``Field(default=)``/``Field(default_factory=)`` inside ``Annotated`` reads as.
_DEFAULT_SPECS = (markers.FIELD_DEFAULT, markers.FIELD_DEFAULT_FACTORY)


def annotated_default(
    node: TypeNode, written_after: bool, default_of: Callable[[Any], Default]
) -> tuple[TypeNode, Default | None, tuple[str, object] | None]:
    """A ``Field(default=)`` or ``Field(default_factory=)`` written in the ``Annotated`` of a
    parameter or a ``BaseModel`` field, read as pydantic reads it: taken out of the markers and
    made the default (``default_of`` reads a value), with what the binder supplies for a
    parameter (``("value", v)`` or ``("factory", f)``). None for the default when there is
    none there; given together with a default after the annotation, it is OLT013 naming both.
    """
    if not isinstance(node, Annotated):
        return node, None, None
    found = [m for m in node.markers if m.spec in _DEFAULT_SPECS]
    if len(found) != 1:  # none, or both default and default_factory (refused as they are)
        return node, None, None
    marker = found[0]
    if written_after:
        twice = markers.refusal(
            f"a default is given twice, by {marker.spec.display} inside Annotated and after the annotation; keep one"
        )
        return Annotated(node.inner, tuple(twice if m is marker else m for m in node.markers)), None, None
    rest = tuple(m for m in node.markers if m is not marker)
    inner = Annotated(node.inner, rest) if rest else node.inner
    written = marker.values[0]
    value = written.value if isinstance(written, WrittenDefault) else written
    if marker.spec is markers.FIELD_DEFAULT:
        return inner, default_of(value), ("value", value)
    return inner, OPAQUE_DEFAULT, ("factory", value)
