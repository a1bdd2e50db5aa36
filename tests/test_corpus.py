"""The runtime over the whole ``test-data/`` corpus (see test-data/README.md).

Valid modules: every tool's manifest entry equals the hand-written golden, each schema
compared as ``json.dumps`` bytes (key order included). Invalid modules: each faulty tool
raises exactly the codes its ``# expect:`` comments name, and each message names the tool
and the parameter the comment sits on.
"""

from __future__ import annotations

import ast
import json
import re
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from onellm_runtime.core import rules

CORPUS = Path(__file__).resolve().parent.parent / "test-data"
sys.path.insert(0, str(CORPUS))

import _corpus  # noqa: E402

FIELDS = (
    "qualname",
    "name",
    "description",
    "input_schema",
    "output_schema",
    "ends_loop",
    "requires_approval",
    "parallel_safe",
    "timeout_seconds",
)


def _golden(module: Path) -> list[dict[str, Any]]:
    data: list[dict[str, Any]] = json.loads(_corpus.golden_path(module).read_text(encoding="utf-8"))
    return data


def _golden_cases() -> list[Any]:
    cases = []
    for module in _corpus.valid_modules():
        for entry in _golden(module):
            cases.append(pytest.param(module, entry, id=f"{module.stem}:{entry['qualname']}"))
    return cases


# --- the corpus itself --------------------------------------------------------


def test_every_valid_module_has_a_golden_and_every_golden_a_module() -> None:
    modules = {p.stem for p in _corpus.valid_modules()}
    goldens = {
        p.stem
        for p in (CORPUS / "golden").glob("*.json")
        if not _corpus.needs_newer_python(p.stem) and not _corpus.needs_missing_package(CORPUS / f"{p.stem}.py")
    }
    assert modules == goldens
    assert len(modules) >= 10


def test_goldens_are_stored_pretty_printed() -> None:
    for path in sorted((CORPUS / "golden").glob("*.json")):
        text = path.read_text(encoding="utf-8")
        assert text == json.dumps(json.loads(text), indent=2) + "\n", path.name


def test_the_corpus_has_at_least_sixty_tools_and_uses_both_annotation_modes() -> None:
    valid = sum(len(_golden(m)) for m in _corpus.valid_modules())
    invalid = sum(len(_corpus.tool_spans(m)) for m in _corpus.invalid_modules())
    assert valid >= 60 and invalid >= 60, (valid, invalid)
    modules = [*_corpus.valid_modules(), *_corpus.invalid_modules()]
    future = [m for m in modules if _imports_future_annotations(m)]
    assert 0 < len(future) < len(modules)


def _imports_future_annotations(module: Path) -> bool:
    tree = ast.parse(module.read_text(encoding="utf-8"))
    return any(
        isinstance(node, ast.ImportFrom)
        and node.module == "__future__"
        and any(a.name == "annotations" for a in node.names)
        for node in tree.body
    )


def test_every_olt_code_is_expected_somewhere_in_the_corpus() -> None:
    codes: set[str] = set()
    for module in _corpus.invalid_modules():
        for exp in _corpus.expectations(module).values():
            codes.update(exp.static, exp.runtime)
    assert codes == {f"OLT{n:03d}" for n in range(1, 16)}


# --- valid modules ------------------------------------------------------------


@pytest.mark.parametrize("module", _corpus.valid_modules(), ids=lambda p: p.stem)
def test_valid_module_lists_exactly_the_golden_tools_in_order(module: Path) -> None:
    manifest = _corpus.manifest(_corpus.load_module(module))
    assert [t["qualname"] for t in manifest] == [t["qualname"] for t in _golden(module)]


@pytest.mark.parametrize(("module", "expected"), _golden_cases())
def test_valid_tool_matches_its_golden(module: Path, expected: dict[str, Any]) -> None:
    manifest = {t["qualname"]: t for t in _corpus.manifest(_corpus.load_module(module))}
    actual = manifest[expected["qualname"]]
    assert list(expected) == list(FIELDS)
    for field in FIELDS:
        assert json.dumps(actual[field]) == json.dumps(expected[field]), field


# --- invalid modules ----------------------------------------------------------

_PARAMETER = re.compile(r"Parameter '([^']+)'")
#: Codes about the whole function: reported on the def line even when a parameter shares it.
_FUNCTION_CODES = frozenset({"OLT001", "OLT003", "OLT004", "OLT007", "OLT008", "OLT010", "OLT011"})
_COLLECTED: dict[Path, _corpus.Collected] = {}


def _collected(module: Path) -> _corpus.Collected:
    if module not in _COLLECTED:
        _COLLECTED[module] = _corpus.collect_runtime(module)
    return _COLLECTED[module]


def _definitions(module: Path) -> dict[str, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef]:
    tree = ast.parse(module.read_text(encoding="utf-8"))
    found: dict[str, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef] = {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            found.setdefault(node.name, node)
            if isinstance(node, ast.ClassDef):
                for item in node.body:
                    if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                        found[f"{node.name}.{item.name}"] = item
    return found


def _expected_name(node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> str:
    """The tool name the messages must use: ``name=`` if given, else the derived name."""
    for dec in node.decorator_list:
        if isinstance(dec, ast.Call) and isinstance(dec.func, ast.Name) and dec.func.id == "tool":
            for kw in dec.keywords:
                if kw.arg == "name" and isinstance(kw.value, ast.Constant):
                    return str(kw.value.value)
        if isinstance(dec, ast.Name) and dec.id == "overload":
            return "<overload>"
    return rules.snake_case(node.name)


def _invalid_cases() -> list[Any]:
    return [
        pytest.param(module, span, id=f"{module.stem}:{span.qualname}")
        for module in _corpus.invalid_modules()
        for span in _corpus.tool_spans(module)
    ]


@pytest.mark.parametrize(("module", "span"), _invalid_cases())
def test_invalid_tool_raises_exactly_the_expected_codes_at_the_expected_parameters(
    module: Path, span: _corpus.ToolSpan
) -> None:
    expectations = _corpus.expectations(module)
    node = _definitions(module)[span.qualname]
    params = (
        {
            a.lineno: a.arg
            for a in [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs, node.args.vararg, node.args.kwarg]
            if a is not None
        }
        if not isinstance(node, ast.ClassDef)
        else {}
    )
    expected: Counter[tuple[str, str | None]] = Counter()
    for line in range(span.first, span.last + 1):
        if line in expectations:
            for code in expectations[line].runtime:
                expected[(code, None if code in _FUNCTION_CODES else params.get(line))] += 1

    errors = _collected(module).errors.get(span.qualname, [])
    actual: Counter[tuple[str, str | None]] = Counter()
    tool_name = _expected_name(node)
    for error in errors:
        findings = getattr(error, "diagnostics")
        assert getattr(error, "code") == findings[0].code
        for d in findings:
            assert d.message.startswith(f"Tool '{tool_name}': "), d.message
            named = _PARAMETER.search(d.message)
            actual[(d.code, named.group(1) if named else None)] += 1
    assert actual == expected, "\n".join(str(e) for e in errors)


def test_an_invalid_module_never_raises_for_a_tool_without_expectations() -> None:
    """Every error the collector saw belongs to a tool of the module (none is unattributed)."""
    for module in _corpus.invalid_modules():
        spans = {s.qualname for s in _corpus.tool_spans(module)}
        assert set(_collected(module).errors) <= spans, module.stem
