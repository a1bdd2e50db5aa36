"""What one ``Annotated`` metadata object that is no marker is: refused, or accepted as nothing.

The marker table (``core.markers``) holds what onellm reads; this module holds what it
meets besides: the metadata classes both sides refuse by full name with a fix of their own
(``REFUSED_CLASSES``), the refusal of anything else, named, and the runtime's reading of
one metadata object into its markers (``read_metadata``: a row's marker, a plain string, a
pydantic ``Field`` through ``core.fields``, or a refusal).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import fields
from .markers import read_object, refusal, text_marker
from .model import Marker

if TYPE_CHECKING:
    from .forms import Meta

__all__ = [
    "REFUSED_CLASSES",
    "refused_class",
    "other_metadata",
    "class_as_metadata",
    "INJECTED_FIX",
    "read_metadata",
    "NONE_METADATA",
    "without_placeholders",
]

_AT = "annotated_types"

_VALIDATOR_FIX = (
    "is not run by onellm's binder; validate in the tool body, or use a BaseModel record, whose validators do run"
)
_SERIALIZER_FIX = "is not run by onellm (a value is written by its type); convert the value in the tool body"
_PD = "pydantic"
#: LangChain's markers of arguments its runtime fills in: onellm's ToolContext carries those values.
_LC_TOOLS = "langchain_core.tools.base"
_LG_TOOLS = "langgraph.prebuilt.tool_node"
INJECTED_FIX = (
    "onellm has no injected arguments: take the value from ToolContext (ctx.call_id, ctx.services) and drop the "
    "parameter"
)


def _injected(name: str) -> str:
    return f"{name} marks an argument LangChain fills in, and {INJECTED_FIX}"


#: Metadata classes both sides refuse with a fix of their own (by full name), and those
#: accepted with no meaning on the wire (None): anything else not in the table is refused
#: naming its type (``other_metadata``).
REFUSED_CLASSES: dict[str, str | None] = {
    f"{_AT}.MultipleOf": "MultipleOf is not read by onellm; remove it and check the value in the tool body",
    f"{_AT}.Predicate": (
        "Predicate is not read by onellm (no schema keyword says it); remove it and check the value in the tool "
        "body, or write Range, Length or Pattern"
    ),
    f"{_AT}.Timezone": "Timezone is not read by onellm; remove it and check the time zone in the tool body",
    f"{_AT}.Unit": "Unit is not read by onellm; remove it and name the unit in the description",
    f"{_PD}.functional_validators.AfterValidator": f"AfterValidator {_VALIDATOR_FIX}",
    f"{_PD}.functional_validators.BeforeValidator": f"BeforeValidator {_VALIDATOR_FIX}",
    f"{_PD}.functional_validators.PlainValidator": f"PlainValidator {_VALIDATOR_FIX}",
    f"{_PD}.functional_validators.WrapValidator": f"WrapValidator {_VALIDATOR_FIX}",
    f"{_PD}.functional_serializers.PlainSerializer": f"PlainSerializer {_SERIALIZER_FIX}",
    f"{_PD}.functional_serializers.WrapSerializer": f"WrapSerializer {_SERIALIZER_FIX}",
    f"{_PD}.json_schema.WithJsonSchema": (
        "WithJsonSchema is not read by onellm (the schema is written from the type and the annotations the binder "
        "enforces); remove it"
    ),
    f"{_PD}.types.Discriminator": (
        "pydantic's Discriminator is not read by onellm; write Field(discriminator='field') or onellm's "
        "Discriminator('field')"
    ),
    f"{_PD}.types.Strict": None,  # the binder is strict anyway
    f"{_LC_TOOLS}.InjectedToolArg": _injected("InjectedToolArg"),
    f"{_LC_TOOLS}.InjectedToolCallId": _injected("InjectedToolCallId"),
    f"{_LG_TOOLS}.InjectedState": _injected("InjectedState"),
    f"{_LG_TOOLS}.InjectedStore": _injected("InjectedStore"),
}


def other_metadata(type_name: str) -> Marker:
    """The refusal of a metadata object onellm does not read, naming its type."""
    return refusal(f"Annotated metadata of type '{type_name}' is not read by onellm; remove it")


def class_as_metadata(qualname: str) -> Marker:
    """The refusal of a class object (not an instance) written as metadata."""
    return refusal(f"the class '{qualname}' is not Annotated metadata onellm reads; remove it")


def refused_class(fullname: str) -> Marker | None:
    """The refusal of a metadata class's object by the class's full name, or None when it is
    accepted; KeyError when the class has no row of its own (refused by its type's name)."""
    message = REFUSED_CLASSES[fullname]
    return None if message is None else refusal(message)


def _class_names(cls: type) -> list[str]:
    return [f"{c.__module__}.{c.__qualname__}" for c in cls.__mro__]


def read_metadata(meta: object) -> tuple[Marker, ...]:
    """Every marker one ``Annotated`` metadata object is at runtime: a table row's marker, a
    plain string's description, a pydantic ``Field``'s markers or its general metadata's
    (``core.fields``), or the refusal of anything else, named. Nothing is left out but what
    sets nothing."""
    if type(meta) is str:
        return (text_marker(meta),)
    found = read_object(meta)
    if found is not None:
        return (found,)
    if fields.is_field_info(meta):
        return fields.in_annotated(fields.read_field(fields.field_arguments(meta)))
    if fields.is_general_metadata(meta):
        return fields.read_general_metadata(meta)
    for name in _class_names(type(meta)):
        if name in REFUSED_CLASSES:
            refused = refused_class(name)
            return () if refused is None else (refused,)
    if isinstance(meta, type):
        for name in _class_names(meta):  # a marker class written without a call (InjectedToolCallId)
            if name in REFUSED_CLASSES:
                refused = refused_class(name)
                return () if refused is None else (refused,)
        return (class_as_metadata(_shown_name(meta)),)
    return (other_metadata(_shown_name(type(meta))),)


#: ``None`` met as metadata: refused, unless pydantic's ``con*`` functions left it (below).
NONE_METADATA = other_metadata("NoneType")
#: The rows a pydantic ``conint``/``confloat``/``condecimal``/``conbytes`` result always holds
#: beside the ``None`` it leaves for each argument not given.
_CONSTRAINED_ROWS = ("Interval", "Len")


def without_placeholders(found: tuple[Meta, ...]) -> tuple[Meta, ...]:
    """An ``Annotated``'s metadata without the ``None`` items pydantic's constrained-type
    functions put where an argument was not given (``conint(ge=1)`` is ``Annotated[int, None,
    Interval(ge=1), None]``): told by the ``Interval`` or ``Len`` those results always hold.
    Any other ``None`` stays, and is refused."""
    if NONE_METADATA not in found:
        return found
    if not any(isinstance(m, Marker) and m.spec.written in _CONSTRAINED_ROWS for m in found):
        return found
    return tuple(m for m in found if m != NONE_METADATA)


def _shown_name(cls: type) -> str:
    """A class's ``__qualname__`` from the last function it is local to on (as the static side names it)."""
    return cls.__qualname__.rpartition(".<locals>.")[2]
