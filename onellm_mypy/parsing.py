"""Can a file be read as Python at all? Asked before mypy sees it.

mypy stops the whole build at the first file it cannot decode or parse (a blocking
``CompileError``), so one broken file would hide every finding in the others. Each file is
decoded (honouring its coding cookie, as Python does) and parsed with ``ast`` first; a
failure becomes one ``syntax`` finding at the place Python names. A file that parses is
handed on with its bytes and tree (``Readable``), so the plugin does not parse it again.
"""

from __future__ import annotations

import ast
import io
import os
import sys
import tokenize
import warnings
from typing import NamedTuple

__all__ = ["Readable", "Unparsable", "read_python", "unparsable"]

SYNTAX = "syntax"


class Unparsable(NamedTuple):
    """Why a file is not Python, in the shape of a finding (column 1-based)."""

    path: str
    line: int
    column: int
    code: str
    message: str


class Readable(NamedTuple):
    """A file Python reads: its bytes, their stamp when read, and the tree parsed from them
    (None unless the file is UTF-8, the one encoding whose parse the plugin takes as its own)."""

    data: bytes
    stamp: tuple[int, int]
    tree: ast.Module | None


def _position(data: bytes, offset: int) -> tuple[int, int]:
    line_start = data.rfind(b"\n", 0, offset) + 1
    return data.count(b"\n", 0, offset) + 1, offset - line_start + 1


def unparsable(path: str, python_version: tuple[int, int]) -> Unparsable | None:
    """The reason ``path`` cannot be read as Python source, or ``None`` when it can."""
    found = read_python(path, python_version)
    return found if isinstance(found, Unparsable) else None


def read_python(path: str, python_version: tuple[int, int]) -> Unparsable | Readable:
    """Why ``path`` cannot be read as Python source, or what reading it gave.

    It is parsed with the grammar of ``python_version`` (as mypy parses it), never
    newer than the running interpreter's.
    """
    try:
        with open(path, "rb") as f:
            st = os.fstat(f.fileno())
            data = f.read()
    except OSError as e:
        return Unparsable(path, 1, 1, SYNTAX, f"Cannot read the file: {e.strerror}")
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError as e:
        if not str(e.msg).startswith("invalid or missing encoding declaration"):
            return Unparsable(path, 1, 1, SYNTAX, str(e.msg))  # a coding cookie naming no codec
        encoding = "utf-8"  # no cookie, and the first lines are not UTF-8: the decoder says where
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as e:
        line, column = _position(data, e.start)
        return Unparsable(
            path, line, column, SYNTAX, f"The file is not valid {encoding}: byte 0x{data[e.start]:02x}: {e.reason}"
        )
    version = min(python_version, sys.version_info[:2])
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # SyntaxWarning for odd escapes is not an error
            tree = ast.parse(text, filename=path, feature_version=version)
    except SyntaxError as e:
        return Unparsable(path, e.lineno or 1, e.offset or 1, SYNTAX, str(e.msg))
    except (ValueError, RecursionError, MemoryError) as e:  # null bytes; nesting past the parser's limits
        return Unparsable(path, 1, 1, SYNTAX, f"Cannot parse the file: {type(e).__name__}: {e}")
    return Readable(data, (st.st_mtime_ns, st.st_size), tree if encoding in ("utf-8", "utf-8-sig") else None)
