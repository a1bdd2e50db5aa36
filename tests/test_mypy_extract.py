"""``onellm_mypy.extract``: tools and findings read through mypy, never by importing the code."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

from onellm_runtime import schema
from onellm_mypy.extract import StaticDiagnostic, extract


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def test_a_module_whose_import_fails_is_read_without_running_it(tmp_path: Path) -> None:
    marker = tmp_path / "imported.txt"
    path = _write(
        tmp_path,
        "side_effects.py",
        f"""\
        from onellm_runtime import tool

        open({str(marker)!r}, "w").write("ran")
        raise RuntimeError("importing this module fails")

        @tool
        def second(b: int) -> str:
            return ""

        @tool(name="first_tool")
        def first(a: str = "x") -> int:
            \"\"\"The first.\"\"\"
            return 0
        """,
    )
    result = extract([str(path)])
    assert not marker.exists()
    assert result.diagnostics == []
    assert [(t.module, t.qualname, t.line, t.column) for t in result.tools] == [
        ("side_effects", "second", 7, 1),
        ("side_effects", "first", 11, 1),
    ]
    first = result.tools[1].model
    assert first.explicit_name == "first_tool"
    assert json.dumps(schema.input_schema(first)) == (
        '{"type": "object", "properties": {"a": {"type": "string", "default": "x"}}, "additionalProperties": false}'
    )


def test_findings_have_one_based_columns_and_honour_type_ignore(tmp_path: Path) -> None:
    path = _write(
        tmp_path,
        "faulty.py",
        """\
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
        """,
    )
    result = extract([str(path)])
    assert result.diagnostics == [
        StaticDiagnostic(
            str(path),
            6,
            5,
            "OLT002",
            "Tool 'loose': Parameter 'a': 'Any' has no schema; use a concrete type, or JsonValue to accept any JSON value",
        )
    ]
    # A tool with a finding has no schema, so only the clean one is listed.
    assert [t.qualname for t in result.tools] == ["fine"]


def test_other_type_errors_are_not_findings(tmp_path: Path) -> None:
    path = _write(
        tmp_path,
        "typos.py",
        """\
        from onellm_runtime import tool

        x: int = "not an int"

        @tool
        def ok(a: int) -> str:
            return a
        """,
    )
    result = extract([str(path)])
    assert result.diagnostics == []
    assert [t.qualname for t in result.tools] == ["ok"]


def test_unexpected_shapes_give_nothing_rather_than_a_crash(tmp_path: Path) -> None:
    path = _write(
        tmp_path,
        "odd.py",
        """\
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
        """,
    )
    result = extract([str(path)])
    assert [t.qualname for t in result.tools] == []
    # Only the self-referring alias is a finding (unresolvable, as at runtime); the
    # decorated and computed functions are shapes the plugin does not guess at.
    assert [(d.line, d.code) for d in result.diagnostics] == [(21, "OLT002")]
