"""The scalar types of the contract's Types table: one row per type, and every consumer reads it.

A row says everything one leaf type means: the Python type it binds to (and the full names
the static side knows it by), its schema fragment, how its JSON form is read and written,
how messages name it, and what a provider adapter says in words when it drops the row's
form keyword. The front ends, the schema writer, the binder, the result writer, the
diagnostics and the adapters look rows up here instead of keeping tables of their own, so
adding a scalar type is one member of ``ScalarKind`` below (tests/test_scalars.py walks every
row through each of them).

``ScalarKind`` is both the row's name and the row: ``ScalarKind.DATE.row`` is the row, and the
member's value (``"date"``) is the kind's stable text.
"""

from __future__ import annotations

import datetime
import decimal
import enum
import ipaddress
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from . import formats

__all__ = [
    "ScalarType",
    "ScalarKind",
    "Unwritable",
    "write_same",
    "TIMEDELTA_PATTERN",
    "EXPECT",
    "BY_TYPE",
    "BY_FULLNAME",
    "BY_FORM",
]

TIMEDELTA_PATTERN = r"^-?(\d+\.)?\d{2}:\d{2}:\d{2}(\.\d{1,6})?$"

#: The binder's text for a value of the wrong JSON kind, by the fragment's ``type``.
EXPECT = {"boolean": "a boolean", "integer": "an integer", "number": "a number", "string": "a string"}

#: The keywords that carry a string row's form, in the order they are looked for.
FORM_KEYWORDS = ("format", "pattern", "contentEncoding")


class Unwritable(ValueError):
    """The value has its declared type but no JSON form: its message says what is in the way."""


def write_same(value: Any) -> Any:
    return value


def _write_decimal(value: decimal.Decimal | int | float) -> int | float:
    """A JSON number: an ``int`` when the decimal is integral, else the nearest ``float``."""
    if not isinstance(value, decimal.Decimal):
        return value
    if value.is_finite() and value == value.to_integral_value():
        return int(value)
    return float(value)


def _write_datetime(value: datetime.datetime) -> str:
    if value.utcoffset() is None:
        raise Unwritable(f"a datetime without a UTC offset ({value.isoformat()}), which RFC 3339 cannot express")
    return value.isoformat()


@dataclass(frozen=True, eq=False)
class ScalarType:
    """One row of the Types table.

    ``read`` is None where the JSON value is the Python value (booleans, numbers, strings):
    the binder's own checks for ``python`` read those. Otherwise it reads the string form
    and returns None for a text that is not in it (it never raises).
    """

    #: The kind's stable text (``ScalarKind.DATE.value``).
    key: str
    #: The Python type a bound value has.
    python: type
    #: The schema fragment, in the contract's keyword order.
    fragment: Mapping[str, object]
    #: JSON value -> Python value for a string form (see the class docstring).
    read: Callable[[str], object] | None
    #: Python value (of one of ``writes``) -> its JSON form, for results; may raise ``Unwritable``.
    write: Callable[[Any], object]
    #: What to send instead, in the binder's message for a string not in the form.
    hint: str | None = None
    #: The sentence an adapter writes into the description when it drops the form keyword.
    note: str | None = None
    #: The type's name in messages; the Python type's own name when empty.
    label: str = ""
    #: Whether an annotation of ``python`` itself means this row (``Char`` is reached by its alias).
    spelled: bool = True
    #: Full names the static side may meet besides the Python type's own (older typesheds).
    static_names: tuple[str, ...] = ()
    #: The types a result writer takes for this row (``python`` when empty); ``refuses`` wins.
    writes: tuple[type, ...] = ()
    refuses: tuple[type, ...] = ()
    #: Derived: see ``__post_init__``.
    full_names: tuple[str, ...] = field(init=False, default=())

    def __post_init__(self) -> None:
        own = f"{self.python.__module__}.{self.python.__qualname__}"
        object.__setattr__(self, "full_names", (own, *self.static_names) if self.spelled else ())
        if not self.label:
            object.__setattr__(self, "label", self.python.__qualname__)
        if not self.writes:
            object.__setattr__(self, "writes", (self.python,))

    @property
    def json_type(self) -> str:
        return str(self.fragment["type"])

    @property
    def expect(self) -> str:
        """The binder's text for a value of the wrong JSON kind (``an integer``)."""
        return EXPECT[self.json_type]

    @property
    def form(self) -> tuple[str, object] | None:
        """The keyword and value that carry a string row's form (``("format", "date")``)."""
        for key in FORM_KEYWORDS:
            if key in self.fragment:
                return (key, self.fragment[key])
        return None


