"""The strict argument binder: a model's JSON arguments -> the keyword arguments of a tool.

Compiled once per tool from the same type model the schema is written from (``rules`` for
wire names, discriminators and literals; the *written* schema fragment for every
constraint keyword), into one specialised closure per node. A call then walks the parsed
document once; nothing is re-derived from the model.

Two passes, so valid input pays for no bookkeeping: the *fast* pass binds and stops at
the first fault; only then does a *collecting* pass walk the same document again keeping
paths and reporting every fault (up to ``MAX_REPORTED``), so a model can fix them all in
one retry. Both passes run the same closures (a fault raises in the first, is recorded in
the second), so they cannot disagree.

Raw JSON (str or bytes) is read by ``jsonparse``: objects arrive as tuples of pairs, so a
duplicate key is seen where it is checked; numbers are exact where a ``Decimal`` needs them.
A ``Mapping`` (already-parsed JSON, as some SDKs hand it over) is checked the same way, and
its values must be what ``json.loads`` could have produced (``dict`` with ``str`` keys,
``list``, ``str``, ``int`` within the digit limit, finite ``float`` or ``Decimal``, ``bool``, ``None``).

Every message, by cause (``<p>`` is the path: JSON wire names, zero-based indexes,
``environment["a.b"]`` for a key that is not an identifier):

=============================  ===================================================================
cause                          message
=============================  ===================================================================
malformed JSON                 ``Arguments are not valid JSON: Expecting ',' delimiter: line 1 column 9 (char 8).``
invalid UTF-8                  ``Arguments are not valid JSON: the bytes are not valid UTF-8 (byte 5 is 0xff).``
NaN / Infinity                 ``Arguments are not valid JSON: NaN is not a JSON number (JSON has no NaN or Infinity).``
too deep                       ``Arguments are not valid JSON: the document is nested too deeply.``
not an object                  ``Arguments must be a JSON object, got array.``
duplicate key                  ``Argument '<p>' is given more than once.``
unknown property               ``Argument '<p>' is not a known property; known properties: a, b.``
alternate casing / typo        ``Argument '<p>' is not a known property (did you mean 'query'?).``
other branch's field           ``Argument '<p>' is not a field of 'read' (it belongs to 'start'); 'read' takes: action, handleId.``
missing                        ``Argument '<p>' is required.``
wrong kind / null              ``Argument '<p>' must be an integer, got string.`` (``... or null`` when nullable)
fraction for an integer        ``Argument '<p>' must be an integer, got 2.5.``
too many digits                ``Argument '<p>' has more than 4300 digits, more than an integer may have.``
big integer with an exponent   ``Argument '<p>' must be written in plain digits to be an integer of 10^20 or more, got 1E+4299.``
range                          ``Argument '<p>' must be between 1 and 10, got 11.`` / ``at least 1`` / ``at most 10``
not finite / overflow          ``Argument '<p>' must be a finite number, got a number beyond the float range.``
enum / Literal                 ``Argument '<p>' must be one of: Files, Content, Count; got "content" (did you mean "Content"?).``
string length                  ``Argument '<p>' must be at most 64 characters long, got 70.`` / ``at least`` / ``exactly``
pattern                        ``Argument '<p>' must match the pattern ^[a-z]+$, got "A1".``
format                         ``Argument '<p>' must be a date YYYY-MM-DD, got "July 1".`` (see ``formats.FORMAT_HINTS``)
lone surrogate                 ``Argument '<p>' contains a lone surrogate (\\ud800), which is not valid Unicode.``
array length                   ``Argument '<p>' must have at least 1 item, got 0.`` / ``at most`` / ``exactly``
duplicate set item             ``Argument 'tags[2]' repeats tags[0]; the items must be unique.``
missing discriminator          ``Argument 'request.action' is required; it must be one of: start, read, stop.``
bad discriminator              ``Argument 'request.action' must be one of: start, read, stop; got "Read" (did you mean "read"?).``
blank discriminator            ``Argument 'request.action' must be one of: start, read, stop; got a blank string.``
non-JSON mapping value         ``Argument '<p>' must be a JSON value, got set.``
non-string key (mapping)       ``Argument '<p>' has a key that is not a string: 1.``
unreadable mapping             ``Argument '<p>' could not be read: KeyError: 'a'`` (``Arguments could not be read: ...`` at the top)
constructor raised             ``Argument '<p>' is not valid: ValueError: end is before start`` (any exception kind)
=============================  ===================================================================

Several faults are joined one per line; beyond ``MAX_REPORTED`` the text ends with
``... and N more.``. A value is quoted as a short excerpt only (40 characters at most).
"""

from __future__ import annotations

import itertools
import json
import math
import re
import sys
import weakref
from decimal import Decimal
from typing import Any, Callable, Iterable, Mapping, NamedTuple, Sequence, Union, cast

from ..core import formats, rules, schema
from . import jsonparse
from ..errortext import describe
from ..core.model import (
    Annotated,
    ArrayType,
    EnumType,
    JsonType,
    LiteralType,
    MapType,
    Nullable,
    Param,
    Record,
    Returns,
    Scalar,
    ScalarKind,
    ToolModel,
    TypeNode,
    UnionType,
)
from ..core.patterns import compile_pattern

__all__ = ["ArgumentError", "Binder", "BoundCall", "CompiledBinder", "MAX_REPORTED", "compile_binder"]

Binder = Callable[[Union[str, bytes, Mapping[str, object]], Union[str, None]], "dict[str, object]"]

#: How many faults one error lists before ``... and N more.``
MAX_REPORTED = 20
#: How many characters of a bad value a message quotes.
_EXCERPT = 40
#: Floats at or beyond this magnitude may not hold the integer the text wrote.
_EXACT_FLOAT = 9007199254740992.0
#: An integer written with an exponent or a fraction (``1e2``, ``5.0``) binds only below this
#: magnitude (10^20, exactly representable as a float); a larger one must be written in plain
#: digits, so ``1e4299`` never costs a 4,300-digit conversion.
_WRITTEN_LIMIT = 1e20
_WRITTEN_DIGITS = 20
#: A Decimal with this exponent (0) was written in plain digits.
_UNIT = Decimal(1)
#: Below this magnitude an int has at most 640 digits, the lowest digit limit Python allows,
#: so only larger ints (possible in a mapping, never from the reader) are measured.
_SMALL_INT = 1 << 2126
_LEAST_SMALL_INT = -_SMALL_INT  # a constant: negating a 2,126-bit int on every check costs
_SURROGATE = re.compile("[\ud800-\udfff]")


class ArgumentError(ValueError):
    """The arguments do not fit the tool's schema.

    ``path`` is the first fault's path (``""`` for a document-level fault); ``errors``
    holds every ``(path, message)`` found; ``str()`` is the messages, one per line.
    """

    def __init__(self, message: str, path: str = "", errors: Sequence[tuple[str, str]] | None = None) -> None:
        super().__init__(message)
        self.path = path
        self.errors: list[tuple[str, str]] = list(errors) if errors else [(path, message)]


class BoundCall(NamedTuple):
    """What binding produced: the keyword arguments, and the call's invocation mode."""

    arguments: dict[str, object]
    #: ``"wait"``, or ``"background"`` when a ``model_choice`` tool was asked to run as a job.
    invocation_mode: str


# --- per-call state -----------------------------------------------------------------


class _Fault(Exception):
    """The fast pass met a fault: run the collecting pass."""


class _NeedExact(Exception):
    """An integer was read through a float that cannot hold it: read the document exactly."""


class _BadType:
    __slots__ = ()

    def __repr__(self) -> str:
        return "<bad>"


#: What a closure returns for a faulty value in the collecting pass.
_BAD: Any = _BadType()
_MISSING: Any = object()


class _Call:
    """One call's state: which pass, how the document was read, and the faults so far."""

    __slots__ = ("collect", "raw", "exact", "openai", "path", "errors", "count", "mode")

    def __init__(self, raw: bool, exact: bool, openai: bool, collect: bool) -> None:
        self.collect = collect
        self.raw = raw
        self.exact = exact
        self.openai = openai
        self.mode = "wait"
        if collect:  # the fast pass never reaches a path or a message
            self.path: list[object] = []
            self.errors: list[tuple[str, str]] = []
            self.count = 0

    def fail(self) -> bool:
        """At a fault: raise in the fast pass; in the collecting pass, whether to write a message."""
        if not self.collect:
            raise _Fault
        self.count += 1
        return self.count <= MAX_REPORTED

    def add(self, text: str, *extra: object) -> None:
        path = format_path((*self.path, *extra))
        self.errors.append((path, f"Argument '{path}' {text}"))

    def where(self, *extra: object) -> str:
        return format_path((*self.path, *extra))


