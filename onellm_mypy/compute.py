"""Values the static side computes from the source: the contract's list, and nothing more.

The contract's "Values in markers, defaults, options and enum members": literals; names
bound once to such a value (resolved by the caller's ``Resolve``); ``+ - * // %`` and unary
``-``/``+`` on numbers; ``+`` on strings; f-strings whose parts are such values, their
conversions (``!r !s !a``) and format specs applied by Python's own ``repr``/``str``/
``ascii``/``format``; parentheses; tuples and lists of such values. Every operation is
Python's own, so the value is the one the runtime holds.

Numbers are ``int`` and ``float`` exactly: a ``bool`` is not a number here (``True + 1``
is not computed), nor is ``complex``; an enum member is no operand and no f-string part
(how it prints depends on its class and Python's version). Anything else is ``Unreadable``,
which the callers report as OLT014 wherever the value would be written.

Cost is bounded by the source, not by what it asks for: each read visits at most
``_MAX_STEPS`` nodes, follows ``_MAX_NAMES`` names in a row and nests ``_MAX_NESTING``
deep, and each string or integer it makes has a size limit, as has everything it makes
together. A value past a bound is ``Unreadable`` too (``"x" * 10**9`` is refused twice over).
"""

from __future__ import annotations

import ast
from collections.abc import Callable

from .values import EnumValue, Opaque, Resolve, Unreadable

__all__ = ["evaluate", "LIMITS"]

_OPAQUE = Opaque()
_UNREADABLE = Unreadable()

#: Names followed in a row (``A = B``, ``B = C``, ...).
_MAX_NAMES = 12
#: Operators, containers and names nested in one read, all together.
_MAX_NESTING = 100
#: Nodes visited in one read (a name read twice is visited twice).
_MAX_STEPS = 10_000
#: Characters of one computed string.
_MAX_TEXT = 100_000
#: Characters and digits made in one read, every value together.
_MAX_MADE = 1_000_000
#: Bits of one computed integer (about 4,900 digits).
_MAX_INT_BITS = 16_384
#: The largest width or precision a format spec may ask for.
_MAX_WIDTH = 10_000

#: The bounds, by name, for docs and tests.
LIMITS: dict[str, int] = {
    "names": _MAX_NAMES,
    "nesting": _MAX_NESTING,
    "steps": _MAX_STEPS,
    "text": _MAX_TEXT,
    "made": _MAX_MADE,
    "int_bits": _MAX_INT_BITS,
    "width": _MAX_WIDTH,
}

_NEVER_WRITTEN = (ast.Dict, ast.Set, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp, ast.Lambda)
_CONVERSIONS: dict[int, Callable[[object], str]] = {ord("s"): str, ord("r"): repr, ord("a"): ascii}


def evaluate(expr: ast.expr, resolve: Resolve, names: int = 0) -> object:
    """The value of ``expr``, or ``Opaque`` (a value never written) or ``Unreadable``."""
    return _Reader().value(expr, resolve, names, 0)


def _is_number(value: object) -> bool:
    return type(value) in (int, float)


def _plain(value: object) -> bool:
    """A value Python's ``format`` gives the runtime's text for: no enum member, nothing unread."""
    if isinstance(value, (EnumValue, Opaque, Unreadable)):
        return False
    if isinstance(value, (tuple, list)):
        return all(_plain(v) for v in value)
    return True


def _widths_fit(spec: str) -> bool:
    """Whether every number in a format spec (its width, its precision) is within bounds."""
    run = ""
    for ch in spec + " ":
        if ch.isdigit():
            run += ch
            if len(run) > len(str(_MAX_WIDTH)):
                return False
        elif run:
            if int(run) > _MAX_WIDTH:
                return False
            run = ""
    return True


