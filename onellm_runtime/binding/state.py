"""Per-call state: the error a call raises, the bound result, the faults a check signals,
and one call's bookkeeping."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from .texts import format_path

#: How many faults one error lists before ``... and N more.``
MAX_REPORTED = 20


class ArgumentError(ValueError):
    """The arguments do not fit the tool's schema.

    ``path`` is the first fault's path (``""`` for a document-level fault); ``errors``
    holds every ``(path, message)`` found; ``str()`` is the messages, one per line.
    """

    def __init__(self, message: str, path: str = "", errors: Sequence[tuple[str, str]] | None = None) -> None:
        super().__init__(message)
        self.path = path
        self.errors: list[tuple[str, str]] = list(errors) if errors else [(path, message)]


class BoundCall(NamedTuple):
    """What binding produced: the keyword arguments, and the call's invocation mode."""

    arguments: dict[str, object]
    #: ``"wait"``, or ``"background"`` when a ``model_choice`` tool was asked to run as a job.
    invocation_mode: str


class Fault(Exception):
    """The fast pass met a fault: run the collecting pass."""


class NeedExact(Exception):
    """An integer was read through a float that cannot hold it: read the document exactly."""


class _BadType:
    __slots__ = ()

    def __repr__(self) -> str:
        return "<bad>"


#: What a closure returns for a faulty value in the collecting pass.
BAD: Any = _BadType()
MISSING: Any = object()


class Call:
    """One call's state: which pass, how the document was read, and the faults so far."""

    __slots__ = ("collect", "raw", "exact", "openai", "path", "errors", "count", "mode")

    def __init__(self, raw: bool, exact: bool, openai: bool, collect: bool) -> None:
        self.collect: bool = collect
        self.raw: bool = raw
        self.exact: bool = exact
        self.openai: bool = openai
        self.mode: str = "wait"
        if collect:  # the fast pass never reaches a path or a message
            self.path: list[object] = []
            self.errors: list[tuple[str, str]] = []
            self.count: int = 0

    def fail(self) -> bool:
        """At a fault: raise in the fast pass; in the collecting pass, whether to write a message."""
        if not self.collect:
            raise Fault
        self.count += 1
        return self.count <= MAX_REPORTED

    def add(self, text: str, *extra: object) -> None:
        path = format_path((*self.path, *extra))
        self.errors.append((path, f"Argument '{path}' {text}"))

    def where(self, *extra: object) -> str:
        return format_path((*self.path, *extra))


Check = Callable[[Any, Call], Any]
#: ``type``, typed so that the type of an ``Any`` value is ``type[Any]`` (not "unknown") for pyright.
type_of: Callable[[object], type[Any]] = type
