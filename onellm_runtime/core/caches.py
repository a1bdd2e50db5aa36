"""The one kind of dict memo the package keeps at module level: bounded in size, emptied when full.

Every module-level dict memo (lowered annotations, class forms, record schemas, record depths,
marker look-ups, compiled annotation texts, ...) is one of these, so none grows with the
number of tools, classes or annotations a process has seen. (Memos of one function's results
use ``functools.lru_cache``; the binder's memo holds its tools by weak reference instead.) Emptying the whole memo when it
is full (rather than evicting one entry) keeps a hit a plain ``dict`` look-up and costs nothing
per hit; a miss after a clear recomputes what it needs. A memo keyed by ``id(obj)`` stores the
object beside its value and checks it on a hit, so a reused id never answers for another object.
"""

from __future__ import annotations

from typing import TypeVar

__all__ = ["BoundedCache", "DEFAULT_LIMIT"]

K = TypeVar("K")
V = TypeVar("V")

#: The entries a memo holds unless it says otherwise.
DEFAULT_LIMIT = 4096


class BoundedCache(dict[K, V]):
    """A ``dict`` of at most ``limit`` entries: ``put`` empties it first when it is full.

    Read it as a dict (``get``, ``[]``, ``in``); store through ``put`` only.
    """

    __slots__ = ("limit",)

    def __init__(self, limit: int = DEFAULT_LIMIT) -> None:
        super().__init__()
        self.limit: int = limit

    def put(self, key: K, value: V) -> V:
        """Store ``value`` under ``key`` (emptying the memo first when it is full); ``value``."""
        if len(self) >= self.limit:
            self.clear()
        self[key] = value
        return value
