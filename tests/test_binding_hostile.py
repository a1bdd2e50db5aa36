"""Hostile and malformed documents stay ``ArgumentError``s with short messages: never another
exception, never a hang. Expected texts are written from the contract ("malformed
JSON: ``Arguments are not valid JSON: ...``") and the binder's message table.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Callable

import pytest

from onellm_runtime import ArgumentError, Email, JsonValue, MaxLength, Pattern, Tool, Url, tool
from onellm_runtime.binding import compile_binder


def error_of(t: Tool[..., Any], arguments: object) -> ArgumentError:
    with pytest.raises(ArgumentError) as info:
        t.bind(arguments)  # type: ignore[arg-type]
    return info.value


@tool
def takes_json(x: JsonValue) -> str:
    return ""


@tool
def takes_text(x: str) -> str:
    return ""


@tool
def takes_int(x: int) -> str:
    return ""


@tool
def takes_float(x: float) -> str:
    return ""


@tool
def takes_map(x: dict[str, int]) -> str:
    return ""


@tool
def takes_list(x: list[int]) -> str:
    return ""


MALFORMED = [
    ("extra data", '{"x": 1} x', "Arguments are not valid JSON: Extra data: line 1 column 10 (char 9)."),
    ("empty", "", "Arguments are not valid JSON: Expecting value: line 1 column 1 (char 0)."),
    ("blank", "  \n", "Arguments are not valid JSON: Expecting value: line 2 column 1 (char 3)."),
    (
        "single quotes",
        "{'x': 1}",
        "Arguments are not valid JSON: Expecting property name enclosed in double quotes: line 1 column 2 (char 1).",
    ),
    (
        "raw control character",
        '{"x": "a\nb"}',
        "Arguments are not valid JSON: Invalid control character at: line 1 column 9 (char 8).",
    ),
    ("NaN", '{"x": NaN}', "Arguments are not valid JSON: NaN is not a JSON number (JSON has no NaN or Infinity)."),
    (
        "Infinity",
        '{"x": Infinity}',
        "Arguments are not valid JSON: Infinity is not a JSON number (JSON has no NaN or Infinity).",
    ),
    (
        "-Infinity",
        '{"x": [-Infinity]}',
        "Arguments are not valid JSON: -Infinity is not a JSON number (JSON has no NaN or Infinity).",
    ),
    ("unclosed", '{"x": [1, 2', "Arguments are not valid JSON: Expecting ',' delimiter: line 1 column 12 (char 11)."),
]


@pytest.mark.parametrize(("text", "message"), [c[1:] for c in MALFORMED], ids=[c[0] for c in MALFORMED])
def test_malformed_json(text: str, message: str) -> None:
    err = error_of(takes_json, text)
    assert str(err) == message
    assert err.path == ""
    assert err.errors == [("", message)]


def test_json_module_wording_is_kept() -> None:
    """The detail after the prefix is the json module's own (its wording changed in 3.13)."""
    try:
        json.loads('{"x": 1,}')
    except json.JSONDecodeError as e:
        detail = str(e)
    assert str(error_of(takes_json, '{"x": 1,}')) == f"Arguments are not valid JSON: {detail}."


def test_whitespace_around_the_document_is_fine() -> None:
    assert takes_int.bind(' \n\t{"x": 1}\r\n ') == {"x": 1}


def test_invalid_utf8_bytes() -> None:
    assert str(error_of(takes_text, b'{"x": "\xff"}')) == (
        "Arguments are not valid JSON: the bytes are not valid UTF-8 (byte 7 is 0xff)."
    )
    # a surrogate encoded in UTF-8 form is not UTF-8 either
    assert str(error_of(takes_text, b'{"x": "\xed\xa0\x80"}')) == (
        "Arguments are not valid JSON: the bytes are not valid UTF-8 (byte 7 is 0xed)."
    )
    assert takes_text.bind('{"x": "é"}'.encode()) == {"x": "é"}
    assert takes_text.bind(bytearray(b'{"x": "a"}')) == {"x": "a"}


# Bytes take the str path after UTF-8 decoding: every verdict is the same as for the text.
SAME_AS_TEXT = [
    (takes_int, '{"x": 5}'),
    (takes_int, '{"x": 5.0}'),
    (takes_int, '{"x": 1e400}'),
    (takes_int, '{"x": "5"}'),
    (takes_int, '{"x": 1, "x": 2}'),
    (takes_text, '{"x": "caf\u00e9 \u2603"}'),
    (takes_text, '{"x": "é ☃"}'),
    (takes_map, '{"x": {"a": 1, "b": "2"}}'),
    (takes_list, '{"x": [1, 2, 3]} '),
    (takes_list, ' {"x": [1]}'),
    (takes_json, '{"x": {"a": [1, 2.5, null]}}'),
    (takes_json, "[1]"),
    (takes_json, '{"x": 1'),
]


@pytest.mark.parametrize(("t", "text"), SAME_AS_TEXT)
def test_bytes_bind_as_their_text_does(t: Tool[..., Any], text: str) -> None:
    binder = compile_binder(t.model)

    def outcome(bind: Callable[[str | bytes], object], arguments: str | bytes) -> object:
        try:
            return bind(arguments)
        except ArgumentError as e:
            return ("error", str(e), e.path)

    for bind in (t.bind, binder.bind_call):  # the invoker binds through bind_call
        assert outcome(bind, text.encode()) == outcome(bind, text)


