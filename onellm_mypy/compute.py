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

Cost is bounded by the source, not by what it asks for. Each read visits at most
``_MAX_STEPS`` nodes, follows ``_MAX_NAMES`` names in a row and nests ``_MAX_NESTING``
deep. Every value it reaches has a size (the characters of a string, the digits of an
integer, its items' sizes together for a tuple or list), counted where the value is read,
through a name as much as written in place, so a tuple of 3,000 references to one long
string has the size of 3,000 such strings. Sizes are counted before anything is built:
a string made (``+``, an f-string, a conversion) has at most ``_MAX_TEXT`` characters,
an integer ``_MAX_INT_BITS`` bits, and a value is formatted only when its size is within
``_MAX_TEXT``; one read reaches ``_MAX_MADE`` in all. The reads of one generation also
share the source cache's ``Allowance`` (steps and sizes in proportion to the sources'
bytes), so many small reads cannot add up to more than the input allows. A value past a
bound is ``Unreadable`` (``"x" * 10**9`` is refused twice over).
"""

from __future__ import annotations

import ast
from collections.abc import Callable

from .values import Allowance, EnumValue, Opaque, Resolve, Resolver, Unreadable

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
#: Characters and digits one read reaches or makes, every value together.
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
    allowance = resolve.allowance if isinstance(resolve, Resolver) else None
    return _Reader(allowance).value(expr, resolve, names, 0)


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


#: The size of a scalar that is neither a string nor an integer (a float's ``repr`` is at most 24).
_SCALAR_SIZE = 24


class _Reader:
    """One read: the steps taken and the size reached so far, against the bounds."""

    def __init__(self, allowance: Allowance | None) -> None:
        self.steps = 0
        self.made = 0
        self.allowance = allowance
        #: The size of each tuple and list this read built, by id (the value kept alive with it).
        self.sizes: dict[int, tuple[object, int]] = {}

    def size(self, value: object) -> int:
        """The characters or digits ``value`` holds (a container: its items', and two per item)."""
        kind = type(value)
        if isinstance(value, (str, bytes)) and (kind is str or kind is bytes):
            return len(value)
        if isinstance(value, int) and kind is int:
            return value.bit_length() // 3 + 1
        if kind is tuple or kind is list:
            built = self.sizes.get(id(value))
            return built[1] if built is not None else _MAX_MADE + 1  # no container comes from elsewhere
        return _SCALAR_SIZE

    def spend(self, size: int) -> bool:
        """Count ``size`` against the read's bound and the generation's allowance; whether it fits."""
        self.made += size
        if self.allowance is not None:
            self.allowance.made -= size
            if self.allowance.made < 0:
                return False
        return self.made <= _MAX_MADE

    def reached(self, value: object) -> object:
        """``value`` (read or made), if its size fits the bounds; else Unreadable."""
        if isinstance(value, int) and type(value) is int and value.bit_length() > _MAX_INT_BITS:
            return _UNREADABLE
        return value if self.spend(self.size(value)) else _UNREADABLE

    def step(self, nesting: int) -> bool:
        """One node visited at this depth; whether the bounds allow it."""
        self.steps += 1
        if self.allowance is not None:
            self.allowance.steps -= 1
            if self.allowance.steps < 0:
                return False
        return self.steps <= _MAX_STEPS and nesting <= _MAX_NESTING

    def value(self, expr: ast.expr, resolve: Resolve, names: int, nesting: int) -> object:
        if not self.step(nesting):
            return _UNREADABLE
        inner = nesting + 1
        if isinstance(expr, ast.Constant):
            return self.reached(expr.value)
        if isinstance(expr, (ast.Name, ast.Attribute)):
            found = resolve(expr)
            if isinstance(found, EnumValue):
                return self.reached(found)
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
            size = 2
            for elt in expr.elts:
                item = self.value(elt, resolve, names, inner)
                if isinstance(item, (Opaque, Unreadable)):
                    return item
                items.append(item)
                size += self.size(item) + 2
            built: object = tuple(items) if isinstance(expr, ast.Tuple) else items
            self.sizes[id(built)] = (built, size)
            return built
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
            size = len(left) + len(right)
            if size > _MAX_TEXT or not self.spend(size):
                return _UNREADABLE
            return left + right
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
        return self.reached(result)

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
        if not self.spend(size):
            return _UNREADABLE
        return "".join(pieces)

    def _formatted(self, part: ast.FormattedValue, resolve: Resolve, names: int, nesting: int) -> object:
        """One ``{value!conversion:spec}``, formatted as Python formats it."""
        value = self.value(part.value, resolve, names, nesting)
        if not _plain(value) or self.size(value) > _MAX_TEXT:
            return _UNREADABLE  # a value is formatted only when its text is within the bound
        convert = _CONVERSIONS.get(part.conversion)
        if part.conversion != -1:
            if convert is None:  # pragma: no cover - the parser allows only s, r and a
                return _UNREADABLE
            try:
                value = self.reached(convert(value))
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
        return self.reached(text)
