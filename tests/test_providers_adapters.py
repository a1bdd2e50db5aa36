"""The adapters' output, spelled out by hand from CONTRACT.md and PROVIDERS.md.

Each expected string below was written from the rules (what each API refuses, the plain
words a moved keyword becomes), not pasted from a run.
"""

from __future__ import annotations

import json
import warnings
from typing import Optional

import provider_tools as T
import pytest

from onellm_runtime import JsonObject, Tool, tool
from onellm_runtime.providers import (
    ProviderError,
    ProviderWarning,
    anthropic_tool,
    anthropic_tools,
    check_anthropic_limits,
    gemini_tool,
    mcp_structured_content,
    mcp_tool,
    openai_tool,
    provider_definitions,
)

PAIRS = '"A dictionary, written as a list of {\\"key\\": ..., \\"value\\": ...} entries with unique keys."'


def pairs(value: str, nullable: bool = False, description: str = "") -> str:
    t = '["array", "null"]' if nullable else '"array"'
    desc = f'"{description} ' + PAIRS[1:] if description else PAIRS
    return (
        f'{{"type": {t}, "description": {desc}, "items": {{"type": "object", "properties": '
        f'{{"key": {{"type": "string"}}, "value": {value}}}, "required": ["key", "value"], '
        '"additionalProperties": false}}'
    )


def dumps(value: object) -> str:
    return json.dumps(value)


# -- search: a default, a range, a nullable set ---------------------------------------------

SEARCH_CANONICAL = (
    '{"type": "object", "properties": {"query": {"type": "string", "description": "Words to look for"}, '
    '"limit": {"type": "integer", "description": "How many results.", "minimum": 1, "maximum": 100, "default": 20}, '
    '"tags": {"type": ["array", "null"], "items": {"type": "string"}, "uniqueItems": true}}, '
    '"required": ["query"], "additionalProperties": false}'
)


def test_search_canonical_is_what_the_adapters_start_from() -> None:
    assert dumps(T.search.input_schema) == SEARCH_CANONICAL


def test_openai_responses_strict_makes_optionals_required_and_nullable() -> None:
    d = openai_tool(T.search)
    assert dumps(d) == (
        '{"type": "function", "name": "search", "description": "Search the catalogue.", "parameters": '
        '{"type": "object", "properties": {"query": {"type": "string", "description": "Words to look for"}, '
        '"limit": {"type": ["integer", "null"], "description": "How many results. Default: 20; null means the default.", '
        '"minimum": 1, "maximum": 100}, '
        '"tags": {"type": ["array", "null"], "description": "Items are unique.", "items": {"type": "string"}}}, '
        '"required": ["query", "limit", "tags"], "additionalProperties": false}, "strict": true}'
    )
    assert d.strict is True and d.warnings == ()


def test_anthropic_strict_keeps_optionals_and_says_the_range() -> None:
    assert dumps(anthropic_tool(T.search)) == (
        '{"name": "search", "description": "Search the catalogue.", "input_schema": '
        '{"type": "object", "properties": {"query": {"type": "string", "description": "Words to look for"}, '
        '"limit": {"type": "integer", "description": "How many results. Between 1 and 100.", "default": 20}, '
        '"tags": {"type": ["array", "null"], "description": "Items are unique.", "items": {"type": "string"}}}, '
        '"required": ["query"], "additionalProperties": false}, "strict": true}'
    )


def test_anthropic_non_strict_is_the_canonical_schema() -> None:
    d = anthropic_tool(T.search, strict=False)
    assert dumps(d) == (
        f'{{"name": "search", "description": "Search the catalogue.", "input_schema": {SEARCH_CANONICAL}}}'
    )
    assert d.strict is False


def test_gemini_json_schema_says_what_gemini_does_not_read() -> None:
    assert dumps(gemini_tool(T.search)) == (
        '{"name": "search", "description": "Search the catalogue.", "parametersJsonSchema": '
        '{"type": "object", "properties": {"query": {"type": "string", "description": "Words to look for"}, '
        '"limit": {"type": "integer", "description": "How many results. Default: 20.", "minimum": 1, "maximum": 100}, '
        '"tags": {"type": ["array", "null"], "description": "Items are unique.", "items": {"type": "string"}}}, '
        '"required": ["query"], "additionalProperties": false}}'
    )


