"""Every runtime-detectable OLT code, raised as ``ToolDefinitionError`` with its code and exact message.

Each message names the tool, the parameter and the path inside it, and says what to do
instead (contract, "Diagnostics": a user should be able to fix the code from the
message alone). OLT014 is static only: the runtime writes the default it sees.
"""

from __future__ import annotations

import enum
import json
import re
import subprocess
import sys
import types
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal, Optional, TypeVar, Union

import pytest
from cli_support import run
from schema_support import refusal, tool_with

from onellm_runtime import (
    CancellationToken,
    Email,
    JsonName,
    Pattern,
    Range,
    Tool,
    ToolContext,
    ToolDefinitionError,
    tool,
    tools_of,
)
from onellm_runtime.core.diagnostics import CODES

T = TypeVar("T")


class Plain:
    def __init__(self, x: int) -> None:
        self.x = x


class Flags(enum.Flag):
    A = 1


@dataclass
class Node:
    name: str
    children: list[Node]


@dataclass
class Wrapper:
    inner: Plain
    count: Annotated[str, Range(1, 2)]


@dataclass
class Open:
    action: Literal["open"]


@dataclass
class Untagged:
    path: str


def _f(x: int) -> str:
    return ""


def _g(x: int) -> object:
    return ""


def _generic(x: T) -> str:
    return ""


def _two_contexts(a: ToolContext, b: ToolContext, t: CancellationToken, u: CancellationToken) -> str:
    return ""


def _clash(invocationMode: str) -> str:
    return ""


def _star(*args: int, **kwargs: str) -> str:
    return ""


