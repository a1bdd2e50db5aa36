"""Round trip: what a model may send under a converted schema binds, with the matching
``provider=``, to the same call as its canonical form (PROVIDERS.md, rule 5).

For every tool (``test-data/valid_*.py`` and the provider tests' own set) and every converted
schema, ``schema_strategy.from_schema`` generates values from the *converted* schema (Gemini's
OpenAPI form read as that dialect). A reference written here from the schemas alone
(``canonical_form``, independent of the package's decoder) rewrites each value into the
canonical form: entries lists back into objects, and (OpenAI) a null for an optional,
non-nullable property dropped. Then ``tool.bind(value, provider=p)`` and
``tool.bind(canonical)`` must agree: the same keyword arguments, or both an ``ArgumentError``.

Principled exceptions, none of which is skipped: a constraint the provider cannot read (a
range under Anthropic strict, ``uniqueItems`` under OpenAI, a pattern under Gemini's JSON
Schema form...) is only in the description, so generated values may break it; both sides then
refuse, which still counts as agreeing. Two entries with one key have no canonical form: the
binder must refuse them. Examples are few per tool (bounded, so the suite stays fast).
"""

from __future__ import annotations

import json
import warnings
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from provider_corpus import IDS, TOOLS
from schema_strategy import from_schema

from onellm_runtime import ArgumentError, Tool
from onellm_runtime.providers import ProviderError, anthropic_tool, gemini_tool, openai_tool

Schema = dict[str, Any]


class _NoCanonicalForm(Exception):
    """Two entries with the same key: the dictionary they stand for does not exist."""


def _types(node: Schema) -> list[str]:
    t = node.get("type")
    return [] if t is None else (t if isinstance(t, list) else [t])


def _branch(node: Schema, value: dict[str, Any]) -> Schema | None:
    """The ``anyOf`` branch whose single-value enum property matches ``value`` (the discriminator)."""
    for branch in node["anyOf"]:
        for name, prop in branch.get("properties", {}).items():
            if len(prop.get("enum", ())) == 1 and value.get(name) == prop["enum"][0]:
                return branch
    return None


def canonical_form(value: Any, node: Schema, openai: bool) -> Any:
    """``value`` (valid for the converted schema) written for the canonical schema ``node``."""
    if value is None:
        return None
    if "anyOf" in node:
        branch = _branch(node, value) if isinstance(value, dict) else None
        return value if branch is None else canonical_form(value, branch, openai)
    types = _types(node)
    if "object" in types and isinstance(node.get("additionalProperties"), dict):
        inner = node["additionalProperties"]
        if isinstance(value, list):
            out: dict[str, Any] = {}
            for entry in value:
                if entry["key"] in out:
                    raise _NoCanonicalForm
                out[entry["key"]] = canonical_form(entry["value"], inner, openai)
            return out
        return {k: canonical_form(v, inner, openai) for k, v in value.items()}
    if "properties" in node and isinstance(value, dict):
        required = set(node.get("required", ()))
        out = {}
        for k, v in value.items():
            prop = node["properties"].get(k)
            if prop is None:
                out[k] = v
                continue
            nullable = "null" in _types(prop) or {"type": "null"} in prop.get("anyOf", [])
            if openai and v is None and k not in required and not nullable:
                continue  # OpenAI strict: null for an optional, non-nullable property is "not given"
            out[k] = canonical_form(v, prop, openai)
        return out
    if "array" in types and isinstance(node.get("items"), dict) and isinstance(value, list):
        return [canonical_form(v, node["items"], openai) for v in value]
    return value


def _bind(t: Tool[..., Any], arguments: Any, provider: str | None) -> Any:
    try:
        return ("bound", t.bind(arguments, provider=provider))
    except ArgumentError:
        return ("refused",)


def _converted(t: Tool[..., Any]) -> list[tuple[str, str, Schema]]:
    """(provider, dialect, schema the model sees) for every adapter that changes what may be sent."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out = [
            ("openai", "json_schema", openai_tool(t)["parameters"]),
            ("anthropic", "json_schema", anthropic_tool(t)["input_schema"]),
            ("gemini", "json_schema", gemini_tool(t).get("parametersJsonSchema", t.input_schema)),
        ]
        try:
            params = gemini_tool(t, form="openapi").get("parameters")
        except ProviderError:
            params = None
        if params is not None:
            out.append(("gemini", "openapi", params))
    return out


def _strategy(t: Tool[..., Any]) -> st.SearchStrategy[tuple[str, Any]]:
    return st.one_of(
        [from_schema(schema, dialect=d).map(lambda v, p=provider: (p, v)) for provider, d, schema in _converted(t)]
    )


@pytest.mark.parametrize("t", TOOLS, ids=IDS)
def test_values_from_the_converted_schema_bind_as_their_canonical_form(t: Tool[..., Any]) -> None:
    canonical = t.input_schema

    @settings(max_examples=12, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
    @given(_strategy(t))
    def check(sent: tuple[str, Any]) -> None:
        provider, value = sent
        got = _bind(t, json.dumps(value), provider)
        assert _bind(t, value, provider) == got  # the parsed-mapping path agrees with the raw one
        try:
            expected = _bind(t, json.dumps(canonical_form(value, canonical, provider == "openai")), None)
        except _NoCanonicalForm:
            expected = ("refused",)
        assert got == expected, (provider, value)

    check()


def test_the_reference_reads_entries_and_openai_nulls() -> None:
    import provider_tools as T

    schema = T.place_order.input_schema
    sent = {
        "customer": "x",
        "lines": [{"sku": "A", "qty": None}],
        "notes": [{"key": "a", "value": "b"}],
        "gift": None,
        "coupons": None,
    }
    assert canonical_form(sent, schema, openai=True) == {
        "customer": "x",
        "lines": [{"sku": "A"}],
        "notes": {"a": "b"},
        "coupons": None,
    }
    with pytest.raises(_NoCanonicalForm):
        canonical_form({"notes": [{"key": "a", "value": "1"}, {"key": "a", "value": "2"}]}, schema, openai=False)


def test_the_documented_openai_call() -> None:
    """docs/providers.md says what this call binds to."""
    import uuid

    import provider_tools as T

    sent = {
        "customer": "5f0c7a52-8a77-4d4f-9a8e-0c1f2b3d4e5f",
        "lines": [{"sku": "ABC-1", "qty": None}],
        "notes": [{"key": "door", "value": "blue"}],
        "gift": None,
        "coupons": None,
    }
    assert T.place_order.bind(json.dumps(sent), provider="openai") == {
        "customer": uuid.UUID("5f0c7a52-8a77-4d4f-9a8e-0c1f2b3d4e5f"),
        "lines": [T.Line("ABC-1")],
        "notes": {"door": "blue"},
        "coupons": None,
    }
    with pytest.raises(ArgumentError) as e:
        T.place_order.bind(
            json.dumps({**sent, "notes": [{"key": "a", "value": "1"}, {"key": "a", "value": "2"}]}), provider="openai"
        )
    assert e.value.path == "notes[1].key"
    assert str(e.value) == "Argument 'notes[1].key' repeats the key \"a\" already given at notes[0]."