def test_gemini_openapi_uses_nullable_and_upper_case_types() -> None:
    assert dumps(gemini_tool(T.search, form="openapi")) == (
        '{"name": "search", "description": "Search the catalogue.", "parameters": '
        '{"type": "OBJECT", "properties": {"query": {"type": "STRING", "description": "Words to look for"}, '
        '"limit": {"type": "INTEGER", "description": "How many results.", "minimum": 1, "maximum": 100, "default": 20}, '
        '"tags": {"type": "ARRAY", "description": "Items are unique.", "nullable": true, "items": {"type": "STRING"}}}, '
        '"required": ["query"]}}'
    )


def test_mcp_is_the_canonical_schema() -> None:
    assert dumps(mcp_tool(T.search)) == (
        f'{{"name": "search", "description": "Search the catalogue.", "inputSchema": {SEARCH_CANONICAL}}}'
    )


def test_adapters_never_touch_the_tools_cached_schema() -> None:
    for d in (openai_tool(T.search), anthropic_tool(T.search, strict=False), mcp_tool(T.search)):
        json.loads(json.dumps(d))
    mcp_tool(T.search)["inputSchema"]["properties"]["query"]["type"] = "integer"
    anthropic_tool(T.search, strict=False)["input_schema"]["required"].append("x")
    assert dumps(T.search.input_schema) == SEARCH_CANONICAL


# -- configure: a dictionary, bytes, a URI, an enum default ----------------------------------

CONFIGURE_PAIRS = pairs('{"type": "string"}')


def test_openai_chat_strict_reencodes_a_dictionary_as_entries() -> None:
    assert dumps(openai_tool(T.configure, api="chat")) == (
        '{"type": "function", "function": {"name": "configure", "description": "Configure the runner.", "parameters": '
        f'{{"type": "object", "properties": {{"env": {CONFIGURE_PAIRS}, '
        '"data": {"type": "string", "description": "Base64-encoded bytes."}, '
        '"home": {"type": "string", "description": "An absolute URI."}, '
        '"mode": {"type": ["string", "null"], "description": "Default: \\"FAST\\"; null means the default.", '
        '"enum": ["FAST", "SAFE", null]}}, '
        '"required": ["env", "data", "home", "mode"], "additionalProperties": false}, "strict": true}}'
    )


def test_anthropic_strict_reencodes_a_dictionary_and_keeps_uri_and_default() -> None:
    assert dumps(anthropic_tool(T.configure)) == (
        '{"name": "configure", "description": "Configure the runner.", "input_schema": '
        f'{{"type": "object", "properties": {{"env": {CONFIGURE_PAIRS}, '
        '"data": {"type": "string", "description": "Base64-encoded bytes."}, '
        '"home": {"type": "string", "format": "uri"}, '
        '"mode": {"type": "string", "enum": ["FAST", "SAFE"], "default": "FAST"}}, '
        '"required": ["env", "data", "home"], "additionalProperties": false}, "strict": true}'
    )


def test_gemini_json_schema_keeps_a_dictionary() -> None:
    assert dumps(gemini_tool(T.configure)) == (
        '{"name": "configure", "description": "Configure the runner.", "parametersJsonSchema": '
        '{"type": "object", "properties": {"env": {"type": "object", "additionalProperties": {"type": "string"}}, '
        '"data": {"type": "string", "description": "Base64-encoded bytes."}, '
        '"home": {"type": "string", "description": "An absolute URI."}, '
        '"mode": {"type": "string", "description": "Default: \\"FAST\\".", "enum": ["FAST", "SAFE"]}}, '
        '"required": ["env", "data", "home"], "additionalProperties": false}}'
    )


def test_gemini_openapi_reencodes_a_dictionary() -> None:
    assert dumps(gemini_tool(T.configure, form="openapi")) == (
        '{"name": "configure", "description": "Configure the runner.", "parameters": '
        '{"type": "OBJECT", "properties": {"env": {"type": "ARRAY", "description": ' + PAIRS + ', "items": '
        '{"type": "OBJECT", "properties": {"key": {"type": "STRING"}, "value": {"type": "STRING"}}, '
        '"required": ["key", "value"]}}, '
        '"data": {"type": "STRING", "description": "Base64-encoded bytes."}, '
        '"home": {"type": "STRING", "format": "uri"}, '
        '"mode": {"type": "STRING", "enum": ["FAST", "SAFE"], "default": "FAST"}}, '
        '"required": ["env", "data", "home"]}}'
    )


# -- edit: a discriminated union with a NotRequired field ------------------------------------

READ = (
    '{"type": "object", "properties": {"action": {"type": "string", "enum": ["read"]}, "path": {"type": "string"}}, '
    '"required": ["action", "path"], "additionalProperties": false}'
)


