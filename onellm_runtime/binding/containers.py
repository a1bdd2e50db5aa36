"""The checks of containers and JSON values, and the object and key handling that records share."""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Mapping
from decimal import Decimal
from typing import Any, cast

from ..errortext import describe
from .checks import BULK_OVER, LEAST_SMALL_INT, SMALL_INT, Bulk, digit_limit, over_digit_limit
from .state import BAD, Call, Check, type_of
from .texts import SURROGATE, count_text, digits_text, excerpt, expected_text, surrogate_text

# --- shared pieces of closures ---------------------------------------------------------


def duplicates(pairs: tuple[tuple[str, object], ...], c: Call) -> None:
    """Report every key given more than once in a raw object (raises in the fast pass)."""
    seen: set[str] = set()
    reported: set[str] = set()
    for key, _ in pairs:
        if key in seen and key not in reported:
            reported.add(key)
            if c.fail():
                c.add("is given more than once.", key)
        seen.add(key)


def as_object(value: Any, c: Call) -> Any:
    """The object ``value`` stands for as a dict (a raw tuple of pairs becomes one), None when
    it is no object, or ``BAD`` when a mapping could not be read (the fault is recorded)."""
    t = type_of(value)
    if t is dict:
        return value
    if t is tuple and c.raw:
        d = dict(value)
        if len(d) != len(value):
            duplicates(value, c)
        return d
    if not c.raw and isinstance(value, Mapping):  # another mapping type inside a parsed document
        mapping: Mapping[Any, Any] = cast(Any, value)
        try:
            return dict(mapping)
        except BaseException as e:  # its keys() or __getitem__ is user code
            if c.fail():
                c.add(f"could not be read: {describe(e)}")
            return BAD
    return None


def _keys_fine(d: dict[Any, Any], c: Call) -> bool:
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
        if not k.isascii() and SURROGATE.search(k) is not None:
            ok = False
            if c.fail():
                c.add("has a key that " + surrogate_text(k))
    return ok


def or_null(check: Check) -> Check:
    def nullable(v: Any, c: Call) -> Any:
        if v is None:
            return None
        return check(v, c)

    return nullable


# --- containers ----------------------------------------------------------------------------


_CONTAINERS: dict[str, Callable[[list[Any]], Any]] = {"list": list, "tuple": tuple, "set": set, "frozenset": frozenset}


def array_check(
    item: Check,
    kind: str,
    min_items: int | None,
    max_items: int | None,
    expect: str,
    bulk: Bulk | None,
    many: Callable[[list[Any], Call], list[Any]] | None = None,
) -> Check:
    """An array's check; ``bulk`` and ``many`` are fast passes over its items (a long list of
    plain scalars, and the items of a record or union: see ``records.Many``)."""
    unique = kind in ("set", "frozenset")
    build = _CONTAINERS[kind]
    sized = min_items is not None or max_items is not None

    def check(value: Any, c: Call) -> Any:
        if type(value) is not list:
            if c.fail():
                c.add(expected_text(expect, value, c))
            return BAD
        v: list[Any] = value  # pyright: ignore[reportUnknownVariableType]
        ok = True
        if sized:
            n = len(v)
            if (min_items is not None and n < min_items) or (max_items is not None and n > max_items):
                ok = False
                if c.fail():
                    c.add(f"must have {count_text(min_items, max_items, 'item', n)}, got {n}.")
        out: list[Any] | None = None
        if c.collect:
            out = []
            path = c.path
            for i, x in enumerate(v):
                path.append(i)
                r = item(x, c)
                path.pop()
                if r is BAD:
                    ok = False
                out.append(r)
        else:
            if bulk is not None and len(v) > BULK_OVER:
                out = bulk(v, c.raw)
            if out is None:
                out = many(v, c) if many is not None else [item(x, c) for x in v]
        if unique and not _unique(out, c):
            ok = False
        if not ok:
            return BAD
        return build(out) if kind != "list" else out

    return check


def _unique(items: list[Any], c: Call) -> bool:
    """Set items: no two equal after binding; the second of two equal items is reported."""
    try:
        if BAD not in items and len(set(items)) == len(items):
            return True
        first: dict[Any, int] = {}
        ok = True
        for i, x in enumerate(items):
            if x is BAD:
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


def map_check(value: Check, expect: str) -> Check:
    def check(v: Any, c: Call) -> Any:
        d = as_object(v, c)
        if d is None or d is BAD:
            if d is None and c.fail():
                c.add(expected_text(expect, v, c))
            return BAD
        ok = _keys_fine(d, c)
        if c.collect:
            out: dict[Any, Any] = {}
            path = c.path
            for k, x in d.items():
                path.append(k)
                r = value(x, c)
                path.pop()
                if r is BAD:
                    ok = False
                out[k] = r
        else:
            out = {k: value(x, c) for k, x in d.items()}
        return out if ok else BAD

    return check


# --- JSON values --------------------------------------------------------------------------


