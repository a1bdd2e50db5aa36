"""Reading each JSON-RPC frame ourselves before the SDK parses it.

The SDK parses a frame with pydantic: a duplicate key keeps its last value, and a frame
nested too deep or holding an integer over the interpreter's digit limit fails to parse
as a whole, so its request gets no answer at all. The binder's guarantees (a duplicate key
refused at its path, depth and big integers refused as argument errors) need the
arguments as the client wrote them. So every frame is first read here:

- the envelope's members (and, for ``tools/call``, those of ``params``) are found with
  ``json``'s C scanner, numbers kept as their text: the cost is that of ``json.loads`` on the
  frame, an integer of any length reads, and a value nested past the interpreter's depth
  limit stops the scan at once (that request is refused, naming the member);
- a member given twice in the envelope or in ``params`` is refused (``Invalid Request``);
- the ``arguments`` of a ``tools/call`` are replaced by ``{RAW_KEY: "<their text>"}``: the
  SDK then parses a string, and the server hands that text, unchanged, to the binder;
- an ``id`` that is not a string or an integer the interpreter reads is answered with
  ``"id": null``, as JSON-RPC asks when the id cannot be determined.

What the SDK still parses (the rest of the envelope, the other methods' params) is checked
by the transport, which answers a frame the SDK refuses with that request's id.
"""

from __future__ import annotations

import json
import json.scanner
import re
from dataclasses import dataclass

__all__ = ["PARSE_ERROR", "INVALID_REQUEST", "RAW_KEY", "Frame", "Refusal", "read_frame"]

PARSE_ERROR = -32700
INVALID_REQUEST = -32600

#: The one key of the object that stands in for a ``tools/call``'s arguments: ``/`` is in no
#: parameter name (they are Python identifiers), so it cannot be a real argument.
RAW_KEY = "onellm/raw-arguments"

_SPACE = re.compile(r"[ \t\n\r]*")
#: An object's opening brace and the space after it; group 1 the closing brace of an empty object.
_OPEN = re.compile(r"\{[ \t\n\r]*(\}?)")
#: A member's key, its colon and the space around them, in one match, the key in group 1: a key
#: without escapes or control characters (its text is its value, no JSON read needed), or any
#: JSON string (read with ``json.loads``).
_PLAIN_MEMBER = re.compile(r'"([^"\\\x00-\x1f]*)"[ \t\n\r]*:[ \t\n\r]*')
_ESCAPED_MEMBER = re.compile(r'("[^"\\]*(?:\\.[^"\\]*)*")[ \t\n\r]*:[ \t\n\r]*', re.DOTALL)
#: What follows a member's value: space, then the comma before the next member (and the space
#: after it), or the object's closing brace (group 1).
_AFTER_VALUE = re.compile(r"[ \t\n\r]*(?:,[ \t\n\r]*|(\}))")

#: ``json``'s C scanner, used only to find where a value ends: numbers are kept as their text
#: (no conversion, so an integer of any length reads), everything else as ``json.loads`` reads it.
_SCAN = json.scanner.make_scanner(json.JSONDecoder(parse_int=str, parse_float=str))  # type: ignore[arg-type]

RequestId = str | int | None


@dataclass(frozen=True)
class Refusal:
    """A frame answered with a JSON-RPC error instead of being served."""

    id: RequestId
    code: int
    message: str

    def answer(self) -> dict[str, object]:
        return {"jsonrpc": "2.0", "id": self.id, "error": {"code": self.code, "message": self.message}}


@dataclass(frozen=True)
class Frame:
    """A frame to hand the SDK: its text (a call's arguments wrapped), and its request id if it is a request."""

    text: str
    id: RequestId = None
    is_request: bool = False


class _Broken(Exception):
    """The frame is not JSON the scan can follow."""


def _skip_space(text: str, pos: int) -> int:
    match = _SPACE.match(text, pos)
    assert match is not None  # the pattern matches the empty string
    return match.end()


class _TooDeep(Exception):
    """A member's value is nested deeper than the interpreter reads (the binder refuses it too);
    the members read before it, and where its value starts."""

    def __init__(self, member: str, start: int) -> None:
        self.member = member
        self.start = start
        self.before: list[tuple[str, int, int]] = []


def _value_end(text: str, pos: int, member: str) -> int:
    """Where the JSON value starting at ``pos`` ends; one pass of the C scanner, which stops at
    the interpreter's depth limit, so a deep value costs no more than ``json.loads`` pays."""
    try:
        _, end = _SCAN(text, pos)
    except RecursionError:
        raise _TooDeep(member, pos) from None
    except (ValueError, StopIteration):
        raise _Broken from None
    return int(end)


