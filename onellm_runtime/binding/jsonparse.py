"""A strict reader for the raw JSON document a model sends as a tool's arguments.

It is ``json``'s own C scanner, configured so that nothing ambiguous gets through and
nothing is lost that the binder needs:

- objects come back as **tuples of (key, value) pairs** (``object_pairs_hook=tuple``, a
  C-level call), so a duplicate key is still visible; the binder turns each object into a
  dict where it checks it, and reports a duplicate with its path. Arrays stay lists, so the
  two kinds cannot be confused;
- ``NaN``, ``Infinity`` and ``-Infinity`` are refused (``parse_constant``);
- with ``exact=True`` numbers with a fraction or an exponent come back as ``Decimal`` read
  from their text (for tools with a ``Decimal`` somewhere, or when an integer needs more
  precision than a float has); integers stay ``int``;
- an integer with more digits than the interpreter converts (``sys.get_int_max_str_digits``,
  4,300 by default) comes back as an integral ``Decimal`` instead of failing the whole
  document, so the binder can refuse it *at its path* for ``int`` and keep it for ``Decimal``;
- bytes must be UTF-8 (``UnicodeDecodeError`` names the byte); nesting too deep for the
  interpreter is an error, not a crash.

Calling the scanner directly (not ``json.loads``) also skips ``loads``' Python-level
overhead, which is most of the time spent on a small document.

A document longer than ``PIECES_OVER`` characters is read in pieces (``_in_pieces``): the
members of its outer containers are scanned some ``PIECE_CHARS`` characters at a time,
each piece its own call of the scanner. One call of the C scanner holds the GIL from start
to end (about 20 ms per MB, more for big numbers), so a thread reading a large document
would stall the event loop that whole time; between pieces other threads run. The pieces
give the same values as one scan; whenever a piece cannot be read, the whole document is
scanned at once, so every error and its position are the scanner's own.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable
from decimal import Decimal
from json.decoder import JSONDecodeError
from typing import cast

__all__ = ["JsonError", "read", "read_object", "Pairs"]

#: What an object reads as: its members in document order, duplicates kept.
Pairs = tuple[tuple[str, object], ...]


class JsonError(ValueError):
    """The document is not JSON the binder will read; the message says why and where."""


class _Constant(ValueError):
    """``NaN`` or ``Infinity`` in the document."""


def _refuse_constant(name: str) -> object:
    raise _Constant(name)


def _int_or_decimal(text: str) -> object:
    """``parse_int`` for documents whose integers may exceed the conversion limit."""
    try:
        return int(text)
    except ValueError:
        return Decimal(text)


_Scan = Callable[[str, int], "tuple[object, int]"]


def _scanner(exact: bool, big_ints: bool) -> _Scan:
    decoder = json.JSONDecoder(
        object_pairs_hook=tuple,
        parse_constant=_refuse_constant,
        parse_float=Decimal if exact else float,
        parse_int=_int_or_decimal if big_ints else int,
    )
    return cast(_Scan, getattr(decoder, "scan_once"))


_SCANNERS: dict[tuple[bool, bool], _Scan] = {(e, b): _scanner(e, b) for e in (False, True) for b in (False, True)}
_WHITESPACE = re.compile(r"[ \t\n\r]*")
_SKIP = _WHITESPACE.match

#: Documents longer than this (characters) are read in pieces.
PIECES_OVER = 64 * 1024
#: About how many characters one piece spans (about 0.5 ms of scanning).
PIECE_CHARS = 16 * 1024
#: Containers this many levels deep (and less) are read in pieces; deeper ones in one call.
#: Kept small: each level is a Python frame, so the pieces reach as deep as one scan does.
_PIECE_DEPTH = 3
_CLOSING = {"[": "]", "{": "}"}
#: Below this span a container's members are read one at a time.
_LEAST_SPAN = 256


class _NotInPieces(Exception):
    """The document could not be read in pieces: scan it whole for the verdict."""


def _members(text: str, pos: int, scan: _Scan, depth: int) -> tuple[object, int]:
    """The container opening at ``text[pos]``, its members read in pieces; (value, end).

    A piece runs from a member's start to a comma; wrapped in the container's brackets it
    scans to its very end only if that comma separates two members of this container (a
    comma in a string or a nested container leaves the piece unterminated or unbalanced).
    If it scans to a closing bracket before its end, that bracket is this container's own
    (the piece began at a member's start, so the scanner is in step with the text). If it
    does not scan, the next piece is half as long, down to one member read on its own; one
    that scans makes the next twice as long. So a failed piece costs at most about as much
    scanning as the pieces before it read."""
    opening = text[pos]
    closing = _CLOSING[opening]
    is_object = opening == "{"
    members: list[object] = []
    pos = _SKIP(text, pos + 1).end()  # type: ignore[union-attr]
    if text[pos : pos + 1] == closing:
        return (() if is_object else []), pos + 1
    span = PIECE_CHARS
    while True:
        cut = text.rfind(",", pos, pos + span)
        if cut > pos:
            wrapped = opening + text[pos:cut] + closing
            try:
                piece, end = scan(wrapped, 0)
            except (ValueError, StopIteration, RecursionError):
                piece, end = None, -1
            if end > 0:
                members.extend(cast("Iterable[object]", piece))
                if end < len(wrapped):  # the container's own closing bracket came first
                    return (tuple(members) if is_object else members), pos + end - 1
                pos = _SKIP(text, cut + 1).end()  # type: ignore[union-attr]
                span = min(span * 2, PIECE_CHARS)
                continue
            if span > _LEAST_SPAN:
                span //= 2
                continue
        if is_object:  # one member: "key": value
            key, pos = scan(text, pos)
            if type(key) is not str:
                raise _NotInPieces
            pos = _SKIP(text, pos).end()  # type: ignore[union-attr]
            if text[pos : pos + 1] != ":":
                raise _NotInPieces
            pos = _SKIP(text, pos + 1).end()  # type: ignore[union-attr]
            value, pos = _value(text, pos, scan, depth)
            members.append((key, value))
        else:
            value, pos = _value(text, pos, scan, depth)
            members.append(value)
        pos = _SKIP(text, pos).end()  # type: ignore[union-attr]
        after = text[pos : pos + 1]
        if after == closing:
            return (tuple(members) if is_object else members), pos + 1
        if after != ",":
            raise _NotInPieces
        pos = _SKIP(text, pos + 1).end()  # type: ignore[union-attr]


def _value(text: str, pos: int, scan: _Scan, depth: int) -> tuple[object, int]:
    if depth < _PIECE_DEPTH and text[pos : pos + 1] in _CLOSING:
        return _members(text, pos, scan, depth + 1)
    return scan(text, pos)


def _in_pieces(scan: _Scan) -> _Scan:
    """``scan`` for long documents: the same values, errors and end, read in pieces."""

    def pieces(text: str, start: int) -> tuple[object, int]:
        if len(text) - start <= PIECES_OVER or text[start : start + 1] not in _CLOSING:
            return scan(text, start)
        try:
            return _members(text, start, scan, 1)
        except (_NotInPieces, ValueError, StopIteration, RecursionError):
            return scan(text, start)  # the scanner's own verdict (or value)

    return pieces


_PIECED: dict[tuple[bool, bool], _Scan] = {key: _in_pieces(scan) for key, scan in _SCANNERS.items()}


def _decode(doc: bytes | bytearray | memoryview) -> str:
    try:
        return bytes(doc).decode("utf-8")
    except UnicodeDecodeError as e:
        raise JsonError(f"the bytes are not valid UTF-8 (byte {e.start} is 0x{bytes(doc)[e.start]:02x})") from None


_PLAIN = _SCANNERS[False, False]
#: The scanner of ``read_object`` (a binder's per-call fast path calls it directly, on a
#: document of at most ``PIECES_OVER`` characters).
PLAIN_SCANNER: _Scan = _PLAIN
#: ``PLAIN_SCANNER`` for longer documents: reads them in pieces.
PLAIN_PIECES: _Scan = _PIECED[False, False]


def read_object(text: str) -> Pairs | None:
    """The common case, fast: ``text`` is exactly one JSON object (no surrounding white
    space); its pairs, or None for anything else (then ``read`` gives the verdict)."""
    if text[:1] != "{":
        return None
    try:
        value, end = (_PLAIN if len(text) <= PIECES_OVER else PLAIN_PIECES)(text, 0)
    except (ValueError, StopIteration, RecursionError):
        return None
    if end != len(text):
        return None
    return value  # type: ignore[return-value]


def read(doc: str | bytes | bytearray | memoryview, *, exact: bool = False) -> object:
    """Parse one JSON document strictly (see the module docstring); raises ``JsonError``."""
    text = doc if isinstance(doc, str) else _decode(doc)
    start = 0 if text[:1] == "{" else _WHITESPACE.match(text, 0).end()  # type: ignore[union-attr]
    big = False
    scanners = _SCANNERS if len(text) - start <= PIECES_OVER else _PIECED
    while True:
        try:
            value, end = scanners[exact, big](text, start)
            break
        except StopIteration as e:
            raise JsonError(str(JSONDecodeError("Expecting value", text, e.value))) from None
        except JSONDecodeError as e:
            raise JsonError(str(e)) from None
        except _Constant as e:
            raise JsonError(f"{e.args[0]} is not a JSON number (JSON has no NaN or Infinity)") from None
        except RecursionError:
            raise JsonError("the document is nested too deeply") from None
        except ValueError as e:
            # An integer over the interpreter's digit limit: read it again, keeping such
            # integers as Decimal so the binder can say which argument it was.
            if big:
                raise JsonError(str(e)) from None
            big = True
    if end != len(text):
        end = _WHITESPACE.match(text, end).end()  # type: ignore[union-attr]
        if end != len(text):
            raise JsonError(str(JSONDecodeError("Extra data", text, end)))
    return value
