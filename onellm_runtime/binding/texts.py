"""The texts of the binder's messages: paths, value excerpts, kinds, and the phrases the checks share."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from decimal import Decimal
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .state import Call

#: How many characters of a bad value a message quotes.
_EXCERPT = 40
SURROGATE = re.compile("[\ud800-\udfff]")
#: ``type``, typed so that the type of an ``Any`` value is ``type[Any]`` for pyright.
_type_of: Callable[[object], type[Any]] = type


def _key_text(key: str) -> str:
    return _printable(_quoted(key))


def format_path(path: Iterable[object]) -> str:
    """``items[2].qty``; a key that is not an ASCII identifier is written ``["a.b"]`` (a long one cut short)."""
    out: list[str] = []
    for seg in path:
        if type(seg) is int:
            out.append(f"[{seg}]")
        elif isinstance(seg, str) and seg.isidentifier() and seg.isascii() and len(seg) <= _EXCERPT:
            out.append(f".{seg}" if out else seg)
        elif isinstance(seg, str):
            out.append(f"[{_key_text(seg)}]")
        else:
            out.append(f"[{seg!r}]")
    return "".join(out)


def _printable(text: str) -> str:
    """Lone surrogates as ``\\udXXX`` escapes, so a message can always be encoded."""
    if text.isascii() or SURROGATE.search(text) is None:
        return text
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def _quoted(s: str) -> str:
    if len(s) <= _EXCERPT:
        return json.dumps(s, ensure_ascii=False)
    return json.dumps(s[:_EXCERPT], ensure_ascii=False)[:-1] + '..."'


def _digits(n: int) -> int:
    """About how many decimal digits ``n`` has, without converting it to text."""
    return int(abs(n).bit_length() * 0.30103) + 1


def excerpt(value: object) -> str:
    """A short JSON-like rendering of a value for a message (never the whole payload)."""
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, str):
        return _printable(_quoted(value))
    if isinstance(value, int):
        return str(value) if value.bit_length() <= 128 else f"an integer of about {_digits(value)} digits"
    if isinstance(value, float):
        if math.isfinite(value):
            return repr(value)
        return "NaN" if value != value else "a number beyond the float range"
    if isinstance(value, Decimal):
        if value.is_finite() and value.as_tuple().exponent == 0 and value.adjusted() < 400:
            return excerpt(int(value))  # written in plain digits: as the int a parsed mapping would hold
        # As the float a parsed mapping would hold, when that float reads back as this number
        # (so both entrances word it alike: 1e-07, not 1E-7); else its own digits.
        if value.adjusted() < 400 and value.is_finite():
            as_float = float(value)
            if math.isfinite(as_float) and Decimal(repr(as_float)) == value:
                return repr(as_float)
        text = str(value)
        if len(text) <= _EXCERPT:
            return text
        shape = value.as_tuple()
        return f"{'an integer' if shape.exponent == 0 else 'a number'} of {len(shape.digits)} digits"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, (dict, tuple)):
        return "an object"
    return f"a {type(value).__name__}"


def json_kind(value: object, c: Call) -> str:
    """The JSON kind of a value, for ``got <kind>``."""
    if value is None:
        return "null"
    t = _type_of(value)
    if t is bool:
        return "boolean"
    if t is int:
        return "integer"
    if t is float:
        return "number"
    if t is Decimal:
        return "integer" if value.as_tuple().exponent == 0 else "number"  # type: ignore[attr-defined]
    if t is str:
        return "string"
    if t is list:
        return "array"
    if t is dict or (t is tuple and c.raw):
        return "object"
    return t.__name__


def sent(value: object, c: Call) -> str:
    """What was sent, for ``got <it>``: the JSON kind, and a scalar's excerpt after it
    (``string "5"``, ``integer 7``, ``boolean true``); an object or array by its kind alone.
    A number too long to quote (``an integer of about 5000 digits``), or not finite, is the
    excerpt alone. The cost is bounded: a string is cut before it is encoded."""
    kind = json_kind(value, c)
    if kind not in _QUOTED_KINDS:
        return kind
    shown = excerpt(value)
    if shown.startswith(("a ", "an ")) or shown in _NOT_FINITE:
        return shown
    return f"{kind} {shown}"


#: The kinds ``sent`` quotes a value of, and the excerpts of numbers that are not finite.
_QUOTED_KINDS = frozenset({"string", "integer", "number", "boolean"})
_NOT_FINITE = frozenset({"NaN", "sNaN", "Infinity", "-Infinity", "-NaN", "-sNaN"})


def expected_text(expect: str, value: object, c: Call) -> str:
    """``must be an integer, got string "5".``"""
    return f"must be {expect}, got {sent(value, c)}."


#: Appended to a refused null where the member may be left out (an optional, non-nullable one).
LEAVE_OUT = "; leave it out to use the default."


def left_out(message: str) -> str:
    """``Argument 'limit' must be an integer, got null.`` with the advice to leave the member out."""
    return (message[:-1] if message.endswith(".") else message) + LEAVE_OUT


def required_text(nullable: bool) -> str:
    """A missing member; a nullable one says that null is an answer."""
    return "is required (send null for none)." if nullable else "is required."


def name_list(values: Sequence[object], nullable: bool = False, limit: int = 30) -> str:
    shown = [v if isinstance(v, str) else excerpt(v) for v in values[:limit]]
    if len(values) > limit:
        shown.append("...")
    if nullable:
        shown.append("null")
    return ", ".join(shown)


def suggest(value: str, candidates: Sequence[str]) -> str | None:
    """A candidate that differs only in case, or a close spelling (short values only)."""
    folded = value.casefold()
    same = [c for c in candidates if c.casefold() == folded]
    if len(same) == 1:
        return same[0]
    if len(value) > 64 or not candidates:
        return None
    import difflib

    close = difflib.get_close_matches(value, list(candidates), n=1, cutoff=0.8)
    return close[0] if close else None


def did_you_mean(value: object, wire_forms: Sequence[str], spellings: Mapping[str, str] | None = None) -> str | None:
    """The wire form a model most likely meant by ``value``, or None.

    ``spellings`` maps other spellings of a choice to its wire form: a member's value where
    names are sent, its name where values are, an alias's name. In order: a spelling sent
    exactly (a string, or an integer's digits); one wire form or spelling equal up to case;
    a close spelling of a wire form (short values only)."""
    if type(value) is int:
        key = str(value) if value.bit_length() <= 128 else None
    elif type(value) is str:
        key = value
    else:
        return None
    if key is None:
        return None
    if spellings:
        exact = spellings.get(key)
        if exact is not None:
            return exact
    if type(value) is not str:
        return None
    folded = key.casefold()
    same = {w for w in wire_forms if w.casefold() == folded}
    if spellings:
        same.update(w for s, w in spellings.items() if s.casefold() == folded)
    if len(same) == 1:
        return same.pop()
    if same:
        return None
    return suggest(key, wire_forms)


def one_of(value: object, allowed: Sequence[object], nullable: bool, spellings: Mapping[str, str] | None = None) -> str:
    """``must be one of: a, b; got "A" (did you mean "a"?).``; ``spellings`` as in ``did_you_mean``."""
    text = f"must be one of: {name_list(allowed, nullable)}; got {excerpt(value)}"
    hint = did_you_mean(value, [a for a in allowed if isinstance(a, str)], spellings)
    if hint is not None and hint != value:
        text += f" (did you mean {_printable(json.dumps(hint, ensure_ascii=False))}?)"
    return text + "."


def bounds_text(lo: object, hi: object) -> str:
    if lo is not None and hi is not None:
        return f"between {lo} and {hi}"
    return f"at least {lo}" if lo is not None else f"at most {hi}"


def count_text(lo: int | None, hi: int | None, unit: str, n: int) -> str:
    def units(k: int) -> str:
        return unit if k == 1 else unit + "s"

    if lo is not None and lo == hi:
        need = f"exactly {lo} {units(lo)}"
    elif lo is not None and (hi is None or n < lo):
        need = f"at least {lo} {units(lo)}"
    else:
        need = f"at most {hi} {units(hi or 0)}"
    return need


def surrogate_text(s: str) -> str:
    m = SURROGATE.search(s)
    char = m.group() if m is not None else "\ud800"
    return f"contains a lone surrogate (\\u{ord(char):04x}), which is not valid Unicode."


def digits_text(limit: int) -> str:
    return f"has more than {limit} digits, more than an integer may have."


def written_text(v: object) -> str:
    return f"must be written in plain digits to be an integer of 10^20 or more, got {excerpt(v)}."
