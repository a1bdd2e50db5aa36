"""The buffers an LSP client has open: their text, kept up to date from its changes, and file URIs.

Positions are counted as the client and server agreed at ``initialize``: in UTF-16 code
units (the LSP's default) or in code points (``utf-32``, Python's own string indices).
"""

from __future__ import annotations

import os
import re
import sys
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote, unquote, urlsplit

__all__ = ["UTF16", "UTF32", "Document", "apply_change", "offset", "to_path", "to_uri"]

UTF16 = "utf-16"
UTF32 = "utf-32"
#: The LSP's line ends: each starts a new line for positions.
_LINE_END = re.compile(r"\r\n|\r|\n")
_DRIVE = re.compile(r"^/[A-Za-z]:")


@dataclass
class Document:
    """An open buffer: what the client last sent."""

    uri: str
    version: int
    text: str


def offset(text: str, line: int, character: int, encoding: str = UTF16) -> int:
    """The string index of an LSP position in ``text`` (past a line's end: that line's end)."""
    if line < 0 or character < 0:
        raise ValueError(f"a position has no negative line or character ({line}, {character})")
    start = 0
    for _ in range(line):
        end = _LINE_END.search(text, start)
        if end is None:
            return len(text)
        start = end.end()
    end = _LINE_END.search(text, start)
    stop = end.start() if end is not None else len(text)
    if encoding != UTF16:
        return min(start + character, stop)
    index, units = start, 0
    while index < stop and units < character:
        units += 2 if ord(text[index]) > 0xFFFF else 1
        index += 1
    return index


def apply_change(text: str, change: dict[str, Any], encoding: str = UTF16) -> str:
    """``text`` after one ``TextDocumentContentChangeEvent``: the whole text, or a range replaced."""
    new = change["text"]
    if not isinstance(new, str):
        raise TypeError("a change's text is a string")
    where = change.get("range")
    if where is None:
        return new
    start = offset(text, where["start"]["line"], where["start"]["character"], encoding)
    end = offset(text, where["end"]["line"], where["end"]["character"], encoding)
    return text[:start] + new + text[max(start, end) :]


def to_path(uri: str) -> str | None:
    """The file system path of a ``file:`` URI (None for another scheme)."""
    parts = urlsplit(uri)
    if parts.scheme != "file":
        return None
    path = unquote(parts.path)
    if parts.netloc and path:  # a UNC share: file://server/share/file.py
        path = f"//{unquote(parts.netloc)}{path}"
    elif _DRIVE.match(path):  # file:///C:/dir/file.py
        path = path[1].lower() + path[2:]
    return path.replace("/", "\\") if sys.platform == "win32" else path


def to_uri(path: str) -> str:
    """The ``file:`` URI of an absolute path, quoted as editors write it."""
    if os.sep == "\\":
        path = path.replace("\\", "/")
    netloc = ""
    if path.startswith("//"):
        end = path.find("/", 2)
        netloc, path = (path[2:], "/") if end < 0 else (path[2:end], path[end:])
    if not path.startswith("/"):
        path = "/" + path
    if _DRIVE.match(path):
        return f"file://{quote(netloc)}/{path[1].lower()}:{quote(path[3:])}"
    return f"file://{quote(netloc)}{quote(path)}"
