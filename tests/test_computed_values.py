"""The values the static side computes (the contract's "Values in markers, defaults, options and
enum members"), row by row: each readable expression gives exactly what Python's own ``eval`` of
the same source gives (value and type: ints stay ints), each other one is not computed (OLT014).

The table is read twice: by the evaluator alone (``onellm_mypy.compute``, names resolved from
``CONSTANTS``), and through the whole static side (``extract``: mypy, the plugin's front end, the
schema writer) against the runtime's schema of the same module. The OLT014 texts in
docs/diagnostics.md are held to what ``extract`` reports.
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest
from cli_support import run

from onellm_mypy import source as src
from onellm_mypy.compute import LIMITS, evaluate

ROOT = Path(__file__).resolve().parent.parent

#: The module-level names the rows use (one module: the rows see it as a tool module would).
CONSTANTS = """\
from typing import Final

PAGE = 10
LIMIT: Final = PAGE * 100
RATE = 2.5
ZONE = "UTC"
PREFIX = "Look up "
WIDTH = 12
PAIR = (1, "a")
TWICE = 1
TWICE = 2
FLAG = True
CHAIN_B = PAGE + 1
CHAIN_A = CHAIN_B
TEXT_0 = "0123456789" "0123456789" "0123456789" "0123456789" "0123456789"
"""
# Each one twice the one before: TEXT_11 has 102,400 characters, over the bound of one string.
CONSTANTS += "".join(f"TEXT_{i} = TEXT_{i - 1} + TEXT_{i - 1}\n" for i in range(1, 12))
# Each the square of the one before: INT_7 has about 20,000 bits, over the bound of one integer.
CONSTANTS += "INT_0 = 123456789012345678901234567890123456789012345678901234567890123456789012345678\n"
CONSTANTS += "".join(f"INT_{i} = INT_{i - 1} * INT_{i - 1}\n" for i in range(1, 8))
# Thirteen names in a row: one more than the static side follows.
CONSTANTS += "NAME_0 = 1\n" + "".join(f"NAME_{i} = NAME_{i - 1}\n" for i in range(1, 14))

#: Expressions both sides compute: the value is Python's ``eval`` of the same text.
COMPUTED = [
    "42",
    "-3",
    "+3",
    "2.5",
    "'text'",
    "True",
    "None",
    "PAGE",
    "LIMIT",
    "CHAIN_A",
    "NAME_11",
    "1 + 2",
    "10 * 100",
    "PAGE - 15",
    "-PAGE",
    "+PAGE",
    "-(-PAGE)",
    "7 // 2",
    "-7 // 2",
    "-7 % 3",
    "7 % -3",
    "RATE * 2",
    "(RATE + 0.5) // 2",
    "7.5 % 2",
    "1 + 2.0",
    "1e308 * 10",
    "(1 + 2) * 3",
    "((PAGE))",
    "'a' + 'b'",
    "PREFIX + ZONE",
    "PREFIX + 'the ' + ZONE",
    "f'{PAGE}'",
    "f'{LIMIT:,}'",
    "f'{RATE:.1f} each'",
    "f'{ZONE!r}'",
    "f'{ZONE!s:>8}'",
    "f'{\"é\"!a}'",
    "f'{ZONE:>{WIDTH}}'",
    "f'{PAGE=}'",
    "f'{PAGE:08.3f}'",
    "f'{FLAG}'",
    "f'{PAIR}'",
    "f'{None}|{RATE!r}'",
    "f'{PAGE * 2 + 1:x}'",
    "f'{PREFIX + ZONE}'",
    "(1, 'a')",
    "[PAGE, ZONE]",
    "(PAIR, [RATE * 2])",
    "()",
    "TEXT_10",
]

#: Expressions the static side does not compute (OLT014 where the value is written).
NOT_COMPUTED = [
    "2 ** 3",
    "1 / 2",
    "PAGE << 1",
    "PAGE & 1",
    "~PAGE",
    "not PAGE",
    "True + 1",
    "FLAG * 2",
    "-True",
    "'ab' * 2",
    "'%d' % 5",
    "(1,) + (2,)",
    "[1] + [2]",
    "1j + 1",
    "compute()",
    "str(PAGE)",
    "ZONE.lower()",
    "PAIR[0]",
    "PAGE if PAGE else 1",
    "PAGE > 1",
    "PAGE and 1",
    "TWICE",
    "UNKNOWN",
    "f'{compute()}'",
    "f'{ZONE:{compute()}}'",
    "f'{PAGE:,s}'",
    "f'{ZONE:>20000}'",
    "f'{RATE:.20000f}'",
    "(1, compute())",
    "[1, compute()]",
    "(*PAIR, 1)",
    "1 // 0",
    "PAGE % 0",
    "INT_7",
    "TEXT_11",
    "NAME_13",
    "'x' * 10 ** 9",
    "(x := 1)",
]

#: Expressions read as a value the runtime never writes (a default of them is not written).
NEVER_WRITTEN = ["{}", "{1}", "{'a': 1}", "[i for i in PAIR]", "lambda: 1"]


def _resolver(ms: src.ModuleSource) -> src.Resolve:
    """Names bound once at module level, as the front end resolves them (no mypy needed here)."""

    def resolve(expr: ast.expr) -> src.Resolution:
        if isinstance(expr, ast.Name):
            found = ms.bindings.get(expr.id, [])
            if len(found) == 1 and found[0].value is not None:
                return src.Bound(found[0].value, resolve)
        return None

    return resolve


def _constants() -> tuple[src.ModuleSource, dict[str, object]]:
    cache = src.SourceCache()
    cache.texts["constants.py"] = CONSTANTS
    ms = cache.module("constants.py")
    assert ms is not None
    namespace: dict[str, object] = {}
    exec(CONSTANTS, namespace)
    return ms, namespace


MODULE, NAMESPACE = _constants()


def _static(text: str) -> object:
    return evaluate(ast.parse(text, mode="eval").body, _resolver(MODULE))


@pytest.mark.parametrize("text", COMPUTED)
def test_a_readable_expression_gives_the_value_python_gives(text: str) -> None:
    expected = eval(text, dict(NAMESPACE))
    found = _static(text)
    assert (type(found), repr(found)) == (type(expected), repr(expected))


@pytest.mark.parametrize("text", NOT_COMPUTED)
def test_any_other_expression_is_not_computed(text: str) -> None:
    assert isinstance(_static(text), src.Unreadable)


@pytest.mark.parametrize("text", NEVER_WRITTEN)
def test_a_container_never_written_is_opaque(text: str) -> None:
    assert isinstance(_static(text), src.Opaque)


def test_the_bounds_are_the_documented_ones() -> None:
    assert LIMITS == {
        "names": 12,
        "nesting": 100,
        "steps": 10_000,
        "text": 100_000,
        "made": 1_000_000,
        "int_bits": 16_384,
        "width": 10_000,
    }


def test_a_deep_expression_is_refused_not_a_recursion_error() -> None:
    deep = "(" * 150 + "1" + ")" * 150  # parentheses leave no node: this is the literal 1
    assert _static(deep) == 1
    nested = "-" * 150 + "1"
    assert isinstance(_static(nested), src.Unreadable)
    long_sum = " + ".join(["1"] * 300)  # a left-leaning chain 300 deep
    assert isinstance(_static(long_sum), src.Unreadable)


def test_names_read_twice_cost_steps_not_time() -> None:
    """A value that names another twice per level doubles the work at each name: the step bound stops it."""
    text = "D_0 = 1\n" + "".join(f"D_{i} = D_{i - 1} + D_{i - 1}\n" for i in range(1, 12))
    cache = src.SourceCache()
    cache.texts["doubling.py"] = text
    ms = cache.module("doubling.py")
    assert ms is not None
    resolve = _resolver(ms)
    assert evaluate(ast.parse("D_11", mode="eval").body, resolve) == 2**11  # 12 names: within the name bound
    wide = " + ".join(["D_11"] * 8)  # 8 * 2**12 name reads: over the step bound
    assert isinstance(evaluate(ast.parse(wide, mode="eval").body, resolve), src.Unreadable)


def test_expression_text_quotes_as_written_and_cuts_long_ones() -> None:
    assert src.expression_text(ast.parse("'Find ' + NAME.title()", mode="eval").body) == "'Find ' + NAME.title()"
    long = ast.parse("f(" + ", ".join(str(i) for i in range(40)) + ")", mode="eval").body
    text = src.expression_text(long)
    assert len(text) == 60 and text.endswith("...") and text.startswith("f(0, 1, 2, ")


# --- the whole static side against the runtime, on one module ---------------------------

_TYPES = {str: "str", int: "int", float: "float", bool: "bool"}


def _written_rows() -> list[tuple[str, str]]:
    """The computed rows whose value a default writes: (type, expression)."""
    rows = []
    for text in COMPUTED:
        value = eval(text, dict(NAMESPACE))
        if type(value) in _TYPES and (not isinstance(value, float) or value - value == 0.0):
            rows.append((_TYPES[type(value)], text))
    return rows


#: Refused rows the runtime cannot import (it raises, or would build a gigabyte) or mypy cannot name.
_NOT_RUN = {"compute()", "1 // 0", "PAGE % 0", "UNKNOWN", "'x' * 10 ** 9", "f'{PAGE:,s}'"}


def _module_text(rows: list[str]) -> str:
    return "\n".join([CONSTANTS, "from typing import Annotated", "from onellm_runtime import Description, tool", *rows])


def _tool(name: str, params: list[str]) -> list[str]:
    return ["", "", "@tool", f"def {name}(", *(f"    {p}," for p in params), ") -> str:", "    return ''"]


def _cli(*args: str) -> str:
    proc = run(*args, cwd=ROOT)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc.stdout


def test_static_and_runtime_manifests_agree_on_every_computed_row(tmp_path: Path) -> None:
    pytest.importorskip("mypy", reason="the static side needs the dev extra (mypy)")
    written = _written_rows()
    rows = _tool("computed", [f"p{i}: {tp} = {text}" for i, (tp, text) in enumerate(written)])
    rows += _tool(
        "described", [f"d{i}: Annotated[str, Description({t})]" for i, (tp, t) in enumerate(written) if tp == "str"]
    )
    path = tmp_path / "computed_rows.py"
    path.write_text(_module_text(rows), encoding="utf-8")
    static = _cli("schemas", "--static", str(path))
    assert static == _cli("schemas", "--runtime", str(path))
    entries = json.loads(static)
    assert [e["name"] for e in entries] == ["computed", "described"]
    assert len(entries[0]["input_schema"]["properties"]) == len(written) > 40


def test_each_refused_row_is_one_olt014_at_its_parameter(tmp_path: Path) -> None:
    pytest.importorskip("mypy", reason="the static side needs the dev extra (mypy)")
    from onellm_mypy.extract import extract

    run = [t for t in NOT_COMPUTED if t not in _NOT_RUN]
    rows = _tool("refused", [f"r{i}: int = {text}" for i, text in enumerate(run)])
    path = tmp_path / "refused_rows.py"
    text = _module_text(rows)
    path.write_text(text, encoding="utf-8")
    result = extract([str(path)])
    lines = text.splitlines()
    found = [(d.code, lines[d.line - 1].strip()) for d in sorted(result.diagnostics, key=lambda d: d.line)]
    assert found == [("OLT014", f"r{i}: int = {t},") for i, t in enumerate(run)]
    first = sorted(result.diagnostics, key=lambda d: d.line)[0]
    assert first.message == (
        "Tool 'refused': Parameter 'r0': the default value '2 ** 3' cannot be computed from the source, "
        "so the static schema could differ from the runtime's; use a literal or a constant"
    )


# --- docs/diagnostics.md: the OLT014 texts --------------------------------------------

DOC_MODULE = """\
from typing import Annotated, Any

