"""The checks of scalars and choices.

Each scalar kind's reference check is followed by its pieces of the fast paths: the inline
test the generated code runs, and the whole-list check of an array of that kind. Both only
ever accept what the reference check accepts, with the same result."""

from __future__ import annotations

import math
import sys
from collections.abc import Callable
from decimal import Decimal
from typing import Any

from ..core import formats, rules
from ..core.enums import enum_wire
from ..core.model import EnumType, LiteralType
from ..core.patterns import compile_pattern
from .state import BAD, MISSING, Call, Check, NeedExact, type_of
from .texts import (
    SURROGATE,
    bounds_text,
    count_text,
    digits_text,
    excerpt,
    expected_text,
    one_of,
    surrogate_text,
    written_text,
)

#: Floats at or beyond this magnitude may not hold the integer the text wrote.
EXACT_FLOAT = 9007199254740992.0
#: An integer written with an exponent or a fraction (``1e2``, ``5.0``) binds only below this
#: magnitude (10^20, exactly representable as a float); a larger one must be written in plain
#: digits, so ``1e4299`` never costs a 4,300-digit conversion.
WRITTEN_LIMIT = 1e20
_WRITTEN_DIGITS = 20
#: A Decimal with this exponent (0) was written in plain digits.
_UNIT = Decimal(1)
#: Below this magnitude an int has at most 640 digits, the lowest digit limit Python allows,
#: so only larger ints (possible in a mapping, never from the reader) are measured.
SMALL_INT = 1 << 2126
LEAST_SMALL_INT = -SMALL_INT  # a constant: negating a 2,126-bit int on every check costs


def all_of(kind: type, items: list[Any], raw: bool) -> bool:
    """Whether every item's type is exactly ``kind``. Items from the reader have built-in
    types only, compared by identity in one C-level pass (``list.count``, no hashing); a
    mapping's items may be of any class, whose metaclass could claim equality with ``kind``."""
    if raw:
        return list(map(type, items)).count(kind) == len(items)
    return set(map(type, items)) <= {kind}


#: A whole-list check: ``bulk(items, raw)`` (``raw``: the items come from the reader), the
#: bound list or None (then each item is checked on its own).
Bulk = Callable[[list[Any], bool], list[Any] | None]


def kept(items: list[Any], own: bool) -> list[Any]:
    """A checked list of unchanged items as the bound value: ``own``, the list itself (the
    reader's, where no code of the user's sees it before binding ends), else a copy."""
    return items if own else items[:]


#: Lists longer than this take a ``Bulk`` test (shorter ones are checked item by item).
BULK_OVER = 8


# --- scalars -----------------------------------------------------------------------------


def digit_limit() -> int:
    get = getattr(sys, "get_int_max_str_digits", None)
    return int(get()) if get is not None else 0


_POWERS: dict[int, int] = {}


def over_digit_limit(n: int) -> int:
    """The digit limit that ``n`` exceeds, or 0 (without converting ``n`` to text)."""
    if LEAST_SMALL_INT < n < SMALL_INT:
        return 0
    limit = digit_limit()
    if not limit:
        return 0
    power = _POWERS.get(limit)
    if power is None:
        power = _POWERS[limit] = 10**limit
    return limit if abs(n) >= power else 0


def bool_check(expect: str) -> Check:
    def check(v: Any, c: Call) -> Any:
        if v is True or v is False:
            return v
        if c.fail():
            c.add(expected_text(expect, v, c))
        return BAD

    return check


#: The fast paths' inline test (true: not the plain valid case, the check above decides).
_BOOL_FAST = "{x} is not True and {x} is not False"


def _bulk_bools(lo: Any, hi: Any, keep: bool) -> Bulk:
    def bools(v: list[Any], raw: bool) -> list[Any] | None:
        return kept(v, raw and keep) if all_of(bool, v, raw) else None

    return bools


