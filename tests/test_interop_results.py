"""Calls of tools written for other libraries, by the contract's rule-zero and Results rows:

| Written | At call time |
|---|---|
| ``-> Any``, ``-> dict[str, Any]`` | the value written as JSON by its own type, then checked as any result |
| pydantic ``AnyUrl``, ``AnyHttpUrl``, ``HttpUrl`` | bound by the ``Url()`` rule, then built as that pydantic type; what it refuses is an argument error at the path |
| pydantic ``EmailStr`` | bound as ``Annotated[str, Email()]``: a ``str`` |
| pydantic ``conint``/``constr``/``conlist`` | enforced as the ``Annotated`` type each returns |
| LangChain's ``Injected*`` | OLT013 on both sides, with the contract's words |

The static and runtime schemas of these tools are held to hand-written goldens in
``test-data/ported/`` (``tests/test_ported.py``).
"""

from __future__ import annotations

import asyncio
import dataclasses
import datetime as dt
import decimal
import enum
import subprocess
import sys
from pathlib import Path
from typing import Any, Optional

import pytest
from cli_support import run

from onellm_runtime import ToolInvoker, ToolResult, tool

pytest.importorskip("pydantic")

from pydantic import AnyHttpUrl, AnyUrl, EmailStr, HttpUrl, conint, conlist, constr

ROOT = Path(__file__).resolve().parent.parent


def invoke(t: Any, arguments: str) -> ToolResult:
    return asyncio.run(ToolInvoker().invoke(t, arguments))


class Colour(enum.Enum):
    RED = "red"


@dataclasses.dataclass
class Stop:
    at: dt.date
    colour: Colour


def test_an_any_return_is_written_by_the_values_own_type() -> None:
    @tool
    def plan() -> Any:
        return {"stops": [Stop(dt.date(2026, 12, 1), Colour.RED)], "seats": {3, 1}, "price": decimal.Decimal("2.50")}

    assert plan.output_schema is None
    result = invoke(plan, "{}")
    assert (result.is_error, result.text) == (
        False,
        '{"stops":[{"at":"2026-12-01","colour":"red"}],"seats":[1,3],"price":2.5}',
    )


def test_a_value_with_no_json_form_under_any_is_an_error_result_never_its_str() -> None:
    @tool
    def loose() -> dict[str, Any]:
        return {"handle": object()}

    result = invoke(loose, "{}")
    assert result.is_error
    assert (
        result.text
        == "Tool 'loose' returned a value that cannot be written as JSON: an object of type object at handle."
    )


def test_none_under_an_optional_any_map_is_the_text_null() -> None:
    @tool
    def maybe() -> Optional[dict[str, Any]]:
        return None

    assert maybe.output_schema == {"type": ["object", "null"], "additionalProperties": {}}
    assert invoke(maybe, "{}").text == "null"


def test_any_in_a_parameter_is_still_refused() -> None:
    from onellm_runtime import ToolDefinitionError

    with pytest.raises(ToolDefinitionError) as caught:

        @tool
        def takes(payload: Any) -> str:
            return ""

    assert caught.value.code == "OLT002"


def test_url_types_are_built_as_the_pydantic_type_after_the_url_check() -> None:

    seen: list[str] = []

    @tool
    def fetch(url: HttpUrl, base: AnyHttpUrl, other: AnyUrl) -> str:
        seen.extend(type(v).__name__ for v in (url, base, other))
        return str(url)

    result = invoke(fetch, '{"url": "https://a.example/x", "base": "HTTP://b.example", "other": "ftp://c.example/d"}')
    assert (result.is_error, result.text) == (False, "https://a.example/x")
    assert seen == ["HttpUrl", "AnyHttpUrl", "AnyUrl"]


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (
            '{"url": "ftp://a.example/x"}',
            "Argument 'url' must match the pattern ^[Hh][Tt][Tt][Pp][Ss]?://, got \"ftp://a.example/x\".",
        ),
        (
            '{"url": "https://a b"}',
            "Argument 'url' must be an absolute URI with a scheme, like https://example.com/path, got \"https://a b\".",
        ),
        # the Url() rule accepts it, pydantic refuses it: its words, at the path
        (
            '{"url": "https://x:99999/"}',
            "Argument 'url' is not valid: Input should be a valid URL, invalid port number.",
        ),
    ],
)
def test_a_url_refused_by_the_schema_or_by_pydantic_is_an_argument_error(arguments: str, message: str) -> None:

    @tool
    def open_page(url: HttpUrl) -> str:
        return "ran"

    result = invoke(open_page, arguments)
    assert (result.is_error, result.text) == (True, message)


def test_a_url_return_is_text() -> None:

    @tool
    def home(name: str) -> HttpUrl:
        return HttpUrl(f"https://{name}.example")

    assert home.output_schema is None
    assert invoke(home, '{"name": "z"}').parts[0].text == "https://z.example/"  # type: ignore[union-attr]


def test_an_email_str_binds_as_a_plain_str() -> None:

    kinds: list[type] = []

    @tool
    def invite(email: EmailStr) -> str:
        kinds.append(type(email))
        return email

    assert invoke(invite, '{"email": "ada@example.com"}').text == "ada@example.com"
    assert kinds == [str]
    assert invoke(invite, '{"email": "nope"}').text == (
        "Argument 'email' must be an email address like name@example.com, got \"nope\"."
    )


