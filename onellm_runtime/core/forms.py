"""Forms: what an annotation evaluates to, as the runtime would hold it, in neutral terms.

``Optional[X]`` is a union with ``None``; nested unions and ``Annotated`` are flattened
(as ``typing`` does); ``typing.List`` is ``list``; an alias is its value. A front end
evaluates annotations into these; ``lowering`` turns them into model nodes, so both
front ends share every decision made after evaluation.

A class is named by its full name, module and runtime name; the front end's own handle
on it (a mypy ``TypeInfo``, a class object) rides along for the questions only the front
end can answer (``lowering.FrontEnd``), and never takes part in equality.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Union

from .frozen import quick_init
from .model import Marker, TypeNode

__all__ = [
    "FNone",
    "FAny",
    "FEllipsis",
    "FCallable",
    "FClass",
    "FNewType",
    "FGeneric",
    "NodeMeta",
    "Meta",
    "FAnnotated",
    "FUnion",
    "LitValue",
    "FLiteral",
    "FTypeVar",
    "FBare",
    "FUnresolved",
    "FOther",
    "Form",
    "annotated",
    "union",
]


@quick_init
@dataclass(frozen=True)
class FNone:
    pass


@quick_init
@dataclass(frozen=True)
class FAny:
    pass


@quick_init
@dataclass(frozen=True)
class FEllipsis:
    pass


@quick_init
@dataclass(frozen=True)
class FCallable:
    pass


@quick_init
@dataclass(frozen=True)
class FClass:
    """A class: ``fullname`` is ``module.qualified_name``; ``name`` its ``__name__`` at runtime."""

    fullname: str
    module: str
    name: str
    handle: object = field(compare=False, hash=False, repr=False)


@quick_init
@dataclass(frozen=True)
class FNewType:
    """A ``NewType``; its supertype is evaluated on demand (``FrontEnd.supertype``)."""

    fullname: str
    handle: object = field(compare=False, hash=False, repr=False)


@quick_init
@dataclass(frozen=True)
class FGeneric:
    origin: FClass
    args: tuple[Form, ...]
    #: How ``typing`` spells it when that differs from the origin (``typing.Type``), for messages.
    spelled: str = ""


@quick_init
@dataclass(frozen=True)
class NodeMeta:
    """The metadata of ``Int32``, ``Char`` and the JSON types: fixes the node outright."""

    node: TypeNode


Meta = Union[Marker, NodeMeta]


@quick_init
@dataclass(frozen=True)
class FAnnotated:
    base: Form
    metadata: tuple[Meta, ...]


@quick_init
@dataclass(frozen=True)
class FUnion:
    args: tuple[Form, ...]


@quick_init
@dataclass(frozen=True)
class LitValue:
    """One ``Literal`` value: its Python type name (for de-duplication), value, and repr."""

    kind: str
    value: object
    text: str


@quick_init
@dataclass(frozen=True)
class FLiteral:
    values: tuple[LitValue, ...]


@quick_init
@dataclass(frozen=True)
class FTypeVar:
    name: str
    fullname: str


@quick_init
@dataclass(frozen=True)
class FBare:
    """A bare generic alias without a class behind it (``typing.Callable``)."""

    name: str


@quick_init
@dataclass(frozen=True)
class FUnresolved:
    name: str
    #: The name is a string annotation that is not a Python expression (not a missing name).
    syntax: bool = False


@quick_init
@dataclass(frozen=True)
class FOther:
    name: str


Form = Union[
    FNone,
    FAny,
    FEllipsis,
    FCallable,
    FClass,
    FNewType,
    FGeneric,
    FAnnotated,
    FUnion,
    FLiteral,
    FTypeVar,
    FBare,
    FUnresolved,
    FOther,
]


def annotated(base: Form, metadata: tuple[Meta, ...]) -> Form:
    """``Annotated[Annotated[T, a], b]`` is ``Annotated[T, a, b]``, as typing flattens it."""
    if isinstance(base, FAnnotated):
        return FAnnotated(base.base, base.metadata + metadata)
    return FAnnotated(base, metadata)


def union(args: list[Form]) -> Form:
    """``typing.Union``: nested unions flattened, duplicates dropped, one member is itself."""
    flat: list[Form] = []
    for a in args:
        for member in a.args if isinstance(a, FUnion) else (a,):
            if member not in flat:
                flat.append(member)
    return flat[0] if len(flat) == 1 else FUnion(tuple(flat))
