"""pydantic's ``Field(...)``, read as onellm reads it: one row per argument.

Both front ends hand ``read_field`` the arguments as a mapping of argument name -> value:
the runtime builds it from a ``FieldInfo`` with ``field_arguments`` (pydantic is never
imported here: the object is read by its attributes), the static side from the call's
keywords (its first positional argument is ``default``; ``...`` there means no default).
``read_field`` turns them into the markers the ``Annotated`` node holds (what the
arguments set, and a refusal for each argument onellm does not read, both judged by the
diagnostics walk like any marker), plus the default and the alias, which are not
constraints. Arguments are read in pydantic's signature order, whatever order they were
written in, so that both sides report the same refusals in the same order.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Literal, Union, cast

from . import markers
from .markers import MarkerSpec
from .model import Marker

__all__ = [
    "ARGUMENTS",
    "ACCEPTED",
    "DEFAULT",
    "DEFAULT_FACTORY",
    "FieldDefault",
    "NO_FIELD_DEFAULT",
    "FieldReading",
    "read_field",
    "in_annotated",
    "WrittenDefault",
    "field_arguments",
    "is_field_info",
    "is_general_metadata",
    "read_general_metadata",
    "refused_argument",
    "NamedClass",
    "type_as_default",
]

#: What an argument is read as: the marker row it sets, or one of these words.
ACCEPTED = "accepted"  # no meaning on the wire (the binder is strict, and builds no class)
DEFAULT = "default"
DEFAULT_FACTORY = "default_factory"
Reading = Union[MarkerSpec, Literal["accepted", "default", "default_factory"], str]

#: The fix named in the refusal of an argument onellm does not read (``refused_argument``);
#: an argument not listed here gets "remove it".
_FIXES: dict[str, str] = {
    "title": "remove it (put what the model should know into the description)",
    "examples": "remove it (put an example into the description)",
    "json_schema_extra": "remove it (onellm writes only the keywords it enforces)",
    "field_title_generator": "remove it (no title is written)",
    "validation_alias": "name the field as the wire names it, or give a record field Field(alias=)",
    "serialization_alias": "name the field as the wire names it, or give a record field Field(alias=)",
    "alias_priority": "remove it",
    "multiple_of": "remove it and check the value in the tool body",
    "allow_inf_nan": "remove it (the binder never accepts inf or nan)",
    "max_digits": "remove it and check the value in the tool body",
    "decimal_places": "remove it and check the value in the tool body",
    "coerce_numbers_to_str": "remove it (the binder does not convert a number to a string)",
    "union_mode": "remove it (the binder reads a union by its schema)",
    "exclude": "remove it (a result is written whole)",
    "exclude_if": "remove it (a result is written whole)",
    "deprecated": "remove it (say so in the description)",
}

#: pydantic ``Field``'s arguments in its signature's order, each with what onellm reads it
#: as. An argument that is not here (``title``, ``examples``, ...) is refused, naming it.
ARGUMENTS: dict[str, Reading] = {
    "default": DEFAULT,
    "default_factory": DEFAULT_FACTORY,
    "alias": markers.FIELD_ALIAS,
    "alias_priority": "refused",
    "validation_alias": "refused",
    "serialization_alias": "refused",
    "title": "refused",
    "field_title_generator": "refused",
    "description": markers.FIELD_DESCRIPTION,
    "examples": "refused",
    "exclude": "refused",
    "exclude_if": "refused",
    "discriminator": markers.FIELD_DISCRIMINATOR,
    "deprecated": "refused",
    "json_schema_extra": "refused",
    "frozen": ACCEPTED,
    "validate_default": ACCEPTED,
    "repr": ACCEPTED,
    "init": ACCEPTED,
    "init_var": ACCEPTED,
    "kw_only": ACCEPTED,
    "pattern": markers.FIELD_PATTERN,
    "strict": ACCEPTED,
    "coerce_numbers_to_str": "refused",
    "gt": markers.FIELD_GT,
    "ge": markers.FIELD_GE,
    "lt": markers.FIELD_LT,
    "le": markers.FIELD_LE,
    "multiple_of": "refused",
    "allow_inf_nan": "refused",
    "max_digits": "refused",
    "decimal_places": "refused",
    "min_length": markers.FIELD_MIN_LENGTH,
    "max_length": markers.FIELD_MAX_LENGTH,
    "union_mode": "refused",
    "fail_fast": "refused",
}

_ORDER = {name: i for i, name in enumerate(ARGUMENTS)}


@dataclass(frozen=True)
class FieldDefault:
    """What a ``Field`` says of the default: ``kind`` "none" (required, as far as this
    ``Field`` goes), "value" (``value`` is the default, as written), or "factory" (``value``
    is the factory: a callable at runtime, the factory's expression statically)."""

    kind: Literal["none", "value", "factory"]
    value: object = None


NO_FIELD_DEFAULT = FieldDefault("none")


@dataclass(frozen=True)
class FieldReading:
    """One ``Field(...)`` as onellm reads it.

    ``markers``: what the arguments set and the refusals of the arguments onellm does not
    read, in argument order, for the ``Annotated`` node around the type (the diagnostics walk
    judges them: ``Field(ge=)`` on a ``str``, ``Field(alias=)`` on a tool parameter, ...).
    The description and the alias are among them too (``FIELD_DESCRIPTION``, ranked after
    ``Description`` and ``Doc``; ``FIELD_ALIAS``, a ``JsonName`` of a record field):
    ``description`` and ``alias`` repeat them for a reader that needs them apart (a
    ``BaseModel`` record's wire names); do not add them to the node again. ``alias`` is
    None unless it is a plain string (else its marker refuses it).
    """

    markers: tuple[Marker, ...]
    description: str | None
    default: FieldDefault
    alias: str | None


def refused_argument(name: str) -> str:
    """The refusal text (after ``Parameter 'x': ``) of a ``Field`` argument onellm does not read."""
    return f"Field({name}=) is not read by onellm; {_FIXES.get(name, 'remove it')}"


def _given(value: object) -> bool:
    return value is not Ellipsis


@dataclass(frozen=True)
class NamedClass:
    """Static only: a ``Field`` argument that names a class (the runtime has the class itself)."""

    name: str


def _class_shown(value: object) -> str | None:
    """The name of the class ``value`` is (a class object, or a ``NamedClass``), else None."""
    if isinstance(value, NamedClass):
        return value.name
    if isinstance(value, type):
        return value.__qualname__.rpartition(".<locals>.")[2]
    return None


def type_as_default(name: str) -> str:
    """The refusal of ``Field(int, ...)``: pydantic reads its first argument as the default."""
    return (
        f"Field({name}, ...) gives the class '{name}' as the default (Field's first argument is the default, "
        f"not the type); remove '{name}' from Field: the type is the one written before it"
    )


def read_field(arguments: Mapping[str, object]) -> FieldReading:
    """Read a ``Field``'s arguments (name -> value, as written: ``default=...`` means none).

    ``validation_alias`` and ``serialization_alias`` equal to ``alias`` are what pydantic
    fills in from ``alias`` itself, so they are read as part of it.
    """
    alias_value = arguments.get("alias")
    found: list[Marker] = []
    description: str | None = None
    alias: str | None = None
    default = NO_FIELD_DEFAULT
    for name in sorted(arguments, key=lambda n: _ORDER.get(n, len(_ORDER))):
        value = arguments[name]
        reading = ARGUMENTS.get(name, "refused")
        if isinstance(reading, MarkerSpec):
            marker = reading.reading((value,))
            if marker is not None:
                found.append(marker)
            if reading is markers.FIELD_DESCRIPTION and isinstance(value, str):
                description = value
            elif reading is markers.FIELD_ALIAS and isinstance(value, str):
                alias = value
        elif reading == DEFAULT:
            shown = _class_shown(value)
            if shown is not None:  # Field(int, ...): a type where the default goes
                found.append(markers.refusal(type_as_default(shown)))
            elif _given(value):
                if default.kind == "factory":
                    found.append(markers.refusal(_BOTH_DEFAULTS))
                default = FieldDefault("value", value)
        elif reading == DEFAULT_FACTORY:
            if default.kind == "value":
                found.append(markers.refusal(_BOTH_DEFAULTS))
            default = FieldDefault("factory", value)
        elif reading == ACCEPTED:
            continue
        elif name in ("validation_alias", "serialization_alias") and alias_value is not None and value == alias_value:
            continue
        else:
            found.append(markers.refusal(refused_argument(name)))
    return FieldReading(tuple(found), description, default, alias)


class WrittenDefault:
    """A ``Field``'s default (or factory) written inside ``Annotated``, carried on its marker.

    Every one equals every other: in a model the marker stands for where the default was
    written, and its value is read only when the marker is taken out as the default
    (``fielddefaults.annotated_default``), so the two sides' models compare equal although
    one holds the value and the other what the source says (and a list default stays
    hashable inside a node).
    """

    __slots__ = ("value",)
    value: object

    def __init__(self, value: object) -> None:
        self.value = value

    def __eq__(self, other: object) -> bool:
        return isinstance(other, WrittenDefault)

    def __hash__(self) -> int:
        return 0

    def __repr__(self) -> str:
        return "WrittenDefault(...)"


def in_annotated(reading: FieldReading) -> tuple[Marker, ...]:
    """The markers of a ``Field`` written inside ``Annotated``, its default one of them: a
    parameter or ``BaseModel`` field takes it as its default, any other place refuses it."""
    kind = reading.default.kind
    if kind == "none":
        return reading.markers
    spec = markers.FIELD_DEFAULT if kind == "value" else markers.FIELD_DEFAULT_FACTORY
    return (*reading.markers, Marker(spec, (WrittenDefault(reading.default.value),), markers.NO_CONSTRAINTS))


_BOTH_DEFAULTS = "Field(default=) and Field(default_factory=) are both given; keep one"

#: pydantic keeps a ``FieldInfo``'s constraint arguments as metadata objects; the general
#: one holds several arguments as its attributes.
_GENERAL_METADATA = "_PydanticGeneralMetadata"


def is_field_info(obj: object) -> bool:
    """Whether ``obj`` is a pydantic ``FieldInfo`` (by its class's full name: pydantic is
    not imported here)."""
    return any(f"{c.__module__}.{c.__qualname__}" == "pydantic.fields.FieldInfo" for c in type(obj).__mro__)


def is_general_metadata(obj: object) -> bool:
    """Whether ``obj`` is pydantic's holder of several ``Field``-like arguments, met alone as
    metadata (``condecimal``'s ``max_digits``)."""
    cls = type(obj)
    return cls.__name__ == _GENERAL_METADATA and cls.__module__.startswith("pydantic.")


def read_general_metadata(meta: object) -> tuple[Marker, ...]:
    """pydantic's general metadata object, read as the ``Field`` arguments it holds (each
    given one refused by its ``Field`` row: ``max_digits``, ``decimal_places`` ...)."""
    given = {k: v for k, v in vars(meta).items() if v is not None}
    return read_field(given).markers


def field_arguments(info: object) -> dict[str, object]:
    """The arguments a ``FieldInfo`` made by ``Field(...)`` was given, by name.

    ``_attributes_set`` holds the arguments that are not constraints (``default`` only when
    one was given; ``Field(...)`` leaves it out); ``metadata`` holds one object per
    constraint argument (``Ge(ge=1)``, ``MaxLen(max_length=3)``, ``Strict(strict=True)``,
    ``_PydanticGeneralMetadata(pattern=...)``), each read back into its argument. For a
    ``FieldInfo`` pydantic merged with other ``Annotated`` metadata (a model's
    ``model_fields``), that metadata would read as arguments too: read the ``Field`` as
    written instead.
    """
    arguments: dict[str, object] = dict(cast("Mapping[str, object]", getattr(info, "_attributes_set", {})))
    for item in cast("Iterable[object]", getattr(info, "metadata", ())):
        if type(item).__name__ == _GENERAL_METADATA:
            arguments.update(cast("dict[str, object]", vars(item)))
        elif dataclasses.is_dataclass(item) and not isinstance(item, type):
            for f in dataclasses.fields(item):
                arguments[f.name] = getattr(item, f.name)
        else:
            arguments[type(item).__name__] = item  # not a Field argument: refused, named
    return arguments
