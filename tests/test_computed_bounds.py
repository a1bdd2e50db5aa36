"""The static evaluator under hostile source: sizes are counted before anything is built.

Each row is a module shape that asks the evaluator (``onellm_mypy.compute``) for far more than
its own size: a tuple of references to one long string, formatted or not; a concatenation
past the string bound; ``*`` on a string; an integer literal past the integer bound; a value
too long to format; many small reads of one large value. Each is refused (``Unreadable``,
OLT014 where it is written), and what the read spent is held to the source's size: the
evaluator's own accounting (``Allowance``) and the peak memory ``tracemalloc`` sees, never
a time. The time and memory ratios over 1 MB files are in ``benchmarks/hostile.py``
(``evaluator``).
"""

from __future__ import annotations

import ast
import tracemalloc
from collections.abc import Iterator
from pathlib import Path

import pytest

from onellm_mypy import source as src
from onellm_mypy.compute import LIMITS, evaluate

#: The long string most rows reference: within one string's bound, so reading it once is fine.
LONG = 60_000


def _module(text: str) -> tuple[src.ModuleSource, src.SourceCache]:
    cache = src.SourceCache()
    cache.texts["hostile.py"] = text
    ms = cache.module("hostile.py")
    assert ms is not None
    return ms, cache


def _resolver(ms: src.ModuleSource, allowance: src.Allowance) -> src.Resolve:
    """Names bound once at module level (as the front end resolves them), with the cache's allowance."""

    def resolve(expr: ast.expr) -> src.Resolution:
        if isinstance(expr, ast.Name):
            found = ms.bindings.get(expr.id, [])
            if len(found) == 1 and found[0].value is not None:
                return src.Bound(found[0].value, resolver)
        return None

    resolver = src.Resolver(resolve, allowance)
    return resolver


def _read(module: str, expression: str) -> tuple[object, int, int]:
    """``expression``'s value in ``module``, what the read spent of the allowance, and its peak memory."""
    ms, cache = _module(module)
    allowance = cache.allowance
    before = allowance.made
    expr = ast.parse(expression, mode="eval").body
    tracemalloc.start()
    try:
        value = evaluate(expr, _resolver(ms, allowance))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return value, before - allowance.made, peak


REFERENCES = f"S = {'x' * LONG!r}\nT = ({', '.join(['S'] * 3000)})\n"

#: (what, module, expression): each is refused within one read's bound, having built nothing large.
REFUSED = [
    ("a tuple of 3,000 references to one long string", REFERENCES, "T"),
    ("that tuple formatted", REFERENCES, "f'{T}'"),
    ("that tuple converted", REFERENCES, "f'{T!r}'"),
    ("a list of the references", REFERENCES.replace("T = (", "T = [").replace(")\n", "]\n"), "T"),
    ("a concatenation past one string's bound", f"A = {'a' * LONG!r}\n", "A + A"),
    ("a chain of concatenations", f"A = {'a' * LONG!r}\nB = A + 'b'\nC = B + B\n", "C"),
    ("repetition of a string", f"A = {'a' * LONG!r}\n", "A * 1000"),
    ("repetition by a large count", "A = 'a'\n", "A * 10 ** 9"),
    ("a long string formatted", "A = " + repr("a" * (LIMITS["text"] + 1)) + "\n", "f'{A}'"),
    ("a long string converted", "A = " + repr("\U0001f600" * (LIMITS["text"] + 1)) + "\n", "f'{A!a}'"),
    ("an integer literal past the integer bound", f"H = 0x{'f' * 50_000}\n", "H % 7"),
    ("that integer formatted", f"H = 0x{'f' * 50_000}\n", "f'{H:x}'"),
    ("a nested tuple of references", REFERENCES + "U = (T, T, T, T)\n", "f'{U}'"),
]