def _members(text: str, pos: int) -> tuple[list[tuple[str, int, int]], int]:
    """The members of the object at ``pos``: (key, value start, value end); and the object's end."""
    opened = _OPEN.match(text, pos)
    if opened is None:
        raise _Broken
    found: list[tuple[str, int, int]] = []
    if opened.group(1):
        return found, opened.end()
    pos = opened.end()
    while True:
        key = _PLAIN_MEMBER.match(text, pos)
        if key is not None:
            name = key.group(1)
        else:
            key = _ESCAPED_MEMBER.match(text, pos)
            if key is None:
                raise _Broken
            try:
                name = json.loads(key.group(1))
            except ValueError:  # an invalid escape or a control character in the key
                raise _Broken from None
        start = key.end()
        try:
            end = _value_end(text, start, name)
        except _TooDeep as deep:
            deep.before = found
            raise
        found.append((name, start, end))
        after = _AFTER_VALUE.match(text, end)
        if after is None:
            raise _Broken
        pos = after.end()
        if after.group(1):
            return found, pos


def _repeated(members: list[tuple[str, int, int]]) -> str | None:
    seen: set[str] = set()
    for key, _, _ in members:
        if key in seen:
            return key
        seen.add(key)
    return None


def _small(text: str, start: int, end: int) -> object:
    """A short member's value (``id``, ``method``), or None when it is not JSON Python reads."""
    try:
        return json.loads(text[start:end])
    except (ValueError, RecursionError):
        return None


def _id_of(text: str, members: list[tuple[str, int, int]]) -> RequestId:
    """The request's id when it is among ``members`` and is a string or an integer Python reads."""
    for key, start, stop in members:
        if key == "id":
            value = _small(text, start, stop)
            if isinstance(value, (str, int)) and not isinstance(value, bool):
                return value
    return None


def _deepest(text: str, deep: _TooDeep) -> str:
    """Which member is nested too deeply: ``params.arguments`` rather than ``params`` where it can tell."""
    where = deep.member
    if where == "params":
        try:
            _members(text, deep.start)
        except _TooDeep as inner:
            where = f"params.{inner.member}"
        except _Broken:
            pass
    return f"'{where}' is nested too deeply to read"


def read_frame(text: str) -> Frame | Refusal | None:
    """The frame to hand the SDK, a refusal to answer, or None for a blank line."""
    pos = _skip_space(text, 0)
    if pos == len(text):
        return None
    if text[pos] == "[":
        return Refusal(None, INVALID_REQUEST, "Invalid Request: batches are not served; send one message per frame.")
    try:
        members, end = _members(text, pos)
    except _Broken:
        return Refusal(None, PARSE_ERROR, "Parse error: the frame is not one JSON object.")
    except _TooDeep as deep:
        return Refusal(_id_of(text, deep.before), INVALID_REQUEST, f"Invalid Request: {_deepest(text, deep)}.")
    if _skip_space(text, end) != len(text):
        return Refusal(None, PARSE_ERROR, "Parse error: the frame holds more than one JSON value.")
    table = {key: (start, stop) for key, start, stop in members}
    request_id = _id_of(text, members)
    repeated = _repeated(members)
    if repeated is not None:
        return Refusal(
            None if repeated == "id" else request_id,
            INVALID_REQUEST,
            f"Invalid Request: member '{repeated}' is given more than once.",
        )
    if "id" in table and request_id is None:
        return Refusal(None, INVALID_REQUEST, "Invalid Request: the id must be a string or an integer.")
    unchanged = Frame(text, request_id, "id" in table and "method" in table)
    if "method" not in table or _small(text, *table["method"]) != "tools/call" or "params" not in table:
        return unchanged
    try:
        params, _ = _members(text, table["params"][0])
    except _Broken:
        return Refusal(request_id, INVALID_REQUEST, "Invalid Request: the params of tools/call must be an object.")
    repeated = _repeated(params)
    if repeated is not None:
        return Refusal(
            request_id, INVALID_REQUEST, f"Invalid Request: params member '{repeated}' is given more than once."
        )
    for key, value_start, value_end in params:
        if key == "arguments":
            raw = json.dumps(text[value_start:value_end], ensure_ascii=False)
            return Frame(f'{text[:value_start]}{{"{RAW_KEY}":{raw}}}{text[value_end:]}', request_id, True)
    return unchanged