Check = Callable[[Any, _Call], Any]
#: ``type``, typed so that the type of an ``Any`` value is ``type[Any]`` (not "unknown") for pyright.
_type_of: Callable[[object], "type[Any]"] = type


# --- texts ---------------------------------------------------------------------------


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
    if text.isascii() or _SURROGATE.search(text) is None:
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


def _kind(value: object, c: _Call) -> str:
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


def _names(values: Sequence[object], nullable: bool = False, limit: int = 30) -> str:
    shown = [v if isinstance(v, str) else excerpt(v) for v in values[:limit]]
    if len(values) > limit:
        shown.append("...")
    if nullable:
        shown.append("null")
    return ", ".join(shown)


def _suggest(value: str, candidates: Sequence[str]) -> str | None:
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


def _one_of(value: object, allowed: Sequence[object], nullable: bool) -> str:
    text = f"must be one of: {_names(allowed, nullable)}; got {excerpt(value)}"
    if isinstance(value, str):
        strings = [a for a in allowed if isinstance(a, str)]
        hint = _suggest(value, strings)
        if hint is not None and hint != value:
            text += f' (did you mean "{hint}"?)'
    return text + "."


def _bounds(lo: object, hi: object) -> str:
    if lo is not None and hi is not None:
        return f"between {lo} and {hi}"
    return f"at least {lo}" if lo is not None else f"at most {hi}"


def _count_text(lo: int | None, hi: int | None, unit: str, n: int) -> str:
    def units(k: int) -> str:
        return unit if k == 1 else unit + "s"

    if lo is not None and lo == hi:
        need = f"exactly {lo} {units(lo)}"
    elif lo is not None and (hi is None or n < lo):
        need = f"at least {lo} {units(lo)}"
    else:
        need = f"at most {hi} {units(hi or 0)}"
    return need


def _surrogate_text(s: str) -> str:
    m = _SURROGATE.search(s)
    char = m.group() if m is not None else "\ud800"
    return f"contains a lone surrogate (\\u{ord(char):04x}), which is not valid Unicode."


def _digit_limit() -> int:
    get = getattr(sys, "get_int_max_str_digits", None)
    return int(get()) if get is not None else 0


_POWERS: dict[int, int] = {}


def _over_digit_limit(n: int) -> int:
    """The digit limit that ``n`` exceeds, or 0 (without converting ``n`` to text)."""
    if _LEAST_SMALL_INT < n < _SMALL_INT:
        return 0
    limit = _digit_limit()
    if not limit:
        return 0
    power = _POWERS.get(limit)
    if power is None:
        power = _POWERS[limit] = 10**limit
    return limit if abs(n) >= power else 0


def _digits_text(limit: int) -> str:
    return f"has more than {limit} digits, more than an integer may have."


def _written_text(v: object) -> str:
    return f"must be written in plain digits to be an integer of 10^20 or more, got {excerpt(v)}."


# --- shared pieces of closures ---------------------------------------------------------


def _duplicates(pairs: tuple[tuple[str, object], ...], c: _Call) -> None:
    """Report every key given more than once in a raw object (raises in the fast pass)."""
    seen: set[str] = set()
    reported: set[str] = set()
    for key, _ in pairs:
        if key in seen and key not in reported:
            reported.add(key)
            if c.fail():
                c.add("is given more than once.", key)
        seen.add(key)


def _object(value: Any, c: _Call) -> Any:
    """The object ``value`` stands for as a dict (a raw tuple of pairs becomes one), None when
    it is no object, or ``_BAD`` when a mapping could not be read (the fault is recorded)."""
    t = _type_of(value)
    if t is dict:
        return value
    if t is tuple and c.raw:
        d = dict(value)
        if len(d) != len(value):
            _duplicates(value, c)
        return d
    if not c.raw and isinstance(value, Mapping):  # another mapping type inside a parsed document
        mapping: Mapping[Any, Any] = cast(Any, value)
        try:
            return dict(mapping)
        except BaseException as e:  # its keys() or __getitem__ is user code
            if c.fail():
                c.add(f"could not be read: {describe(e)}")
            return _BAD
    return None


def _keys_fine(d: dict[Any, Any], c: _Call) -> bool:
    """Check a dictionary's keys: strings (for a mapping) with no lone surrogate."""
    if not c.raw and not set(map(type, d)) <= {str}:
        ok = True
        for k in d:
            if type(k) is not str:
                ok = False
                if c.fail():
                    c.add(f"has a key that is not a string: {excerpt(k)}.")
        if not ok:
            return False
    if all(map(str.isascii, d)):
        return True
    ok = True
    for k in d:
        if not k.isascii() and _SURROGATE.search(k) is not None:
            ok = False
            if c.fail():
                c.add("has a key that " + _surrogate_text(k))
    return ok


def _or_null(check: Check) -> Check:
    def nullable(v: Any, c: _Call) -> Any:
        if v is None:
            return None
        return check(v, c)

    return nullable


# --- scalars -----------------------------------------------------------------------------


def _bool(expect: str) -> Check:
    def check(v: Any, c: _Call) -> Any:
        if v is True or v is False:
            return v
        if c.fail():
            c.add(f"must be {expect}, got {_kind(v, c)}.")
        return _BAD

    return check


def _decimal_to_int(v: Decimal, expect: str, c: _Call) -> Any:
    if v.is_finite() and v == v.to_integral_value():
        if v.adjusted() < _WRITTEN_DIGITS:
            return int(v)
        if v.is_zero():  # 0e5000
            return 0
        if not v.same_quantum(_UNIT):  # written with an exponent or a fraction
            if c.fail():
                c.add(_written_text(v))
            return _BAD
        limit = _digit_limit()
        if limit and v.adjusted() + 1 > limit:
            if c.fail():
                c.add(_digits_text(limit))
            return _BAD
        return int(v)
    if c.fail():
        c.add(f"must be {expect}, got {excerpt(v)}.")
    return _BAD


def _int(lo: Any, hi: Any, expect: str) -> Check:
    bounded = lo is not None or hi is not None

    def check(v: Any, c: _Call) -> Any:
        t = _type_of(v)
        if t is int:
            n = v
            if not _LEAST_SMALL_INT < v < _SMALL_INT and not c.raw:  # a mapping's int: never converted yet
                limit = _over_digit_limit(v)
                if limit:
                    if c.fail():
                        c.add(_digits_text(limit))
                    return _BAD
        elif t is float:
            if not (-_EXACT_FLOAT < v < _EXACT_FLOAT):
                if c.raw and not c.exact:
                    raise _NeedExact  # 1e19 or 1e400: the float may not hold what the text wrote
                if not v.is_integer():
                    if c.fail():
                        c.add(f"must be {expect}, got {excerpt(v)}.")
                    return _BAD
                if not -_WRITTEN_LIMIT < v < _WRITTEN_LIMIT:  # a float was written with a fraction or an exponent
                    if c.fail():
                        c.add(_written_text(v))
                    return _BAD
                n = int(v)
            elif v.is_integer():
                n = int(v)
            else:
                if c.fail():
                    c.add(f"must be {expect}, got {excerpt(v)}.")
                return _BAD
        elif t is Decimal:
            n = _decimal_to_int(v, expect, c)
            if n is _BAD:
                return _BAD
        else:
            if c.fail():
                c.add(f"must be {expect}, got {_kind(v, c)}.")
            return _BAD
        if bounded and ((lo is not None and n < lo) or (hi is not None and n > hi)):
            if c.fail():
                c.add(f"must be {_bounds(lo, hi)}, got {excerpt(n)}.")
            return _BAD
        return n

    return check


def _float(lo: Any, hi: Any, expect: str) -> Check:
    bounded = lo is not None or hi is not None

    def check(v: Any, c: _Call) -> Any:
        t = _type_of(v)
        if t is float:
            x = compare = v
        elif t is int:
            try:
                x = float(v)
            except OverflowError:
                x = math.inf
            compare = v  # bounds are checked on the exact integer
        elif t is Decimal:
            x = compare = float(v) if v.is_finite() else math.nan  # float() raises for a signalling NaN
        else:
            if c.fail():
                c.add(f"must be {expect}, got {_kind(v, c)}.")
            return _BAD
        if x - x != 0.0:  # NaN or an infinity
            if c.fail():
                c.add(f"must be a finite number, got {excerpt(v)}.")
            return _BAD
        if bounded and ((lo is not None and compare < lo) or (hi is not None and compare > hi)):
            if c.fail():
                c.add(f"must be {_bounds(lo, hi)}, got {excerpt(v)}.")
            return _BAD
        return x

    return check


def _as_decimal(bound: Any) -> Decimal | None:
    """A bound as the decimal its source text wrote (``0.1`` is 0.1, not the float's expansion)."""
    if bound is None:
        return None
    return Decimal(repr(bound)) if isinstance(bound, float) else Decimal(bound)


