"""Tool names (snake_case, the ``_async`` suffix, validity) and record naming (camelCase).

Contract, "A tool": `get_docket_async` -> `get_docket`, `GetDocketAsync` -> `get_docket`,
`HTTPRequest` -> `http_request`, `fetchURL` -> `fetch_url`; 1-64 of letters, digits, `_`, `-`,
ASCII only. "Records": `naming="camelCase"` converts `old_text` -> `oldText`.
"""

from __future__ import annotations

from typing import Any, Callable

import pytest
from schema_support import refusal

from onellm_runtime import Tool, tool
from onellm_runtime.core.rules import camel_case, is_valid_tool_name, snake_case

SNAKE_TABLE = [
    ("get_docket_async", "get_docket"),
    ("GetDocketAsync", "get_docket"),
    ("HTTPRequest", "http_request"),
    ("fetchURL", "fetch_url"),
    ("get_docket", "get_docket"),
    ("getDocket", "get_docket"),
    ("GetDocket", "get_docket"),
    ("getHTTPResponseCode", "get_http_response_code"),
    ("HTTPServerAsync", "http_server"),
    ("v2Endpoint", "v2_endpoint"),
    ("ABC", "abc"),
    ("getA", "get_a"),
    ("_private_helper", "_private_helper"),
    ("run_async_async", "run_async"),
    ("async_", "async_"),
    ("Async", "async"),
    ("_async", "_async"),
]


@pytest.mark.parametrize(("function_name", "tool_name"), SNAKE_TABLE)
def test_snake_case_row(function_name: str, tool_name: str) -> None:
    assert snake_case(function_name) == tool_name


@pytest.mark.parametrize(("function_name", "tool_name"), SNAKE_TABLE[:4])
def test_the_contract_examples_through_tool(function_name: str, tool_name: str) -> None:
    namespace: dict[str, Any] = {}
    exec(f"async def {function_name}(x: int) -> str:\n    return ''", namespace)
    assert tool(namespace[function_name]).name == tool_name


CAMEL_TABLE = [
    ("old_text", "oldText"),
    ("new_text", "newText"),
    ("file_path_name", "filePathName"),
    ("x", "x"),
    ("a_b", "aB"),
    ("_private_flag", "_privateFlag"),
    ("already_camelCase", "alreadyCamelCase"),
    ("alreadyCamel", "alreadyCamel"),
    ("HTTP_code", "HTTPCode"),
    ("value2_max", "value2Max"),
]


@pytest.mark.parametrize(("field_name", "wire_name"), CAMEL_TABLE)
def test_camel_case_row(field_name: str, wire_name: str) -> None:
    assert camel_case(field_name) == wire_name


VALID_NAMES = ["a", "Z", "0", "get_docket", "lookup-case_2", "GetDocket", "a" * 64, "-", "_"]
INVALID_NAMES = ["", "a" * 65, "has space", "a.b", "a/b", "naïve", "größe", "名前", "tab\there", "new\nline"]


@pytest.mark.parametrize("name", VALID_NAMES)
def test_valid_tool_name(name: str) -> None:
    assert is_valid_tool_name(name)

    def f() -> str:
        return ""

    assert tool(name=name)(f).name == name


@pytest.mark.parametrize("name", INVALID_NAMES)
def test_invalid_tool_name_is_olt008(name: str) -> None:
    assert not is_valid_tool_name(name)

    def f() -> str:
        return ""

    codes, message = refusal(lambda: tool(name=name)(f))
    assert codes == ["OLT008"]
    assert message == (
        f"Tool '{name}': the tool name {name!r} is not 1-64 ASCII letters, digits, '_' or '-'; "
        "pass name=... with a valid name  [OLT008]"
    )


def test_explicit_name_is_used_as_written() -> None:
    def f() -> str:
        return ""

    assert tool(name="GetDocket")(f).name == "GetDocket"
    assert Tool.create(f, name="get-docket").name == "get-docket"


def test_a_derived_name_that_is_invalid_is_olt008() -> None:
    namespace: dict[str, Any] = {}
    exec("def prüfen() -> str:\n    return ''", namespace)
    codes, message = refusal(lambda: tool(namespace["prüfen"]))
    assert codes == ["OLT008"]
    assert message.startswith("Tool 'prüfen': the tool name 'prüfen' is not 1-64 ASCII letters")


LAMBDAS: list[tuple[str, Callable[[], object]]] = [
    ("Tool.create", lambda: Tool.create(lambda: "")),
    ("@tool", lambda: tool(lambda: "")),
]


@pytest.mark.parametrize("make", [m for _, m in LAMBDAS], ids=[i for i, _ in LAMBDAS])
def test_a_lambda_without_name_is_olt008(make: Callable[[], object]) -> None:
    codes, message = refusal(make)
    assert codes == ["OLT008"]
    assert message == (
        "Tool '<lambda>': a lambda has no usable tool name; pass name=... (1-64 letters, digits, '_' or '-')  [OLT008]"
    )


def test_a_lambda_with_name_is_a_tool() -> None:
    t = Tool.create(lambda: "done", name="finish")
    assert (t.name, t.description, t()) == ("finish", "", "done")
    assert tool(name="noop")(lambda: None).name == "noop"
