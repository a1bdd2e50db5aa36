"""``schema_strategy.from_schema`` draws only valid values, and refuses what it cannot read.

For every tool in the corpus goldens (``test-data/golden/*.json``) and every schema a
provider is sent for it, drawn values must be accepted by two referees: the payload referee
of the generated differential (``gen.harness.Reference``: ``jsonschema`` Draft 2020-12 with
format checking, read with the contract's readings) and plain ``jsonschema`` Draft 2020-12
with its own format checker (all but ``time``, which is RFC 3339 ``full-time`` there, with an
offset the contract's ``datetime.time`` row never has). Gemini's OpenAPI form is judged as the
JSON Schema it means (``json_schema_of_openapi``, written here from the form's rules).
"""

from __future__ import annotations

import datetime as dt
import json
import re
import warnings
from pathlib import Path
from typing import Any

import jsonschema  # type: ignore[import-untyped]
import pytest
from gen.harness import Reference
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schema_strategy import UnsupportedSchema, bound_key, from_schema

from onellm_runtime.core.schema import TIMEDELTA_PATTERN
from onellm_runtime.providers import (
    ProviderError,
    anthropic_tool,
    gemini_tool,
    mcp_tool,
    openai_tool,
)

Schema = dict[str, Any]
GOLDEN = Path(__file__).resolve().parent.parent / "test-data" / "golden"
ENTRIES = [
    (f"{path.stem}:{e['qualname']}", e) for path in sorted(GOLDEN.glob("*.json")) for e in json.loads(path.read_text())
]


def json_schema_of_openapi(node: Schema) -> Schema:
    """Gemini's OpenAPI ``Schema`` read back as the JSON Schema it means (objects are closed)."""
    nullable = node.get("nullable", False)
    out: Schema = {}
    if "type" in node:
        t = node["type"].lower()
        out["type"] = [t, "null"] if nullable else t
    for k in ("format", "minimum", "maximum", "minLength", "maxLength", "pattern", "minItems", "maxItems", "required"):
        if k in node:
            out[k] = node[k]
    if "enum" in node:
        out["enum"] = [*node["enum"], None] if nullable else list(node["enum"])
    if "items" in node:
        out["items"] = json_schema_of_openapi(node["items"])
    if "properties" in node:
        out["properties"] = {k: json_schema_of_openapi(v) for k, v in node["properties"].items()}
        out["additionalProperties"] = False
    if "anyOf" in node:
        out["anyOf"] = [json_schema_of_openapi(b) for b in node["anyOf"]] + ([{"type": "null"}] if nullable else [])
    return out


