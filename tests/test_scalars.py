"""The scalar table (``onellm_runtime/core/scalars.py``), row by row, through every consumer.

``TABLE`` holds one line per ``ScalarKind``, written by hand from CONTRACT.md's Types table and
the binder's message table: the annotation, the fragment, a value with its JSON form, the
name messages use, and a wrong value with the binder's message. The first test makes a kind
without a line here fail, and every other test walks all kinds through one consumer (front
end, schema writer, binder, result writer, diagnostics, provider adapters), so a consumer that
lacks a row fails here rather than with a ``KeyError`` at bind time.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import importlib
import importlib.util
import ipaddress
import json
import uuid
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from schema_support import fragment, tool_with

from onellm_runtime import ArgumentError, Char, JsonPart, TextPart, Tool, ToolInvoker
from onellm_runtime.core import scalars
from onellm_runtime.core.diagnostics import type_name
from onellm_runtime.core.model import Scalar
from onellm_runtime.core.scalars import BY_FORM, BY_FULLNAME, BY_TYPE, EXPECT, ScalarKind
from onellm_runtime.core.schema import KEYWORD_ORDER
from onellm_runtime.providers import anthropic_tool, gemini_tool, mcp_tool, openai_tool

K = ScalarKind
UTC = dt.timezone.utc

# kind, annotation, fragment, a value, its JSON form, its name in messages, a wrong value, the binder's message for it
TABLE: list[tuple[ScalarKind, object, str, object, str, str, str, str]] = [
    (K.BOOL, bool, '{"type": "boolean"}', True, "true", "bool", '"yes"', 'must be a boolean, got string "yes".'),
    (K.INT, int, '{"type": "integer"}', 7, "7", "int", '"5"', 'must be an integer, got string "5".'),
    (K.FLOAT, float, '{"type": "number"}', 2.5, "2.5", "float", "true", "must be a number, got boolean true."),
    (K.DECIMAL, Decimal, '{"type": "number"}', Decimal("1.25"), "1.25", "Decimal", '"1"', 'must be a number, got string "1".'),
    (K.STR, str, '{"type": "string"}', "text", '"text"', "str", "5", "must be a string, got integer 5."),
    (K.CHAR, Char, '{"type": "string", "minLength": 1, "maxLength": 1}', "x", '"x"', "char", '"ab"',
     "must be exactly 1 character long, got 2."),
    (K.UUID, uuid.UUID, '{"type": "string", "format": "uuid"}', uuid.UUID(int=1),
     '"00000000-0000-0000-0000-000000000001"', "UUID", '"x"', 'must be a UUID in the 8-4-4-4-12 hex form, got "x".'),
    (K.DATETIME, dt.datetime, '{"type": "string", "format": "date-time"}', dt.datetime(2026, 7, 1, 12, 30, tzinfo=UTC),
     '"2026-07-01T12:30:00+00:00"', "datetime", '"2026-07-01"',
     'must be an RFC 3339 date-time with an offset, like 2026-07-01T12:30:00Z, got "2026-07-01".'),
    (K.DATE, dt.date, '{"type": "string", "format": "date"}', dt.date(2026, 7, 1), '"2026-07-01"', "date", '"July 1"',
     'must be a date YYYY-MM-DD, got "July 1".'),
    (K.TIME, dt.time, '{"type": "string", "format": "time"}', dt.time(12, 30, 0, 500000), '"12:30:00.500000"', "time",
     '"25:00:00"', 'must be a time HH:MM:SS with an optional fraction of 1-6 digits, got "25:00:00".'),
    (K.TIMEDELTA, dt.timedelta, '{"type": "string", "pattern": "^-?(\\\\d+\\\\.)?\\\\d{2}:\\\\d{2}:\\\\d{2}(\\\\.\\\\d{1,6})?$"}',
     dt.timedelta(days=1, hours=2, minutes=30), '"1.02:30:00"', "timedelta", '"1"',
     'must be a duration [-][d.]hh:mm:ss[.ffffff], like 1.02:30:00, got "1".'),
    (K.BYTES, bytes, '{"type": "string", "contentEncoding": "base64"}', b"onellm", '"b25lbGxt"', "bytes", '"a"',
     'must be standard base64 with padding, got "a".'),
    (K.IPV4, ipaddress.IPv4Address, '{"type": "string", "format": "ipv4"}', ipaddress.IPv4Address("192.0.2.1"),
     '"192.0.2.1"', "IPv4Address", '"192.0.2.01"',
     'must be an IPv4 address of four decimal octets without leading zeros, like 192.0.2.1, got "192.0.2.01".'),
    (K.IPV6, ipaddress.IPv6Address, '{"type": "string", "format": "ipv6"}', ipaddress.IPv6Address("2001:db8::1"),
     '"2001:db8::1"', "IPv6Address", '"fe80::1%eth0"',
     'must be an IPv6 address in an RFC 4291 text form without a zone index, like 2001:db8::1, got "fe80::1%eth0".'),
]  # fmt: skip

IDS = [row[0].value for row in TABLE]
#: The Python types whose values are JSON values already: the binder has a check of its own for each.
NATIVE = (bool, int, float, Decimal, str)


def test_the_table_has_one_line_per_kind() -> None:
    assert [row[0] for row in TABLE] == list(ScalarKind)


@pytest.mark.parametrize("kind", list(ScalarKind), ids=[k.value for k in ScalarKind])
def test_every_row_is_complete(kind: ScalarKind) -> None:
    row = kind.row
    assert row.key == kind.value
    assert list(row.fragment) == sorted(row.fragment, key=KEYWORD_ORDER.index)
    assert row.json_type in EXPECT
    assert row.label and row.writes and callable(row.write)
    if row.read is None:  # read by the binder's own check for its Python type
        assert row.python in NATIVE and row.hint is None and row.note is None
    else:  # a string form: read, said when it is wrong, said in words when an adapter drops its keyword
        assert row.json_type == "string" and row.hint and row.note
        assert row.form is not None and BY_FORM[row.form] is row
    if row.spelled:
        assert BY_TYPE[row.python] is kind
        own = row.full_names[0]
        module, _, name = own.rpartition(".")
        assert getattr(importlib.import_module(module), name) is row.python
        assert all(BY_FULLNAME[n] is kind for n in row.full_names)
    else:
        assert row.full_names == () and kind not in BY_FULLNAME.values()


def test_the_corpus_module_has_a_parameter_of_every_kind() -> None:
    """``valid_types_scalars.scalars`` is what static and runtime are compared over: every row is in it."""
    path = Path(__file__).resolve().parent.parent / "test-data" / "valid_types_scalars.py"
    spec = importlib.util.spec_from_file_location("valid_types_scalars", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    model = module.scalars.model
    assert sorted({p.type.kind for p in model.params if isinstance(p.type, Scalar)}) == sorted(ScalarKind)


Row = tuple[ScalarKind, object, str, object, str, str, str, str]


@pytest.mark.parametrize("line", TABLE, ids=IDS)
def test_fragment(line: Row) -> None:
    kind, annotation, frag = line[0], line[1], line[2]
    assert fragment(annotation) == frag == json.dumps(kind.row.fragment)


@pytest.mark.parametrize("line", TABLE, ids=IDS)
def test_write_then_bind_gives_the_value_back(line: Row) -> None:
    kind, annotation, value, form = line[0], line[1], line[3], line[4]
    written = json.dumps(kind.row.write(value))
    assert written == form
    t = tool_with(annotation)
    for arguments in (f'{{"x": {written}}}', {"x": json.loads(written)}):
        bound = t.bind(arguments)["x"]
        assert bound == value and type(bound) is kind.row.python


@pytest.mark.parametrize("line", TABLE, ids=IDS)
def test_a_returned_value_is_written_by_its_row(line: Row) -> None:
    kind, annotation, value, form = line[0], line[1], line[3], line[4]

    def f():  # type: ignore[no-untyped-def]
        return value

    f.__annotations__ = {"return": annotation}
    result = asyncio.run(ToolInvoker().invoke(Tool.create(f, name="f"), "{}"))
    if kind.row.python is str:  # a string result is text
        assert result.parts == [TextPart(json.loads(form))]
    else:
        assert result.parts == [JsonPart(json.loads(form))] and result.text == form


@pytest.mark.parametrize("line", TABLE, ids=IDS)
def test_a_wrong_value_is_refused_with_the_rows_words(line: Row) -> None:
    annotation, wrong, message = line[1], line[6], line[7]
    with pytest.raises(ArgumentError) as err:
        tool_with(annotation).bind(f'{{"x": {wrong}}}')
    assert str(err.value) == f"Argument 'x' {message}"


@pytest.mark.parametrize("line", TABLE, ids=IDS)
def test_messages_name_the_type_by_its_row(line: Row) -> None:
    assert type_name(Scalar(line[0])) == line[5] == line[0].row.label


def _schemas(t: Tool[..., Any]) -> dict[str, dict[str, Any]]:
    """The property ``x`` as each adapter writes it."""
    return {
        "openai responses": openai_tool(t)["parameters"]["properties"]["x"],
        "openai chat": openai_tool(t, api="chat")["function"]["parameters"]["properties"]["x"],
        "anthropic strict": anthropic_tool(t)["input_schema"]["properties"]["x"],
        "gemini json_schema": gemini_tool(t)["parametersJsonSchema"]["properties"]["x"],
        "gemini openapi": gemini_tool(t, form="openapi")["parameters"]["properties"]["x"],
        "mcp": mcp_tool(t)["inputSchema"]["properties"]["x"],
    }


FORM_ROWS = [line for line in TABLE if line[0].row.form is not None]


@pytest.mark.parametrize("line", FORM_ROWS, ids=[line[0].value for line in FORM_ROWS])
def test_each_adapter_keeps_a_form_or_says_the_rows_note(line: Row) -> None:
    kind, annotation = line[0], line[1]
    row = kind.row
    assert row.form is not None
    key, value = row.form
    for adapter, prop in _schemas(tool_with(annotation)).items():
        if key in prop:
            assert prop[key] == value, adapter
        else:
            assert prop.get("description") == row.note, adapter


def test_the_lookups_cover_the_rows_and_nothing_else() -> None:
    assert set(BY_TYPE.values()) == {k for k in ScalarKind if k.row.spelled}
    assert set(BY_FULLNAME.values()) == set(BY_TYPE.values())
    assert sorted(BY_FORM.values(), key=id) == sorted((k.row for k in ScalarKind if k.row.read is not None), key=id)
    assert scalars.TIMEDELTA_PATTERN == K.TIMEDELTA.row.fragment["pattern"]


IP_ADAPTERS = [
    (ipaddress.IPv4Address, '{"type": "string", "format": "ipv4"}',
     '{"type": "string", "description": "An IPv4 address, four decimal octets like 192.0.2.1."}'),
    (ipaddress.IPv6Address, '{"type": "string", "format": "ipv6"}',
     '{"type": "string", "description": "An IPv6 address in an RFC 4291 text form like 2001:db8::1."}'),
]  # fmt: skip


@pytest.mark.parametrize(("annotation", "kept", "said"), IP_ADAPTERS, ids=["ipv4", "ipv6"])
def test_ip_address_formats_are_kept_by_openai_and_anthropic_and_said_for_gemini(
    annotation: object, kept: str, said: str
) -> None:
    written = {adapter: json.dumps(prop) for adapter, prop in _schemas(tool_with(annotation)).items()}
    assert written == {
        "openai responses": kept,
        "openai chat": kept,
        "anthropic strict": kept,
        "gemini json_schema": said,
        "gemini openapi": kept.replace('"string"', '"STRING"'),  # the Schema object's upper-case types
        "mcp": kept,
    }
