"""Strings a ``pattern`` matches, for the differ's witnesses and the refusal cases.

A pattern is parsed with the standard library's own regular-expression parser and walked:
literals as written, a class by its first member, a repetition by the counts asked for
(as near as its bounds allow), each alternative in turn. Every text is checked by the
binder's reading (``core/patterns.compile_pattern``) before it is yielded, so a construct
this walk does not follow costs an example, never a wrong one. Bounded: a fixed number of
texts, each at most a few hundred characters.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Iterator, Sequence
from functools import lru_cache
from typing import Any

from ..core.patterns import compile_pattern

__all__ = ["pattern_search", "pattern_examples"]

#: The parser module (``re._parser`` since Python 3.11, ``sre_parse`` before).
_parser: Any = importlib.import_module("re._parser" if hasattr(re, "_parser") else "sre_parse")
_constants: Any = importlib.import_module("re._constants" if hasattr(re, "_constants") else "sre_constants")

_CATEGORY_TEXT = {"CATEGORY_DIGIT": "0", "CATEGORY_WORD": "a", "CATEGORY_SPACE": " "}
_CATEGORY_OTHER = {"CATEGORY_NOT_DIGIT": "a", "CATEGORY_NOT_WORD": "-", "CATEGORY_NOT_SPACE": "a"}
_MAX_TEXT = 400


@lru_cache(maxsize=256)
def _compiled(pattern: str) -> re.Pattern[str] | None:
    try:
        return compile_pattern(pattern)
    except re.error:
        return None


def pattern_search(pattern: str, text: str) -> bool:
    """Whether ``pattern`` is found in ``text`` as the binder reads it (a pattern no reading
    compiles matches nothing)."""
    compiled = _compiled(pattern)
    return compiled is not None and compiled.search(text) is not None


def pattern_examples(pattern: str, lengths: Sequence[int]) -> Iterator[str]:
    """Texts ``pattern`` matches: for each repetition count in ``lengths``, then each alternative."""
    try:
        parsed = _parser.parse(pattern)
    except (re.error, RecursionError):
        return
    seen: set[str] = set()
    for count in dict.fromkeys([*lengths, 0, 1, 2]):
        for branch in range(3):
            text = _walk(parsed, count, branch)
            if text is None:
                continue
            for variant in (text, text + "0", text + " ", "0" + text):  # what an unanchored end lets in
                if variant not in seen and len(variant) <= _MAX_TEXT and pattern_search(pattern, variant):
                    seen.add(variant)
                    yield variant


def _walk(items: Any, count: int, branch: int) -> str | None:
    out: list[str] = []
    for op, arg in items:
        name = str(op)
        if name == "LITERAL":
            out.append(chr(arg))
        elif name == "NOT_LITERAL":
            out.append("a" if chr(arg) != "a" else "b")
        elif name == "ANY":
            out.append("a")
        elif name == "IN":
            member = _class_member(arg)
            if member is None:
                return None
            out.append(member)
        elif name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
            lo, hi, sub = arg
            n = max(lo, min(count, hi if hi != _constants.MAXREPEAT else count, 64))
            inner = _walk(sub, count, branch)
            if inner is None:
                return None
            out.append(inner * n)
        elif name == "SUBPATTERN":
            inner = _walk(arg[-1], count, branch)
            if inner is None:
                return None
            out.append(inner)
        elif name == "BRANCH":
            alternatives = arg[1]
            inner = _walk(alternatives[min(branch, len(alternatives) - 1)], count, branch)
            if inner is None:
                return None
            out.append(inner)
        elif name == "AT":
            continue
        else:  # lookarounds, back-references: no example from this walk
            return None
    return "".join(out)


def _class_member(members: Any) -> str | None:
    """One character of a character class (``[...]``), or None for a negated one."""
    for op, arg in members:
        name = str(op)
        if name == "NEGATE":
            excluded = {chr(a) for o, a in members if str(o) == "LITERAL"}
            return next(c for c in "a0_-" if c not in excluded)
        if name == "LITERAL":
            return chr(arg)
        if name == "RANGE":
            return chr(arg[0])
        if name == "CATEGORY":
            return _CATEGORY_TEXT.get(str(arg), _CATEGORY_OTHER.get(str(arg)))
    return None