def sent_schemas(entry: Schema) -> list[tuple[str, str, Schema, Schema]]:
    """(what, dialect, schema drawn from, JSON Schema judged by) for one manifest entry."""
    given = entry["input_schema"]
    out: list[tuple[str, str, Schema, Schema]] = [("canonical", "json_schema", given, given)]
    if entry.get("output_schema") is not None:
        returned, wrapped = entry["output_schema"], mcp_tool(entry)["outputSchema"]
        out += [("output", "json_schema", returned, returned), ("mcp output", "json_schema", wrapped, wrapped)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the ProviderWarning of a tool sent non-strict
        json_forms = [
            ("openai", openai_tool(entry)["parameters"]),
            ("openai non-strict", openai_tool(entry, strict=False)["parameters"]),
            ("anthropic", anthropic_tool(entry)["input_schema"]),
            ("gemini", gemini_tool(entry).get("parametersJsonSchema", entry["input_schema"])),
        ]
        try:
            openapi = gemini_tool(entry, form="openapi").get("parameters")
        except ProviderError:
            openapi = None
    out += [(what, "json_schema", s, s) for what, s in json_forms]
    if openapi is not None:
        out.append(("gemini openapi", "openapi", openapi, json_schema_of_openapi(openapi)))
    return out


_PLAIN_FORMATS = jsonschema.FormatChecker(
    {k: v for k, v in jsonschema.Draft202012Validator.FORMAT_CHECKER.checkers.items() if k != "time"}
)


@pytest.mark.parametrize("entry", [e for _, e in ENTRIES], ids=[i for i, _ in ENTRIES])
def test_drawn_values_validate_under_every_schema_sent_for_the_tool(entry: Schema) -> None:
    forms = sent_schemas(entry)
    referees = [
        (what, Reference(judge), jsonschema.Draft202012Validator(judge, format_checker=_PLAIN_FORMATS))
        for what, _, _, judge in forms
    ]
    # one form per example (a tuple of all would need every form's filters to pass at once)
    drawn = st.one_of([st.tuples(st.just(i), from_schema(s, dialect=d)) for i, (_, d, s, _) in enumerate(forms)])

    @settings(max_examples=15, deadline=None, database=None, derandomize=True, suppress_health_check=list(HealthCheck))
    @given(drawn)
    def check(pick: tuple[int, Any]) -> None:
        i, value = pick
        what, reference, plain = referees[i]
        assert reference.is_valid(value), (what, value)
        assert plain.is_valid(value), (what, value, [e.message for e in plain.iter_errors(value)])

    check()


@pytest.mark.parametrize(
    ("schema", "dialect", "message"),
    [
        (
            {"type": "string", "const": "a"},
            "json_schema",
            "at the root: keyword 'const' is not in the json_schema vocabulary onellm writes",
        ),
        (
            {"$ref": "#/$defs/a", "$defs": {"a": {}}},
            "json_schema",
            "at the root: keyword '$ref' is not in the json_schema vocabulary onellm writes",
        ),
        (
            {"type": "object", "properties": {"n": {"type": "array", "items": {"type": "integer", "multipleOf": 2}}}},
            "json_schema",
            "at 'n[]': keyword 'multipleOf' is not in the json_schema vocabulary onellm writes",
        ),
        (
            {"type": "string", "nullable": True},
            "json_schema",
            "at the root: keyword 'nullable' is not in the json_schema vocabulary onellm writes",
        ),
        ({"type": "STRING"}, "json_schema", "at the root: type 'STRING' is not a json_schema type"),
        ({"type": "string"}, "openapi", "at the root: type 'string' is not a openapi type"),
        (
            {"type": "ARRAY", "uniqueItems": True},
            "openapi",
            "at the root: keyword 'uniqueItems' is not in the openapi vocabulary onellm writes",
        ),
        (
            {"type": "OBJECT", "properties": {"m": {"type": "OBJECT", "additionalProperties": {"type": "STRING"}}}},
            "openapi",
            "at 'm': keyword 'additionalProperties' is not in the openapi vocabulary onellm writes",
        ),
        (
            {"type": "string", "format": "hostname"},
            "json_schema",
            "at the root: format 'hostname' is not one onellm writes (uuid, date-time, date, time, email, uri, ipv4, ipv6)",
        ),
        (
            {"type": "string", "contentEncoding": "base32"},
            "json_schema",
            "at the root: contentEncoding 'base32' is not one onellm writes (base64)",
        ),
        (
            {"type": "integer", "minLength": 1},
            "json_schema",
            "at the root: keyword 'minLength' on a node of type ['integer']",
        ),
        ({"type": "string", "enum": ["a"], "maxLength": 3}, "json_schema", "at the root: ['maxLength'] beside 'enum'"),
        ({"type": "object", "anyOf": [{"type": "null"}]}, "json_schema", "at the root: 'type' beside 'anyOf'"),
        (
            {"type": "object", "properties": {}, "required": ["x"]},
            "json_schema",
            "at the root: required ['x'] are not in properties",
        ),
        (True, "json_schema", "at the root: a schema is an object, not true"),
    ],
)
def test_what_onellm_never_writes_is_refused(schema: Any, dialect: str, message: str) -> None:
    with pytest.raises(UnsupportedSchema) as e:
        from_schema(schema, dialect=dialect)
    assert str(e.value) == message


def test_an_unknown_dialect_is_refused() -> None:
    with pytest.raises(ValueError) as e:
        from_schema({}, dialect="swagger")
    assert str(e.value) == "dialect must be one of ['json_schema', 'openapi'], not 'swagger'"


_SETTINGS = settings(
    max_examples=60, deadline=None, database=None, derandomize=True, suppress_health_check=list(HealthCheck)
)


@_SETTINGS
@given(from_schema({"type": "string", "pattern": r"^\d+$"}))
def test_a_pattern_matches_as_ecma_reads_it(s: str) -> None:
    assert re.fullmatch(r"[0-9]+", s), s  # no non-ASCII digit, no final newline before the end


@_SETTINGS
@given(from_schema({"type": "string", "pattern": TIMEDELTA_PATTERN}))
def test_the_timedelta_pattern_gives_durations_a_timedelta_holds(s: str) -> None:
    m = re.fullmatch(r"(-)?(?:(\d+)\.)?(\d{2}):(\d{2}):(\d{2})(?:\.\d{1,6})?", s)
    assert m is not None, s
    dt.timedelta(days=int(m[2] or 0), hours=int(m[3]), minutes=int(m[4]), seconds=int(m[5]))


@_SETTINGS
@given(
    from_schema({"type": ["number", "null"], "minimum": 4, "maximum": 3})
    | from_schema({"type": ["integer", "null"], "minimum": 3.5, "maximum": 3.7})
)
def test_an_empty_number_range_leaves_only_null(value: object) -> None:
    assert value is None  # Ge(4) with Le(3) is written as it is; only null fits


_RECORD = {
    "type": "object",
    "properties": {"a": {"type": "integer", "enum": [0], "default": 0}},
    "additionalProperties": False,
}


@_SETTINGS
@given(from_schema({"type": "array", "items": _RECORD, "uniqueItems": True}))
def test_unique_records_differ_after_defaults(items: list[dict[str, int]]) -> None:
    assert items in ([], [{}], [{"a": 0}]), items  # {} binds as {"a": 0}


_OPTIONAL = {"type": "object", "properties": {"a": {"type": ["integer", "null"]}}, "additionalProperties": False}
_UNION = {
    "anyOf": [
        {
            "type": "object",
            "properties": {"k": {"type": "string", "enum": ["x"]}, "n": {"type": "integer", "default": 1}},
            "required": ["k"],
        },
        {
            "type": "object",
            "properties": {"k": {"type": "string", "enum": ["y"]}, "n": {"type": "integer", "default": 2}},
            "required": ["k"],
        },
    ]
}


@pytest.mark.parametrize(
    ("node", "one", "other", "equal"),
    [
        ({"type": "number"}, 1, 1.0, True),
        ({"type": ["boolean", "integer"]}, True, 1, False),
        (
            {"type": "string", "format": "uuid"},
            "5F0C7A52-8A77-4D4F-9A8E-0C1F2B3D4E5F",
            "5f0c7a52-8a77-4d4f-9a8e-0c1f2b3d4e5f",
            True,
        ),
        ({"type": "string", "format": "date-time"}, "2000-01-01T00:00:00Z", "2000-01-01T01:00:00+01:00", True),
        ({"type": "string", "format": "date-time"}, "0001-01-01T00:00:00+01:00", "0001-01-01T00:00:00Z", False),
        ({"type": "string", "format": "date-time"}, "2000-01-01T00:00:00.5Z", "2000-01-01T00:00:00.500000Z", True),
        ({"type": "string", "format": "time"}, "12:00:00.5", "12:00:00.500000", True),
        ({"type": "string", "format": "ipv6"}, "::1", "0:0:0:0:0:0:0:1", True),
        ({"type": "string", "pattern": TIMEDELTA_PATTERN}, "1.00:00:00", "24:00:00", True),
        ({"type": "string", "pattern": TIMEDELTA_PATTERN}, "-00:00:00", "00:00:00", True),
        ({"type": "string", "pattern": TIMEDELTA_PATTERN}, "-01:00:00", "01:00:00", False),
        ({"type": "string", "contentEncoding": "base64"}, "AA==", "AA==", True),
        ({"type": "string"}, "a", "A", False),
        ({"type": "array", "items": {"type": "integer"}, "uniqueItems": True}, [1, 2], [2, 1], True),
        ({"type": "array", "items": {"type": "integer"}}, [1, 2], [2, 1], False),
        (_RECORD, {}, {"a": 0}, True),
        (_OPTIONAL, {}, {"a": None}, True),
        (_OPTIONAL, {}, {"a": 0}, False),
        (_UNION, {"k": "x"}, {"k": "x", "n": 1}, True),
        (_UNION, {"k": "y"}, {"k": "y", "n": 1}, False),
        (
            {"type": "object", "additionalProperties": {"type": "string", "format": "uuid"}},
            {"u": "A" * 8},
            {"u": "a" * 8},
            True,
        ),
    ],
)
def test_unique_items_compare_what_values_bind_to(node: Schema, one: Any, other: Any, equal: bool) -> None:
    assert (bound_key(one, node) == bound_key(other, node)) is equal


@_SETTINGS
@given(
    from_schema(
        {"type": "OBJECT", "nullable": True, "properties": {"k": {"type": "STRING", "enum": ["x"]}}}, dialect="openapi"
    )
)
def test_openapi_objects_are_closed_and_nullable(value: Any) -> None:
    assert value is None or value in ({}, {"k": "x"}), value
