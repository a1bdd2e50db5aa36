"""Classes from other libraries, and onellm's own runtime objects, that a tool's types name:
one row per class, looked up by full name, so both front ends read them alike.

A row either honours the class as a string type (pydantic's ``EmailStr`` and URL types, read
as ``str`` with the markers the contract's rule-zero table gives them) or refuses it with the
reason its message names (a secret, a runtime object). The runtime meets the class object,
the static side the name a type resolves to; rows list every spelling either side meets
(typeshed's ``_thread.LockType`` where the runtime has the function ``_thread.allocate_lock``).
pydantic is never imported: a URL type's class object is the one the user's code imported.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from .. import annotations as ann
from . import markers
from .model import Annotated, Marker, Scalar, ScalarKind, TypeNode, Unsupported

__all__ = ["ForeignClass", "TABLE", "FULLNAMES", "node_for", "HTTP_PATTERN", "HTTP_URL_MAX_LENGTH"]

#: An http(s) URL, as pydantic's ``AnyHttpUrl`` and ``HttpUrl`` accept them (any letter case).
HTTP_PATTERN = "^[Hh][Tt][Tt][Pp][Ss]?://"
#: pydantic's ``HttpUrl`` limit (``UrlConstraints(max_length=2083)``).
HTTP_URL_MAX_LENGTH = 2083

Reading = Literal["email", "url", "http_url", "http_url_limited", "secret", "runtime_object"]


@dataclass(frozen=True)
class ForeignClass:
    """One class: the full names it is met by, how it reads, and its name in messages."""

    fullnames: tuple[str, ...]
    reading: Reading
    shown: str


_PD = "pydantic"
_RT = "onellm_runtime"

TABLE: tuple[ForeignClass, ...] = (
    ForeignClass((f"{_PD}.networks.EmailStr",), "email", "EmailStr"),
    ForeignClass((f"{_PD}.networks.AnyUrl",), "url", "AnyUrl"),
    ForeignClass((f"{_PD}.networks.AnyHttpUrl",), "http_url", "AnyHttpUrl"),
    ForeignClass((f"{_PD}.networks.HttpUrl",), "http_url_limited", "HttpUrl"),
    ForeignClass((f"{_PD}.types.SecretStr",), "secret", "SecretStr"),
    ForeignClass((f"{_PD}.types.SecretBytes",), "secret", "SecretBytes"),
    ForeignClass((f"{_RT}.invoking.invoker.ToolInvoker",), "runtime_object", "ToolInvoker"),
    ForeignClass((f"{_RT}.toolset.ToolSet",), "runtime_object", "ToolSet"),
    ForeignClass((f"{_RT}.tool.Tool",), "runtime_object", "Tool"),
    ForeignClass(("asyncio.events.AbstractEventLoop",), "runtime_object", "asyncio.AbstractEventLoop"),
    ForeignClass(("asyncio.base_events.BaseEventLoop",), "runtime_object", "asyncio.BaseEventLoop"),
    ForeignClass(("logging.Logger",), "runtime_object", "logging.Logger"),
    ForeignClass(("logging.LoggerAdapter",), "runtime_object", "logging.LoggerAdapter"),
    ForeignClass(("_thread.LockType", "_thread.lock", "_thread.allocate_lock"), "runtime_object", "threading.Lock"),
    ForeignClass(("_thread.RLock", "threading.RLock", "threading._RLock"), "runtime_object", "threading.RLock"),
    ForeignClass(("asyncio.locks.Lock",), "runtime_object", "asyncio.Lock"),
)

_BY_NAME: dict[str, ForeignClass] = {name: row for row in TABLE for name in row.fullnames}
#: Every full name a row is met by (the static side asks before it follows an alias).
FULLNAMES = frozenset(_BY_NAME)


def _marker(cls: type, *values: object) -> Marker:
    """The marker ``cls(*values)`` is, read through its row of the marker table."""
    for spec in markers.TABLE:
        if cls in spec.runtime:
            found = spec.reading(values)
            assert found is not None
            return found
    raise KeyError(cls)


def _string(made: object, *extra: Marker) -> TypeNode:
    """``str`` with these markers; ``made`` is the class the binder builds from the text (None: the text)."""
    return Annotated(Scalar(ScalarKind.STR, make=made), extra)


def node_for(fullname: str, made: object) -> TypeNode | None:
    """The node of a class in the table (None: not in it). ``made`` is the class object the
    runtime met (the binder constructs a URL type's value with it); None on the static side."""
    row = _BY_NAME.get(fullname)
    if row is None:
        return None
    reading = row.reading
    if reading == "email":
        return _string(None, _marker(ann.Email))
    if reading == "url":
        return _string(made, _marker(ann.Url))
    if reading == "http_url":
        return _string(made, _marker(ann.Url), _marker(ann.Pattern, HTTP_PATTERN))
    if reading == "http_url_limited":
        return _string(
            made, _marker(ann.Url), _marker(ann.MaxLength, HTTP_URL_MAX_LENGTH), _marker(ann.Pattern, HTTP_PATTERN)
        )
    return Unsupported(reading, row.shown)