def _decimal(lo: Any, hi: Any, expect: str) -> Check:
    dlo, dhi = _as_decimal(lo), _as_decimal(hi)
    bounded = lo is not None or hi is not None

    def check(v: Any, c: _Call) -> Any:
        t = _type_of(v)
        if t is Decimal:
            if not v.is_finite():  # only a mapping can hold one: the reader refuses NaN
                if c.fail():
                    c.add(f"must be a finite number, got {excerpt(v)}.")
                return _BAD
            d = v
        elif t is int:
            if not _LEAST_SMALL_INT < v < _SMALL_INT and not c.raw:
                limit = _over_digit_limit(v)
                if limit:
                    if c.fail():
                        c.add(_digits_text(limit))
                    return _BAD
            d = Decimal(v)
        elif t is float:
            if v - v != 0.0:
                if c.fail():
                    c.add(f"must be a finite number, got {excerpt(v)}.")
                return _BAD
            d = Decimal(repr(v))  # the text a JSON parser read it from
        else:
            if c.fail():
                c.add(f"must be {expect}, got {_kind(v, c)}.")
            return _BAD
        if bounded and ((dlo is not None and d < dlo) or (dhi is not None and d > dhi)):
            if c.fail():
                c.add(f"must be {_bounds(lo, hi)}, got {excerpt(v)}.")
            return _BAD
        return d

    return check


def _string(
    expect: str,
    min_len: int | None,
    max_len: int | None,
    pattern: str | None,
    fmt: str | None,
) -> Check:
    search = compile_pattern(pattern).search if pattern is not None else None
    test = {"email": formats.is_email, "uri": formats.is_uri}.get(fmt or "")
    hint = formats.FORMAT_HINTS.get(fmt or "", "")
    sized = min_len is not None or max_len is not None
    plain = not sized and search is None and test is None

    def check(v: Any, c: _Call) -> Any:
        if type(v) is not str:
            if c.fail():
                c.add(f"must be {expect}, got {_kind(v, c)}.")
            return _BAD
        if not v.isascii() and _SURROGATE.search(v) is not None:
            if c.fail():
                c.add(_surrogate_text(v))
            return _BAD
        if plain:
            return v
        ok = True
        if sized:
            n = len(v)
            if (min_len is not None and n < min_len) or (max_len is not None and n > max_len):
                ok = False
                if c.fail():
                    c.add(f"must be {_count_text(min_len, max_len, 'character', n)} long, got {n}.")
        if search is not None and search(v) is None:
            ok = False
            if c.fail():
                c.add(f"must match the pattern {pattern}, got {excerpt(v)}.")
        if test is not None and not test(v):
            ok = False
            if c.fail():
                c.add(f"must be {hint}, got {excerpt(v)}.")
        return v if ok else _BAD

    return check


def _parsed(expect: str, reader: Callable[[str], Any], hint: str) -> Check:
    def check(v: Any, c: _Call) -> Any:
        if type(v) is not str:
            if c.fail():
                c.add(f"must be {expect}, got {_kind(v, c)}.")
            return _BAD
        out = reader(v)
        if out is None:
            if c.fail():
                c.add(f"must be {hint}, got {excerpt(v)}.")
            return _BAD
        return out

    return check


_READERS: dict[ScalarKind, tuple[Callable[[str], Any], str]] = {
    ScalarKind.UUID: (formats.read_uuid, "uuid"),
    ScalarKind.DATETIME: (formats.read_datetime, "date-time"),
    ScalarKind.DATE: (formats.read_date, "date"),
    ScalarKind.TIME: (formats.read_time, "time"),
    ScalarKind.TIMEDELTA: (formats.read_timedelta, "timedelta"),
    ScalarKind.BYTES: (formats.read_base64, "base64"),
}


# --- choices -----------------------------------------------------------------------------


def _enum(node: EnumType, nullable: bool) -> Check:
    cls: Any = node.origin
    table: dict[str, object] = {name: (cls[name] if cls is not None else name) for name in node.members}
    names = node.members

    def check(v: Any, c: _Call) -> Any:
        if type(v) is str:
            member = table.get(v, _MISSING)
            if member is not _MISSING:
                return member
        if c.fail():
            c.add(_one_of(v, names, nullable))
        return _BAD

    return check


def _literal(node: LiteralType, nullable: bool) -> Check:
    values = node.values
    kind = rules.literal_json_type(values[0])
    table: dict[object, object] = {v: v for v in values}

    def fault(v: Any, c: _Call) -> Any:
        if c.fail():
            c.add(_one_of(v, values, nullable))
        return _BAD

    if kind == "string":

        def check(v: Any, c: _Call) -> Any:
            if type(v) is str:
                found = table.get(v, _MISSING)
                if found is not _MISSING:
                    return found
            return fault(v, c)

    elif kind == "integer":

        def check(v: Any, c: _Call) -> Any:
            t = _type_of(v)
            if t is int or (t is Decimal and v.is_finite()):  # a signalling NaN cannot be hashed
                found = table.get(v, _MISSING)
                if found is not _MISSING:
                    return found
            elif t is float:
                if not (-_EXACT_FLOAT < v < _EXACT_FLOAT) and c.raw and not c.exact:
                    raise _NeedExact
                found = table.get(v, _MISSING)
                if found is not _MISSING:
                    return found
            return fault(v, c)

        def written(v: Any, c: _Call) -> Any:
            """As an integer type: a value written with an exponent or a fraction binds below 10^20."""
            found = check(v, c)
            if found is not _BAD and _type_of(v) is not int and not -_WRITTEN_LIMIT < found < _WRITTEN_LIMIT:
                if c.fail():
                    c.add(_written_text(v))
                return _BAD
            return found

        return written

    else:

        def check(v: Any, c: _Call) -> Any:
            if (v is True or v is False) and any(v is x for x in values):
                return v
            return fault(v, c)

    return check


# --- containers ----------------------------------------------------------------------------

#: A whole-list check: ``bulk(items, raw)`` (``raw``: the items come from the reader).
_Bulk = Callable[[list[Any], bool], Union[list[Any], None]]


def _bulk_for(check_kind: str, lo: Any, hi: Any) -> _Bulk | None:
    """A whole-list fast path for unconstrained-kind scalar items (C-level loops), or None."""
    if check_kind == "str":

        def strings(v: list[Any], raw: bool) -> list[Any] | None:
            if set(map(type, v)) <= {str} and all(map(str.isascii, v)):
                return v[:]
            return None

        return strings
    if check_kind == "int":

        def ints(v: list[Any], raw: bool) -> list[Any] | None:
            if set(map(type, v)) <= {int}:
                if v and ((lo is not None and min(v) < lo) or (hi is not None and max(v) > hi)):
                    return None
                if not raw and v and not (_LEAST_SMALL_INT < min(v) and max(v) < _SMALL_INT):
                    return None  # a mapping's large int: the item check measures it
                return v[:]
            return None

        return ints
    if check_kind == "float":

        def floats(v: list[Any], raw: bool) -> list[Any] | None:
            if set(map(type, v)) <= {float} and all(map(math.isfinite, v)):
                if v and ((lo is not None and min(v) < lo) or (hi is not None and max(v) > hi)):
                    return None
                return v[:]
            return None

        return floats
    if check_kind == "bool":

        def bools(v: list[Any], raw: bool) -> list[Any] | None:
            return v[:] if set(map(type, v)) <= {bool} else None

        return bools
    return None


_CONTAINERS: dict[str, Callable[[list[Any]], Any]] = {"list": list, "tuple": tuple, "set": set, "frozenset": frozenset}


def _array(
    item: Check,
    kind: str,
    min_items: int | None,
    max_items: int | None,
    expect: str,
    bulk: _Bulk | None,
) -> Check:
    unique = kind in ("set", "frozenset")
    build = _CONTAINERS[kind]
    sized = min_items is not None or max_items is not None

    def check(value: Any, c: _Call) -> Any:
        if type(value) is not list:
            if c.fail():
                c.add(f"must be {expect}, got {_kind(value, c)}.")
            return _BAD
        v: list[Any] = value  # pyright: ignore[reportUnknownVariableType]
        ok = True
        if sized:
            n = len(v)
            if (min_items is not None and n < min_items) or (max_items is not None and n > max_items):
                ok = False
                if c.fail():
                    c.add(f"must have {_count_text(min_items, max_items, 'item', n)}, got {n}.")
        out: list[Any] | None = None
        if c.collect:
            out = []
            path = c.path
            for i, x in enumerate(v):
                path.append(i)
                r = item(x, c)
                path.pop()
                if r is _BAD:
                    ok = False
                out.append(r)
        else:
            if bulk is not None and len(v) > 8:
                out = bulk(v, c.raw)
            if out is None:
                out = [item(x, c) for x in v]
        if unique and not _unique(out, c):
            ok = False
        if not ok:
            return _BAD
        return build(out) if kind != "list" else out

    return check


