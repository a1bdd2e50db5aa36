"""Frozen dataclasses as quick to build as plain objects: the model's nodes and the forms."""

from __future__ import annotations

from dataclasses import MISSING, fields
from typing import Any, TypeVar

__all__ = ["quick_init"]

_C = TypeVar("_C", bound=type)


def quick_init(cls: _C) -> _C:
    """Give a frozen dataclass an ``__init__`` that fills the instance dict directly.

    The ``__init__`` that ``dataclass`` writes for a frozen class calls
    ``object.__setattr__`` once per field (plain assignment is refused), which makes a
    node about 2.5x dearer to build than the same stores into ``__dict__``; building one
    tool makes tens of nodes. A field given its default object is not stored at all: the
    class attribute ``dataclass`` leaves holds that very object, so reading the field gives
    the same either way (most of a ``ToolModel``'s fields are defaults). The signature
    and the defaults are the dataclass's own (type checkers keep reading those); equality,
    hashing, ``repr``, ``replace`` and copying read fields as attributes, and are untouched.
    """
    namespace: dict[str, Any] = {}
    params: list[str] = []
    stores: list[str] = []
    for f in fields(cls):
        assert f.default_factory is MISSING and f.init and not f.kw_only and f.name not in ("self", "_d")
        if f.default is MISSING:
            params.append(f.name)
            stores.append(f"    _d[{f.name!r}] = {f.name}\n")
        else:  # the class attribute holds the default: stored only when it is another value
            assert cls.__dict__.get(f.name, MISSING) is f.default
            namespace[f"_default_{f.name}"] = f.default
            params.append(f"{f.name}=_default_{f.name}")
            stores.append(f"    if {f.name} is not _default_{f.name}:\n        _d[{f.name!r}] = {f.name}\n")
    source = f"def __init__(self, {', '.join(params)}):\n    _d = self.__dict__\n{''.join(stores)}"
    exec(source, namespace)  # as dataclass itself makes its methods
    init = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    setattr(cls, "__init__", init)
    return cls
