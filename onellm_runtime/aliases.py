"""Type aliases with a fixed schema: sized integers, ``Char`` and the JSON types.

Each is an ``Annotated`` alias, so a user's code passes plain ``int``/``str``/JSON values
to a tool it calls directly, and type checkers see the ordinary type. The marker inside
tells the runtime front end which row of the contract applies; the mypy plugin
recognises the alias by its full name (``onellm_runtime.aliases.Int32``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, TypeAlias

__all__ = [
    "SizedInt",
    "SIZED_INTS",
    "Int8",
    "UInt8",
    "Int16",
    "UInt16",
    "Int32",
    "UInt32",
    "Int64",
    "UInt64",
    "CharMarker",
    "Char",
    "JsonMarker",
    "JsonValue",
    "JsonObject",
    "JsonArray",
]


@dataclass(frozen=True)
class SizedInt:
    """An integer of a C# width: its name and inclusive range."""

    name: str
    minimum: int
    maximum: int


SIZED_INTS: dict[str, SizedInt] = {
    s.name: s
    for s in (
        SizedInt("Int8", -(2**7), 2**7 - 1),
        SizedInt("UInt8", 0, 2**8 - 1),
        SizedInt("Int16", -(2**15), 2**15 - 1),
        SizedInt("UInt16", 0, 2**16 - 1),
        SizedInt("Int32", -(2**31), 2**31 - 1),
        SizedInt("UInt32", 0, 2**32 - 1),
        SizedInt("Int64", -(2**63), 2**63 - 1),
        SizedInt("UInt64", 0, 2**64 - 1),
    )
}

Int8: TypeAlias = Annotated[int, SIZED_INTS["Int8"]]
UInt8: TypeAlias = Annotated[int, SIZED_INTS["UInt8"]]
Int16: TypeAlias = Annotated[int, SIZED_INTS["Int16"]]
UInt16: TypeAlias = Annotated[int, SIZED_INTS["UInt16"]]
Int32: TypeAlias = Annotated[int, SIZED_INTS["Int32"]]
UInt32: TypeAlias = Annotated[int, SIZED_INTS["UInt32"]]
Int64: TypeAlias = Annotated[int, SIZED_INTS["Int64"]]
UInt64: TypeAlias = Annotated[int, SIZED_INTS["UInt64"]]


@dataclass(frozen=True)
class CharMarker:
    """Marks ``Char``: a string of exactly one code point."""


Char: TypeAlias = Annotated[str, CharMarker()]


@dataclass(frozen=True)
class JsonMarker:
    """Marks the JSON types: ``"value"`` (any), ``"object"``, ``"array"``."""

    kind: str


JsonValue: TypeAlias = Annotated[object, JsonMarker("value")]
JsonObject: TypeAlias = Annotated[dict[str, object], JsonMarker("object")]
JsonArray: TypeAlias = Annotated[list[object], JsonMarker("array")]
