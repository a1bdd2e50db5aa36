"""Whether a result's JSON value can be written as JSON, and if not, what is in the way and where.

The invoker asks before it makes a result, so that reading ``ToolResult.text`` (or sending
the part) never raises later, outside ``invoke``, and never writes ``NaN``. A valid value
is checked by type alone (dicts, lists, strings, numbers: no text is made); anything else is
handed to the C encoder; only a refused one is walked in Python, to name the first thing
that cannot be written, at its path (``items[2].score``).
"""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Callable
from typing import Any, cast

__all__ = ["SAFE_INT_BITS", "problem", "problem_at"]


def _refuse(value: object) -> object:
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


def _make_encoder() -> Callable[[object], object]:
    """The C encoder, made once: ``JSONEncoder.encode`` makes a new one per call, which costs as much again.

    It keeps no state between calls (no cycle markers: a cycle ends in ``RecursionError``,
    which the walk below tells apart from deep nesting), so threads may share it.
    """
    from json import encoder

    make: Any = getattr(encoder, "c_make_encoder", None)
    if make is not None:
        try:
            c_encode: Any = make(None, _refuse, encoder.encode_basestring, None, ":", ",", False, False, False)
            return lambda value: c_encode(value, 0)
        except TypeError:  # another interpreter's signature: the general path below
            pass
    return json.JSONEncoder(ensure_ascii=False, allow_nan=False, check_circular=False, separators=(",", ":")).encode


_encode = _make_encoder()
#: Below this many bits an int has fewer than 640 digits, the lowest digit limit Python allows.
SAFE_INT_BITS = 2_000


def _digit_limit() -> int:
    get: Callable[[], int] | None = getattr(sys, "get_int_max_str_digits", None)
    return get() if get is not None else 0


def problem(value: object) -> str | None:
    """None when ``value`` can be written as JSON; else what stops it, like ``NaN at items[2].score``."""
    found = problem_at(value)
    if found is None:
        return None
    what, segments = found
    if not segments:
        return what
    from ..binding import format_path

    return f"{what} at {format_path(segments)}"


def problem_at(value: object) -> tuple[str, tuple[object, ...]] | None:
    """``problem``, with the path as its segments (``("items", 2, "score")``), for a caller that
    writes the value inside a larger one and names the whole path."""
    t = type(value)
    if t is str or t is bool or value is None:
        return None
    if t is int and cast(int, value).bit_length() < SAFE_INT_BITS:
        return None
    if t is float and math.isfinite(cast(float, value)):
        return None
    try:
        if (t is dict or t is list) and _plain(value, 0):
            return None
    except RecursionError:  # a recursion limit set lower than _PLAIN_DEPTH: the general path decides
        pass
    try:
        _encode(value)
        return None
    except Exception:  # user code inside a value, a cycle: named by the walk below
        pass
    return _first_problem(value)


#: A path as a chain of (parent, segment) links, so that going one level down copies nothing.
_Path = tuple[Any, object] | None


#: How deep ``_plain`` goes before it leaves a value to the encoder (a cycle ends there too).
_PLAIN_DEPTH = 64


#: ``type``, typed so that the type of an ``Any`` value is ``type[Any]`` (comparing it narrows nothing).
_type_of: Callable[[object], type[Any]] = type


def _plain(value: Any, depth: int) -> bool:
    """True when ``value`` holds only exact dicts with str keys, lists, str, bool, None, small ints and finite floats.

    The common result, checked without writing it (faster than the C encoder, which makes text).
    False means "not sure": the encoder and the walk decide. The item test is written out twice,
    for dicts and for lists: it runs per item, and a call per item would cost a third more.
    """
    items: Any
    if _type_of(value) is dict:
        items = value.items()
        for key, item in items:
            if _type_of(key) is not str:
                return False
            t = _type_of(item)
            if t is str or t is bool or item is None:
                continue
            if t is int:
                if item.bit_length() < SAFE_INT_BITS:
                    continue
                return False
            if t is float:
                if item - item == 0.0:  # finite (NaN and the infinities give NaN)
                    continue
                return False
            if (t is dict or t is list) and depth < _PLAIN_DEPTH and _plain(item, depth + 1):
                continue
            return False
        return True
    items = value
    for item in items:
        t = _type_of(item)
        if t is str or t is bool or item is None:
            continue
        if t is int:
            if item.bit_length() < SAFE_INT_BITS:
                continue
            return False
        if t is float:
            if item - item == 0.0:
                continue
            return False
        if (t is dict or t is list) and depth < _PLAIN_DEPTH and _plain(item, depth + 1):
            continue
        return False
    return True


