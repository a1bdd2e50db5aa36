"""The string forms of the contract's Types table: read them strictly, write them back.

One module for both directions, so what the binder accepts and what a result is written
as cannot drift apart. Every reader returns the value, or None when the text is not in
the form; it never raises. Patterns are matched with ``fullmatch`` on ASCII classes, so a
trailing newline or a non-ASCII digit never slips through (JSON Schema reads patterns as
ECMA-262, where ``$`` is the very end and ``\\d`` is ASCII).

Decisions the contract leaves to us, and why:

- ``date-time``: RFC 3339 with an offset; ``T``/``Z`` may be lower case (RFC 3339 5.6
  allows it); the fraction may have any number of digits and is truncated to microseconds
  (Python's resolution); leap seconds (``:60``) and year 0000 are refused because Python
  cannot represent them.
- ``email``: exactly one ``@`` with a non-empty local part and domain, and no white space or
  control character anywhere. Full RFC 5322 (quoted local parts, comments) is not accepted:
  a model asked for an address should send a plain one.
- ``uri``: an absolute URI by the RFC 3986 grammar (``scheme:`` then hier-part, query and
  fragment), ASCII only, percent-escapes well formed. Relative references are refused.
"""

from __future__ import annotations

import binascii
import datetime as dt
import re
import sys
import uuid as uuidlib
from collections.abc import Callable
from typing import TypeVar

_T = TypeVar("_T")

__all__ = [
    "read_date",
    "read_datetime",
    "read_time",
    "read_timedelta",
    "read_uuid",
    "read_base64",
    "is_email",
    "is_uri",
    "reader",
    "IPV4_GRAMMAR",
    "IPV6_GRAMMAR",
    "write_timedelta",
    "write_base64",
    "FORMAT_HINTS",
]

#: How the formats the markers write (``Email``, ``Url``) are described in an error message (what
#: to send instead); a scalar type's words are its row's ``hint`` (``core/scalars.py``).
FORMAT_HINTS = {
    "email": "an email address like name@example.com",
    "uri": "an absolute URI with a scheme, like https://example.com/path",
}

_DATE = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})")
_DATETIME = re.compile(
    r"([0-9]{4})-([0-9]{2})-([0-9]{2})[Tt]([0-9]{2}):([0-9]{2}):([0-9]{2})(?:\.([0-9]+))?"
    r"(?:[Zz]|([+-])([0-9]{2}):([0-9]{2}))"
)
_TIME = re.compile(r"([0-9]{2}):([0-9]{2}):([0-9]{2})(?:\.([0-9]{1,6}))?")
_TIMEDELTA = re.compile(r"(-)?(?:([0-9]+)\.)?([0-9]{2}):([0-9]{2}):([0-9]{2})(?:\.([0-9]{1,6}))?")
_UUID = re.compile(r"[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}")
#: The base64 alphabet, as a single-character loop (constant memory, unlike a repeated group).
_BASE64_ALPHABET = re.compile(r"[A-Za-z0-9+/]*")
_EMAIL = re.compile(r"[^@\s\x00-\x1f\x7f]+@[^@\s\x00-\x1f\x7f]+")


def _micro(fraction: str | None) -> int:
    return int((fraction or "")[:6].ljust(6, "0"))


def read_date(text: str) -> dt.date | None:
    m = _DATE.fullmatch(text)
    if m is None:
        return None
    try:
        return dt.date(int(m[1]), int(m[2]), int(m[3]))
    except ValueError:
        return None


def read_datetime(text: str) -> dt.datetime | None:
    """An aware datetime; a ``-00:00`` offset ("unknown local offset") reads as UTC."""
    m = _DATETIME.fullmatch(text)
    if m is None:
        return None
    tz = dt.timezone.utc
    if m[8] is not None:
        hours, minutes = int(m[9]), int(m[10])
        if hours > 23 or minutes > 59:
            return None
        offset = dt.timedelta(hours=hours, minutes=minutes)
        tz = dt.timezone(-offset if m[8] == "-" else offset) if offset else dt.timezone.utc
    try:
        return dt.datetime(int(m[1]), int(m[2]), int(m[3]), int(m[4]), int(m[5]), int(m[6]), _micro(m[7]), tzinfo=tz)
    except ValueError:
        return None


def read_time(text: str) -> dt.time | None:
    m = _TIME.fullmatch(text)
    if m is None:
        return None
    try:
        return dt.time(int(m[1]), int(m[2]), int(m[3]), _micro(m[4]))
    except ValueError:
        return None


def read_timedelta(text: str) -> dt.timedelta | None:
    """C#'s ``TimeSpan`` "c" form; hours, minutes and seconds are read as written (``25:00:00`` is 25 h)."""
    m = _TIMEDELTA.fullmatch(text)
    if m is None or (m[2] is not None and len(m[2]) > 12):
        return None
    try:
        span = dt.timedelta(
            days=int(m[2] or 0), hours=int(m[3]), minutes=int(m[4]), seconds=int(m[5]), microseconds=_micro(m[6])
        )
        return -span if m[1] else span  # timedelta.min is -999999999 days exactly: -(that + 1 s) overflows
    except OverflowError:
        return None


def read_uuid(text: str) -> uuidlib.UUID | None:
    if _UUID.fullmatch(text) is None:
        return None
    return uuidlib.UUID(text)


