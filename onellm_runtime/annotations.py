"""The metadata markers a user puts in ``Annotated[T, ...]``.

They are plain frozen value objects: the runtime front end reads their fields, and the
mypy plugin reads the same calls from the source text. Keep constructor signatures
positional-friendly and simple, since the static side evaluates them from ``ast``.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "Description",
    "Range",
    "StringLength",
    "MinLength",
    "MaxLength",
    "Length",
    "Pattern",
    "Email",
    "Url",
    "JsonName",
    "Discriminator",
]


@dataclass(frozen=True)
class Description:
    """``description`` for a parameter, a record field, or a nested type."""

    text: str


@dataclass(frozen=True)
class Range:
    """``minimum``/``maximum`` for a number (replaces a sized integer's range)."""

    min: int | float | None = None
    max: int | float | None = None


@dataclass(frozen=True)
class StringLength:
    """``maxLength``, and ``minLength`` when ``min_length`` is above 0."""

    max: int
    min_length: int = 0


@dataclass(frozen=True)
class MinLength:
    """``minLength`` on a string, ``minItems`` on an array."""

    n: int


@dataclass(frozen=True)
class MaxLength:
    """``maxLength`` on a string, ``maxItems`` on an array."""

    n: int


@dataclass(frozen=True)
class Length:
    """Both bounds of ``MinLength``/``MaxLength`` at once."""

    min: int
    max: int


@dataclass(frozen=True)
class Pattern:
    """``pattern``: searched, not anchored, read as ECMA-262 reads it."""

    pattern: str


@dataclass(frozen=True)
class Email:
    """``format: email``."""


@dataclass(frozen=True)
class Url:
    """``format: uri`` (an absolute URI)."""


@dataclass(frozen=True)
class JsonName:
    """Renames a record property on the wire (always wins over ``naming``)."""

    name: str


@dataclass(frozen=True)
class Discriminator:
    """Names the discriminator field of a union of records."""

    field: str
