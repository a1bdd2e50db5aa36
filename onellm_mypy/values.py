"""The values the static side reads from the source, as both the reader and the evaluator hold them.

``source.py`` reads markers, defaults and enum members and ``compute.py`` computes the
expressions written in them; both speak of these: an enum member used as a value, a name
bound once (with the resolver of its scope), what a generation's reads may spend together
(``Allowance``, carried by a ``Resolver``), and the two answers for a value not written
(``Opaque``: the runtime holds it but never writes it; ``Unreadable``: not computed).
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Union

__all__ = ["Allowance", "EnumValue", "Bound", "Resolution", "Resolve", "Resolver", "Opaque", "Unreadable"]


@dataclass(frozen=True)
class EnumValue:
    """An enum member used as a value: written in its wire form (its canonical member's
    name, or its value in a string-valued enum)."""

    enum: str
    member: str
    #: ``repr()`` of the member's value where the source shows it (for messages).
    value_repr: str | None = field(default=None, compare=False)
    #: What the member is written as; None means its name.
    wire: str | None = field(default=None, compare=False)


@dataclass(frozen=True)
class Bound:
    """A name bound once to ``value``, to be read in the scope ``resolve`` describes.

    ``scope`` is the resolver's own description of that scope, handed back to it when
    the value is more than a constant (a marker call bound to a name).
    """

    value: ast.expr
    resolve: Resolve
    scope: object = None


Resolution = Union[EnumValue, Bound, None]
#: Resolves a ``Name`` or ``Attribute`` chain where an expression was written.
Resolve = Callable[[ast.expr], Resolution]


class Allowance:
    """What every value read of one generation may spend together, in proportion to the sources.

    Each read has bounds of its own (``compute.LIMITS``); this one keeps many reads from
    adding up to more than the sources' size allows: ``STEPS_PER_BYTE`` nodes visited and
    ``MADE_PER_BYTE`` characters read or made per byte of the sources held, above a floor.
    Past it, every further read of the generation is not computed (OLT014).
    """

    FLOOR_STEPS = 200_000
    FLOOR_MADE = 4_000_000
    STEPS_PER_BYTE = 2
    MADE_PER_BYTE = 20

    def __init__(self, source_bytes: int = 0) -> None:
        self.steps = self.FLOOR_STEPS + self.STEPS_PER_BYTE * source_bytes
        self.made = self.FLOOR_MADE + self.MADE_PER_BYTE * source_bytes

    def widen(self, source_bytes: int) -> None:
        """A source parsed in this generation (or a changed one's new size) adds its share."""
        self.steps += self.STEPS_PER_BYTE * source_bytes
        self.made += self.MADE_PER_BYTE * source_bytes


class Resolver:
    """A ``Resolve`` that carries the generation's ``Allowance`` to every read it serves."""

    def __init__(self, resolve: Callable[[ast.expr], Resolution], allowance: Allowance) -> None:
        self._resolve = resolve
        self.allowance = allowance

    def __call__(self, expr: ast.expr) -> Resolution:
        return self._resolve(expr)


class Opaque:
    """A value the runtime holds but never writes (a dict, a set, a comprehension, a lambda)."""


class Unreadable:
    """An expression the static side does not compute (a call, ``**``, a value past the bounds, ...)."""
