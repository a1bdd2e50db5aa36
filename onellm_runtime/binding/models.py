"""Constructing a pydantic ``BaseModel`` record, without importing pydantic.

The binder has checked every value against the schema; the model is then built with
``Model.model_validate(values)``, the values keyed as pydantic reads them (each field's
alias, else its name), so the model's own validators run. Where ``model_validate`` is
pydantic's own, the binder runs its body, ``Model.__pydantic_validator__.validate_python(values)``
(every other argument left at its default, as ``model_validate`` passes them), without the
classmethod's Python frame and keyword handling, which cost as much as the validation. A ``ValidationError`` they raise
becomes one ``FieldErrors`` entry per error, at the path pydantic gives it (its first part
turned into the field's wire name), for ``Body.bind`` to report there.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ..core import rules
from ..core.model import Record
from ..errortext import cut, describe
from .makers import Maker
from .state import BAD, Call, Check

__all__ = ["FieldErrors", "made_check", "model_builder"]

_VALIDATION_ERROR = "pydantic_core._pydantic_core.ValidationError"
_BASE_MODEL = "pydantic.main.BaseModel"


class FieldErrors(Exception):
    """The model's validators refused the values: (path below the record, pydantic's message) pairs."""

    def __init__(self, errors: list[tuple[tuple[object, ...], str]]) -> None:
        super().__init__(errors)
        self.errors = errors


def _is_validation_error(error: BaseException) -> bool:
    return any(f"{c.__module__}.{c.__qualname__}" == _VALIDATION_ERROR for c in type(error).__mro__)


def _paths(error: Any, wires: Mapping[object, str]) -> list[tuple[tuple[object, ...], str]]:
    found: list[tuple[tuple[object, ...], str]] = []
    for item in error.errors(include_url=False):
        loc: tuple[object, ...] = tuple(item.get("loc", ()))
        if loc:
            loc = (wires.get(loc[0], loc[0]), *loc[1:])
        found.append((loc, cut(str(item.get("msg", "")))))
    return found


def _own_validate(cls: Any) -> bool:
    """Whether ``cls.model_validate`` is pydantic's own (no class between overrides it)."""
    owner = next((k for k in cls.__mro__ if "model_validate" in vars(k)), None)
    return owner is not None and f"{owner.__module__}.{owner.__qualname__}" == _BASE_MODEL


def model_builder(record: Record, naming: str | None) -> tuple[Callable[..., Any], Maker]:
    """The constructor the binder calls with a model record's values, keyed by field name, and
    the same construction for the generated fast paths, given the values keyed as pydantic
    reads them (a ``mapping`` maker)."""
    cls: Any = record.origin
    model_fields: Mapping[str, Any] = cls.model_fields
    keys = {f.name: getattr(model_fields.get(f.name), "alias", None) or f.name for f in record.fields}
    wires: dict[object, str] = {keys[f.name]: rules.wire_name(f, naming) for f in record.fields}

    def refused(e: Exception) -> FieldErrors | None:
        return FieldErrors(_paths(e, wires)) if _is_validation_error(e) else None

    own = _own_validate(cls)
    if own:

        def make(values: dict[str, Any]) -> Any:
            try:
                # model_validate's body; the validator is looked up on each call, as there
                return cls.__pydantic_validator__.validate_python(values)
            except Exception as e:
                errors = refused(e)
                if errors is None:
                    raise
                raise errors from None

    else:
        validate: Callable[[dict[str, Any]], Any] = cls.model_validate

        def make(values: dict[str, Any]) -> Any:
            try:
                return validate(values)
            except Exception as e:
                errors = refused(e)
                if errors is None:
                    raise
                raise errors from None

    def build(**values: Any) -> Any:
        return make({keys[name]: value for name, value in values.items()})

    order = tuple(keys[f.name] for f in record.fields)
    return build, Maker("mapping", order, make=make, model=cls if own else None)


def made_check(check: Check, make: Callable[[str], Any]) -> Check:
    """``check``, then the checked text built into ``make``'s class (a pydantic URL type,
    ``core.foreign``): what its constructor refuses is an argument error at the path, in
    pydantic's words."""

    def built(v: Any, c: Call) -> Any:
        text = check(v, c)
        if text is BAD:
            return BAD
        try:
            return make(text)
        except Exception as e:
            if c.fail():
                if _is_validation_error(e):
                    c.add("is not valid: " + "; ".join(m for _, m in _paths(e, {})) + ".")
                else:
                    c.add(f"is not valid: {describe(e)}")
            return BAD

    return built
