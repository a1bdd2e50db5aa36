"""mypy with the plugin and the runtime agree on every module of ``test-data/``.

One mypy run (``--strict``, the plugin on) covers every corpus module and the examples;
the runtime imports each module (invalid ones through the corpus collector, which records
each ``ToolDefinitionError`` instead of raising). Per module, the multiset of
(tool, code, message) must be the same on both sides: the same findings, in the same
words. OLT014 is left out of the static side: the contract makes it static-only (the
runtime has the value the static side cannot read).

A second test pins the lines: each static finding sits on the line the corpus's
``# expect`` comments name (the parameter, the ``def``, the second tool...).
"""

from __future__ import annotations

import functools
import json
import os
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "test-data"
EXAMPLES = ROOT / "examples"
sys.path.insert(0, str(CORPUS))

import _corpus  # noqa: E402

#: The contract's static-only code (an unreadable default).
STATIC_ONLY = frozenset({"OLT014"})


def _modules() -> list[Path]:
    return sorted(p for p in CORPUS.glob("*.py") if not p.name.startswith("_"))


@functools.lru_cache(maxsize=1)
def _mypy_findings() -> dict[str, list[dict[str, Any]]]:
    """Every OLT finding of one ``mypy --strict`` run over the corpus and the examples, by file name."""
    from mypy import api

    config = ROOT / "tests" / "mypy" / "mypy.ini"
    files = [str(p) for p in [*_modules(), *sorted(EXAMPLES.glob("*.py"))]]
    saved = os.environ.get("MYPYPATH")
    os.environ["MYPYPATH"] = str(ROOT)  # an editable install is an import hook mypy cannot follow
    try:
        out, err, status = api.run(
            [
                "--config-file",
                str(config),
                "--no-incremental",
                "--strict",
                "--python-version",
                "3.10",
                "-O",
                "json",
                *files,
            ]
        )
    finally:
        if saved is None:
            del os.environ["MYPYPATH"]
        else:
            os.environ["MYPYPATH"] = saved
    assert status in (0, 1), err + out
    assert "INTERNAL ERROR" not in out + err
    found: dict[str, list[dict[str, Any]]] = {}
    for line in out.splitlines():
        record = json.loads(line)
        if str(record.get("code", "")).startswith("OLT"):
            found.setdefault(Path(record["file"]).name, []).append(record)
    return found


def _tool_at(spans: list[_corpus.ToolSpan], line: int) -> str:
    for span in spans:
        if span.first <= line <= span.last:
            return span.qualname
    return f"<no tool at line {line}>"


def _static_findings(module: Path) -> Counter[tuple[str, str, str]]:
    spans = _corpus.tool_spans(module)
    return Counter(
        (_tool_at(spans, r["line"]), r["code"], r["message"])
        for r in _mypy_findings().get(module.name, [])
        if r["code"] not in STATIC_ONLY
    )


def _runtime_findings(module: Path) -> Counter[tuple[str, str, str]]:
    if module.name.startswith("valid_"):
        _corpus.load_module(module)  # must import without any ToolDefinitionError
        return Counter()
    collected = _corpus.collect_runtime(module)
    return Counter(
        (qualname, d.code, d.message)
        for qualname, errors in collected.errors.items()
        for e in errors
        for d in e.diagnostics
    )


@pytest.mark.parametrize("module", _modules(), ids=lambda p: p.stem)
def test_static_and_runtime_report_the_same_findings_for_the_same_tools(module: Path) -> None:
    static = _static_findings(module)
    runtime = _runtime_findings(module)
    assert static == runtime, f"static only: {static - runtime}; runtime only: {runtime - static}"
    if module.name.startswith("invalid_"):  # every faulty module has findings (OLT014 ones included)
        assert _mypy_findings().get(module.name), module.name


def test_the_corpus_exercises_every_code_on_the_static_side() -> None:
    codes = {r["code"] for records in _mypy_findings().values() for r in records}
    assert codes == {f"OLT{n:03d}" for n in range(1, 16)}


def test_valid_modules_and_examples_have_no_finding_under_strict() -> None:
    clean = [p.name for p in [*CORPUS.glob("valid_*.py"), *EXAMPLES.glob("*.py")]]
    assert len(clean) >= 12
    assert {name: _mypy_findings().get(name) for name in clean if name in _mypy_findings()} == {}


@pytest.mark.parametrize("module", [m for m in _modules() if m.name.startswith("invalid_")], ids=lambda p: p.stem)
def test_each_static_finding_is_on_the_line_the_corpus_names(module: Path) -> None:
    """The static side's lines and codes against the ``# expect`` comments.

    A line whose comment says ``expect-runtime`` (the runtime alone raises there) is held
    to the runtime's codes: the plugin reports a name imported only under
    ``TYPE_CHECKING`` too, since the runtime cannot resolve it (the agreement test above
    checks the two sides against each other).
    """
    expected: dict[int, list[str]] = {}
    for line, exp in _corpus.expectations(module).items():
        codes = exp.static if Counter(exp.runtime) - Counter(exp.static) == Counter() else exp.runtime
        if codes:
            expected[line] = sorted(codes)
    actual: dict[int, list[str]] = {}
    for r in _mypy_findings().get(module.name, []):
        actual.setdefault(r["line"], []).append(r["code"])
    assert {line: sorted(codes) for line, codes in actual.items()} == expected
