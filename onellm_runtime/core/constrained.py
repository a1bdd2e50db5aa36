"""pydantic's constrained-type functions (``conint(ge=1)``, ``constr(max_length=9)``, ...),
as the ``Annotated`` types they return: one row per function.

At run time a call in a type's place has already returned ``Annotated[int, None,
Interval(ge=1), None]``, which the runtime front end reads like any ``Annotated`` (the
``None`` placeholders left out, ``core.metadata.without_placeholders``). The static side meets the
call itself; ``metadata`` gives it the markers of that very object from the arguments
written, so both sides read one thing: ``Interval`` as ``Range``, ``MultipleOf`` and the rest
refused by their rows, ``constr``'s arguments as ``StringConstraints``'.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from . import markers
from .forms import Meta
from .metadata import other_metadata, refused_class
from .model import Marker

__all__ = ["Shape", "RETURNS", "metadata"]

Kind = Literal["number", "decimal", "string", "bytes", "items"]


@dataclass(frozen=True)
class Shape:
    """What one function returns: the class it annotates, whether that class takes the item
    type given as the first argument (``conlist(int)``), and which metadata it adds."""

    base: str
    kind: Kind
    item: bool = False


_PD = "pydantic.types"

#: Each function's full name -> the shape of the ``Annotated`` type it returns.
RETURNS: dict[str, Shape] = {
    f"{_PD}.conint": Shape("builtins.int", "number"),
    f"{_PD}.confloat": Shape("builtins.float", "number"),
    f"{_PD}.condecimal": Shape("decimal.Decimal", "decimal"),
    f"{_PD}.constr": Shape("builtins.str", "string"),
    f"{_PD}.conbytes": Shape("builtins.bytes", "bytes"),
    f"{_PD}.conlist": Shape("builtins.list", "items", item=True),
    f"{_PD}.conset": Shape("builtins.set", "items", item=True),
    f"{_PD}.confrozenset": Shape("builtins.frozenset", "items", item=True),
}


def _row(fullname: str, *values: object) -> Marker:
    spec = markers.spec_for_call(fullname)
    assert spec is not None
    found = spec.reading(values)
    assert found is not None
    return found


def _refused(fullname: str) -> tuple[Marker, ...]:
    refused = refused_class(fullname)
    return () if refused is None else (refused,)


def metadata(shape: Shape, args: Mapping[str, object]) -> tuple[Meta, ...]:
    """The markers of the ``Annotated`` type a call with these keyword arguments returns, in
    the order pydantic writes its metadata (the ``None`` placeholders left out)."""
    get = args.get
    found: list[Marker] = []
    if shape.kind in ("number", "decimal"):  # Strict (accepted: the binder is strict), Interval, MultipleOf
        found.append(_row("annotated_types.Interval", get("gt"), get("ge"), get("lt"), get("le")))
        if get("multiple_of") is not None:
            found += _refused("annotated_types.MultipleOf")
        if shape.kind == "decimal":
            from . import fields

            given = {k: v for k in ("max_digits", "decimal_places") if (v := get(k)) is not None}
            found += fields.read_field(given).markers
        if get("allow_inf_nan") is not None:
            found.append(other_metadata("AllowInfNan"))
    elif shape.kind == "string":
        spec = markers.spec_for_call(f"{_PD}.StringConstraints")
        assert spec is not None
        made = spec.reading(tuple(get(p.name) for p in spec.signature))
        if made is not None:
            found.append(made)
    else:  # bytes and collections: Len(min_length or 0, max_length)
        found.append(_row("annotated_types.Len", get("min_length") or 0, get("max_length")))
    return tuple(found)
