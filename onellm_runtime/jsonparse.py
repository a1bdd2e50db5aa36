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
"""

from __future__ import annotations

import json
import re
from decimal import Decimal
from json.decoder import JSONDecodeError
from typing import Callable, cast

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


def _decode(doc: bytes | bytearray | memoryview) -> str:
    try:
        return bytes(doc).decode("utf-8")
    except UnicodeDecodeError as e:
        raise JsonError(f"the bytes are not valid UTF-8 (byte {e.start} is 0x{bytes(doc)[e.start]:02x})") from None


_PLAIN = _SCANNERS[False, False]
#: The scanner of ``read_object`` (a binder's per-call fast path calls it directly).
PLAIN_SCANNER: _Scan = _PLAIN


def read_object(text: str) -> Pairs | None:
    """The common case, fast: ``text`` is exactly one JSON object (no surrounding white
    space); its pairs, or None for anything else (then ``read`` gives the verdict)."""
    if text[:1] != "{":
        return None
    try:
        value, end = _PLAIN(text, 0)
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
    while True:
        try:
            value, end = _SCANNERS[exact, big](text, start)
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