def test_openai_strict_union_branches_are_closed_and_fully_required() -> None:
    params = openai_tool(T.edit)["parameters"]
    assert dumps(params) == (
        f'{{"type": "object", "properties": {{"request": {{"anyOf": [{READ}, '
        '{"type": "object", "properties": {"action": {"type": "string", "enum": ["write"]}, "path": {"type": "string"}, '
        '"text": {"type": "string"}, "mode": {"type": ["string", "null"], "description": "Optional; null means not given.", '
        '"enum": ["FAST", "SAFE", null]}}, "required": ["action", "path", "text", "mode"], "additionalProperties": false}]}}, '
        '"required": ["request"], "additionalProperties": false}'
    )


def test_gemini_openapi_union_branches() -> None:
    assert dumps(gemini_tool(T.edit, form="openapi")["parameters"]) == (
        '{"type": "OBJECT", "properties": {"request": {"anyOf": ['
        '{"type": "OBJECT", "properties": {"action": {"type": "STRING", "enum": ["read"]}, "path": {"type": "STRING"}}, '
        '"required": ["action", "path"]}, '
        '{"type": "OBJECT", "properties": {"action": {"type": "STRING", "enum": ["write"]}, "path": {"type": "STRING"}, '
        '"text": {"type": "STRING"}, "mode": {"type": "STRING", "enum": ["FAST", "SAFE"]}}, '
        '"required": ["action", "path", "text"]}]}}, "required": ["request"]}'
    )


# -- levels: integer literals, lengths, item counts ------------------------------------------


def test_anthropic_strict_moves_lengths_and_min_items_above_one() -> None:
    assert dumps(anthropic_tool(T.levels)["input_schema"]) == (
        '{"type": "object", "properties": {"level": {"type": "integer", "enum": [1, 2]}, '
        '"code": {"type": "string", "description": "Between 2 and 8 characters."}, '
        '"few": {"type": "array", "description": "Between 2 and 5 items.", "items": {"type": "integer"}}, '
        '"flag": {"type": ["boolean", "null"], "enum": [true, null]}}, '
        '"required": ["level", "code", "few"], "additionalProperties": false}'
    )


def test_gemini_openapi_says_non_string_enums_in_words() -> None:
    assert dumps(gemini_tool(T.levels, form="openapi")["parameters"]) == (
        '{"type": "OBJECT", "properties": {"level": {"type": "INTEGER", "description": "One of: 1, 2."}, '
        '"code": {"type": "STRING", "minLength": 2, "maxLength": 8}, '
        '"few": {"type": "ARRAY", "items": {"type": "INTEGER"}, "minItems": 2, "maxItems": 5}, '
        '"flag": {"type": "BOOLEAN", "description": "Always true.", "nullable": true}}, '
        '"required": ["level", "code", "few"]}'
    )


def test_openai_strict_keeps_lengths_and_a_nullable_optional_without_a_note() -> None:
    assert dumps(openai_tool(T.levels)["parameters"]) == (
        '{"type": "object", "properties": {"level": {"type": "integer", "enum": [1, 2]}, '
        '"code": {"type": "string", "minLength": 2, "maxLength": 8}, '
        '"few": {"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 5}, '
        '"flag": {"type": ["boolean", "null"], "enum": [true, null]}}, '
        '"required": ["level", "code", "few", "flag"], "additionalProperties": false}'
    )


def test_gemini_json_schema_says_string_lengths() -> None:
    assert dumps(gemini_tool(T.levels)["parametersJsonSchema"]["properties"]["code"]) == (
        '{"type": "string", "description": "Between 2 and 8 characters."}'
    )


# -- a JSON value: no strict form ------------------------------------------------------------

RAW_CANONICAL = '{"type": "object", "properties": {"value": {}}, "required": ["value"], "additionalProperties": false}'


def test_openai_sends_a_json_value_non_strict_with_a_warning() -> None:
    with pytest.warns(ProviderWarning) as caught:
        d = openai_tool(T.raw)
    message = (
        "Tool 'raw' is sent to OpenAI non-strict: parameter 'value' is a JSON value (JsonValue), "
        "which strict mode cannot express."
    )
    assert [str(w.message) for w in caught] == [message]
    assert caught[0].filename == __file__  # the warning points at the caller
    assert d.warnings == (message,) and d.strict is False
    assert dumps(d) == (
        f'{{"type": "function", "name": "raw", "description": "Store any JSON.", "parameters": {RAW_CANONICAL}, '
        '"strict": false}'
    )