def _unique(items: list[Any], c: _Call) -> bool:
    """Set items: no two equal after binding; the second of two equal items is reported."""
    try:
        if _BAD not in items and len(set(items)) == len(items):
            return True
        first: dict[Any, int] = {}
        ok = True
        for i, x in enumerate(items):
            if x is _BAD:
                continue
            j = first.setdefault(x, i)
            if j != i:
                ok = False
                if c.fail():
                    c.add(f"repeats {c.where(j)}; the items must be unique.", i)
        return ok
    except TypeError:  # an item that cannot be hashed: the checker refuses such types
        if c.fail():
            c.add("has items that cannot be compared for uniqueness.")
        return False


def _map(value: Check, expect: str) -> Check:
    def check(v: Any, c: _Call) -> Any:
        d = _object(v, c)
        if d is None or d is _BAD:
            if d is None and c.fail():
                c.add(f"must be {expect}, got {_kind(v, c)}.")
            return _BAD
        ok = _keys_fine(d, c)
        if c.collect:
            out: dict[Any, Any] = {}
            path = c.path
            for k, x in d.items():
                path.append(k)
                r = value(x, c)
                path.pop()
                if r is _BAD:
                    ok = False
                out[k] = r
        else:
            out = {k: value(x, c) for k, x in d.items()}
        return out if ok else _BAD

    return check


# --- JSON values --------------------------------------------------------------------------


def _walk(v: Any, c: _Call) -> Any:
    """Any JSON value: checked (finite numbers, valid text, string keys) and rebuilt as plain data."""
    t = _type_of(v)
    if t is str:
        if not v.isascii() and _SURROGATE.search(v) is not None:
            if c.fail():
                c.add(_surrogate_text(v))
            return _BAD
        return v
    if t is int:
        if not _LEAST_SMALL_INT < v < _SMALL_INT and not c.raw:  # a mapping's int: never converted yet
            limit = _over_digit_limit(v)
            if limit:
                if c.fail():
                    c.add(_digits_text(limit))
                return _BAD
        return v
    if t is bool or v is None:
        return v
    if t is float:
        if v - v != 0.0:
            if c.fail():
                c.add(f"must be a finite number, got {excerpt(v)}.")
            return _BAD
        return v
    if t is list:
        items: list[Any] = v
        if c.collect:
            out: list[Any] = []
            ok = True
            for i, x in enumerate(items):
                c.path.append(i)
                r = _walk(x, c)
                c.path.pop()
                ok = ok and r is not _BAD
                out.append(r)
            return out if ok else _BAD
        # A plain loop, not a comprehension or map: one frame per level (3.10 and 3.11 give a
        # comprehension a frame of its own; map re-enters the interpreter from C, which makes
        # every level of a deep document slower), so the walk reaches as deep as the reader.
        out = []
        append = out.append
        for x in items:
            append(_walk(x, c))
        return out
    d = _object(v, c)
    if d is _BAD:
        return _BAD
    if d is not None:
        ok = _keys_fine(d, c)
        if c.collect:
            obj: dict[Any, Any] = {}
            for k, x in d.items():
                c.path.append(k)
                r = _walk(x, c)
                c.path.pop()
                ok = ok and r is not _BAD
                obj[k] = r
            return obj if ok else _BAD
        obj = {}
        for k, x in d.items():
            obj[k] = _walk(x, c)
        return obj
    if t is Decimal:
        limit = _digit_limit()
        if v.is_finite() and v.as_tuple().exponent == 0 and limit and v.adjusted() + 1 > limit:
            if c.fail():
                c.add(_digits_text(limit))
            return _BAD
        x = float(v) if v.is_finite() else math.nan  # float() raises for a signalling NaN
        if x - x != 0.0:
            if c.fail():
                c.add(f"must be a finite number, got {excerpt(v)}.")
            return _BAD
        return x
    if c.fail():
        c.add(f"must be a JSON value, got {t.__name__}.")
    return _BAD


def _json(kind: str, min_items: int | None, max_items: int | None, nullable: bool) -> Check:
    if kind == "value":
        return _walk
    expect = ("an object" if kind == "object" else "an array") + (" or null" if nullable else "")
    sized = min_items is not None or max_items is not None

    def check(v: Any, c: _Call) -> Any:
        t = _type_of(v)
        is_object = t is dict or (t is tuple and c.raw)
        if (kind == "object") != is_object or (kind == "array" and t is not list):
            if c.fail():
                c.add(f"must be {expect}, got {_kind(v, c)}.")
            return _BAD
        if sized:
            n = len(v)
            if (min_items is not None and n < min_items) or (max_items is not None and n > max_items):
                if c.fail():
                    c.add(f"must have {_count_text(min_items, max_items, 'item', n)}, got {n}.")
                return _BAD
        return _walk(v, c)

    return check


# --- records, parameters and unions -----------------------------------------------------


class _Field(NamedTuple):
    wire: str
    name: str
    check: Check
    required: bool
    nullable: bool
    #: How the generated fast path checks the value inline (see ``_inline``); ``("call",)``
    #: calls ``check``.
    spec: tuple[Any, ...] = ("call",)


def _no_ordered(v: Any, c: _Call) -> Any:  # replaced by the generated one
    raise NotImplementedError


class _Body:
    """The members of one closed object: a record, a union branch, or the tool's parameters."""

    __slots__ = ("fields", "known", "build", "maker", "label", "owners", "mode", "fast", "ordered")

    def __init__(
        self,
        fields: list[_Field],
        build: Callable[..., Any] | None,
        label: str | None = None,
        owners: Mapping[str, list[str]] | None = None,
        mode: Check | None = None,
        maker: _Maker | None = None,
    ) -> None:
        self.fields = tuple(fields)
        known = {f.wire for f in fields}
        if mode is not None:
            known.add(rules.INVOCATION_MODE)
        self.known: frozenset[str] = frozenset(known)
        self.build = build
        #: How the generated fast paths construct the record (``build`` is the reference).
        self.maker = maker or _KEYWORDS
        #: For a union branch: its tag, and which other branches own each foreign field.
        self.label = label
        self.owners = owners or {}
        self.mode = mode
        #: The generated fast paths: they bind the common, valid case and hand anything else to
        #: ``bind``; ``fast`` over a dict, ``ordered`` over a raw object's pairs (see ``_generate``).
        self.ordered: Callable[[Any, _Call], Any] = _no_ordered
        self.fast: Callable[[dict[Any, Any], _Call], Any] = _generate(self, None)

    def unknown(self, key: Any, c: _Call) -> None:
        if not isinstance(key, str):
            c.add(f"has a property name that is not a string: {excerpt(key)}.")
            return
        names = [f.wire for f in self.fields] + ([rules.INVOCATION_MODE] if self.mode is not None else [])
        hint = _suggest(key, names)
        if self.label is None:
            text = "is not a known property"
        else:
            text = f"is not a field of '{self.label}'"
            owners = self.owners.get(key)
            if owners:
                text += " (it belongs to " + ", ".join(f"'{o}'" for o in owners) + ")"
        if hint is not None:
            text += f" (did you mean '{hint}'?)."
        elif self.label is not None:
            text += f"; '{self.label}' takes: {_names(names)}."
        else:
            text += f"; known properties: {_names(names)}." if names else "; this takes no arguments."
        c.add(text, key)

    def bind(self, d: dict[Any, Any], c: _Call) -> Any:
        ok = True
        if not d.keys() <= self.known:
            for key in d:
                if key not in self.known:
                    ok = False
                    if c.fail():
                        self.unknown(key, c)
        kwargs: dict[str, Any] = {}
        collect = c.collect
        for f in self.fields:
            x = d.get(f.wire, _MISSING)
            if x is _MISSING:
                if f.required:
                    ok = False
                    if c.fail():
                        c.add("is required.", f.wire)
                continue
            if x is None and c.openai and not f.required and not f.nullable:
                continue  # OpenAI strict sends null for "not given"
            if collect:
                c.path.append(f.wire)
                r = f.check(x, c)
                c.path.pop()
                if r is _BAD:
                    ok = False
            else:
                r = f.check(x, c)
            kwargs[f.name] = r
        if self.mode is not None:
            m = d.get(rules.INVOCATION_MODE, _MISSING)
            if m is not _MISSING and not (m is None and c.openai):
                if collect:
                    c.path.append(rules.INVOCATION_MODE)
                    r = self.mode(m, c)
                    c.path.pop()
                else:
                    r = self.mode(m, c)
                if r is _BAD:
                    ok = False
                else:
                    c.mode = r
        if not ok:
            return _BAD
        if self.build is None:
            return kwargs
        try:
            return self.build(**kwargs)
        except BaseException as e:  # a __post_init__ or validator of the user's, whatever it raises
            if c.fail():
                c.add(f"is not valid: {describe(e)}")
            return _BAD