@pytest.mark.parametrize(("what", "module", "expression"), REFUSED, ids=[r[0] for r in REFUSED])
def test_a_value_past_the_bounds_is_refused_before_it_is_built(what: str, module: str, expression: str) -> None:
    value, spent, peak = _read(module, expression)
    assert isinstance(value, src.Unreadable), what
    # What it read or made before stopping: one read's bound, and the one value that crossed it...
    assert spent <= LIMITS["made"] + 2 * len(module), (what, spent)
    # ...of which nothing large was built: the peak is a few copies of the module, not the value asked for.
    assert peak <= 4 * len(module) + 1_000_000, (what, peak)


#: (module, expression, value): the same shapes within the bounds are computed, as Python computes them.
WITHIN = [
    (f"S = {'x' * 1000!r}\nT = (S, S, S)\n", "f'{T}'", str(("x" * 1000,) * 3)),
    (f"A = {'a' * LONG!r}\n", "A + 'b'", "a" * LONG + "b"),
    (f"H = 0x{'f' * 100}\n", "f'{H:x}'", "f" * 100),
    ("A = 'a'\n", "f'{A:>10000}'", "a".rjust(10000)),
]


@pytest.mark.parametrize(("module", "expression", "expected"), WITHIN)
def test_the_same_shapes_within_the_bounds_are_computed(module: str, expression: str, expected: str) -> None:
    value, _, _ = _read(module, expression)
    assert value == expected


def _many_reads(count: int) -> Iterator[str]:
    for i in range(count):
        yield f"f'{{T}}{i}'"


def test_many_reads_share_an_allowance_proportional_to_the_source() -> None:
    """One 9,000-item tuple read by each of many small expressions: each read is within its own
    bounds, but together they stop where the sources' allowance ends (OLT014 from there on)."""
    module = "T = (" + ", ".join(["1"] * 9000) + ")\n"
    ms, cache = _module(module)
    allowance = cache.allowance
    resolve = _resolver(ms, allowance)
    steps_at_start = allowance.steps
    results = [evaluate(ast.parse(text, mode="eval").body, resolve) for text in _many_reads(400)]
    computed = [r for r in results if isinstance(r, str)]
    assert computed and computed[0] == str((1,) * 9000) + "0"
    assert len(computed) < len(results)  # the later reads are refused
    assert all(isinstance(r, src.Unreadable) for r in results[len(computed) :])
    # What they spent together is the allowance, which is the floor and a share per byte of source.
    assert steps_at_start == src.Allowance.FLOOR_STEPS + src.Allowance.STEPS_PER_BYTE * len(module)
    assert allowance.steps <= 0 or allowance.made <= 0


def test_a_new_generation_restores_the_allowance() -> None:
    module = "T = (" + ", ".join(["1"] * 9000) + ")\n"
    ms, cache = _module(module)
    for text in _many_reads(400):
        evaluate(ast.parse(text, mode="eval").body, _resolver(ms, cache.allowance))
    cache.new_generation()
    assert isinstance(evaluate(ast.parse("f'{T}'", mode="eval").body, _resolver(ms, cache.allowance)), str)


HOSTILE_TOOLS = f"""\
from typing import Annotated
from onellm_runtime import Description, tool

S = {"x" * LONG!r}
T = ({", ".join(["S"] * 3000)})


@tool
def formatted(a: Annotated[str, Description(f"{{T}}")]) -> str:
    return a


@tool
def referenced(a: Annotated[str, Description(T)]) -> str:
    return a
"""


def test_the_static_side_reports_olt014_naming_each_expression(tmp_path: Path) -> None:
    pytest.importorskip("mypy", reason="the static side needs the dev extra (mypy)")
    from onellm_mypy.extract import extract

    path = tmp_path / "hostile_tools.py"
    path.write_text(HOSTILE_TOOLS, encoding="utf-8")
    result = extract([str(path)])
    found = sorted((d.line, d.code, d.message) for d in result.diagnostics)
    tail = "cannot be computed from the source, so the static schema could differ from the runtime's; use a literal or a constant"
    assert found == [
        (9, "OLT014", f"Tool 'formatted': Parameter 'a': the argument \"f'{{T}}'\" of Description {tail}"),
        (14, "OLT014", f"Tool 'referenced': Parameter 'a': the argument 'T' of Description {tail}"),
    ]