CASES: list[tuple[str, Callable[[], object], list[str], str]] = [
    (
        "OLT001 class",
        lambda: tool(Plain),
        ["OLT001"],
        "Tool 'plain': @tool must decorate a function, not a class; decorate the class's methods instead  [OLT001]",
    ),
    (
        "OLT002 Any",
        lambda: tool_with(Any),
        ["OLT002"],
        "Tool 'f': Parameter 'x': 'Any' has no schema; use a concrete type, or JsonValue to accept any JSON value  [OLT002]",
    ),
    (
        "OLT002 missing annotation",
        lambda: tool(name="f")(lambda x: x),
        ["OLT002"],
        "Tool 'f': Parameter 'x' has no type annotation; annotate it (for example 'str' or 'int')  [OLT002]",
    ),
    (
        "OLT002 *args and **kwargs",
        lambda: tool(_star),
        ["OLT002", "OLT002"],
        "Tool '_star': Parameter 'args': *args has no schema; declare each argument as a named parameter, "
        "or take a 'list[T]' parameter  [OLT002]\n"
        "Tool '_star': Parameter 'kwargs': **kwargs has no schema; declare each argument as a named parameter, "
        "or take a 'dict[str, T]' parameter  [OLT002]",
    ),
    (
        "OLT002 dict key",
        lambda: tool_with(dict[int, str]),
        ["OLT002"],
        "Tool 'f': Parameter 'x': dictionary keys must be 'str' (JSON object keys are strings); "
        "use 'dict[str, ...]' or a list of records  [OLT002]",
    ),
    (
        "OLT002 union with a path",
        lambda: tool_with(list[Union[int, str]]),
        ["OLT002"],
        "Tool 'f': Parameter 'x' item: a union has no schema unless it is 'X | None' or a union of records with "
        "a discriminator; use one type, or records with a Literal tag field  [OLT002]",
    ),
    (
        "OLT002 Flag",
        lambda: tool_with(Flags),
        ["OLT002"],
        "Tool 'f': Parameter 'x': 'Flags' is an enum.Flag, which has no schema; use a plain Enum, or a set of one  [OLT002]",
    ),
    (
        "OLT003",
        lambda: tool(_g),
        ["OLT003"],
        "Tool '_g': Return type: 'object' has no schema; use a concrete type, or JsonValue to accept any JSON value  [OLT003]",
    ),
    (
        "OLT003 with a path",
        lambda: tool_with(int, returns=list[tuple[int, str]]),
        ["OLT003"],
        "Tool 'f': Return type item: a fixed-length tuple has no schema; use 'tuple[T, ...]', 'list[T]' or a "
        "NamedTuple  [OLT003]",
    ),
    (
        "OLT004",
        lambda: tool(_generic),
        ["OLT004"],
        "Tool '_generic': the function is generic (type variable 'T' in parameter 'x'); a tool needs concrete "
        "types: replace 'T' with a concrete type such as 'str' or a dataclass  [OLT004]",
    ),
    (
        "OLT005 in a record field",
        lambda: tool_with(Wrapper),
        ["OLT005", "OLT013"],
        "Tool 'f': Parameter 'x' field 'inner': class 'Plain' is not a dataclass, NamedTuple, TypedDict or "
        "pydantic BaseModel, so arguments cannot be built into it; make it a dataclass, NamedTuple, TypedDict or "
        "pydantic BaseModel  [OLT005]\n"
        "Tool 'f': Parameter 'x' field 'count': Range applies to numbers, not to 'str'; remove the annotation or "
        "change the type  [OLT013]",
    ),
    (
        "OLT006",
        lambda: tool_with(Optional[Node]),
        ["OLT006"],
        "Tool 'f': Parameter 'x' field 'children' item: type 'Node' refers to itself, so its schema would never "
        "end; break the cycle (for example refer to another item by an id string)  [OLT006]",
    ),
    (
        "OLT008",
        lambda: tool(name="a b")(_f),
        ["OLT008"],
        "Tool 'a b': the tool name 'a b' is not 1-64 ASCII letters, digits, '_' or '-'; pass name=... with a "
        "valid name  [OLT008]",
    ),
    (
        "OLT009",
        lambda: tool(_two_contexts),
        ["OLT009", "OLT009"],
        "Tool '_two_contexts': Parameter 'b': a tool takes at most one ToolContext parameter ('a' is one "
        "already); remove 'b'  [OLT009]\n"
        "Tool '_two_contexts': Parameter 'u': a tool takes at most one CancellationToken parameter ('t' is one "
        "already); remove 'u'  [OLT009]",
    ),
    (
        "OLT011",
        lambda: tool(naming="snake_case")(_f),
        ["OLT011"],
        "Tool '_f': naming='snake_case' is not supported; use naming='camelCase' or leave it out  [OLT011]",
    ),
    (
        "OLT012",
        lambda: tool_with(Union[Open, Untagged]),
        ["OLT012"],
        "Tool 'f': Parameter 'x': the union 'Open | Untagged' has no discriminator: no field is, in every member, "
        "a Literal of one string (not Optional), distinct per member; add one (for example action: "
        "Literal['start']) to each member  [OLT012]",
    ),
    (
        "OLT013 misfit",
        lambda: tool_with(Annotated[int, Email()]),
        ["OLT013"],
        "Tool 'f': Parameter 'x': Email applies to strings, not to 'int'; remove the annotation or change the "
        "type  [OLT013]",
    ),
    (
        "OLT013 pattern",
        lambda: tool_with(Annotated[str, Pattern("(?<=a)b")]),
        ["OLT013"],
        "Tool 'f': Parameter 'x': Pattern('(?<=a)b') cannot be used: '(?<=' (lookbehind) is read differently "
        "by JSON Schema validators and Python; rewrite the pattern without it  [OLT013]",
    ),
    (
        "OLT013 JsonName on a parameter",
        lambda: tool_with(Annotated[str, JsonName("y")]),
        ["OLT013"],
        "Tool 'f': Parameter 'x': JsonName cannot be used here (tool parameters are never renamed); remove it  [OLT013]",
    ),
    (
        "OLT015",
        lambda: tool(invocation_mode="model_choice")(_clash),
        ["OLT015"],
        "Tool '_clash': Parameter 'invocationMode' clashes with the framework control that "
        "invocation_mode='model_choice' adds; rename the parameter  [OLT015]",
    ),
]


@pytest.mark.parametrize(("make", "codes", "message"), [pytest.param(m, c, t, id=i) for i, m, c, t in CASES])
def test_refused_with_code_and_exact_message(make: Callable[[], object], codes: list[str], message: str) -> None:
    with pytest.raises(ToolDefinitionError) as info:
        make()
    error = info.value
    assert isinstance(error, TypeError)
    assert error.code == codes[0]
    assert [d.code for d in error.diagnostics] == codes
    assert str(error) == message


def test_every_code_has_a_case_here_or_in_test_methods() -> None:
    """OLT007 and OLT010 (class creation) are in test_methods; OLT014 is static only."""
    covered = {c for _, _, codes, _ in CASES for c in codes} | {"OLT007", "OLT010", "OLT014"}
    assert covered == set(CODES)


def test_olt014_is_static_only_the_runtime_writes_the_value_it_sees() -> None:
    def compute() -> int:
        return 6

    t = tool_with(int, default=compute())
    assert json.dumps(t.input_schema["properties"]["x"]) == '{"type": "integer", "default": 6}'


def test_an_unresolvable_annotation_names_the_parameter() -> None:
    def f(amount: "NotDefinedAnywhere") -> str:  # type: ignore[name-defined]  # noqa: F821
        return ""

    t = Tool.create(f)
    codes, message = refusal(lambda: t.input_schema)
    assert codes == ["OLT002"]
    assert message == (
        "Tool 'f': Parameter 'amount': the annotation 'NotDefinedAnywhere' cannot be resolved; import the type at "
        "module level (not only under TYPE_CHECKING)  [OLT002]"
    )


