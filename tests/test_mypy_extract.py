"""``onellm_mypy.extract``: tools and findings read through mypy, never by importing the code.

All cases share one extraction (one mypy build) over a temporary directory of modules.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from onellm_mypy.extract import ExtractResult, StaticDiagnostic, extract
from onellm_runtime.core import schema

SIDE_EFFECTS = """\
from onellm_runtime import tool

open(MARKER, "w").write("ran")
FAILS = 1 // 0  # importing this module fails

@tool
def second(b: int) -> str:
    return ""

@tool(name="first_tool")
def first(a: str = "x") -> int:
    \"\"\"The first.\"\"\"
    return 0
"""

FAULTY = """\
from typing import Any
from onellm_runtime import tool

@tool
def loose(
    a: Any,
    b: Any,  # type: ignore[OLT002]
) -> str:
    return ""

@tool
def fine(x: int) -> str:
    return ""
"""

TYPOS = """\
from onellm_runtime import tool

x: int = "not an int"

@tool
def ok(a: int) -> str:
    return a
"""

ODD = """\
import functools
from typing import Any, Callable
from onellm_runtime import Tool, tool

def deco(f: Callable[..., Any]) -> Callable[..., Any]:
    return f

@tool
@deco
def wrapped(x: int) -> str:
    return ""

def make() -> Callable[[int], str]:
    return str

made = Tool.create(make())
also = tool(make())
Loop = list["Loop"]

@tool
def loops(x: "Loop") -> str:
    return ""
"""


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, ExtractResult]:
    root = tmp_path_factory.mktemp("extract")
    marker = root / "imported.txt"
    (root / "side_effects.py").write_text(SIDE_EFFECTS.replace("MARKER", repr(str(marker))))
    (root / "faulty.py").write_text(FAULTY)
    (root / "typos.py").write_text(TYPOS)
    (root / "odd.py").write_text(ODD)
    return root, extract([str(root)])


def _tools(result: ExtractResult, module: str) -> list[str]:
    return [t.qualname for t in result.tools if t.module == module]


def _findings(result: ExtractResult, name: str) -> list[StaticDiagnostic]:
    return [d for d in result.diagnostics if Path(d.path).name == name]


def test_a_module_whose_import_fails_is_read_without_running_it(project: tuple[Path, ExtractResult]) -> None:
    root, result = project
    assert not (root / "imported.txt").exists()
    assert _findings(result, "side_effects.py") == []
    assert [(t.module, t.qualname, t.line, t.column) for t in result.tools if t.module == "side_effects"] == [
        ("side_effects", "second", 7, 1),
        ("side_effects", "first", 11, 1),
    ]
    first = [t for t in result.tools if t.module == "side_effects"][1].model
    assert first.options.name == "first_tool"
    assert json.dumps(schema.input_schema(first)) == (
        '{"type": "object", "properties": {"a": {"type": "string", "default": "x"}}, "additionalProperties": false}'
    )


def test_findings_have_one_based_columns_and_honour_type_ignore(project: tuple[Path, ExtractResult]) -> None:
    root, result = project
    path = root / "faulty.py"
    assert _findings(result, "faulty.py") == [
        StaticDiagnostic(
            str(path),
            6,
            5,
            "OLT002",
            "Tool 'loose': Parameter 'a': 'Any' has no schema; use a concrete type, or JsonValue to accept any JSON value",
        )
    ]
    # A tool with a finding has no schema, so only the clean one is listed.
    assert _tools(result, "faulty") == ["fine"]


def test_other_type_errors_are_not_findings(project: tuple[Path, ExtractResult]) -> None:
    _, result = project
    assert _findings(result, "typos.py") == []
    assert _tools(result, "typos") == ["ok"]


def test_unexpected_shapes_give_nothing_rather_than_a_crash(project: tuple[Path, ExtractResult]) -> None:
    _, result = project
    # A decorator under @tool is read through (the def describes the tool, as at runtime);
    # computed functions are shapes the plugin does not guess at, and the only finding is
    # the self-referring alias (unresolvable, as at runtime).
    assert _tools(result, "odd") == ["wrapped"]
    assert [(d.line, d.code) for d in _findings(result, "odd.py")] == [(21, "OLT002")]
