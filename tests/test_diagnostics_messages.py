"""OLT005 advice that fits the class, return-type wording for returns, and ``@tool("search")``
(OLT001 naming the keyword): the exact texts of docs/diagnostics.md, the same on both sides."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from onellm_runtime import ToolDefinitionError, tool

PLAIN_PARAM = (
    "class 'Point' is not a dataclass, NamedTuple, TypedDict or pydantic BaseModel, so arguments cannot be "
    "built into it; make it a dataclass, NamedTuple, TypedDict or pydantic BaseModel"
)
PLAIN_RETURN = (
    "class 'Point' is not a dataclass, NamedTuple, TypedDict or pydantic BaseModel, so its value cannot be "
    "written as JSON; make it a dataclass, NamedTuple, TypedDict or pydantic BaseModel"
)


def path_param(name: str) -> str:
    return f"class '{name}' is a file-system path, which a model sends as text; use str (and {name}(text) in the tool)"


def path_return(name: str) -> str:
    return f"class '{name}' is a file-system path, which is returned as text; use str (return str(path))"


HEADER = """\
from __future__ import annotations

import pathlib
from pathlib import Path, PosixPath, PurePath, PurePosixPath, PureWindowsPath, WindowsPath

from onellm_runtime import tool


class Point:
    def __init__(self, x: int) -> None:
        self.x = x