def _decimal_to_int(v: Decimal, expect: str, c: Call) -> Any:
    if v.is_finite() and v == v.to_integral_value():
        if v.adjusted() < _WRITTEN_DIGITS:
            return int(v)
        if v.is_zero():  # 0e5000
            return 0
        if not v.same_quantum(_UNIT):  # written with an exponent or a fraction
            if c.fail():
                c.add(written_text(v))
            return BAD
        limit = digit_limit()
        if limit and v.adjusted() + 1 > limit:
            if c.fail():
                c.add(digits_text(limit))
            return BAD
        return int(v)
    if c.fail():
        c.add(f"must be {expect}, got {excerpt(v)}.")
    return BAD


def int_check(lo: Any, hi: Any, expect: str) -> Check:
    bounded = lo is not None or hi is not None

    def check(v: Any, c: Call) -> Any:
        t = type_of(v)
        if t is int:
            n = v
            if not LEAST_SMALL_INT < v < SMALL_INT and not c.raw:  # a mapping's int: never converted yet
                limit = over_digit_limit(v)
                if limit:
                    if c.fail():
                        c.add(digits_text(limit))
                    return BAD
        elif t is float:
            if not (-EXACT_FLOAT < v < EXACT_FLOAT):
                if c.raw and not c.exact:
                    raise NeedExact  # 1e19 or 1e400: the float may not hold what the text wrote
                if not v.is_integer():
                    if c.fail():
                        c.add(f"must be {expect}, got {excerpt(v)}.")
                    return BAD
                if not -WRITTEN_LIMIT < v < WRITTEN_LIMIT:  # a float was written with a fraction or an exponent
                    if c.fail():
                        c.add(written_text(v))
                    return BAD
                n = int(v)
            elif v.is_integer():
                n = int(v)
            else:
                if c.fail():
                    c.add(f"must be {expect}, got {excerpt(v)}.")
                return BAD
        elif t is Decimal:
            n = _decimal_to_int(v, expect, c)
            if n is BAD:
                return BAD
        else:
            if c.fail():
                c.add(expected_text(expect, v, c))
            return BAD
        if bounded and ((lo is not None and n < lo) or (hi is not None and n > hi)):
            if c.fail():
                c.add(f"must be {bounds_text(lo, hi)}, got {excerpt(n)}.")
            return BAD
        return n

    return check


#: The fast paths' inline test, as ``int_check`` takes its plain path: an int, and, unless it
#: comes from the reader, within the magnitude that needs no digit count (bounds are added
#: by ``fast_test``).
_INT_FAST = "type({x}) is not int"
_INT_FAST_MAPPING = " or not LEAST < {x} < SMALL"


def _bulk_ints(lo: Any, hi: Any, keep: bool) -> Bulk:
    def ints(v: list[Any], raw: bool) -> list[Any] | None:
        if all_of(int, v, raw):
            if v and ((lo is not None and min(v) < lo) or (hi is not None and max(v) > hi)):
                return None
            if not raw and v and not (LEAST_SMALL_INT < min(v) and max(v) < SMALL_INT):
                return None  # a mapping's large int: the item check measures it
            return kept(v, raw and keep)
        return None

    return ints


def float_check(lo: Any, hi: Any, expect: str) -> Check:
    bounded = lo is not None or hi is not None

    def check(v: Any, c: Call) -> Any:
        t = type_of(v)
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
                c.add(expected_text(expect, v, c))
            return BAD
        if x - x != 0.0:  # NaN or an infinity
            if c.fail():
                c.add(f"must be a finite number, got {excerpt(v)}.")
            return BAD
        if bounded and ((lo is not None and compare < lo) or (hi is not None and compare > hi)):
            if c.fail():
                c.add(f"must be {bounds_text(lo, hi)}, got {excerpt(v)}.")
            return BAD
        return x

    return check


_FLOAT_FAST = "type({x}) is not float or {x} - {x} != 0.0"


def _bulk_floats(lo: Any, hi: Any, keep: bool) -> Bulk:
    def floats(v: list[Any], raw: bool) -> list[Any] | None:
        if all_of(float, v, raw) and all(map(math.isfinite, v)):
            if v and ((lo is not None and min(v) < lo) or (hi is not None and max(v) > hi)):
                return None
            return kept(v, raw and keep)
        return None

    return floats