# --- constructing records ------------------------------------------------------------------


class _Maker(NamedTuple):
    """How the generated fast paths construct a record; every kind runs what the keyword
    call ``cls(**kwargs)`` (the reference, ``_Body.bind``) would run, with the same result.

    - ``keywords``: that call (any class the others do not cover);
    - ``positional``: the same call with the leading parameters by position (``order``),
      for a dataclass whose ``__init__`` is the generated one but which is frozen, has a
      ``__post_init__`` or slots: the same ``__init__`` runs, without a keyword dict;
    - ``stores``: a plain dataclass's generated ``__init__`` written out in the binder:
      ``object.__new__(cls)``, then ``o.<name> = value`` for each name of ``order`` in the
      order that ``__init__`` assigns them (the same ``STORE_ATTR``, so a custom
      ``__setattr__`` or a descriptor field sees the same calls), an omitted parameter
      taking its default or a fresh call of its default factory, and a ``field(init=False)``
      with a factory its fresh call (one with a plain default is not assigned, as there);
    - ``tuple``: a NamedTuple's generated ``__new__`` written out: ``tuple.__new__(cls, values)``
      in ``order`` (its ``_fields``), an omitted one taking the ``__new__`` default.
    """

    kind: str
    order: tuple[str, ...] = ()
    #: name -> ("value", default) or ("factory", default_factory)
    defaults: Mapping[str, tuple[str, Any]] = {}


_KEYWORDS = _Maker("keywords")


def _maker(record: Record) -> _Maker:
    """The cheapest construction of ``record`` equivalent to its keyword call (see ``_Maker``)."""
    cls = record.origin
    if not isinstance(cls, type) or type(cls).__call__ is not type.__call__:
        return _KEYWORDS  # a metaclass __call__ (or a generic alias, which sets __orig_class__)
    names = tuple(f.name for f in record.fields)
    if record.kind == "namedtuple":
        return _namedtuple_maker(cls, names) or _KEYWORDS
    if record.kind == "dataclass":
        return _dataclass_maker(cls, record, names) or _KEYWORDS
    return _KEYWORDS


def _namedtuple_maker(cls: type, names: tuple[str, ...]) -> _Maker | None:
    new: Any = cls.__new__
    found: Any = getattr(new, "__globals__", None)
    spots: dict[str, Any] = cast("dict[str, Any]", found) if isinstance(found, dict) else {}
    code: Any = getattr(new, "__code__", None)
    fields: Any = getattr(cls, "_fields", None)
    # ``collections.namedtuple``'s own ``__new__`` (``lambda _cls, a, b: _tuple_new(_cls, (a, b))``),
    # not one a subclass wrote, and no ``__init__`` run after it.
    if (
        spots.get("_tuple_new") is not _TUPLE_NEW
        or code is None
        or getattr(cls, "__init__") is not object.__init__
        or fields != names
        or tuple(code.co_varnames[1 : code.co_argcount]) != names
        or code.co_kwonlyargcount
    ):
        return None
    given: tuple[Any, ...] = new.__defaults__ or ()
    defaults = {name: ("value", value) for name, value in zip(names[len(names) - len(given) :], given)}
    return _Maker("tuple", names, defaults)


_GENERATED_INIT = "__create_fn__.<locals>.__init__"


def _dataclass_maker(cls: type, record: Record, names: tuple[str, ...]) -> _Maker | None:
    import dataclasses

    own = cls.__dict__
    params: Any = own.get("__dataclass_params__")
    init: Any = own.get("__init__")
    code: Any = getattr(init, "__code__", None)
    # ``dataclass``'s generated ``__init__`` (compiled from text, so from "<string>", inside
    # its ``__create_fn__``), not one the class body wrote (which dataclass keeps, even in a
    # class itself compiled from a string) nor one inherited. Only ``co_qualname`` (3.11+)
    # tells the last two apart, so 3.10 keeps the keyword call.
    if (
        params is None
        or not params.init
        or code is None
        or code.co_filename != "<string>"
        or getattr(code, "co_qualname", None) != _GENERATED_INIT
        or getattr(init, "__qualname__", None) != f"{cls.__qualname__}.__init__"
        or getattr(cls, "__new__") is not object.__new__
    ):
        return None
    fields = dataclasses.fields(cls)
    positional = tuple(code.co_varnames[1 : code.co_argcount])
    keyword_only = tuple(code.co_varnames[code.co_argcount : code.co_argcount + code.co_kwonlyargcount])
    # The parameters are exactly the model's fields (an InitVar would be one more).
    if sorted(positional + keyword_only) != sorted(names) or len(names) != len(set(names)):
        return None
    if params.frozen or hasattr(cls, "__post_init__") or "__slots__" in own:
        return _Maker("positional", positional)
    missing: Any = dataclasses.MISSING
    defaults: dict[str, tuple[str, Any]] = {}
    order: list[str] = []
    for f in fields:
        if f.default_factory is not missing:
            defaults[f.name] = ("factory", f.default_factory)
        elif f.default is not missing:
            defaults[f.name] = ("value", f.default)
        if f.init or f.default_factory is not missing:
            order.append(f.name)
    optional = {f.name for f in record.fields if not f.required}
    if not optional <= defaults.keys() or not all(name.isidentifier() for name in order):
        return None
    return _Maker("stores", tuple(order), defaults)


# --- generated fast paths ----------------------------------------------------------------
#
# A record's members are checked by straight-line code generated once per record: no loop
# over field descriptors, simple values (plain strings, integers, booleans, floats, enum
# names) checked inline, the constructor called with keywords. Whatever is not the plain
# valid case (a missing or unknown member, an integer written 5.0, a null, any fault) is
# handed to the generic ``_Body.bind``, which is the reference: the generated code only
# ever accepts what ``bind`` accepts, with the same result.


def _inline(
    spec: tuple[Any, ...], i: int, ns: dict[str, Any], pad: str, bail: str = "generic(d, c)", raw: bool = False
) -> list[str]:
    """Lines that check ``x`` and set ``v<i>``, or ``return <bail>`` (the generic path).

    ``raw``: the value comes from the reader, so an int is within the digit limit; a mapping's
    int may not be, and a large one takes the generic path, which measures it."""
    kind = spec[0]
    out: list[str] = []
    if kind == "str":
        out.append(f"{pad}if type(x) is not str or (not x.isascii() and SURR(x) is not None): return {bail}")
    elif kind in ("int", "float"):
        test = "type(x) is not int" if kind == "int" else "type(x) is not float or x - x != 0.0"
        if kind == "int" and not raw:
            test += " or not LEAST < x < SMALL"
        lo, hi = spec[1], spec[2]
        if lo is not None:
            ns[f"LO{i}"] = lo
            test += f" or x < LO{i}"
        if hi is not None:
            ns[f"HI{i}"] = hi
            test += f" or x > HI{i}"
        out.append(f"{pad}if {test}: return {bail}")
    elif kind == "bool":
        out.append(f"{pad}if x is not True and x is not False: return {bail}")
    elif kind == "table":
        ns[f"T{i}"] = spec[1]
        out.append(f"{pad}x = T{i}.get(x, MISSING) if type(x) is str else MISSING")
        out.append(f"{pad}if x is MISSING: return {bail}")
    elif kind == "list":  # a list (or tuple) of plain scalars, checked item by item in place
        item, lo, hi, container = spec[1], spec[2], spec[3], spec[4]
        test = {
            "str": "type(y) is not str or (not y.isascii() and SURR(y) is not None)",
            "int": "type(y) is not int" if raw else "type(y) is not int or not LEAST < y < SMALL",
            "float": "type(y) is not float or y - y != 0.0",
            "bool": "y is not True and y is not False",
        }[item]
        if lo is not None:
            ns[f"LO{i}"] = lo
            test += f" or y < LO{i}"
        if hi is not None:
            ns[f"HI{i}"] = hi
            test += f" or y > HI{i}"
        out.append(f"{pad}if type(x) is not list: return {bail}")
        out.append(f"{pad}for y in x:")
        out.append(f"{pad}    if {test}: return {bail}")
        out.append(f"{pad}x = {'tuple(x)' if container == 'tuple' else 'x[:]'}")
    else:
        out.append(f"{pad}x = C{i}(x, c)")
    out.append(f"{pad}v{i} = x")
    return out