def read_base64(text: str) -> bytes | None:
    """Standard base64 (RFC 4648 section 4): the alphabet, whole 4-character groups, ``=``
    padding only at the end and only as much as the last group needs. Costs the decoded
    bytes and no more (no regex over the whole text)."""
    n = len(text)
    if n % 4 or text[n - 3 : n - 2] == "=":  # padding is at most "==" (strict mode allows "AAAA====")
        return None
    return _decode_base64(text)


def _decode_checked(text: str) -> bytes | None:
    """3.10 (no strict mode, which skips stray characters): the alphabet checked first."""
    end = len(text) - (2 if text.endswith("==") else 1 if text.endswith("=") else 0)
    if _BASE64_ALPHABET.fullmatch(text, 0, end) is None:
        return None
    try:
        return binascii.a2b_base64(text)
    except (binascii.Error, ValueError):
        return None


if sys.version_info >= (3, 11):

    def _decode_strictly(text: str) -> bytes | None:
        """3.11+: ``binascii``'s strict mode refuses stray characters and misplaced padding."""
        try:
            return binascii.a2b_base64(text, strict_mode=True)
        except (binascii.Error, ValueError):  # ValueError: a non-ASCII character
            return None

    _decode_base64 = _decode_strictly
else:
    _decode_base64 = _decode_checked


def is_email(text: str) -> bool:
    return _EMAIL.fullmatch(text) is not None


# RFC 3986, section 3 and appendix A. Character classes are single-character loops, so a
# long string costs linear time; percent-escapes are checked by a second pattern.
_UNRESERVED_SUB = r"A-Za-z0-9\-._~!$&'()*+,;="
_H16 = r"[0-9A-Fa-f]{1,4}"
_DEC_OCTET = r"(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9][0-9]|[0-9])"
#: RFC 3986's IPv4address: four decimal octets, none with a leading zero.
IPV4_GRAMMAR = rf"{_DEC_OCTET}(?:\.{_DEC_OCTET}){{3}}"
_LS32 = rf"(?:{_H16}:{_H16}|{IPV4_GRAMMAR})"
#: RFC 3986's IPv6address: the text forms of RFC 4291 (no zone index).
IPV6_GRAMMAR = "|".join(
    (
        rf"(?:{_H16}:){{6}}{_LS32}",
        rf"::(?:{_H16}:){{5}}{_LS32}",
        rf"(?:{_H16})?::(?:{_H16}:){{4}}{_LS32}",
        rf"(?:(?:{_H16}:){{0,1}}{_H16})?::(?:{_H16}:){{3}}{_LS32}",
        rf"(?:(?:{_H16}:){{0,2}}{_H16})?::(?:{_H16}:){{2}}{_LS32}",
        rf"(?:(?:{_H16}:){{0,3}}{_H16})?::{_H16}:{_LS32}",
        rf"(?:(?:{_H16}:){{0,4}}{_H16})?::{_LS32}",
        rf"(?:(?:{_H16}:){{0,5}}{_H16})?::{_H16}",
        rf"(?:(?:{_H16}:){{0,6}}{_H16})?::",
    )
)
_IP_LITERAL = rf"\[(?:{IPV6_GRAMMAR}|[vV][0-9A-Fa-f]+\.[{_UNRESERVED_SUB}:]+)\]"
_AUTHORITY = rf"(?:[{_UNRESERVED_SUB}:%]*@)?(?:{_IP_LITERAL}|[{_UNRESERVED_SUB}%]*)(?::[0-9]*)?"
_URI = re.compile(
    rf"[A-Za-z][A-Za-z0-9+.\-]*:"
    rf"(?://{_AUTHORITY}(?:/[{_UNRESERVED_SUB}:@%/]*)?|(?!//)[{_UNRESERVED_SUB}:@%/]*)"
    rf"(?:\?[{_UNRESERVED_SUB}:@%/?]*)?(?:#[{_UNRESERVED_SUB}:@%/?]*)?"
)
_BAD_ESCAPE = re.compile(r"%(?![0-9A-Fa-f]{2})")


def reader(grammar: str, build: Callable[[str], _T]) -> Callable[[str], _T | None]:
    """A reader of the texts that match ``grammar`` in full, each built into its value by ``build``.

    Like every reader here it returns None for any other text, and for one ``build`` refuses
    with a ``ValueError``; the grammar is matched first, so ``build`` never widens the form.
    """
    match = re.compile(f"(?:{grammar})").fullmatch

    def read(text: str) -> _T | None:
        if match(text) is None:
            return None
        try:
            return build(text)
        except ValueError:
            return None

    return read


def is_uri(text: str) -> bool:
    return _URI.fullmatch(text) is not None and _BAD_ESCAPE.search(text) is None


def write_timedelta(span: dt.timedelta) -> str:
    """``[-][d.]hh:mm:ss[.ffffff]``, the form ``read_timedelta`` reads."""
    negative = span < dt.timedelta(0)
    if negative:
        span = -span
    hours, rest = divmod(span.seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    out = f"{hours:02d}:{minutes:02d}:{seconds:02d}"
    if span.days:
        out = f"{span.days}.{out}"
    if span.microseconds:
        out += f".{span.microseconds:06d}"
    return "-" + out if negative else out


def write_base64(data: bytes) -> str:
    return binascii.b2a_base64(data, newline=False).decode("ascii")