class ScalarKind(str, enum.Enum):
    """The leaf types of the contract's Types table; each member carries its row."""

    row: ScalarType
    _value_: str

    def __new__(cls, row: ScalarType) -> ScalarKind:
        member = str.__new__(cls, row.key)
        member._value_ = row.key
        member.row = row
        return member

    BOOL = ScalarType("bool", bool, {"type": "boolean"}, None, write_same)
    INT = ScalarType("int", int, {"type": "integer"}, None, write_same, writes=(int, float), refuses=(bool,))
    FLOAT = ScalarType("float", float, {"type": "number"}, None, write_same, writes=(int, float), refuses=(bool,))
    DECIMAL = ScalarType(
        "decimal",
        decimal.Decimal,
        {"type": "number"},
        None,
        _write_decimal,
        static_names=("_decimal.Decimal",),  # where mypy's bundled typeshed (before 1.14) defines it
        writes=(decimal.Decimal, int, float),
        refuses=(bool,),
    )
    STR = ScalarType("str", str, {"type": "string"}, None, write_same)
    CHAR = ScalarType(
        "char", str, {"type": "string", "minLength": 1, "maxLength": 1}, None, write_same, label="char", spelled=False
    )
    UUID = ScalarType(
        "uuid",
        uuid.UUID,
        {"type": "string", "format": "uuid"},
        formats.read_uuid,
        str,
        hint="a UUID in the 8-4-4-4-12 hex form",
        note="A UUID (8-4-4-4-12 hexadecimal digits).",
    )
    DATETIME = ScalarType(
        "datetime",
        datetime.datetime,
        {"type": "string", "format": "date-time"},
        formats.read_datetime,
        _write_datetime,
        hint="an RFC 3339 date-time with an offset, like 2026-07-01T12:30:00Z",
        note="An RFC 3339 date-time with an offset (Z or +hh:mm).",
    )
    DATE = ScalarType(
        "date",
        datetime.date,
        {"type": "string", "format": "date"},
        formats.read_date,
        datetime.date.isoformat,
        hint="a date YYYY-MM-DD",
        note="A date, YYYY-MM-DD.",
        refuses=(datetime.datetime,),
    )
    TIME = ScalarType(
        "time",
        datetime.time,
        {"type": "string", "format": "time"},
        formats.read_time,
        datetime.time.isoformat,
        hint="a time HH:MM:SS with an optional fraction of 1-6 digits",
        note="A time, HH:MM:SS with an optional fraction.",
    )
    TIMEDELTA = ScalarType(
        "timedelta",
        datetime.timedelta,
        {"type": "string", "pattern": TIMEDELTA_PATTERN},
        formats.read_timedelta,
        formats.write_timedelta,
        hint="a duration [-][d.]hh:mm:ss[.ffffff], like 1.02:30:00",
        note="A duration, written [-][d.]hh:mm:ss[.ffffff].",
    )
    BYTES = ScalarType(
        "bytes",
        bytes,
        {"type": "string", "contentEncoding": "base64"},
        formats.read_base64,
        formats.write_base64,
        hint="standard base64 with padding",
        note="Base64-encoded bytes.",
    )
    IPV4 = ScalarType(
        "ipv4",
        ipaddress.IPv4Address,
        {"type": "string", "format": "ipv4"},
        formats.reader(formats.IPV4_GRAMMAR, ipaddress.IPv4Address),
        str,
        hint="an IPv4 address of four decimal octets without leading zeros, like 192.0.2.1",
        note="An IPv4 address, four decimal octets like 192.0.2.1.",
    )
    IPV6 = ScalarType(
        "ipv6",
        ipaddress.IPv6Address,
        {"type": "string", "format": "ipv6"},
        formats.reader(formats.IPV6_GRAMMAR, ipaddress.IPv6Address),
        str,
        hint="an IPv6 address in an RFC 4291 text form without a zone index, like 2001:db8::1",
        note="An IPv6 address in an RFC 4291 text form like 2001:db8::1.",
    )


#: The kind an annotation of a Python type means (the runtime front end's look-up).
BY_TYPE: dict[type, ScalarKind] = {k.row.python: k for k in ScalarKind if k.row.spelled}
#: The kind a full name means (the static front end's look-up: ``builtins.int``, ``uuid.UUID``).
BY_FULLNAME: dict[str, ScalarKind] = {name: k for k in ScalarKind for name in k.row.full_names}
#: The row whose form is this keyword and value (``("format", "date")``), for the adapters.
BY_FORM: dict[tuple[str, object], ScalarType] = {
    k.row.form: k.row for k in ScalarKind if k.row.form is not None and k.row.json_type == "string"
}
