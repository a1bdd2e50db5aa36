"""Forms: what an annotation evaluates to, as the runtime would hold it.

``Optional[X]`` is a union with ``None``; nested unions and ``Annotated`` are flattened
(as ``typing`` does); ``typing.List`` is ``list``; an alias is its value. The static
front end evaluates annotations into these (``mypy_front.Frontend.evaluate``) and then
lowers them with the same branches as ``onellm_runtime.front.typing_front._Lowering``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Union

from mypy.nodes import TypeInfo

from onellm_runtime.core.model import JsonType, Marker, Scalar, ScalarKind, TypeNode
from onellm_runtime.aliases import SIZED_INTS

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
    "special_node",
]


@dataclass(frozen=True)
class FNone:
    pass


@dataclass(frozen=True)
class FAny:
    pass


@dataclass(frozen=True)
class FEllipsis:
    pass


@dataclass(frozen=True)
class FCallable:
    pass


@dataclass(frozen=True)
class FClass:
    fullname: str
    info: TypeInfo = field(compare=False, hash=False, repr=False)


@dataclass(frozen=True)
class FNewType:
    fullname: str
    info: TypeInfo = field(compare=False, hash=False, repr=False)


@dataclass(frozen=True)
class FGeneric:
    origin: FClass
    args: tuple[Form, ...]
    #: How ``typing`` spells it when that differs from the origin (``typing.Type``), for messages.
    spelled: str = ""


@dataclass(frozen=True)
class NodeMeta:
    """The metadata of ``Int32``, ``Char`` and the JSON types: fixes the node outright."""

    node: TypeNode


Meta = Union[Marker, NodeMeta]


@dataclass(frozen=True)
class FAnnotated:
    base: Form
    metadata: tuple[Meta, ...]


@dataclass(frozen=True)
class FUnion:
    args: tuple[Form, ...]


@dataclass(frozen=True)
class LitValue:
    """One ``Literal`` value: its Python type name (for de-duplication), value, and repr."""

    kind: str
    value: object
    text: str


@dataclass(frozen=True)
class FLiteral:
    values: tuple[LitValue, ...]


@dataclass(frozen=True)
class FTypeVar:
    name: str
    fullname: str


@dataclass(frozen=True)
class FBare:
    """A bare generic alias without a class behind it in mypy (``typing.Callable``)."""

    name: str


@dataclass(frozen=True)
class FUnresolved:
    name: str
    #: The name is a string annotation that is not a Python expression (not a missing name).
    syntax: bool = False


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


def special_node(fullname: str) -> Form | None:
    """The aliases of ``onellm_runtime.aliases``, as the runtime sees them (``Annotated[int, SizedInt]``)."""
    module, _, name = fullname.rpartition(".")
    if module not in ("onellm_runtime.aliases", "onellm_runtime"):
        return None
    sized = SIZED_INTS.get(name)
    if sized is not None:
        base = "builtins.int"
        node: TypeNode = Scalar(ScalarKind.INT, sized.minimum, sized.maximum, sized.name)
    elif name == "Char":
        base, node = "builtins.str", Scalar(ScalarKind.CHAR)
    elif name in ("JsonValue", "JsonObject", "JsonArray"):
        kind = {"JsonValue": "value", "JsonObject": "object", "JsonArray": "array"}[name]
        base, node = {"value": "builtins.object", "object": "builtins.dict", "array": "builtins.list"}[kind], JsonType(kind)  # type: ignore[arg-type]
    else:
        return None
    return FAnnotated(FOther(base), (NodeMeta(node),))