"""

#: (what, the tool's source, its one message)
ROWS: list[tuple[str, str, str]] = [
    ("plain class", "def f(p: Point) -> str: ...", "Tool 'f': Parameter 'p': " + PLAIN_PARAM),
    ("plain class item", "def f(p: list[Point]) -> str: ...", "Tool 'f': Parameter 'p' item: " + PLAIN_PARAM),
    ("plain class returned", "def f() -> Point: ...", "Tool 'f': Return type: " + PLAIN_RETURN),
    ("plain class returned in a list", "def f() -> list[Point]: ...", "Tool 'f': Return type item: " + PLAIN_RETURN),
    ("Path", "def f(p: Path) -> str: ...", "Tool 'f': Parameter 'p': " + path_param("Path")),
    ("pathlib.Path", "def f(p: pathlib.Path) -> str: ...", "Tool 'f': Parameter 'p': " + path_param("Path")),
    ("PurePath", "def f(p: PurePath) -> str: ...", "Tool 'f': Parameter 'p': " + path_param("PurePath")),
    ("PosixPath", "def f(p: PosixPath) -> str: ...", "Tool 'f': Parameter 'p': " + path_param("PosixPath")),
    ("WindowsPath", "def f(p: WindowsPath) -> str: ...", "Tool 'f': Parameter 'p': " + path_param("WindowsPath")),
    (
        "PurePosixPath or None",
        "def f(p: PurePosixPath | None = None) -> str: ...",
        "Tool 'f': Parameter 'p': " + path_param("PurePosixPath"),
    ),
    (
        "PureWindowsPath",
        "def f(p: PureWindowsPath) -> str: ...",
        "Tool 'f': Parameter 'p': " + path_param("PureWindowsPath"),
    ),
    ("Path returned", "def f() -> Path: ...", "Tool 'f': Return type: " + path_return("Path")),
    (
        "positional name",
        '@tool("search")\ndef f(q: str) -> str: ...',
        "Tool 'search': @tool takes the tool's name as a keyword, not as its first argument; "
        "write @tool(name='search')",
    ),
    (
        "positional name with options",
        '@tool("search", description="Find")\ndef f(q: str) -> str: ...',
        "Tool 'search': @tool takes the tool's name as a keyword, not as its first argument; "
        "write @tool(name='search')",
    ),
    (
        "positional name from a constant",
        'NAME = "lookup"\n\n\n@tool(NAME)\ndef f(q: str) -> str: ...',
        "Tool 'lookup': @tool takes the tool's name as a keyword, not as its first argument; "
        "write @tool(name='lookup')",
    ),
]


OPTIONS = "name, description, ends_loop, requires_approval, parallel_safe, timeout_seconds, naming, invocation_mode"

#: Another library's decorator options, and misspellings: OLT001 naming each, with what to write.
ROWS += [
    (
        "args_schema",
        "@tool(args_schema=Point)\ndef f(q: str) -> str: ...",
        "Tool 'f': @tool has no option 'args_schema'; declare the schema's fields as the function's parameters, "
        "or take the model as one parameter",
    ),
    (
        "return_direct",
        "@tool(return_direct=True)\ndef f(q: str) -> str: ...",
        "Tool 'f': @tool has no option 'return_direct'; write ends_loop=True",
    ),
    (
        "name_override",
        '@tool(name_override="g")\ndef f(q: str) -> str: ...',
        "Tool 'f': @tool has no option 'name_override'; write name=...",
    ),
    (
        "parse_docstring beside a name",
        '@tool(name="g", parse_docstring=True)\ndef f(q: str) -> str: ...',
        "Tool 'g': @tool has no option 'parse_docstring'; remove it: the docstring is always read",
    ),
    (
        "strict_mode",
        "@tool(strict_mode=False)\ndef f(q: str) -> str: ...",
        "Tool 'f': @tool has no option 'strict_mode'; remove it: the binder is always strict",
    ),
    (
        "misspelt",
        '@tool(descripton="d")\ndef f(q: str) -> str: ...',
        "Tool 'f': @tool has no option 'descripton'; did you mean description?",
    ),
    (
        "unknown",
        '@tool(tags=["a"])\ndef f(q: str) -> str: ...',
        f"Tool 'f': @tool has no option 'tags'; its options are {OPTIONS}",
    ),
]

#: More than one finding: each option in the order written, after a positional name.
MANY: list[tuple[str, str, list[str]]] = [
    (
        "two options",
        "@tool(args_schema=Point, return_direct=True)\ndef f(q: str) -> str: ...",
        [
            "Tool 'f': @tool has no option 'args_schema'; declare the schema's fields as the function's "
            "parameters, or take the model as one parameter",
            "Tool 'f': @tool has no option 'return_direct'; write ends_loop=True",
        ],
    ),
    (
        "a positional name and an option",
        '@tool("search", tags=["a"])\ndef f(q: str) -> str: ...',
        [
            "Tool 'search': @tool takes the tool's name as a keyword, not as its first argument; "
            "write @tool(name='search')",
            f"Tool 'search': @tool has no option 'tags'; its options are {OPTIONS}",
        ],
    ),
]


def _module(body: str) -> str:
    decorated = body if body.startswith(("@", "NAME")) else "@tool\n" + body
    return HEADER + "\n\n" + decorated + "\n"


ALL = [(what, body, [message]) for what, body, message in ROWS] + MANY


@pytest.mark.parametrize(("body", "messages"), [r[1:] for r in ALL], ids=[r[0] for r in ALL])
def test_runtime(body: str, messages: list[str]) -> None:
    namespace: dict[str, object] = {"__name__": "olt_messages"}
    with pytest.raises(ToolDefinitionError) as info:
        exec(compile(_module(body), "olt_messages.py", "exec"), namespace)
        for value in list(namespace.values()):  # a deferred tool reports on first use
            _ = getattr(value, "input_schema", None)
    assert [d.message for d in info.value.diagnostics] == messages


def test_static(tmp_path: Path) -> None:
    """All rows through one mypy build (``onellm check``'s engine): the same words, on the line of
    the parameter or of the ``def``."""
    from onellm_mypy.extract import extract

    paths = []
    for i, (_, body, _) in enumerate(ALL):
        path = tmp_path / f"row{i}.py"
        path.write_text(_module(body), encoding="utf-8")
        paths.append(str(path))
    found = extract(paths).diagnostics
    by_file: dict[str, list[str]] = {}
    for d in found:
        by_file.setdefault(d.path, []).append(d.message)
    assert {p: by_file.get(p, []) for p in paths} == {p: r[2] for p, r in zip(paths, ALL)}


def test_a_positional_name_is_reported_on_the_def_line(tmp_path: Path) -> None:
    from onellm_mypy.extract import extract

    path = tmp_path / "named.py"
    path.write_text(
        textwrap.dedent(
            """\
            from onellm_runtime import tool


            class Tools:
                @tool("search")
                def search(self, q: str) -> str:
                    return q
            """
        ),
        encoding="utf-8",
    )
    [d] = extract([str(path)]).diagnostics
    assert (d.line, d.column, d.code) == (6, 5, "OLT001")
    assert d.message == (
        "Tool 'search': @tool takes the tool's name as a keyword, not as its first argument; write @tool(name='search')"
    )
    with pytest.raises(ToolDefinitionError) as info:
        tool("search")
    assert str(info.value) == d.message + "  [OLT001]"