def test_openai_warning_is_kept_even_when_warnings_are_silenced() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        d = openai_tool(T.json_types)
    assert d.warnings == (
        "Tool 'json_types' is sent to OpenAI non-strict: parameter 'value' is a JSON value (JsonValue), "
        "which strict mode cannot express.",
    )


def test_openai_non_strict_gives_a_json_array_its_items() -> None:
    with pytest.warns(ProviderWarning):
        params = openai_tool(T.json_types)["parameters"]
    assert dumps(params["properties"]["arr"]) == '{"type": "array", "items": {}}'
    assert dumps(openai_tool(T.search, strict=False)["parameters"]) == SEARCH_CANONICAL


def test_anthropic_sends_a_json_value_non_strict_with_a_warning() -> None:
    with pytest.warns(
        ProviderWarning, match="^Tool 'raw' is sent to Anthropic non-strict: parameter 'value' is a JSON value"
    ):
        d = anthropic_tool(T.raw)
    assert dumps(d) == f'{{"name": "raw", "description": "Store any JSON.", "input_schema": {RAW_CANONICAL}}}'


def test_gemini_openapi_has_no_form_for_a_json_value() -> None:
    with pytest.raises(ProviderError) as e:
        gemini_tool(T.raw, form="openapi")
    assert str(e.value) == (
        "Tool 'raw': parameter 'value' is a JSON value (JsonValue), which Gemini's OpenAPI Schema form cannot "
        "express; use gemini_tool(..., form='json_schema')"
    )
    assert dumps(gemini_tool(T.raw)["parametersJsonSchema"]) == RAW_CANONICAL


def test_nested_paths_in_the_warning() -> None:
    @tool
    def nested(maybe: dict[str, list[JsonObject]]) -> None: ...

    with pytest.warns(ProviderWarning, match="parameter 'maybe\\{\\}\\[\\]' is a JSON object \\(JsonObject\\)"):
        openai_tool(nested)
    with pytest.raises(ProviderError, match="parameter 'maybe\\{\\}\\[\\]' is a JSON object"):
        gemini_tool(nested, form="openapi")


# -- no parameters, outputs ------------------------------------------------------------------


def test_no_parameters() -> None:
    empty = '{"type": "object", "properties": {}, "additionalProperties": false}'
    assert dumps(openai_tool(T.ping)) == (
        f'{{"type": "function", "name": "ping", "description": "Check the service.", "parameters": {empty}, "strict": true}}'
    )
    assert dumps(anthropic_tool(T.ping)) == (
        f'{{"name": "ping", "description": "Check the service.", "input_schema": {empty}, "strict": true}}'
    )
    assert dumps(gemini_tool(T.ping)) == '{"name": "ping", "description": "Check the service."}'
    assert dumps(gemini_tool(T.ping, form="openapi")) == '{"name": "ping", "description": "Check the service."}'
    assert dumps(mcp_tool(T.ping)) == f'{{"name": "ping", "description": "Check the service.", "inputSchema": {empty}}}'


ITEM = (
    '{"type": "object", "properties": {"sku": {"type": "string", "description": "Stock keeping unit", '
    '"pattern": "^[A-Z]{3}-\\\\d+$"}, "qty": {"type": "integer", "description": "How many.", "minimum": 1, '
    '"maximum": 99, "default": 1}}, "required": ["sku"], "additionalProperties": false}'
)


def test_mcp_wraps_an_output_schema_that_is_not_an_object() -> None:
    d = mcp_tool(T.totals)
    assert dumps(d["outputSchema"]) == (
        '{"type": "object", "properties": {"result": {"type": "array", "items": {"type": "integer"}}}, '
        '"required": ["result"], "additionalProperties": false}'
    )
    assert mcp_structured_content(T.totals, [1, 2]) == {"result": [1, 2]}


def test_mcp_keeps_an_object_output_schema() -> None:
    d = mcp_tool(T.first_item)
    assert dumps(d["outputSchema"]) == ITEM
    assert mcp_structured_content(T.first_item, {"sku": "ABC-1", "qty": 1}) == {"sku": "ABC-1", "qty": 1}


def test_mcp_wraps_a_nullable_record() -> None:
    assert mcp_tool(T.outputs_union)["outputSchema"]["properties"]["result"]["type"] == ["object", "null"]