def _as_decimal(bound: Any) -> Decimal | None:
    """A bound as the decimal its source text wrote (``0.1`` is 0.1, not the float's expansion)."""
    if bound is None:
        return None
    return Decimal(repr(bound)) if isinstance(bound, float) else Decimal(bound)


def decimal_check(lo: Any, hi: Any, expect: str) -> Check:
    dlo, dhi = _as_decimal(lo), _as_decimal(hi)
    bounded = lo is not None or hi is not None

    def check(v: Any, c: Call) -> Any:
        t = type_of(v)
        if t is Decimal:
            if not v.is_finite():  # only a mapping can hold one: the reader refuses NaN
                if c.fail():
                    c.add(f"must be a finite number, got {excerpt(v)}.")
                return BAD
            d = v
        elif t is int:
            if not LEAST_SMALL_INT < v < SMALL_INT and not c.raw:
                limit = over_digit_limit(v)
                if limit:
                    if c.fail():
                        c.add(digits_text(limit))
                    return BAD
            d = Decimal(v)
        elif t is float:
            if v - v != 0.0:
                if c.fail():
                    c.add(f"must be a finite number, got {excerpt(v)}.")
                return BAD
            d = Decimal(repr(v))  # the text a JSON parser read it from
        else:
            if c.fail():
                c.add(expected_text(expect, v, c))
            return BAD
        if bounded and ((dlo is not None and d < dlo) or (dhi is not None and d > dhi)):
            if c.fail():
                c.add(f"must be {bounds_text(lo, hi)}, got {excerpt(v)}.")
            return BAD
        return d

    return check


