"""An enum class's node and a member's wire form, read off the class itself.

The runtime's reading of the contract's two ``Enum`` rows: by member value when every member's
value is a ``str``, else by member name. The front end lowers enum parameters with it, and results
are written with it; the static side computes the same from the source (``onellm_mypy``).
"""

from __future__ import annotations

import enum
from typing import cast

from .caches import BoundedCache
from .model import EnumType

__all__ = ["enum_node", "enum_wire", "kept_enum"]

#: Each enum class's node (an enum's members are fixed when its class is made).
_ENUMS: BoundedCache[type, EnumType] = BoundedCache()


def enum_node(tp: type[enum.Enum]) -> EnumType:
    """An enum's node: by value when every member's value is a ``str``, else by name.

    The values are the members' own (``m.value``), after the enum's data type made them: a
    ``str`` mixin or ``StrEnum`` turns every value into a string, an ``int`` mixin none.
    An enum's members are fixed when its class is made, so the node is kept per class.
    """
    node = _ENUMS.get(tp)
    if node is None:
        members = tuple(tp)
        values = tuple(m.value for m in members)
        by_value = all(type(v) is str for v in values)
        node = EnumType(
            tp.__name__,
            tuple(m.name for m in members),
            issubclass(tp, enum.Flag),
            cast("tuple[str, ...]", values) if by_value else None,
            origin=tp,
        )
        _ENUMS.put(tp, node)
    return node


def enum_wire(member: enum.Enum) -> str:
    """What a member is written as: its value in a string-valued enum, else its name."""
    return member.value if enum_node(type(member)).values is not None else member.name


def kept_enum(tp: object) -> EnumType | None:
    """The node kept for ``tp`` if it is an enum lowered before, else None (no work done)."""
    return _ENUMS.get(cast(type, tp))
