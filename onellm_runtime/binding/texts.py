"""The texts of the binder's messages: paths, value excerpts, kinds, and the phrases the checks share."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Iterable, Sequence
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
        # As the float a parsed mapping would hold, when that float reads back as this number
        # (so both entrances word it alike: 1e-07, not 1E-7); else its own digits.
        if value.adjusted() < 400 and value.is_finite():
            as_float = float(value)
            if math.isfinite(as_float) and Decimal(repr(as_float)) == value:
                return repr(as_float)
        text = str(value)
        return text if len(text) <= _EXCERPT else f"a number of {len(value.as_tuple().digits)} digits"
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


def one_of(value: object, allowed: Sequence[object], nullable: bool) -> str:
    text = f"must be one of: {name_list(allowed, nullable)}; got {excerpt(value)}"
    if isinstance(value, str):
        strings = [a for a in allowed if isinstance(a, str)]
        hint = suggest(value, strings)
        if hint is not None and hint != value:
            text += f' (did you mean "{hint}"?)'
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
