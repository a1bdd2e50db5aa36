"""The providers' own SDKs as referee, and a rule checker per provider, over every tool.

Every tool of ``test-data/valid_*.py`` and of the provider tests' own set is converted by
every adapter; the result must validate against the SDK's request type (pydantic) and
pass the rules written from PROVIDERS.md (``provider_rules``). No network is used.
"""

from __future__ import annotations

import warnings
from typing import Any

import provider_rules as rules
import pydantic
import pytest
from anthropic.types import ToolParam
from google.genai import types as genai
from mcp import types as mcp
from openai.types.chat import ChatCompletionFunctionToolParam
from openai.types.responses import FunctionToolParam
from provider_corpus import IDS, TOOLS
from pydantic import TypeAdapter

from onellm_runtime import Tool
from onellm_runtime.providers import ProviderError, anthropic_tool, gemini_tool, mcp_tool, openai_tool

RESPONSES = TypeAdapter(FunctionToolParam)
CHAT = TypeAdapter(ChatCompletionFunctionToolParam)
ANTHROPIC = TypeAdapter(ToolParam)

pytestmark = pytest.mark.filterwarnings("ignore::onellm_runtime.providers.ProviderWarning")


#: JSON types have no strict form anywhere, and no Gemini Schema form: the tools holding one.
def _has_json_type(schema: Any) -> bool:
    if isinstance(schema, dict):
        if not schema.get("type") and "anyOf" not in schema:
            return True
        t = schema.get("type")
        types = t if isinstance(t, list) else [t]
        if (
            "object" in types
            and "properties" not in schema
            and not isinstance(schema.get("additionalProperties"), dict)
        ):
            return True
        if "array" in types and "items" not in schema:
            return True
        subs = list(schema.get("properties", {}).values()) + list(schema.get("anyOf", []))
        subs += [schema[k] for k in ("items", "additionalProperties") if isinstance(schema.get(k), dict)]
        return any(_has_json_type(s) for s in subs)
    return False


def test_the_corpus_is_read() -> None:
    assert any(i.startswith("valid_") for i in IDS), "test-data/valid_*.py tools are missing"
    assert len(TOOLS) > 100


@pytest.mark.parametrize("t", TOOLS, ids=IDS)
def test_openai(t: Tool[..., Any]) -> None:
    d = openai_tool(t)
    RESPONSES.validate_python(d)
    chat = openai_tool(t, api="chat")
    CHAT.validate_python(chat)
    assert chat["function"] == {k: v for k, v in d.items() if k != "type"}
    if _has_json_type(t.input_schema):
        assert d["strict"] is False and d.warnings
        assert rules.openai_loose(d["parameters"]) == []
    else:
        assert d["strict"] is True and d.warnings == ()
        assert rules.openai_strict(d["parameters"]) == []
    assert rules.openai_loose(openai_tool(t, strict=False)["parameters"]) == []


@pytest.mark.parametrize("t", TOOLS, ids=IDS)
def test_anthropic(t: Tool[..., Any]) -> None:
    d = anthropic_tool(t)
    ANTHROPIC.validate_python(d)
    if _has_json_type(t.input_schema):
        assert "strict" not in d and d.warnings
        assert d["input_schema"] == t.input_schema
    else:
        assert d["strict"] is True
        assert rules.anthropic_strict(d["input_schema"]) == []
    assert rules.object_root(d["input_schema"]) == []
    ANTHROPIC.validate_python(anthropic_tool(t, strict=False))


@pytest.mark.parametrize("t", TOOLS, ids=IDS)
def test_gemini_json_schema(t: Tool[..., Any]) -> None:
    d = gemini_tool(t)
    declared = genai.FunctionDeclaration.model_validate(d)
    assert declared.name == t.name
    if t.input_schema["properties"]:
        assert rules.gemini_json_schema(d["parametersJsonSchema"]) == []
    else:
        assert "parametersJsonSchema" not in d


@pytest.mark.parametrize("t", TOOLS, ids=IDS)
def test_gemini_openapi(t: Tool[..., Any]) -> None:
    if _has_json_type(t.input_schema):
        with pytest.raises(ProviderError, match="which Gemini's OpenAPI Schema form cannot express"):
            gemini_tool(t, form="openapi")
        return
    d = gemini_tool(t, form="openapi")
    genai.FunctionDeclaration.model_validate(d)
    if "parameters" in d:
        genai.Schema.model_validate(d["parameters"])  # unknown fields are refused (extra="forbid")
        assert rules.gemini_openapi(d["parameters"]) == []
    else:
        assert t.input_schema["properties"] == {}


@pytest.mark.parametrize("t", TOOLS, ids=IDS)
def test_mcp(t: Tool[..., Any]) -> None:
    d = mcp_tool(t)
    tool = mcp.Tool.model_validate(d)
    assert tool.input_schema == t.input_schema
    assert rules.object_root(d["inputSchema"]) == []
    if t.output_schema is None:
        assert "outputSchema" not in d
    else:
        assert rules.object_root(d["outputSchema"]) == []
        if t.output_schema.get("type") != "object":
            assert d["outputSchema"]["properties"]["result"] == t.output_schema


def test_rule_checkers_catch_what_they_look_for() -> None:
    """The checkers are not vacuous: each flags the schema an adapter must never send."""
    bad = {"type": "object", "properties": {"a": {"type": "array", "items": {}, "uniqueItems": True}}}
    assert rules.openai_strict(bad) == [
        "$: an object needs additionalProperties false",
        "$: every property must be required",
        "$.properties.a: uniqueItems is refused",
        "$.properties.a.items: no type (any JSON) cannot be strict",
    ]
    assert rules.anthropic_strict({"type": "string", "maxLength": 3}) == ["$: maxLength is refused"]
    assert rules.gemini_openapi({"type": "string", "enum": [1]}) == [
        "$: type 'string' is not one Schema type",
        "$: enum values must be strings",
    ]
    assert rules.gemini_json_schema({"type": "string", "format": "uuid", "default": "x"}) == [
        "$: default is not read",
        "$: format uuid is not read",
    ]
    with pytest.raises(pydantic.ValidationError):
        genai.Schema.model_validate({"type": "STRING", "uniqueItems": True})
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        openai_tool(TOOLS[0], strict=False)
