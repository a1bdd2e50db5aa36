"""The values the static side reads from the source, as both the reader and the evaluator hold them.

``source.py`` reads markers, defaults and enum members and ``compute.py`` computes the
expressions written in them; both speak of these: an enum member used as a value, a name
bound once (with the resolver of its scope), and the two answers for a value not written
(``Opaque``: the runtime holds it but never writes it; ``Unreadable``: not computed).
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Union

__all__ = ["EnumValue", "Bound", "Resolution", "Resolve", "Opaque", "Unreadable"]


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


class Opaque:
    """A value the runtime holds but never writes (a dict, a set, a comprehension, a lambda)."""


class Unreadable:
    """An expression the static side does not compute (a call, ``**``, a value past the bounds, ...)."""