def _where(what: str, path: _Path) -> tuple[str, tuple[object, ...]]:
    segments: list[object] = []
    while path is not None:
        path, segment = path
        segments.append(segment)
    return what, tuple(reversed(segments))


def _int_problem(value: int) -> str | None:
    limit = _digit_limit()
    if limit and value.bit_length() >= SAFE_INT_BITS:
        try:
            int.__repr__(value)
        except ValueError:
            return f"an integer of more than {limit:,} digits"
    return None


def _float_problem(value: float) -> str | None:
    if math.isfinite(value):
        return None
    if value != value:
        return "NaN"
    return "Infinity" if value > 0 else "-Infinity"


def _key_problem(key: object) -> str | None:
    if isinstance(key, str) or key is None or isinstance(key, bool):
        return None
    if isinstance(key, int):
        found = _int_problem(key)
        return None if found is None else f"a key that is {found}"
    if isinstance(key, float):
        found = _float_problem(key)
        return None if found is None else f"a key that is {found}"
    return f"a key of type {type(key).__qualname__}"


def _first_problem(value: object) -> tuple[str, tuple[object, ...]]:
    """Walk ``value`` depth first, in the encoder's order; the first thing it could not write."""
    # Each entry: (value, its path, whether we are leaving it); ``open`` holds the containers
    # on the current path, for cycles.
    stack: list[tuple[Any, _Path, bool]] = [(value, None, False)]
    open_ids: set[int] = set()
    try:
        while stack:
            item, path, leaving = stack.pop()
            if leaving:
                open_ids.discard(id(item))
                continue
            if isinstance(item, str) or item is None or isinstance(item, bool):
                continue
            if isinstance(item, int):
                found = _int_problem(item)
                if found is not None:
                    return _where(found, path)
                continue
            if isinstance(item, float):
                found = _float_problem(item)
                if found is not None:
                    return _where(found, path)
                continue
            if isinstance(item, (dict, list, tuple)):
                container = cast(Any, item)
                if id(container) in open_ids:
                    return _where("a reference cycle", path)
                open_ids.add(id(container))
                stack.append((container, path, True))
                children: list[tuple[Any, _Path, bool]] = []
                if isinstance(item, dict):
                    mapping: dict[Any, Any] = container
                    for key, child in mapping.items():
                        found = _key_problem(key)
                        if found is not None:
                            return _where(found, path)
                        children.append((child, (path, key if isinstance(key, str) else json.dumps(key)), False))
                else:
                    sequence: list[Any] = container
                    for index, child in enumerate(sequence):
                        children.append((child, (path, index), False))
                stack.extend(reversed(children))
                continue
            return _where(f"an object of type {type(item).__qualname__}", path)
    except RecursionError:
        return "nesting deeper than the interpreter's recursion limit", ()
    except Exception as e:  # a container's own code failed while it was read
        from ..errortext import describe

        return describe(e), ()
    # The encoder refused what the walk accepts: nesting too deep for it, or a subclass with hooks of its own.
    try:
        _encode(value)
    except RecursionError:
        return "nesting deeper than the interpreter's recursion limit", ()
    except Exception as e:
        from ..errortext import describe

        return describe(e), ()
    return "a value the JSON encoder refused", ()  # pragma: no cover (the encoder accepted it this time)