def string_check(
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

    def check(v: Any, c: Call) -> Any:
        if type(v) is not str:
            if c.fail():
                c.add(expected_text(expect, v, c))
            return BAD
        if not v.isascii() and SURROGATE.search(v) is not None:
            if c.fail():
                c.add(surrogate_text(v))
            return BAD
        if plain:
            return v
        ok = True
        if sized:
            n = len(v)
            if (min_len is not None and n < min_len) or (max_len is not None and n > max_len):
                ok = False
                if c.fail():
                    c.add(f"must be {count_text(min_len, max_len, 'character', n)} long, got {n}.")
        if search is not None and search(v) is None:
            ok = False
            if c.fail():
                c.add(f"must match the pattern {pattern}, got {excerpt(v)}.")
        if test is not None and not test(v):
            ok = False
            if c.fail():
                c.add(f"must be {hint}, got {excerpt(v)}.")
        return v if ok else BAD

    return check


#: For a string without length, pattern or format.
_STR_FAST = "type({x}) is not str or (not {x}.isascii() and SURR({x}) is not None)"


def _bulk_strings(lo: Any, hi: Any, keep: bool) -> Bulk:
    def strings(v: list[Any], raw: bool) -> list[Any] | None:
        if raw:
            # One C-level pass: ``join`` refuses any item that is no str (the reader makes no
            # subclass of it), and all-ASCII text holds no surrogate.
            try:
                return kept(v, keep) if "".join(v).isascii() else None
            except TypeError:
                return None
        if all_of(str, v, raw) and all(map(str.isascii, v)):
            return v[:]
        return None

    return strings


def parsed_check(expect: str, reader: Callable[[str], Any], hint: str) -> Check:
    """A string form read by its scalar row's reader (``core.scalars``); ``hint`` says the form."""

    def check(v: Any, c: Call) -> Any:
        if type(v) is not str:
            if c.fail():
                c.add(expected_text(expect, v, c))
            return BAD
        out = reader(v)
        if out is None:
            if c.fail():
                c.add(f"must be {hint}, got {excerpt(v)}.")
            return BAD
        return out

    return check


# --- the fast-path pieces, looked up by kind -------------------------------------------------

#: The names the inline tests use, for the generated code's namespace.
FAST_NAMES: dict[str, Any] = {"SURR": SURROGATE.search, "SMALL": SMALL_INT, "LEAST": LEAST_SMALL_INT}
_FAST_TESTS = {"str": _STR_FAST, "int": _INT_FAST, "float": _FLOAT_FAST, "bool": _BOOL_FAST}


def fast_test(kind: str, x: str, raw: bool) -> str:
    """The inline test of a plain ``kind`` value held in the variable ``x``, without bounds.

    ``raw``: the value comes from the reader, so an int is within the digit limit; a mapping's
    int may not be, and a large one takes the generic path, which measures it."""
    test = _FAST_TESTS[kind]
    if kind == "int" and not raw:
        test += _INT_FAST_MAPPING
    return test.format(x=x)


_BULKS: dict[str, Callable[[Any, Any, bool], Bulk]] = {
    "str": _bulk_strings,
    "int": _bulk_ints,
    "float": _bulk_floats,
    "bool": _bulk_bools,
}


def bulk_for(check_kind: str, lo: Any, hi: Any, keep: bool) -> Bulk | None:
    """A whole-list fast path for unconstrained-kind scalar items (C-level loops), or None;
    ``keep``: the reader's list may be the bound value (see ``kept``)."""
    make = _BULKS.get(check_kind)
    return make(lo, hi, keep) if make is not None else None


# --- choices -----------------------------------------------------------------------------


def enum_table(node: EnumType) -> dict[str, object]:
    """Each wire form the binder accepts (a value, or a name) -> the member it binds."""
    cls: Any = node.origin
    return {wire: (cls[name] if cls is not None else name) for wire, name in zip(node.wire, node.members)}


def enum_check(node: EnumType, nullable: bool) -> Check:
    table = enum_table(node)
    wire = node.wire
    spellings = enum_spellings(node.origin, enum_wire)

    def check(v: Any, c: Call) -> Any:
        if type(v) is str:
            member = table.get(v, MISSING)
            if member is not MISSING:
                return member
        if c.fail():
            c.add(one_of(v, wire, nullable, spellings))
        return BAD

    return check


def enum_spellings(cls: Any, wire_of: Callable[[Any], str]) -> dict[str, str]:
    """What a model may send for a member instead of its wire form ``wire_of(member)``, for the
    did-you-mean: its name, an alias's name, and its value (a string, or an integer's digits).
    A spelling two members share, or that is some member's wire form, is left out."""
    if cls is None:
        return {}
    wires = {wire_of(m) for m in cls}
    out: dict[str, str] = {}
    shared: set[str] = set()
    for alias, member in cls.__members__.items():
        wire = wire_of(member)
        value = member.value
        others = [alias, member.name]
        if type(value) is str or (type(value) is int and value.bit_length() <= 128):
            others.append(str(value))
        for spelling in others:
            if spelling in wires or spelling in shared:
                continue
            if out.get(spelling, wire) != wire:
                shared.add(spelling)
                del out[spelling]
            else:
                out[spelling] = wire
    return out


def literal_check(node: LiteralType, nullable: bool) -> Check:
    values = node.values
    kind = rules.literal_json_type(values[0])
    table: dict[object, object] = {v: v for v in values}

    def fault(v: Any, c: Call) -> Any:
        if c.fail():
            c.add(one_of(v, values, nullable))
        return BAD

    if kind == "string":

        def check(v: Any, c: Call) -> Any:
            if type(v) is str:
                found = table.get(v, MISSING)
                if found is not MISSING:
                    return found
            return fault(v, c)

    elif kind == "integer":

        def check(v: Any, c: Call) -> Any:
            t = type_of(v)
            if t is int or (t is Decimal and v.is_finite()):  # a signalling NaN cannot be hashed
                found = table.get(v, MISSING)
                if found is not MISSING:
                    return found
            elif t is float:
                if not (-EXACT_FLOAT < v < EXACT_FLOAT) and c.raw and not c.exact:
                    raise NeedExact
                found = table.get(v, MISSING)
                if found is not MISSING:
                    return found
            return fault(v, c)

        def written(v: Any, c: Call) -> Any:
            """As an integer type: a value written with an exponent or a fraction binds below 10^20."""
            found = check(v, c)
            if found is not BAD and type_of(v) is not int and not -WRITTEN_LIMIT < found < WRITTEN_LIMIT:
                if c.fail():
                    c.add(written_text(v))
                return BAD
            return found

        return written

    else:

        def check(v: Any, c: Call) -> Any:
            if (v is True or v is False) and any(v is x for x in values):
                return v
            return fault(v, c)

    return check