def test_openai_strict_record_items_say_pattern_kept_and_default_in_words() -> None:
    assert dumps(openai_tool(T.totals)["parameters"]["properties"]["items"]["items"]) == (
        '{"type": "object", "properties": {"sku": {"type": "string", "description": "Stock keeping unit", '
        '"pattern": "^[A-Z]{3}-\\\\d+$"}, "qty": {"type": ["integer", "null"], "description": '
        '"How many. Default: 1; null means the default.", "minimum": 1, "maximum": 99}}, '
        '"required": ["sku", "qty"], "additionalProperties": false}'
    )


# -- markers: plain words ----------------------------------------------------------------------


def test_plain_words_for_every_marker_under_anthropic() -> None:
    props = anthropic_tool(T.markers)["input_schema"]["properties"]
    said = {name: p.get("description") for name, p in props.items()}
    assert said == {
        "described": "Said plainly.",
        "ranged": "Between 0.5 and 2.5.",
        "at_least": "At least 0.",
        "at_most": "At most 10.",
        "sized": "At most 64 characters.",
        "min_len": "At least 1 character.",
        "max_len": "At most 3 characters.",
        "exact": "Exactly 4 characters.",
        "min_items": None,
        "max_items": "At most 3 items.",
        "many": "At least 2 items.",
        "pattern": None,
        "complex_pattern": "Must match the regular expression /^(?=a)\\w{1,200}$/.",
        "email": None,
        "url": None,
        "optional_url": None,
        "unique_bounded": "At most 3 items. Items are unique.",
    }
    assert props["min_items"] == {"type": "array", "items": {"type": "integer"}, "minItems": 1}
    assert props["unique_bounded"]["minItems"] == 1


def test_plain_words_for_formats_under_gemini_json_schema() -> None:
    props = gemini_tool(T.scalars)["parametersJsonSchema"]["properties"]
    assert props["ident"] == {"type": "string", "description": "A UUID (8-4-4-4-12 hexadecimal digits)."}
    assert props["at"] == {"type": "string", "format": "date-time"}
    assert props["wait"] == {"type": "string", "description": "A duration, written [-][d.]hh:mm:ss[.ffffff]."}
    assert props["initial"] == {"type": "string", "description": "Exactly 1 character."}
    assert props["i8"] == {"type": "integer", "minimum": -128, "maximum": 127}
    email = gemini_tool(T.markers)["parametersJsonSchema"]["properties"]["email"]
    assert email == {"type": "string", "description": "An email address."}


def test_invocation_mode_default_under_openai_strict() -> None:
    props = openai_tool(T.background)["parameters"]["properties"]
    assert dumps(props["invocationMode"]) == (
        '{"type": ["string", "null"], "description": "Default: \\"wait\\"; null means the default.", '
        '"enum": ["wait", "background", null]}'
    )


# -- Anthropic's limits across a request -------------------------------------------------------


def _optional_tool(name: str, n: int) -> dict[str, object]:
    """An Anthropic strict definition with ``n`` optional integer parameters."""
    props = {f"p{i}": {"type": "integer"} for i in range(n)}
    schema = {"type": "object", "properties": props, "additionalProperties": False}
    return {"name": name, "description": "", "input_schema": schema, "strict": True}


def test_limits_count_optional_parameters_across_tools() -> None:
    report = check_anthropic_limits([_optional_tool("a", 10), _optional_tool("b", 10), _optional_tool("c", 10)])
    assert report.non_strict == ("c",)
    assert report.reasons["c"] == "its 10 optional parameters would make 30 across strict tools (the limit is 24)"
    assert (report.strict_tools, report.optional_params, report.union_params) == (2, 20, 0)
    assert not report.ok


def test_limits_count_twenty_strict_tools() -> None:
    report = check_anthropic_limits([_optional_tool(f"t{i}", 0) for i in range(21)])
    assert report.non_strict == ("t20",)
    assert report.reasons["t20"] == "the request already has 20 strict tools"


def _union_tool(name: str, n: int) -> dict[str, object]:
    """An Anthropic strict definition with ``n`` required parameters typed ``["integer", "null"]``."""
    props = {f"p{i}": {"type": ["integer", "null"]} for i in range(n)}
    schema = {"type": "object", "properties": props, "required": list(props), "additionalProperties": False}
    return {"name": name, "description": "", "input_schema": schema, "strict": True}


def test_limits_count_unions_type_arrays_included() -> None:
    report = check_anthropic_limits([_union_tool("a", 8), _union_tool("b", 8), _union_tool("c", 1)])
    assert report.union_params == 16
    assert report.non_strict == ("c",)
    assert report.reasons["c"] == "its 1 union parameter would make 17 across strict tools (the limit is 16)"


