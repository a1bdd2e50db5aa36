"""``Pattern`` strings: the ECMA-262 subset that Python's ``re`` can read the same way.

JSON Schema says ``pattern`` is an ECMA-262 regular expression, searched (not anchored).
A model's validator and our binder must agree on what matches, so a pattern is accepted
only when it avoids syntax that one dialect has and the other lacks (OLT013), and it is
translated for ``re`` so the remaining differences (``\\d``/``\\w`` are ASCII in ECMA,
``\\s`` is Unicode, ``.`` stops at every line terminator, ``$`` is the very end) vanish.
"""

from __future__ import annotations

import re
from functools import lru_cache

__all__ = ["pattern_problem", "compile_pattern"]

# ECMA-262 WhiteSpace and LineTerminator code points (what ``\s`` matches there).
_ECMA_SPACE = "\\t\\n\\x0b\\x0c\\r \\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff"
_ECMA_DOT = "[^\\n\\r\\u2028\\u2029]"

_FORBIDDEN = (
    ("(?<=", "lookbehind"),
    ("(?<!", "lookbehind"),
    ("(?P", "Python named groups"),
    ("(?<", "named groups"),
    ("(?>", "atomic groups"),
    ("(?(", "conditionals"),
    ("(?#", "comments"),
)


def _scan_problem(p: str) -> str | None:
    for token, what in _FORBIDDEN:
        if token in p:
            return (
                f"{token!r} ({what}) is read differently by JSON Schema validators and Python; "
                "rewrite the pattern without it"
            )
    if re.search(r"\(\?[aiLmsux-]+[:)]", p):
        return "inline flags such as '(?i)' are Python-only syntax"
    i = 0
    in_class = False
    prev_quantifier = False
    while i < len(p):
        c = p[i]
        if c == "\\":
            if i + 1 >= len(p):
                return "the pattern ends with a lone backslash"
            n = p[i + 1]
            if n in "AZz":
                return f"'\\{n}' is Python-only syntax; use '{'^' if n == 'A' else '$'}' instead"
            if n in "pPck":
                return f"'\\{n}' escapes are not read the same way by Python"
            if in_class and n in "DWS":
                return f"'\\{n}' inside a character class is not supported; write the class out"
            i += 2
            prev_quantifier = False
            continue
        if in_class:
            if c == "]":
                in_class = False
            i += 1
            continue
        if c == "[":
            in_class = True
            if p.startswith("[^]", i) or p.startswith("[]", i):
                return "'[]' and '[^]' are ECMA-only syntax"
            i += 1
            if i < len(p) and p[i] == "^":
                i += 1
            if i < len(p) and p[i] == "]":
                i += 1  # a literal ']' first in the class
            prev_quantifier = False
            continue
        if c in "*+?}":
            if prev_quantifier and c == "+":
                return "possessive quantifiers are Python-only syntax"
            prev_quantifier = True
            i += 1
            continue
        prev_quantifier = False
        i += 1
    if in_class:
        return "a character class is not closed"
    return None


@lru_cache(maxsize=512)
def pattern_problem(p: str) -> str | None:
    """Why ``p`` cannot be a ``Pattern`` (for OLT013), or None when it is fine."""
    problem = _scan_problem(p)
    if problem is not None:
        return problem
    try:
        re.compile(_translate(p))
    except re.error as e:
        return f"it is not a valid regular expression ({e})"
    return None


def _translate(p: str) -> str:
    out: list[str] = []
    i = 0
    in_class = False
    while i < len(p):
        c = p[i]
        if c == "\\" and i + 1 < len(p):
            n = p[i + 1]
            if n == "d":
                out.append("0-9" if in_class else "[0-9]")
            elif n == "D":
                out.append("[^0-9]")
            elif n == "w":
                out.append("A-Za-z0-9_" if in_class else "[A-Za-z0-9_]")
            elif n == "W":
                out.append("[^A-Za-z0-9_]")
            elif n == "s":
                out.append(_ECMA_SPACE if in_class else f"[{_ECMA_SPACE}]")
            elif n == "S":
                out.append(f"[^{_ECMA_SPACE}]")
            else:
                out.append(p[i : i + 2])
            i += 2
            continue
        if in_class:
            if c == "]":
                in_class = False
            out.append(c)
            i += 1
            continue
        if c == "[":
            in_class = True
            out.append(c)
            i += 1
            if i < len(p) and p[i] == "^":
                out.append("^")
                i += 1
            if i < len(p) and p[i] == "]":
                out.append("\\]")
                i += 1
            continue
        if c == ".":
            out.append(_ECMA_DOT)
        elif c == "$":
            out.append("(?!(?s:.))")
        else:
            out.append(c)
        i += 1
    return "".join(out)


@lru_cache(maxsize=512)
def compile_pattern(p: str) -> re.Pattern[str]:
    """The compiled form of an accepted pattern, matching as ECMA-262 would (use ``.search``)."""
    return re.compile(_translate(p), re.ASCII)