def _build_lines(
    body: _Body, present: list[int], optional: list[int], pad: str, bail: str, ns: dict[str, Any]
) -> list[str]:
    """Lines that return the built value from ``v<i>`` (``p<i>`` says whether optional ``i`` was given)."""
    import keyword

    names = [f.name for f in body.fields]
    out: list[str] = []
    if body.build is None:
        out.append(pad + "r = {" + ", ".join(f"{names[i]!r}: v{i}" for i in present) + "}")
        out += [f"{pad}if p{i}: r[{names[i]!r}] = v{i}" for i in optional]
        out.append(f"{pad}return r")
        return out
    maker = body.maker
    if maker.kind in ("stores", "tuple"):
        return _direct_lines(maker, names, optional, pad, bail, ns)
    if not optional and all(names[i].isidentifier() and not keyword.iskeyword(names[i]) for i in present):
        given = {names[i]: f"v{i}" for i in present}
        # Leading parameters by position: the same __init__ runs, without a keyword dict.
        lead = list(itertools.takewhile(given.__contains__, maker.order))
        args = [given[name] for name in lead] + [f"{name}={given[name]}" for name in given if name not in lead]
        call = "BUILD(" + ", ".join(args) + ")"
    else:
        out.append(pad + "r = {" + ", ".join(f"{names[i]!r}: v{i}" for i in present) + "}")
        out += [f"{pad}if p{i}: r[{names[i]!r}] = v{i}" for i in optional]
        call = "BUILD(**r)"
    return out + [f"{pad}try:", f"{pad}    return {call}", f"{pad}except BaseException:", f"{pad}    return {bail}"]


def _direct_lines(
    maker: _Maker, names: list[str], optional: list[int], pad: str, bail: str, ns: dict[str, Any]
) -> list[str]:
    """The body of a record's constructor, written out (see ``_maker``): the same values in
    the same order, without a call frame and its keyword dict."""
    index = {name: i for i, name in enumerate(names)}
    values: list[str] = []
    for j, attr in enumerate(maker.order):
        i = index.get(attr)
        fill_text = ""
        default = maker.defaults.get(attr)
        if default is not None:
            how, fill = default
            ns[f"D{j}"] = fill
            fill_text = f"D{j}()" if how == "factory" else f"D{j}"
        if i is None:  # not a parameter: a field(init=False) with a default factory
            values.append(fill_text)
        elif i in optional:
            values.append(f"v{i} if p{i} else {fill_text}")
        else:
            values.append(f"v{i}")
    if maker.kind == "tuple":
        body = [f"return TNEW(BUILD, ({', '.join(values)}{',' if len(values) == 1 else ''}))"]
    else:
        body = ["o = NEW(BUILD)", *(f"o.{attr} = {v}" for attr, v in zip(maker.order, values)), "return o"]
    return [f"{pad}try:", *(f"{pad}    {line}" for line in body), f"{pad}except BaseException:", f"{pad}    return {bail}"]


def _generate(body: _Body, wrong_kind: Check | None) -> Any:
    """The fast paths of ``body``, generated as source and compiled once.

    Always ``fast(d, c)`` over a dict (``body.fast``). With ``wrong_kind`` (a record), the
    returned function is a whole ``check(v, c)``; without it (the parameters), ``body.ordered``
    is set to ``ordered(pairs, c)`` for a raw object. Both raw entries first try the members
    as a model following the schema writes them: in declared order, the optional ones at
    the end possibly left out. Then no dict is built: each pair's key is compared with the
    member expected there, which also rules out unknown and duplicate keys.
    """
    n = len(body.fields)
    ns: dict[str, Any] = {
        "MISSING": _MISSING,
        "generic": body.bind,
        "SURR": _SURROGATE.search,
        "BUILD": body.build,
        "NEW": object.__new__,
        "TNEW": _TUPLE_NEW,
        "KNOWN": frozenset(f.wire for f in body.fields),
        "DUPS": _duplicates,
        "WRONG": wrong_kind,
        "SMALL": _SMALL_INT,
        "LEAST": _LEAST_SMALL_INT,
    }
    for i, f in enumerate(body.fields):
        ns[f"C{i}"] = f.check
    # -- over a dict ----------------------------------------------------------------------
    lines = ["def fastd(d, c):"]
    closed = all(f.required for f in body.fields)  # then n keys, all found, leave no room for another
    lines += [
        "    if c.collect: return generic(d, c)",
        f"    if len(d) != {n}: return generic(d, c)"
        if closed
        else f"    if len(d) > {n} or not d.keys() <= KNOWN: return generic(d, c)",
    ]
    optional: list[int] = []
    for i, f in enumerate(body.fields):
        lines.append(f"    x = d.get({f.wire!r}, MISSING)")
        pad = "    "
        if f.required:
            lines.append("    if x is MISSING: return generic(d, c)")
        else:
            optional.append(i)
            cond = "x is not MISSING" if f.nullable else "x is not MISSING and (x is not None or not c.openai)"
            lines.append(f"    p{i} = {cond}")
            lines.append(f"    if p{i}:")
            pad = "        "
        if f.nullable:
            lines.append(f"{pad}if x is None: v{i} = None")
            lines.append(f"{pad}else:")
            pad += "    "
        lines += _inline(f.spec, i, ns, pad)
    required = [i for i in range(n) if i not in optional]
    lines += _build_lines(body, required, optional, "    ", "generic(d, c)", ns)
    # -- over the raw pairs -------------------------------------------------------------------
    if wrong_kind is not None:
        lines += [
            "def slow(v, c):",
            "    t = type(v)",
            "    if t is dict: return fastd(v, c)",
            "    if t is tuple and c.raw:",
            "        d = dict(v)",
            "        if len(d) != len(v): DUPS(v, c)",
            "        return fastd(d, c)",
            "    return WRONG(v, c)",
        ]
    else:
        lines += [
            "def slow(v, c):",
            "    d = dict(v)",
            "    if len(d) != len(v): DUPS(v, c)",
            "    return fastd(d, c)",
        ]
    # The fewest members an ordered object can have: up to its last required member.
    least = max((i + 1 for i, f in enumerate(body.fields) if f.required), default=0)
    entry = "fast" if wrong_kind is not None else "ordered"
    lines += [f"def {entry}(v, c):"]
    if n == 0:
        lines += ["    return slow(v, c)"]
    else:
        lines.append("    if type(v) is not tuple or not c.raw or c.collect: return slow(v, c)")
        # Every member given (what a strict-mode model always sends): one unpacking.
        lines.append(f"    if len(v) == {n}:")
        lines.append("        " + ", ".join(f"(k{i}, x{i})" for i in range(n)) + (", = v" if n == 1 else " = v"))
        keys = " or ".join(f"k{i} != {f.wire!r}" for i, f in enumerate(body.fields))
        lines.append(f"        if {keys}: return slow(v, c)")
        for i, f in enumerate(body.fields):
            lines += _member_lines(f, i, ns, "        ", f"x = x{i}")
        lines += _build_lines(body, list(range(n)), [], "        ", "slow(v, c)", ns)
        if least == n:
            lines.append("    return slow(v, c)")
        else:  # some optional members left out at the end
            lines += ["    m = len(v)", f"    if not {least} <= m < {n}: return slow(v, c)"]
            for i, f in enumerate(body.fields[: n - 1]):
                pad = "    "
                if i >= least:
                    lines.append(f"    if m > {i}:")
                    pad = "        "
                lines += [f"{pad}k, x = v[{i}]", f"{pad}if k != {f.wire!r}: return slow(v, c)"]
                lines += _member_lines(f, i, ns, pad, None)
            tail = list(range(least, n))
            lines += [f"    p{i} = m > {i}" for i in tail]
            lines += _build_lines(body, list(range(least)), tail, "    ", "slow(v, c)", ns)
    exec("\n".join(lines), ns)
    if wrong_kind is None:
        body.ordered = ns["ordered"]
    return ns["fast"] if wrong_kind is not None else ns["fastd"]


def _member_lines(f: _Field, i: int, ns: dict[str, Any], pad: str, load: str | None) -> list[str]:
    """Lines of an ordered fast path that check member ``i``'s value ``x`` (after ``load``) into ``v<i>``."""
    lines = [] if load is None else [pad + load]
    if f.nullable:
        lines += [f"{pad}if x is None: v{i} = None", f"{pad}else:"]
        return lines + _inline(f.spec, i, ns, pad + "    ", "slow(v, c)", raw=True)
    if not f.required:
        lines.append(f"{pad}if x is None: return slow(v, c)")  # null may mean "not given"
    return lines + _inline(f.spec, i, ns, pad, "slow(v, c)", raw=True)


def _record_check(body: _Body, expect: str) -> Check:
    def wrong_kind(v: Any, c: _Call) -> Any:
        if c.fail():
            c.add(f"must be {expect}, got {_kind(v, c)}.")
        return _BAD

    check: Check = _generate(body, wrong_kind)
    return check