def _walker(own: bool) -> Check:
    """The walk of a JSON value; ``own``: the reader's lists may be the bound value (see
    ``checks.kept``), else every list is a new one, as a caller's always are."""

    def walk(v: Any, c: Call) -> Any:
        """Any JSON value: checked (finite numbers, valid text, string keys) and rebuilt as plain data."""
        t = type_of(v)
        if t is str:
            if not v.isascii() and SURROGATE.search(v) is not None:
                if c.fail():
                    c.add(surrogate_text(v))
                return BAD
            return v
        if t is int:
            if not LEAST_SMALL_INT < v < SMALL_INT and not c.raw:  # a mapping's int: never converted yet
                limit = over_digit_limit(v)
                if limit:
                    if c.fail():
                        c.add(digits_text(limit))
                    return BAD
            return v
        if t is bool or v is None:
            return v
        if t is float:
            if v - v != 0.0:
                if c.fail():
                    c.add(f"must be a finite number, got {excerpt(v)}.")
                return BAD
            return v
        if t is list:
            items: list[Any] = v
            if c.collect:
                out: list[Any] = []
                ok = True
                for i, x in enumerate(items):
                    c.path.append(i)
                    r = walk(x, c)
                    c.path.pop()
                    ok = ok and r is not BAD
                    out.append(r)
                return out if ok else BAD
            if own and c.raw:
                # The reader's own list (the fast pass): kept while no item changes, so a value's
                # arrays cost no second copy; an item that becomes another object (a raw object's
                # pairs a dict, a Decimal a float) starts a new list. The reader's list is never
                # changed, since a collecting pass may walk it again. Written inline, one frame per
                # level, and a one-item list (each level of a deep document) without an iterator.
                if len(items) == 1:
                    x = items[0]
                    r = walk(x, c)
                    return items if r is x else [r]
                i = 0
                for x in items:
                    r = walk(x, c)
                    if r is not x:
                        out = items[:i]
                        out.append(r)
                        append = out.append
                        for y in itertools.islice(items, i + 1, None):
                            append(walk(y, c))
                        return out
                    i += 1
                return items
            # A plain loop, not a comprehension or map: one frame per level (3.10 and 3.11 give a
            # comprehension a frame of its own; map re-enters the interpreter from C, which makes
            # every level of a deep document slower), so the walk reaches as deep as the reader.
            out = []
            append = out.append
            for x in items:
                append(walk(x, c))
            return out
        d = as_object(v, c)
        if d is BAD:
            return BAD
        if d is not None:
            ok = _keys_fine(d, c)
            if c.collect:
                obj: dict[Any, Any] = {}
                for k, x in d.items():
                    c.path.append(k)
                    r = walk(x, c)
                    c.path.pop()
                    ok = ok and r is not BAD
                    obj[k] = r
                return obj if ok else BAD
            if d is not v:  # made just now from a raw object's pairs: its values are replaced in place
                for k, x in d.items():
                    r = walk(x, c)
                    if r is not x:
                        d[k] = r
                return d
            obj = {}
            for k, x in d.items():
                obj[k] = walk(x, c)
            return obj
        if t is Decimal:
            limit = digit_limit()
            if v.is_finite() and v.as_tuple().exponent == 0 and limit and v.adjusted() + 1 > limit:
                if c.fail():
                    c.add(digits_text(limit))
                return BAD
            x = float(v) if v.is_finite() else math.nan  # float() raises for a signalling NaN
            if x - x != 0.0:
                if c.fail():
                    c.add(f"must be a finite number, got {excerpt(v)}.")
                return BAD
            return x
        if c.fail():
            c.add(f"must be a JSON value, got {t.__name__}.")
        return BAD

    return walk


#: Outside every record: the reader's lists are kept.
_walk = _walker(True)
#: Inside a record: a constructor could change a list before a collecting pass reads the
#: document again, so each list is a copy.
_walk_copying = _walker(False)


def json_check(kind: str, min_items: int | None, max_items: int | None, nullable: bool, own: bool) -> Check:
    """The check of a JSON value, array or object; ``own``: the reader's lists may be the
    bound value (outside every record, see ``_walker``)."""
    walk = _walk if own else _walk_copying
    if kind == "value":
        return walk
    expect = ("an object" if kind == "object" else "an array") + (" or null" if nullable else "")
    sized = min_items is not None or max_items is not None

    def check(v: Any, c: Call) -> Any:
        t = type_of(v)
        is_object = t is dict or (t is tuple and c.raw)
        if (kind == "object") != is_object or (kind == "array" and t is not list):
            if c.fail():
                c.add(expected_text(expect, v, c))
            return BAD
        if sized:
            n = len(v)
            if (min_items is not None and n < min_items) or (max_items is not None and n > max_items):
                if c.fail():
                    c.add(f"must have {count_text(min_items, max_items, 'item', n)}, got {n}.")
                return BAD
        return walk(v, c)

    return check