class _Reader:
    """One read: the steps taken and the size made so far, against the bounds."""

    def __init__(self) -> None:
        self.steps = 0
        self.made = 0

    def _made(self, value: object) -> object:
        """``value`` if its size, and the total made, are within bounds; else Unreadable."""
        if isinstance(value, str):
            size = len(value)
            if size > _MAX_TEXT:
                return _UNREADABLE
        elif type(value) is int:
            bits = value.bit_length()
            if bits > _MAX_INT_BITS:
                return _UNREADABLE
            size = bits // 3 + 1
        else:
            size = 1
        self.made += size
        return value if self.made <= _MAX_MADE else _UNREADABLE

    def value(self, expr: ast.expr, resolve: Resolve, names: int, nesting: int) -> object:
        self.steps += 1
        if self.steps > _MAX_STEPS or nesting > _MAX_NESTING:
            return _UNREADABLE
        inner = nesting + 1
        if isinstance(expr, ast.Constant):
            return expr.value
        if isinstance(expr, (ast.Name, ast.Attribute)):
            found = resolve(expr)
            if isinstance(found, EnumValue):
                return found
            if found is not None and names < _MAX_NAMES:
                return self.value(found.value, found.resolve, names + 1, inner)
            return _UNREADABLE
        if isinstance(expr, ast.UnaryOp):
            if not isinstance(expr.op, (ast.USub, ast.UAdd)):
                return _UNREADABLE
            operand = self.value(expr.operand, resolve, names, inner)
            if not _is_number(operand):
                return _UNREADABLE
            number: int | float = operand  # type: ignore[assignment]  # checked by _is_number
            return -number if isinstance(expr.op, ast.USub) else +number
        if isinstance(expr, ast.BinOp):
            return self._binary(expr, resolve, names, inner)
        if isinstance(expr, ast.JoinedStr):
            return self._fstring(expr, resolve, names, inner)
        if isinstance(expr, (ast.Tuple, ast.List)):
            items: list[object] = []
            for elt in expr.elts:
                item = self.value(elt, resolve, names, inner)
                if isinstance(item, (Opaque, Unreadable)):
                    return item
                items.append(item)
            return tuple(items) if isinstance(expr, ast.Tuple) else items
        if isinstance(expr, _NEVER_WRITTEN):
            return _OPAQUE
        return _UNREADABLE

    def _binary(self, expr: ast.BinOp, resolve: Resolve, names: int, nesting: int) -> object:
        op = expr.op
        if not isinstance(op, (ast.Add, ast.Sub, ast.Mult, ast.FloorDiv, ast.Mod)):
            return _UNREADABLE  # ``**``, ``/``, bit operators, ``@``: not in the contract's list
        left = self.value(expr.left, resolve, names, nesting)
        if isinstance(left, (Opaque, Unreadable)):
            return _UNREADABLE
        right = self.value(expr.right, resolve, names, nesting)
        if type(left) is str and type(right) is str and isinstance(op, ast.Add):
            assert isinstance(left, str) and isinstance(right, str)
            if len(left) + len(right) > _MAX_TEXT:
                return _UNREADABLE
            return self._made(left + right)
        if not (_is_number(left) and _is_number(right)):
            return _UNREADABLE
        a: int | float = left  # type: ignore[assignment]  # checked by _is_number
        b: int | float = right  # type: ignore[assignment]
        if isinstance(op, ast.Mult) and type(a) is int and type(b) is int:
            if a.bit_length() + b.bit_length() > _MAX_INT_BITS + 1:
                return _UNREADABLE
        try:
            if isinstance(op, ast.Add):
                result = a + b
            elif isinstance(op, ast.Sub):
                result = a - b
            elif isinstance(op, ast.Mult):
                result = a * b
            elif isinstance(op, ast.FloorDiv):
                result = a // b
            else:
                result = a % b
        except ArithmeticError:  # a zero divisor, an int too large for a float
            return _UNREADABLE
        return self._made(result)

    def _fstring(self, expr: ast.JoinedStr, resolve: Resolve, names: int, nesting: int) -> object:
        pieces: list[str] = []
        size = 0
        for part in expr.values:
            if isinstance(part, ast.Constant) and isinstance(part.value, str):
                piece = part.value
            elif isinstance(part, ast.FormattedValue):
                found = self._formatted(part, resolve, names, nesting)
                if not isinstance(found, str):
                    return _UNREADABLE
                piece = found
            else:  # pragma: no cover - the parser makes nothing else here
                return _UNREADABLE
            size += len(piece)
            if size > _MAX_TEXT:
                return _UNREADABLE
            pieces.append(piece)
        return self._made("".join(pieces))

    def _formatted(self, part: ast.FormattedValue, resolve: Resolve, names: int, nesting: int) -> object:
        """One ``{value!conversion:spec}``, formatted as Python formats it."""
        value = self.value(part.value, resolve, names, nesting)
        if not _plain(value):
            return _UNREADABLE
        convert = _CONVERSIONS.get(part.conversion)
        if part.conversion != -1:
            if convert is None:  # pragma: no cover - the parser allows only s, r and a
                return _UNREADABLE
            try:
                value = self._made(convert(value))
            except ValueError:  # an int of more digits than ``str`` converts
                return _UNREADABLE
            if isinstance(value, Unreadable):
                return value
        spec = ""
        if part.format_spec is not None:
            found = self.value(part.format_spec, resolve, names, nesting)
            if not isinstance(found, str):
                return _UNREADABLE
            spec = found
        if not _widths_fit(spec):
            return _UNREADABLE
        try:
            text = format(value, spec)
        except (ValueError, TypeError, OverflowError):  # a spec the value refuses, too many digits
            return _UNREADABLE
        return self._made(text)