def _union_check(bodies: dict[str, _Body], wires: tuple[str, ...], expect: str, nullable: bool) -> Check:
    tags = list(bodies)

    def check(v: Any, c: _Call) -> Any:
        d = _object(v, c)
        if d is None or d is _BAD:
            if d is None and c.fail():
                c.add(f"must be {expect}, got {_kind(v, c)}.")
            return _BAD
        wire = wires[0]
        tag = d.get(wire, _MISSING)
        if tag is _MISSING and len(wires) > 1:
            for other in wires[1:]:
                if other in d:
                    wire, tag = other, d[other]
                    break
        if type(tag) is str:
            body = bodies.get(tag)
            if body is not None:
                return body.fast(d, c)
        if c.fail():
            if tag is _MISSING:
                c.add(f"is required; it must be one of: {_names(tags)}.", wire)
            elif type(tag) is str and not tag.strip():
                c.add(f"must be one of: {_names(tags)}; got a blank string.", wire)
            else:
                c.add(_one_of(tag, tags, False), wire)
        return _BAD

    return check


# --- the compiler ------------------------------------------------------------------------------


def _nullable(node: TypeNode) -> bool:
    while isinstance(node, (Annotated, Nullable)):
        if isinstance(node, Nullable):
            return True
        node = node.inner
    return False


_EXPECT = {
    ScalarKind.BOOL: "a boolean",
    ScalarKind.INT: "an integer",
    ScalarKind.FLOAT: "a number",
    ScalarKind.DECIMAL: "a number",
}


def _int_or_none(value: object) -> int | None:
    return value if isinstance(value, int) else None


class _Compiler:
    def __init__(self, naming: str | None) -> None:
        self.naming = naming
        self.uses_decimal = False

    def node(self, node: TypeNode) -> Check:
        nullable = _nullable(node)
        check = self._base(node, rules.strip(node), nullable)
        return _or_null(check) if nullable else check

    def _base(self, node: TypeNode, base: TypeNode, nullable: bool) -> Check:
        or_null = " or null" if nullable else ""
        if isinstance(base, Scalar):
            frag = schema.fragment(node, self.naming)
            return self._scalar(base, frag, or_null)
        if isinstance(base, EnumType):
            return _enum(base, nullable)
        if isinstance(base, LiteralType):
            return _literal(base, nullable)
        if isinstance(base, UnionType):
            literal = rules.merged_literal(base)
            if literal is not None:
                return _literal(literal, nullable)
            disc = rules.marker(node, "discriminator")
            return self._union(base, None if disc is None else str(disc.args[0]), nullable)
        if isinstance(base, ArrayType):
            frag = schema.fragment(node, self.naming)
            item = self.node(base.item)
            bulk = None if rules.strip(base.item) is not base.item else self._bulk(base.item)
            return _array(
                item,
                base.kind,
                _int_or_none(frag.get("minItems")),
                _int_or_none(frag.get("maxItems")),
                "an array" + or_null,
                bulk,
            )
        if isinstance(base, MapType):
            return _map(self.node(base.value), "an object" + or_null)
        if isinstance(base, JsonType):
            frag = schema.fragment(node, self.naming)
            return _json(base.kind, _int_or_none(frag.get("minItems")), _int_or_none(frag.get("maxItems")), nullable)
        if isinstance(base, Record):
            return _record_check(self._body(base, None), "an object" + or_null)
        raise TypeError(f"no binder for {base!r}; check the tool with diagnostics.check_tool first")

    def _scalar(self, base: Scalar, frag: dict[str, Any], or_null: str) -> Check:
        kind = base.kind
        lo, hi = frag.get("minimum"), frag.get("maximum")
        if kind == ScalarKind.BOOL:
            return _bool("a boolean" + or_null)
        if kind == ScalarKind.INT:
            return _int(lo, hi, "an integer" + or_null)
        if kind == ScalarKind.FLOAT:
            return _float(lo, hi, "a number" + or_null)
        if kind == ScalarKind.DECIMAL:
            self.uses_decimal = True
            return _decimal(lo, hi, "a number" + or_null)
        if kind in (ScalarKind.STR, ScalarKind.CHAR):
            fmt = frag.get("format")
            return _string(
                "a string" + or_null,
                _int_or_none(frag.get("minLength")),
                _int_or_none(frag.get("maxLength")),
                frag.get("pattern"),
                fmt if fmt in ("email", "uri") else None,
            )
        reader, form = _READERS[kind]
        return _parsed("a string" + or_null, reader, formats.FORMAT_HINTS[form])

    def _bulk(self, item: TypeNode) -> _Bulk | None:
        if not isinstance(item, Scalar):
            return None
        frag = schema.fragment(item, self.naming)
        kind = {ScalarKind.STR: "str", ScalarKind.INT: "int", ScalarKind.FLOAT: "float", ScalarKind.BOOL: "bool"}
        name = kind.get(item.kind)
        if name is None:
            return None
        return _bulk_for(name, frag.get("minimum"), frag.get("maximum"))

    def _fields(self, record: Record, tag: tuple[str, str] | None) -> list[_Field]:
        out: list[_Field] = []
        for f in record.fields:
            wire = rules.wire_name(f, self.naming)
            required = f.required or (tag is not None and f.name == tag[0])
            out.append(_Field(wire, f.name, self.node(f.type), required, _nullable(f.type), self._spec(f.type)))
        return out

    def _spec(self, node: TypeNode) -> tuple[Any, ...]:
        """How a generated fast path may check a value of ``node`` inline (see ``_inline``)."""
        base = rules.strip(node)
        if isinstance(base, Scalar):
            frag = schema.fragment(node, self.naming)
            if base.kind == ScalarKind.STR:
                plain = not any(k in frag for k in ("minLength", "maxLength", "pattern", "format"))
                return ("str",) if plain else ("call",)
            if base.kind in (ScalarKind.INT, ScalarKind.FLOAT):
                return (base.kind.value, frag.get("minimum"), frag.get("maximum"))
            if base.kind == ScalarKind.BOOL:
                return ("bool",)
        if (
            isinstance(base, ArrayType)
            and base.kind in ("list", "tuple")
            and isinstance(base.item, Scalar)
            and not any(k in schema.fragment(node, self.naming) for k in ("minItems", "maxItems"))
        ):
            item = self._spec(base.item)
            if item[0] in ("str", "int", "float", "bool"):
                bounds = item[1:3] if item[0] in ("int", "float") else (None, None)
                return ("list", item[0], bounds[0], bounds[1], base.kind)
        if isinstance(base, EnumType) and base.origin is not None:
            cls: Any = base.origin
            return ("table", {name: cls[name] for name in base.members})
        if isinstance(base, LiteralType) and rules.literal_json_type(base.values[0]) == "string":
            return ("table", {v: v for v in base.values})
        return ("call",)

    def _body(
        self,
        record: Record,
        tag: tuple[str, str] | None,
        owners: Mapping[str, list[str]] | None = None,
    ) -> _Body:
        build: Callable[..., Any] | None = None
        maker = _KEYWORDS
        if record.kind != "typeddict":
            build = record.origin if callable(record.origin) else None
            if build is None:
                build = _plain_dict
            else:
                maker = _maker(record)
        return _Body(self._fields(record, tag), build, None if tag is None else tag[1], owners, maker=maker)

    def _union(self, node: UnionType, explicit: str | None, nullable: bool) -> Check:
        found = rules.find_discriminator(node, explicit)
        if isinstance(found, str):
            raise TypeError(f"union {node!r} has no discriminator; check the tool first")
        wires: list[str] = []
        fields_of: dict[str, list[str]] = {}
        for member, tag in zip(found.members, found.tags):
            for f in member.fields:
                wire = rules.wire_name(f, self.naming)
                if f.name == found.field:
                    if wire not in wires:
                        wires.append(wire)
                else:
                    fields_of.setdefault(wire, []).append(tag)
        bodies: dict[str, _Body] = {}
        for member, tag in zip(found.members, found.tags):
            own = {rules.wire_name(f, self.naming) for f in member.fields}
            owners = {w: [t for t in tags if t != tag] for w, tags in fields_of.items() if w not in own}
            bodies[tag] = self._body(member, (found.field, tag), owners)
        return _union_check(bodies, tuple(wires), "an object" + (" or null" if nullable else ""), nullable)

    def top(self, tool: ToolModel) -> _Body:
        fields = [
            _Field(p.name, p.name, self.node(p.type), not p.default.present, _nullable(p.type), self._spec(p.type))
            for p in rules.model_params(tool)
        ]
        mode = _literal(LiteralType(("wait", "background")), False) if tool.options.invocation_mode == "model_choice" else None
        return _Body(fields, None, None, None, mode)


def _plain_dict(**kwargs: Any) -> dict[str, Any]:
    return kwargs


# --- the compiled binder ------------------------------------------------------------------------


