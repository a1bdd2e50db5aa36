"""How the generated fast paths construct a record, equivalent to its keyword call."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, NamedTuple, cast

from ..core.model import Record

#: ``tuple.__new__``, typed for pyright (its stub leaves the item type unknown).
TUPLE_NEW: Callable[..., Any] = getattr(tuple, "__new__")


class Maker(NamedTuple):
    """How the generated fast paths construct a record; every kind runs what the keyword
    call ``cls(**kwargs)`` (the reference, ``Body.bind``) would run, with the same result.

    - ``keywords``: that call (any class the others do not cover);
    - ``positional``: the same call with the leading parameters by position (``order``),
      for a dataclass whose ``__init__`` is the generated one but which is frozen, has a
      ``__post_init__`` or slots: the same ``__init__`` runs, without a keyword dict;
    - ``stores``: a plain dataclass's generated ``__init__`` written out in the binder:
      ``object.__new__(cls)``, then ``o.<name> = value`` for each name of ``order`` in the
      order that ``__init__`` assigns them (the same ``STORE_ATTR``, so a custom
      ``__setattr__`` or a descriptor field sees the same calls), an omitted parameter
      taking its default or a fresh call of its default factory, and a ``field(init=False)``
      with a factory its fresh call (one with a plain default is not assigned, as there);
    - ``tuple``: a NamedTuple's generated ``__new__`` written out: ``tuple.__new__(cls, values)``
      in ``order`` (its ``_fields``), an omitted one taking the ``__new__`` default.
    - ``mapping``: the keyword call's own body, given one dict: ``make(values)`` with each
      field's value under its key in ``order`` (one key per field, in the record's field
      order), without the keyword call's frame and re-keying (a pydantic model's
      ``model_validate``, see ``models.model_builder``); with ``model``, the model class whose
      ``model_validate`` is pydantic's own, whose body the generated code runs in place:
      ``model.__pydantic_validator__.validate_python(values)``.
    """

    kind: str
    order: tuple[str, ...] = ()
    #: name -> ("value", default) or ("factory", default_factory)
    defaults: Mapping[str, tuple[str, Any]] = {}
    #: For ``mapping``: the constructor taking the values as one dict.
    make: Callable[[dict[str, Any]], Any] | None = None
    #: For ``mapping``: the model class, when ``make`` runs pydantic's own ``model_validate``.
    model: type | None = None


KEYWORDS = Maker("keywords")


def maker_for(record: Record) -> Maker:
    """The cheapest construction of ``record`` equivalent to its keyword call (see ``Maker``)."""
    cls = record.origin
    if not isinstance(cls, type) or type(cls).__call__ is not type.__call__:
        return KEYWORDS  # a metaclass __call__ (or a generic alias, which sets __orig_class__)
    names = tuple(f.name for f in record.fields)
    if record.kind == "namedtuple":
        return _namedtuple_maker(cls, names) or KEYWORDS
    if record.kind == "dataclass":
        return _dataclass_maker(cls, record, names) or KEYWORDS
    return KEYWORDS


def _namedtuple_maker(cls: type, names: tuple[str, ...]) -> Maker | None:
    new: Any = cls.__new__
    found: Any = getattr(new, "__globals__", None)
    spots: dict[str, Any] = cast("dict[str, Any]", found) if isinstance(found, dict) else {}
    code: Any = getattr(new, "__code__", None)
    fields: Any = getattr(cls, "_fields", None)
    # ``collections.namedtuple``'s own ``__new__`` (``lambda _cls, a, b: _tuple_new(_cls, (a, b))``),
    # not one a subclass wrote, and no ``__init__`` run after it.
    if (
        spots.get("_tuple_new") is not TUPLE_NEW
        or code is None
        or getattr(cls, "__init__") is not object.__init__
        or fields != names
        or tuple(code.co_varnames[1 : code.co_argcount]) != names
        or code.co_kwonlyargcount
    ):
        return None
    given: tuple[Any, ...] = new.__defaults__ or ()
    defaults = {name: ("value", value) for name, value in zip(names[len(names) - len(given) :], given)}
    return Maker("tuple", names, defaults)


_GENERATED_INIT = "__create_fn__.<locals>.__init__"


def _dataclass_maker(cls: type, record: Record, names: tuple[str, ...]) -> Maker | None:
    import dataclasses

    own = cls.__dict__
    params: Any = own.get("__dataclass_params__")
    init: Any = own.get("__init__")
    code: Any = getattr(init, "__code__", None)
    # ``dataclass``'s generated ``__init__`` (compiled from text, so from "<string>", inside
    # its ``__create_fn__``), not one the class body wrote (which dataclass keeps, even in a
    # class itself compiled from a string) nor one inherited. Only ``co_qualname`` (3.11+)
    # tells the last two apart, so 3.10 keeps the keyword call.
    if (
        params is None
        or not params.init
        or code is None
        or code.co_filename != "<string>"
        or getattr(code, "co_qualname", None) != _GENERATED_INIT
        or getattr(init, "__qualname__", None) != f"{cls.__qualname__}.__init__"
        or getattr(cls, "__new__") is not object.__new__
    ):
        return None
    fields = dataclasses.fields(cls)
    positional = tuple(code.co_varnames[1 : code.co_argcount])
    keyword_only = tuple(code.co_varnames[code.co_argcount : code.co_argcount + code.co_kwonlyargcount])
    # The parameters are exactly the model's fields (an InitVar would be one more).
    if sorted(positional + keyword_only) != sorted(names) or len(names) != len(set(names)):
        return None
    if params.frozen or hasattr(cls, "__post_init__") or "__slots__" in own:
        return Maker("positional", positional)
    missing: Any = dataclasses.MISSING
    defaults: dict[str, tuple[str, Any]] = {}
    order: list[str] = []
    for f in fields:
        if f.default_factory is not missing:
            defaults[f.name] = ("factory", f.default_factory)
        elif f.default is not missing:
            defaults[f.name] = ("value", f.default)
        if f.init or f.default_factory is not missing:
            order.append(f.name)
    optional = {f.name for f in record.fields if not f.required}
    if not optional <= defaults.keys() or not all(name.isidentifier() for name in order):
        return None
    return Maker("stores", tuple(order), defaults)
