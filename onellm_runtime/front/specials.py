"""The ``typing`` special forms the runtime front end meets, each as ``typing`` and
``typing_extensions`` spell it (one set per form, compared by identity)."""

from __future__ import annotations

import types
import typing
from collections import abc

import typing_extensions

UNIONS: set[object] = {typing.Union, types.UnionType}
ANNOTATED: set[object] = {typing.Annotated, typing_extensions.Annotated}
LITERALS: set[object] = {typing.Literal, typing_extensions.Literal}
TD_WRAPPERS: set[object] = {
    getattr(m, n) for m in (typing, typing_extensions) for n in ("Required", "NotRequired", "ReadOnly") if hasattr(m, n)
}
REQUIRED: set[object] = {getattr(m, "Required") for m in (typing, typing_extensions) if hasattr(m, "Required")}
NOT_REQUIRED: set[object] = {
    getattr(m, "NotRequired") for m in (typing, typing_extensions) if hasattr(m, "NotRequired")
}
CALLABLE: object = abc.Callable