def test_limits_convert_tools_first() -> None:
    # search: limit and tags optional, tags ["array","null"]; levels: flag optional and ["boolean","null"].
    report = check_anthropic_limits([T.search, T.levels])
    assert (report.strict_tools, report.optional_params, report.union_params, report.ok) == (2, 3, 2, True)


def test_limits_ignore_non_strict_tools() -> None:
    loose = dict(_optional_tool("loose", 30), strict=False)
    assert check_anthropic_limits([loose, _optional_tool("a", 24)]).ok


def _entry(name: str, n: int) -> dict[str, object]:
    """A manifest entry (as ``onellm schemas`` prints) with ``n`` optional integer parameters."""
    d = _optional_tool(name, n)
    return {"module": "m", "qualname": name, "name": name, "description": "", "input_schema": d["input_schema"]}


def test_anthropic_tools_sends_the_tools_past_the_limits_non_strict() -> None:
    with pytest.warns(ProviderWarning) as caught:
        built = anthropic_tools([_entry("a", 20), _entry("b", 5), _entry("c", 4)])
    assert [d.strict for d in built] == [True, False, True]
    assert [str(w.message) for w in caught] == [
        "Tool 'b' is sent to Anthropic non-strict: its 5 optional parameters would make 25 across strict tools "
        "(the limit is 24)."
    ]
    assert built[1].warnings == (str(caught[0].message),)
    assert "strict" not in built[1] and built[2]["strict"] is True
    assert caught[0].filename == __file__


def test_anthropic_tool_alone_over_the_union_limit() -> None:
    def many(
        a: Optional[int],
        b: Optional[int],
        c: Optional[int],
        d: Optional[int],
        e: Optional[int],
        f: Optional[int],
        g: Optional[int],
        h: Optional[int],
        i: Optional[int],
        j: Optional[int],
        k: Optional[int],
        ell: Optional[int],
        m: Optional[int],
        n: Optional[int],
        o: Optional[int],
        p: Optional[int],
        q: Optional[int],
    ) -> None: ...

    with pytest.warns(ProviderWarning) as caught:
        d = anthropic_tool(Tool.create(many))
    assert str(caught[0].message) == (
        "Tool 'many' is sent to Anthropic non-strict: it has 17 parameters with anyOf or a type array "
        "(a request may have 16)."
    )
    assert d.strict is False


# -- names Gemini refuses, the manifest path ---------------------------------------------------


def test_gemini_refuses_names_it_cannot_take() -> None:
    @tool(name="1st")
    def first(x: int) -> None: ...

    with pytest.raises(ProviderError, match=r"^Tool '1st': Gemini function names start with a letter or '_'"):
        gemini_tool(first)
    entry = {
        "name": "ok",
        "description": "",
        "input_schema": {"type": "object", "properties": {"a-b": {"type": "integer"}}},
    }
    with pytest.raises(ProviderError, match=r"^Tool 'ok': parameter 'a-b' is not a Gemini parameter name"):
        gemini_tool(entry)


def test_manifest_entries_convert_like_tools() -> None:
    entry = {
        "module": "m",
        "qualname": "search",
        "name": "search",
        "description": "Search the catalogue.",
        "input_schema": T.search.input_schema,
        "output_schema": None,
    }
    for provider in ("openai", "anthropic", "gemini", "mcp"):
        assert provider_definitions(provider, [entry]) == provider_definitions(provider, [T.search])
    with pytest.raises(ValueError, match="provider must be one of openai, anthropic, gemini, mcp, not 'x'"):
        provider_definitions("x", [entry])


def test_bad_options() -> None:
    with pytest.raises(ValueError, match="api must be 'responses' or 'chat', not 'completions'"):
        openai_tool(T.search, api="completions")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="form must be 'json_schema' or 'openapi', not 'proto'"):
        gemini_tool(T.search, form="proto")  # type: ignore[arg-type]


# -- import weight -----------------------------------------------------------------------------


def test_providers_are_imported_only_when_used_and_import_no_sdk() -> None:
    import subprocess
    import sys

    code = (
        "import sys, onellm_runtime\n"
        "assert 'onellm_runtime.providers' not in sys.modules\n"
        "import onellm_runtime.providers\n"
        "sdks = [m for m in sys.modules if m.split('.')[0] in ('openai', 'anthropic', 'google', 'mcp', 'pydantic')]\n"
        "print(sdks)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout == "[]\n"
