"""Generated signatures: static and runtime agree on a few hundred random tool modules.

The bounded mode of ``benchmarks/generated_differential.py``: four slices of one seeded run
(one mypy run each, so xdist can spread them over the cores), each compared three ways: the
runtime against the contract (the generator's expectation), mypy with the plugin against
the contract and the runtime, and ``Tool.bind`` against the ``jsonschema`` reference on
hypothesis-drawn documents. The smaller tests below check that the harness can fail.
"""

from __future__ import annotations

import collections
import json
import random
import sys
from pathlib import Path

import pytest
from gen import generator, harness

SEED = 20261129
MODULES = 200
PARTS = 4
SLICES = [(MODULES * k // PARTS, MODULES * (k + 1) // PARTS) for k in range(PARTS)]


@pytest.mark.parametrize("lo,hi", SLICES, ids=[f"part-{k + 1}-of-{PARTS}" for k in range(PARTS)])
def test_generated_modules_agree(lo: int, hi: int, tmp_path: Path) -> None:
    assert harness.static_available(), "onellm_mypy.extract is needed for the static side"
    report = harness.run_batch(SEED, range(lo, hi), tmp_path, examples=3)
    problems = "\n".join(str(f) for f in report.crashes + report.findings)
    assert not report.crashes and not report.findings, f"{report.summary()}\n{problems}"
    # not vacuous: the batch had tools of both verdicts, and documents were bound
    assert report.modules == hi - lo
    assert report.tools > 4 * (hi - lo)
    assert report.payloads > 20 * (hi - lo)


def _all_expected(seed: int, count: int) -> list[generator.ExpectedTool]:
    return [t for i in range(count) for m in generator.generate_pair(seed, i) for t in m.tools]


def test_the_bounded_run_covers_every_code_and_both_verdicts() -> None:
    tools = _all_expected(SEED, MODULES)
    codes = collections.Counter(c for t in tools for c in set(t.static) | set(t.runtime))
    assert sorted(codes) == [f"OLT{n:03d}" for n in range(1, 16)], codes
    valid = [t for t in tools if t.entry is not None and not t.static]
    assert len(valid) > len(tools) // 2
    # OLT014 is static only: the runtime builds those tools and writes the default it sees
    assert all(t.runtime == [] and t.entry is not None for t in tools if t.static == ["OLT014"])


def test_generation_is_deterministic() -> None:
    first = [m.source for m in generator.generate_pair(3, 17)]
    again = [m.source for m in generator.generate_pair(3, 17)]
    other = [m.source for m in generator.generate_pair(4, 17)]
    assert first == again
    assert first != other


def test_every_generated_module_compiles() -> None:
    for i in range(60):
        for m in generator.generate_pair(SEED + 1, i):
            compile(m.source, f"{m.name}.py", "exec")


def test_a_wrong_expectation_is_reported(tmp_path: Path) -> None:
    """The comparison is not vacuous: a changed description or code is a finding."""
    mods = harness.write_batch(SEED, range(3), tmp_path)
    report = harness.BatchReport()
    runtime = harness.run_runtime(mods, tmp_path, report)
    assert not report.findings and not report.crashes
    valid = next(t for m in mods for t in m.tools if t.entry is not None)
    valid.entry = dict(valid.entry, description="not what the docstring says")  # type: ignore[arg-type]
    faulty = next(t for m in mods for t in m.tools if t.runtime)
    faulty.runtime = ["OLT999"]
    harness.compare(mods, tmp_path, runtime, None, report)
    kinds = sorted((f.kind, f.qualname) for f in report.findings)
    assert kinds == sorted([("oracle-entry", valid.qualname), ("runtime-codes", faulty.qualname)])
    for m in mods:
        sys.modules.pop(m.name, None)


def test_a_static_finding_on_the_wrong_line_is_reported(tmp_path: Path) -> None:
    mods = harness.write_batch(SEED, range(2), tmp_path)
    report = harness.BatchReport()
    runtime = harness.run_runtime(mods, tmp_path, report)
    tools_mod = next(m for m in mods if m.tools)
    first = harness._corpus().tool_spans(tmp_path / f"{tools_mod.name}.py")[0]
    static = harness.StaticResult({}, [(str(tmp_path / f"{tools_mod.name}.py"), first.first, 1, "OLT002", "made up")])
    harness.compare(mods, tmp_path, runtime, static, report)
    assert any(f.kind == "static-line" and f.qualname == first.qualname for f in report.findings)
    for m in mods:
        sys.modules.pop(m.name, None)


# --- the reference validator's readings (contract, "Binding" and the Types table) ---------


def test_reference_reads_patterns_as_ecma() -> None:
    ref = harness.Reference({"type": "string", "pattern": r"^\d+$"})
    assert ref.is_valid("123")
    assert not ref.is_valid("\u0663")  # an Arabic-Indic digit: \d is ASCII in ECMA-262
    assert not ref.is_valid("123\n")  # $ is the very end


def test_reference_reads_exponent_integers_below_ten_to_the_twenty() -> None:
    ref = harness.Reference({"type": "integer"})
    assert ref.is_valid(5) and ref.is_valid(5.0) and ref.is_valid(10**30)  # plain digits: any size
    assert ref.is_valid(9.9e19) and ref.is_valid(-9.9e19)
    assert not ref.is_valid(1e20) and not ref.is_valid(-1e300) and not ref.is_valid(5.5)
    assert not ref.is_valid(True)


def test_reference_enforces_base64_and_the_contract_time() -> None:
    ref = harness.Reference({"type": "string", "contentEncoding": "base64"})
    assert ref.is_valid("YWI=") and ref.is_valid("")
    assert not ref.is_valid("YWI") and not ref.is_valid("YW I=")
    t = harness.Reference({"type": "string", "format": "time"})
    assert t.is_valid("12:30:00") and t.is_valid("12:30:00.123456")
    assert not t.is_valid("12:30:00Z") and not t.is_valid("24:00:00") and not t.is_valid("12:30:00.1234567")


def test_reference_judges_unique_items_after_binding() -> None:
    ref = harness.Reference({"type": "array", "items": {"type": "string", "format": "uuid"}, "uniqueItems": True})
    a = "0f8fad5b-d9cb-469f-a165-70867728950e"
    assert ref.is_valid([a])
    assert not ref.is_valid([a, a.upper()])  # the same UUID once bound
    nested = harness.Reference(
        {
            "type": "array",
            "items": {"type": "array", "items": {"type": "integer"}, "uniqueItems": True},
            "uniqueItems": True,
        }
    )
    assert not nested.is_valid([[1, 2], [2, 1]])  # two equal frozensets
    times = harness.Reference(
        {"type": "array", "items": {"type": "string", "format": "date-time"}, "uniqueItems": True}
    )
    assert not times.is_valid(["2026-07-01T12:00:00Z", "2026-07-01T14:00:00+02:00"])  # one instant
    assert not times.is_valid(["2026-07-01T12:00:00.1234567Z", "2026-07-01T12:00:00.1234568Z"])  # microseconds
    record = {
        "type": "object",
        "properties": {"a": {"type": "integer"}, "b": {"type": ["integer", "null"]}},
        "required": ["a"],
        "additionalProperties": False,
    }
    records = harness.Reference({"type": "array", "items": record, "uniqueItems": True})
    assert not records.is_valid([{"a": 1}, {"a": 1, "b": None}])  # b's default is None
    assert records.is_valid([{"a": 1}, {"a": 1, "b": 2}])


def test_mutations_stay_json() -> None:
    rnd = random.Random(5)
    doc = {"a": [1, {"b": "x"}], "c": None}
    for _ in range(200):
        json.dumps(harness.mutate(doc, rnd))
    assert doc == {"a": [1, {"b": "x"}], "c": None}


def test_a_binder_that_accepts_too_much_is_reported() -> None:
    class Lenient:
        def bind(self, arguments: object, provider: str | None = None) -> dict[str, object]:
            return {}

    schema = {
        "type": "object",
        "properties": {"x": {"type": "integer"}},
        "required": ["x"],
        "additionalProperties": False,
    }
    report = harness.BatchReport()
    harness.check_payloads("m", "t", Lenient(), schema, SEED, 5, report)
    assert [f.kind for f in report.findings] == ["payload"]
    assert "bind (text) accepts what the schema refuses" in report.findings[0].detail
    assert report.payloads > 0
