"""Placeholder: the strict binder (issue 3) replaces this module."""

from __future__ import annotations

from typing import Callable, Mapping

from .model import ToolModel

Binder = Callable[[str | bytes | Mapping[str, object], str | None], dict[str, object]]


class ArgumentError(ValueError):
    def __init__(self, message: str, path: str = "") -> None:
        super().__init__(message)
        self.path = path


def compile_binder(tool: ToolModel) -> Binder:
    raise NotImplementedError("the binder is not written yet")