@pytest.mark.skipif(sys.version_info < (3, 12), reason="PEP 695 syntax needs Python 3.12")
def test_olt004_for_a_pep_695_function() -> None:
    namespace: dict[str, Any] = {"tool": tool}
    codes, message = refusal(lambda: exec("@tool\ndef pick[U](x: U) -> str:\n    return ''\n", namespace))
    assert codes == ["OLT004"]
    assert "type variable 'U' in parameter 'x'" in message


def test_import_onellm_runtime_pulls_in_only_the_standard_library_and_typing_extensions() -> None:
    script = (
        "import sys\n"
        "before = set(sys.modules)\n"
        "import onellm_runtime\n"
        "print('\\n'.join(sorted(set(sys.modules) - before)))\n"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout.split()
    top = {name.split(".")[0] for name in out}
    stdlib = set(sys.stdlib_module_names)
    foreign = sorted(t for t in top - stdlib if t not in ("onellm_runtime", "typing_extensions"))
    assert foreign == []
    assert "onellm_runtime.binding" not in out and "onellm_runtime.invoking.invoker" not in out


# --- docs/diagnostics.md: every example prints the message the page shows ---------------

DOC = Path(__file__).resolve().parent.parent / "docs" / "diagnostics.md"


def _doc_sections() -> list[tuple[str, str, str, str]]:
    """(code, broken example, message, fixed example) for each '## OLTnnn' section, read up to
    its first '###' subsection (OLT007's module and tool-set forms: tests/test_toolset_static.py)."""
    parts = re.split(r"^## (OLT\d{3}):", DOC.read_text(encoding="utf-8"), flags=re.M)
    sections = []
    for code, section in zip(parts[1::2], parts[2::2], strict=True):
        body = re.split(r"^### ", section, flags=re.M)[0]
        python = re.findall(r"```python\n(.*?)```", body, re.S)
        text = re.findall(r"```text\n(.*?)```", body, re.S)
        assert len(python) == 2 and len(text) == 1, code
        sections.append((code, python[0], text[0].strip(), python[1]))
    return sections


def _run_example(code: str, source: str) -> ToolDefinitionError | None:
    """Execute an example as module ``doc_<code>``, using its tools as a user would."""
    name = f"doc_{code.lower()}"
    module = types.ModuleType(name)
    sys.modules[name] = module
    try:
        exec(compile(source, f"{name}.py", "exec"), module.__dict__)
        for value in list(vars(module).values()):
            if isinstance(value, Tool):
                _ = value.input_schema
            elif isinstance(value, type) and value.__module__ == name:
                tools_of(value)
    except ToolDefinitionError as e:
        return e
    except RuntimeError as e:  # raised in __set_name__, before Python 3.12
        assert isinstance(e.__cause__, ToolDefinitionError), e
        return e.__cause__
    finally:
        del sys.modules[name]
    return None


def test_the_page_has_one_section_per_code_in_order() -> None:
    assert [code for code, _, _, _ in _doc_sections()] == sorted(CODES)


@pytest.mark.parametrize(("code", "broken", "message", "fixed"), [pytest.param(*s, id=s[0]) for s in _doc_sections()])
def test_doc_example_prints_the_documented_message_and_its_fix_is_accepted(
    code: str, broken: str, message: str, fixed: str
) -> None:
    error = _run_example(code, broken)
    if code == "OLT014":  # static only: the runtime writes the value it sees
        assert error is None
    else:
        assert error is not None and error.code == code
        assert str(error) == message
    assert message.startswith("Tool '") and message.endswith(f"[{code}]")
    assert _run_example(code, fixed) is None


def test_doc_examples_print_the_same_messages_from_the_static_side(tmp_path: Path) -> None:
    """``onellm check`` (the mypy plugin's core, no import of the examples) says the same words."""
    pytest.importorskip("mypy", reason="the static side needs the dev extra (mypy)")
    expected = {}
    for code, broken, message, fixed in _doc_sections():
        (tmp_path / f"broken_{code.lower()}.py").write_text(broken, encoding="utf-8")
        (tmp_path / f"fixed_{code.lower()}.py").write_text(fixed, encoding="utf-8")
        expected[f"broken_{code.lower()}.py"] = message
    proc = run("check", str(tmp_path), cwd=tmp_path)
    found = {}
    for line in proc.stdout.splitlines():
        path, _, text = line.partition(": error: ")
        found[Path(path.split(":")[0]).name] = text
    assert found == expected, proc.stdout + proc.stderr
    assert proc.returncode == 1