def test_byte_order_mark_is_not_json() -> None:
    assert str(error_of(takes_int, b'\xef\xbb\xbf{"x": 1}')) == (
        "Arguments are not valid JSON: Expecting value: line 1 column 1 (char 0)."
    )


def test_hundred_thousand_nested_arrays() -> None:
    deep = "[" * 100_000 + "]" * 100_000
    for t in (takes_json, takes_text, takes_list):
        assert str(error_of(t, '{"x": ' + deep + "}")) == (
            "Arguments are not valid JSON: the document is nested too deeply."
        )
    assert str(error_of(takes_json, deep)) == "Arguments are not valid JSON: the document is nested too deeply."


def test_hundred_thousand_nested_lists_in_a_mapping() -> None:
    value: list[Any] = []
    for _ in range(100_000):
        value = [value]
    assert str(error_of(takes_json, {"x": value})) == "Arguments are nested too deeply."
    assert str(error_of(takes_list, {"x": value})) == "Argument 'x[0]' must be an integer, got array."


def test_five_thousand_digit_integer() -> None:
    digits = "1" * 5000
    doc = '{"x": ' + digits + "}"
    assert str(error_of(takes_int, doc)) == "Argument 'x' has more than 4300 digits, more than an integer may have."
    assert str(error_of(takes_json, doc)) == "Argument 'x' has more than 4300 digits, more than an integer may have."
    assert str(error_of(takes_text, doc)) == "Argument 'x' must be a string, got an integer of 5000 digits."
    assert str(error_of(takes_float, doc)) == "Argument 'x' must be a finite number, got an integer of 5000 digits."
    # From a mapping too: json.loads could not have produced it (contract, "Errors become results").
    for t in (takes_int, takes_json):
        assert (
            str(error_of(t, {"x": 10**5000}))
            == "Argument 'x' has more than 4300 digits, more than an integer may have."
        )


def test_fifty_megabyte_string() -> None:
    big = "a" * (50 * 1024 * 1024)
    doc = json.dumps({"x": big})
    got = takes_text.bind(doc)
    assert got["x"] == big
    for t, message in [
        (takes_int, "Argument 'x' must be an integer, got string \"" + "a" * 40 + '...".'),
        (
            Tool.create(_limited, name="limited"),
            "Argument 'x' must be at most 10 characters long, got 52428800.",
        ),
        (
            Tool.create(_patterned, name="patterned"),
            "Argument 'x' must match the pattern ^[0-9]+$, got \"" + "a" * 40 + '...".',
        ),
        (
            Tool.create(_emailed, name="emailed"),
            "Argument 'x' must be an email address like name@example.com, got \"" + "a" * 40 + '...".',
        ),
        (
            Tool.create(_linked, name="linked"),
            "Argument 'x' must be an absolute URI with a scheme, like https://example.com/path, got \""
            + "a" * 40
            + '...".',
        ),
    ]:
        assert str(error_of(t, doc)) == message


def _limited(x: Annotated[str, MaxLength(10)]) -> str:
    return x


def _patterned(x: Annotated[str, Pattern("^[0-9]+$")]) -> str:
    return x


def _emailed(x: Annotated[str, Email()]) -> str:
    return x


def _linked(x: Annotated[str, Url()]) -> str:
    return x


def test_a_million_keys() -> None:
    members = ", ".join(f'"k{i}": {i}' for i in range(1_000_000))
    got = takes_map.bind('{"x": {' + members + "}}")
    assert len(got["x"]) == 1_000_000 and got["x"]["k999999"] == 999_999
    # a million unknown arguments: twenty reported, the rest counted
    err = error_of(takes_int, "{" + members + "}")
    assert len(err.errors) == 20
    assert err.errors[0] == ("k0", "Argument 'k0' is not a known property; known properties: x.")
    assert str(err).endswith("\n... and 999981 more.")  # 1,000,000 unknown + 'x' missing, 20 shown
    assert len(str(err)) < 2000


def test_a_million_keys_in_a_mapping() -> None:
    value = {f"k{i}": "v" for i in range(1_000_000)}
    err = error_of(takes_map, {"x": value})
    assert len(err.errors) == 20
    assert err.errors[0] == ("x.k0", "Argument 'x.k0' must be an integer, got string \"v\".")
    assert str(err).endswith("\n... and 999980 more.")


def test_a_long_key_is_quoted_short() -> None:
    key = "k" * 10_000
    err = error_of(takes_int, {"x": 1, key: 2})
    assert str(err) == "Argument '[\"" + "k" * 40 + "...\"]' is not a known property; known properties: x."


def test_a_deep_document_the_reader_accepts_binds_as_any_json() -> None:
    """The JSON-value walk takes one frame per level, as the reader does: 700 nested arrays
    (which json.loads reads) bind, rather than failing the walk for depth."""
    value: list[Any] = []
    for _ in range(700):
        value = [value]
    doc = '{"x": ' + "[" * 701 + "]" * 701 + "}"
    assert takes_json.bind(doc) == {"x": value}
    objects = '{"x": ' + '{"a": ' * 700 + "1" + "}" * 700 + "}"
    bound = takes_json.bind(objects)["x"]
    for _ in range(699):
        bound = bound["a"]
    assert bound == {"a": 1}