def _objectify(v: Any, c: _Call) -> Any:
    """A raw document with its objects as dicts (duplicates reported), for a provider decoder."""
    t = _type_of(v)
    if t is list:
        out: list[Any] = []
        items: list[Any] = v
        for i, x in enumerate(items):
            c.path.append(i)
            out.append(_objectify(x, c))
            c.path.pop()
        return out
    if t is tuple:
        d = _object(v, c)
        assert d is not None
        obj: dict[Any, Any] = {}
        for k, x in d.items():
            c.path.append(k)
            obj[k] = _objectify(x, c)
            c.path.pop()
        return obj
    return v


_RAW = (str, bytes, bytearray, memoryview)
#: The scanner ``jsonparse.read_object`` runs: objects as pairs, floats as float, no NaN.
_READ_PLAIN: Callable[[str, int], Any] = jsonparse.PLAIN_SCANNER
#: The same for a document over ``_ONE_PIECE`` characters: read in pieces, so a thread
#: binding it lets the others run (see ``jsonparse``).
_READ_PIECES: Callable[[str, int], Any] = jsonparse.PLAIN_PIECES
_ONE_PIECE = jsonparse.PIECES_OVER
#: ``tuple.__new__``, typed for pyright (its stub leaves the item type unknown).
_TUPLE_NEW: Callable[..., Any] = getattr(tuple, "__new__")
#: The state of a fast pass over a raw document, shared by every such call: a fast pass
#: never writes to it (a fault raises before any bookkeeping; only a tool with an
#: invocation mode records one, and those tools do not use it).
_FAST_RAW = _Call(True, False, False, False)


class CompiledBinder:
    """A tool's binder: call it as ``binder(arguments, provider)`` (the ``Binder`` shape).

    ``bind_call`` also returns the invocation mode a ``model_choice`` tool was asked for.
    """

    __slots__ = ("_top", "_exact", "_plain", "_params", "_options", "_decoder", "__weakref__")

    def __init__(self, tool: ToolModel) -> None:
        compiler = _Compiler(tool.options.naming)
        self._top = compiler.top(tool)
        self._exact = compiler.uses_decimal
        #: No Decimal and no invocation mode: the common path may use the shared ``_FAST_RAW``.
        self._plain = not self._exact and self._top.mode is None
        # Kept (not the model itself) so the binder does not keep the model alive.
        self._params: tuple[Param, ...] = tool.params
        self._options = tool.options
        self._decoder: Any = _MISSING

    def __call__(self, arguments: str | bytes | Mapping[str, object], provider: str | None = None) -> dict[str, object]:
        if provider is None and type(arguments) is str and self._plain and arguments.startswith("{"):
            # The common case, without the general loop's bookkeeping: a valid raw document,
            # exactly one object (``jsonparse.read_object``, written out: this is per call).
            try:
                pairs, end = (_READ_PLAIN if len(arguments) <= _ONE_PIECE else _READ_PIECES)(arguments, 0)
            except (ValueError, StopIteration, RecursionError):
                pairs, end = None, -1  # the general path gives the verdict
            if end == len(arguments):
                try:
                    return self._top.ordered(pairs, _FAST_RAW)  # type: ignore[no-any-return]
                except (_Fault, RecursionError):
                    pass
                except _NeedExact:  # the general path need not find that out again
                    return self._bind_slowly(arguments, provider, True)[0]
        return self._bind_slowly(arguments, provider)[0]

    def bind_call(self, arguments: str | bytes | Mapping[str, object], provider: str | None = None) -> BoundCall:
        """Bind, or raise ``ArgumentError`` listing every fault; also the requested invocation mode."""
        kwargs, mode = self._bind(arguments, provider)
        return BoundCall(kwargs, mode)

    def _bind(self, arguments: str | bytes | Mapping[str, object], provider: str | None) -> tuple[dict[str, object], str]:
        if provider is None and type(arguments) is str and self._plain and arguments.startswith("{"):
            try:  # as in __call__
                pairs, end = (_READ_PLAIN if len(arguments) <= _ONE_PIECE else _READ_PIECES)(arguments, 0)
            except (ValueError, StopIteration, RecursionError):
                pairs, end = None, -1
            if end == len(arguments):
                try:
                    return self._top.ordered(pairs, _FAST_RAW), "wait"
                except (_Fault, RecursionError):
                    pass
                except _NeedExact:
                    return self._bind_slowly(arguments, provider, True)
        return self._bind_slowly(arguments, provider)

    def _bind_slowly(
        self, arguments: str | bytes | Mapping[str, object], provider: str | None, exact: bool = False
    ) -> tuple[dict[str, object], str]:
        """The general path; ``exact``: read numbers exactly from the start (a fast path met a
        float that may not hold the integer its text wrote)."""
        given = cast(object, arguments)  # untyped callers may pass anything
        raw = isinstance(given, _RAW)
        exact = exact or self._exact
        doc: Any
        if raw:
            doc = self._read(arguments, exact)  # type: ignore[arg-type]
        elif isinstance(given, Mapping):
            mapping = cast("Mapping[str, object]", given)
            try:
                doc = mapping if isinstance(mapping, dict) else dict(mapping)
            except BaseException as e:  # its keys() or __getitem__ is user code
                raise ArgumentError(f"Arguments could not be read: {describe(e)}") from None
        else:
            raise ArgumentError(f"Arguments must be a JSON object, got {_kind(arguments, _Call(False, False, False, False))}.")
        openai = provider == "openai"
        decoder = self._provider_decoder(provider) if provider is not None else None
        if decoder is not None:
            doc = self._decode(doc, raw, decoder)
        collect = False
        while True:
            c = _Call(raw, exact, openai, collect)
            try:
                d = _object(doc, c)
                if d is None:
                    raise ArgumentError(f"Arguments must be a JSON object, got {_kind(doc, c)}.")
                kwargs = self._top.fast(d, c)
            except _Fault:
                collect = True
                continue
            except _NeedExact:
                exact = True
                doc = self._read(arguments, True)  # type: ignore[arg-type]
                if decoder is not None:
                    doc = self._decode(doc, raw, decoder)
                continue
            except RecursionError:
                raise ArgumentError("Arguments are nested too deeply.") from None
            if collect:
                if c.errors:
                    raise _error(c)
                # cannot happen: both passes run the same checks
                raise ArgumentError("Arguments were refused, but no fault could be named.")
            return kwargs, c.mode

    @staticmethod
    def _read(arguments: str | bytes, exact: bool) -> Any:
        try:
            return jsonparse.read(arguments, exact=exact)
        except jsonparse.JsonError as e:
            raise ArgumentError(f"Arguments are not valid JSON: {e}.") from None

    # -- provider re-encodings (a seam: each provider's decoder lives with its adapter) --

    def _provider_decoder(self, provider: str) -> Callable[[Mapping[str, object]], Mapping[str, object]] | None:
        decoder = self._decoder
        if decoder is _MISSING:
            from ..providers._decode import PAIR_PROVIDERS, compile_decoder

            stand_in = ToolModel(
                function_name="", docstring=None, params=self._params, returns=Returns("none"), options=self._options
            )
            decoder = compile_decoder(stand_in)
            self._decoder = decoder = (PAIR_PROVIDERS, decoder)
        providers, compiled = decoder
        return compiled if provider in providers else None

    @staticmethod
    def _decode(doc: Any, raw: bool, decoder: Callable[[Mapping[str, object]], Mapping[str, object]]) -> Any:
        from ..providers._decode import DecodeError

        if raw:
            c = _Call(True, False, False, True)
            try:
                doc = _objectify(doc, c)
            except RecursionError:
                raise ArgumentError("Arguments are nested too deeply.") from None
            if c.errors:
                raise _error(c)
        if not isinstance(doc, Mapping):
            return doc
        try:
            return decoder(cast("Mapping[str, object]", doc))
        except DecodeError as e:
            raise ArgumentError(str(e), e.path) from None


def _error(c: _Call) -> ArgumentError:
    errors = c.errors
    text = "\n".join(message for _, message in errors)
    if c.count > len(errors):
        text += f"\n... and {c.count - len(errors)} more."
    return ArgumentError(text, errors[0][0], errors)


_CACHE: dict[int, tuple[weakref.ref[ToolModel], CompiledBinder]] = {}


def _forget(key: int) -> Callable[[object], None]:
    def forget(_: object) -> None:
        _CACHE.pop(key, None)

    return forget


def compile_binder(tool: ToolModel) -> CompiledBinder:
    """The binder of a (checked) tool model; compiled once per model object and cached."""
    key = id(tool)
    entry = _CACHE.get(key)
    if entry is not None and entry[0]() is tool:
        return entry[1]
    binder = CompiledBinder(tool)
    _CACHE[key] = (weakref.ref(tool, _forget(key)), binder)
    return binder