def test_constrained_types_are_enforced_as_the_annotated_types_they_return() -> None:

    @tool
    def tag(
        n: conint(ge=1, le=3),  # type: ignore[valid-type]
        code: constr(pattern=r"^[A-Z]+$"),  # type: ignore[valid-type]
        tags: conlist(str, min_length=1),  # type: ignore[valid-type]
    ) -> str:
        return "ran"

    result = invoke(tag, '{"n": 4, "code": "ab", "tags": []}')
    assert result.text.splitlines() == [
        "Argument 'n' must be between 1 and 3, got 4.",
        "Argument 'code' must match the pattern ^[A-Z]+$, got \"ab\".",
        "Argument 'tags' must have at least 1 item, got 0.",
    ]


# LangChain is not installed here: stand-in packages with the markers' full names (the only
# thing either side reads of them) let both sides meet them as a user's code would.
_LANGCHAIN = {
    "langchain_core/__init__.py": "",
    "langchain_core/tools/__init__.py": "",
    "langchain_core/tools/base.py": "class InjectedToolArg:\n    pass\n\n\nclass InjectedToolCallId(InjectedToolArg):\n    pass\n",
    "langgraph/__init__.py": "",
    "langgraph/prebuilt/__init__.py": "",
    "langgraph/prebuilt/tool_node.py": (
        "from langchain_core.tools.base import InjectedToolArg\n\n\n"
        "class InjectedState(InjectedToolArg):\n"
        "    def __init__(self, field: str | None = None) -> None:\n        self.field = field\n\n\n"
        "class InjectedStore(InjectedToolArg):\n    pass\n"
    ),
    "injected.py": (
        "from typing import Annotated\n"
        "from langchain_core.tools.base import InjectedToolArg, InjectedToolCallId\n"
        "from langgraph.prebuilt.tool_node import InjectedState, InjectedStore\n"
        "from onellm_runtime import tool\n\n\n"
        "@tool\ndef a(q: str, user_id: Annotated[str, InjectedToolArg]) -> str:\n    return q\n\n\n"
        "@tool\ndef b(q: str, call_id: Annotated[str, InjectedToolCallId]) -> str:\n    return q\n\n\n"
        "@tool\ndef c(q: str, state: Annotated[dict[str, str], InjectedState('messages')]) -> str:\n    return q\n\n\n"
        "@tool\ndef d(q: str, store: Annotated[str, InjectedStore()]) -> str:\n    return q\n"
    ),
}
_INJECTED = (
    "marks an argument LangChain fills in, and onellm has no injected arguments: take the value from "
    "ToolContext (ctx.call_id, ctx.services) and drop the parameter"
)


def test_langchains_injected_markers_are_refused_alike_on_both_sides(tmp_path: Path) -> None:
    for name, text in _LANGCHAIN.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    expected = [
        (8, f"Tool 'a': Parameter 'user_id': InjectedToolArg {_INJECTED}"),
        (13, f"Tool 'b': Parameter 'call_id': InjectedToolCallId {_INJECTED}"),
        (18, f"Tool 'c': Parameter 'state': InjectedState {_INJECTED}"),
        (23, f"Tool 'd': Parameter 'store': InjectedStore {_INJECTED}"),
    ]
    static = run("check", "injected.py", cwd=tmp_path)
    assert static.returncode == 1
    assert [
        (int(line.split(":")[1]), line.split(": error: ")[1].removesuffix("  [OLT013]"))
        for line in static.stdout.splitlines()
    ] == expected
    program = (
        "import sys, re\n"
        "sys.path.insert(0, '.')\n"
        "from onellm_runtime import ToolDefinitionError\n"
        "source = open('injected.py').read()\n"
        "head, *tools = re.split(r'(?=@tool)', source)\n"
        "for t in tools:\n"
        "    try:\n"
        "        exec(head + t, {})\n"
        "    except ToolDefinitionError as e:\n"
        "        print(e.code, e.diagnostics[0].message)\n"
    )
    runtime = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, cwd=tmp_path, timeout=600)
    assert runtime.stdout.splitlines() == [f"OLT013 {message}" for _, message in expected], runtime.stderr


_BOTH_SIDES = """\
import threading
from dataclasses import dataclass
from typing import Any

from onellm_runtime import tool


@dataclass
class Row:
    value: Any


@tool
def read_row(key: str) -> Row:
    return Row(key)


@tool
def guarded(lock: threading.Lock, again: threading.RLock) -> str:
    return ""
"""


@pytest.mark.parametrize(
    ("tool_name", "expected"),
    [
        # Any in a record's field is the record's, not the return annotation's: still refused
        (
            "read_row",
            [
                "Tool 'read_row': Return type field 'value': 'Any' has no schema; use a concrete type, or JsonValue "
                "to accept any JSON value  [OLT003]"
            ],
        ),
        # threading.Lock is a class to typeshed and a function at run time before Python 3.13
        (
            "guarded",
            [
                f"Tool 'guarded': Parameter '{name}': 'threading.{cls}' is a runtime object, which a model cannot "
                "send; runtime objects reach a tool through ToolContext.services: take a ToolContext parameter and "
                "read it from ctx.services  [OLT002]"
                for name, cls in (("lock", "Lock"), ("again", "RLock"))
            ],
        ),
    ],
)
def test_refused_alike_on_both_sides(tmp_path: Path, tool_name: str, expected: list[str]) -> None:
    source = _BOTH_SIDES.split("\n\n\n@tool\n")
    head = source[0]  # the imports and the record
    body = next(block for block in source[1:] if block.startswith(f"def {tool_name}("))
    (tmp_path / "m.py").write_text(f"{head}\n\n\n@tool\n{body}")
    static = run("check", "m.py", cwd=tmp_path)
    assert [line.split(": error: ")[1] for line in static.stdout.splitlines()] == expected
    runtime = run("schemas", "--runtime", "m.py", cwd=tmp_path)
    assert (runtime.returncode, runtime.stderr.splitlines()[1:]) == (1, expected)
