"""The static side computes the same tools as the runtime: same models, same schema bytes.

``onellm_mypy.extract`` reads the valid corpus, the examples and ``tests/mypy_fixtures``
through mypy (importing nothing); the runtime imports the same modules. For every tool:

- the static manifest entry equals the corpus's hand-written golden, field by field, as
  ``json.dumps`` strings (key order included);
- the static ``ToolModel`` equals the runtime's (same nodes, names, defaults, markers,
  docstrings), and so do the input schema, output schema, description and name bytes.
"""

from __future__ import annotations

import dataclasses
import functools
import importlib
import inspect
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from onellm_runtime import Tool
from onellm_runtime.cli import manifest
from onellm_runtime.core import rules, schema
from onellm_runtime.core.model import ToolModel

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "test-data"
EXAMPLES = ROOT / "examples"
FIXTURES = ROOT / "tests" / "mypy_fixtures"
sys.path.insert(0, str(CORPUS))
sys.path.insert(0, str(EXAMPLES))
sys.path.insert(0, str(ROOT / "tests"))

import _corpus  # noqa: E402

FIXTURE_MODULES = ("mypy_fixtures.tools_future", "mypy_fixtures.tools_eager", "mypy_fixtures.tools_shapes")


@functools.lru_cache(maxsize=1)
def _static() -> dict[tuple[str, str], Any]:
    from onellm_mypy.extract import extract

    paths = [str(p) for p in _corpus.valid_modules()] + [str(p) for p in sorted(EXAMPLES.glob("*.py"))]
    result = extract([*paths, str(FIXTURES)])
    assert result.diagnostics == []
    found = {(t.module, t.qualname): t for t in result.tools}
    assert len(found) == len(result.tools)
    return found


def _runtime_tools(module: Any) -> list[Tool[..., Any]]:
    """The module's tools as ``onellm schemas --runtime`` lists them."""
    tools: list[Tool[..., Any]] = []
    for value in vars(module).values():
        if isinstance(value, Tool):
            tools.append(value)
        elif isinstance(value, type) and value.__module__ == module.__name__:
            tools.extend(a for a in vars(value).values() if isinstance(a, Tool))
    return [t for t in tools if t.__module__ == module.__name__]


def _runtime_cases() -> list[Any]:
    cases = []
    for path in _corpus.valid_modules():
        cases.append(pytest.param(path.stem, lambda p=path: _corpus.load_module(p), id=path.stem))
    for path in sorted(EXAMPLES.glob("*.py")):
        cases.append(
            pytest.param(path.stem, lambda n=path.stem: importlib.import_module(n), id=f"examples.{path.stem}")
        )
    for name in FIXTURE_MODULES:
        cases.append(pytest.param(name, lambda n=name: importlib.import_module(n), id=name))
    return cases


def _normalized(model: ToolModel) -> ToolModel:
    """Docstrings compared after ``inspect.cleandoc``: Python 3.13 dedents them at compile time."""
    doc = model.docstring
    return dataclasses.replace(model, docstring=None if doc is None else inspect.cleandoc(doc))


@pytest.mark.parametrize(("module_name", "load"), _runtime_cases())
def test_static_models_and_schemas_equal_the_runtimes(module_name: str, load: Any) -> None:
    module = load()
    tools = _runtime_tools(module)
    assert tools, module_name
    static = _static()
    listed = sorted(q for (m, q) in static if m == module_name)
    assert listed == sorted(t.__qualname__ for t in tools)
    for t in tools:
        s = static[(module_name, t.__qualname__)].model
        assert _normalized(s) == _normalized(t.model), t.__qualname__
        assert json.dumps(schema.input_schema(s)) == json.dumps(t.input_schema), t.__qualname__
        assert json.dumps(schema.output_schema(s)) == json.dumps(t.output_schema), t.__qualname__
        assert rules.tool_description(s) == t.description, t.__qualname__
        assert rules.tool_name(s) == t.name, t.__qualname__


@pytest.mark.parametrize("path", _corpus.valid_modules(), ids=lambda p: p.stem)
def test_static_manifest_equals_the_hand_written_golden(path: Path) -> None:
    golden = json.loads(_corpus.golden_path(path).read_text(encoding="utf-8"))
    static = [t for (m, _), t in _static().items() if m == path.stem]
    entries = [manifest.entry(t.module, t.qualname, t.model) for t in static]
    assert [e["qualname"] for e in entries] == [g["qualname"] for g in golden]
    for entry, expected in zip(entries, golden, strict=True):
        for field, value in expected.items():
            assert json.dumps(entry[field]) == json.dumps(value), (entry["qualname"], field)


def test_the_fixtures_cover_what_mypy_hides() -> None:
    """The fixture tools really carry the source-only details this test exists for."""
    static = _static()
    order = static[("mypy_fixtures.tools_future", "place_order")].model
    schema_text = json.dumps(schema.input_schema(order))
    # metadata of an alias in another module (Quantity), a record field's Doc, an enum alias default
    assert '"qty": {"type": "integer", "description": "How many.", "minimum": 1, "maximum": 99, "default": 3}' in (
        schema_text
    )
    assert '"note": {"type": ["string", "null"], "description": "Free text."}' in schema_text
    assert '"color": {"type": "string", "enum": ["red", "green"], "default": "red"}' in schema_text
    # defaults read through names: an imported constant, a Final negative number
    assert '"limit": {"type": "integer", "default": 25}' in schema_text
    assert '"floor": {"type": "integer", "default": -3}' in schema_text
    browse = static[("mypy_fixtures.tools_future", "Shop.browse")].model
    assert json.dumps(schema.input_schema(browse)["properties"]["page_size"]) == '{"type": "integer", "default": 50}'
