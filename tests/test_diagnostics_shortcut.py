"""``check_tool`` answers most tools through a shortcut (``_plainly_fine``): the same verdict as
its full checks, on every tool the test data and a generated corpus hold, from both front ends.

Every model either front end hands to ``check_tool`` is recorded, then checked twice: as
``check_tool`` does it, and with the shortcut turned off. The two lists must be equal, and
the shortcut must have answered for many tools (or the test would prove nothing).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from gen import harness

from onellm_runtime.core import diagnostics, rules
from onellm_runtime.core.model import ToolModel

ROOT = Path(__file__).resolve().parent.parent
CORPUS = sorted((ROOT / "test-data").glob("[vi][an]*.py"))  # valid_*.py and invalid_*.py
SEED = 20261201
GENERATED = 40  # module pairs
CHECK_TOOL = diagnostics.check_tool  # the real one, before any test records calls to it


@pytest.fixture
def recorded(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[ToolModel]]:
    """Every model given to ``check_tool`` while the test runs (the call itself unchanged)."""
    models: list[ToolModel] = []

    def recording(tool: ToolModel) -> list[diagnostics.Diagnostic]:
        models.append(tool)
        return CHECK_TOOL(tool)

    monkeypatch.setattr(diagnostics, "check_tool", recording)
    # The plugin's hook module holds the function under its own name: recorded there too.
    try:
        from onellm_mypy import reporting
    except ImportError:  # the runtime alone, without mypy: no plugin to record
        pass
    else:
        monkeypatch.setattr(reporting, "check_tool", recording)
    yield models


def _agree(models: list[ToolModel], monkeypatch: pytest.MonkeyPatch) -> tuple[int, int]:
    """Assert both verdicts agree on every model; (tools the shortcut answered, tools with findings)."""
    models = list({id(m): m for m in models}.values())  # (one model may be checked more than once)
    quick = [CHECK_TOOL(m) for m in models]
    answered = sum(
        1 for m in models if not diagnostics._function_findings(m, rules.tool_name(m)) and diagnostics._plainly_fine(m)
    )
    with monkeypatch.context() as patched:
        patched.setattr(diagnostics, "_plainly_fine", lambda tool: False)
        full = [CHECK_TOOL(m) for m in models]
    disagreements = [(model.function_name, q, f) for model, q, f in zip(models, quick, full, strict=True) if q != f]
    assert disagreements == []
    return answered, sum(1 for f in full if f)


def test_the_shortcut_agrees_with_the_full_checks_on_the_runtime_side(
    recorded: list[ToolModel], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    mods = harness.write_batch(SEED, range(GENERATED), tmp_path)
    paths = [*CORPUS, *(tmp_path / f"{mod.name}.py" for mod in mods if mod.tools)]
    monkeypatch.syspath_prepend(str(tmp_path))
    corpus = harness._corpus()
    for path in paths:
        corpus.collect_runtime(path)
    answered, with_findings = _agree(recorded, monkeypatch)
    assert answered > 100
    assert with_findings > 100


def test_the_shortcut_agrees_with_the_full_checks_on_the_static_side(
    recorded: list[ToolModel], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from onellm_mypy.extract import extract

    mods = harness.write_batch(SEED, range(GENERATED), tmp_path)
    paths = [*CORPUS, *(tmp_path / f"{mod.name}.py" for mod in mods)]
    monkeypatch.syspath_prepend(str(tmp_path))
    extract([str(p) for p in paths])
    answered, with_findings = _agree(recorded, monkeypatch)
    assert answered > 100
    assert with_findings > 100