from pydantic import Field

from onellm_runtime import Range, tool

BOUNDS = (0, 9)
NAME = "orders"
OPTIONS: dict[str, Any] = {"timeout_seconds": 5}


def compute() -> int:
    return 1


def local_zone() -> str:
    return "UTC"


@tool
def a_default(limit: int = compute()) -> str:
    return ""


@tool
def a_marker(size: Annotated[int, Range(0, 2**10)]) -> str:
    return ""


@tool
def a_field(zone: str = Field(default=local_zone())) -> str:
    return ""


@tool
def spread_marker(size: Annotated[int, Range(*BOUNDS)]) -> str:
    return ""


@tool(description="Find " + NAME.title())
def an_option() -> str:
    return ""


@tool(**OPTIONS)
def spread_options() -> str:
    return ""
"""


def _doc_rows() -> list[tuple[str, str]]:
    """(written, message) of each row of the OLT014 section's table."""
    text = (ROOT / "docs" / "diagnostics.md").read_text(encoding="utf-8")
    section = text.split("## OLT014:", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| [^|]+ \| `(.+?)` \| `(.+?)` \|$", section, re.M)
    assert len(rows) == 6
    return rows


def test_the_documented_olt014_texts_are_the_ones_reported(tmp_path: Path) -> None:
    pytest.importorskip("mypy", reason="the static side needs the dev extra (mypy)")
    from onellm_mypy.extract import extract

    path = tmp_path / "doc_rows.py"
    path.write_text(DOC_MODULE, encoding="utf-8")
    result = extract([str(path)])
    found = [re.sub(r"^Tool '\w+': ", "", d.message) for d in sorted(result.diagnostics, key=lambda d: d.line)]
    rows = _doc_rows()
    assert found == [message for _, message in rows]
    for written, _ in rows:
        assert written in DOC_MODULE
