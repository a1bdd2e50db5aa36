"""Anthropic tools: ``name``, ``description``, ``input_schema``, and ``strict`` when strict.

Strict tool use compiles the schema into a grammar and reads a subset of JSON Schema (see
PROVIDERS.md). The conversion keeps optional parameters optional (no null is added), moves
the bounds strict mode refuses into the description, and writes ``dict[str, T]`` as a list
of ``{"key", "value"}`` entries, which ``tool.bind(..., provider="anthropic")`` reads back.
A JSON type has no strict form: such a tool is sent non-strict (its canonical schema,
which Anthropic takes whole), with a ``ProviderWarning``.

A request also has limits across its strict tools (20 tools, 24 optional parameters, 16
parameters with ``anyOf`` or a type array): ``check_anthropic_limits`` counts them over a
list, and ``anthropic_tools`` builds a whole list, sending the tools past the limits
non-strict, with a warning for each.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ._adapter import Adapter, Reply
from ._calls import anthropic_calls
from ._common import NotStrict, ToolDefinition, ToolLike, ToolsLike, offered, source_of, warn
from ._downconvert import Schema, is_nullable, kind_of, map_children, move, pairs_schema
from ._outputs import anthropic_result, anthropic_text_item

__all__ = [
    "ADAPTER",
    "anthropic_tool",
    "anthropic_tools",
    "anthropic_strict_schema",
    "check_anthropic_limits",
    "AnthropicLimits",
    "MAX_STRICT_TOOLS",
    "MAX_OPTIONAL_PARAMS",
    "MAX_UNION_PARAMS",
]

MAX_STRICT_TOOLS = 20
MAX_OPTIONAL_PARAMS = 24
MAX_UNION_PARAMS = 16

#: Refused outright in strict mode. ``contentEncoding`` is not in the supported list either.
REFUSED = ("minimum", "maximum", "minLength", "maxLength", "maxItems", "uniqueItems", "contentEncoding")
STRICT_FORMATS = frozenset(
    {"date-time", "time", "date", "duration", "email", "hostname", "uri", "ipv4", "ipv6", "uuid"}
)
#: A quantifier bound above this is "large" (PROVIDERS.md gives no number; this is ours).
MAX_QUANTIFIER = 100

_JSON_TYPES = {
    "any": "a JSON value (JsonValue)",
    "json_object": "a JSON object (JsonObject)",
    "json_array": "a JSON array (JsonArray)",
}
_COMPLEX_PATTERN = re.compile(r"\\[1-9]|\\k<|\(\?[=!<]|\\[bB]")
_QUANTIFIER = re.compile(r"(?<!\\)\{(\d+)(?:,(\d*))?\}")


def is_simple_pattern(p: str) -> bool:
    """No back-reference, lookaround, word boundary or large ``{n,m}``: what strict mode reads."""
    if _COMPLEX_PATTERN.search(p):
        return False
    for m in _QUANTIFIER.finditer(p):
        if any(g and int(g) > MAX_QUANTIFIER for g in m.groups()):
            return False
    return True


def _strict(node: Schema, path: str) -> Schema:
    kind = kind_of(node)
    if kind in _JSON_TYPES:
        raise NotStrict(f"parameter '{path}' is {_JSON_TYPES[kind]}, which strict mode cannot express")
    if kind == "map":
        value = _strict(node["additionalProperties"], f"{path}{{}}")
        return pairs_schema(value, is_nullable(node), node.get("description"))
    out = map_children(node, _strict, path)
    keys = [k for k in REFUSED if k in out]
    if out.get("minItems", 0) > 1:
        keys.append("minItems")
    if "pattern" in out and not is_simple_pattern(out["pattern"]):
        keys.append("pattern")
    if out.get("format") is not None and out["format"] not in STRICT_FORMATS:
        keys.append("format")
    return move(out, keys)


def anthropic_strict_schema(input_schema: Schema) -> Schema:
    """The strict-tool-use form of a canonical input schema; raises ``NotStrict`` when there is none."""
    out = _strict(input_schema, "")
    optional, unions = _counts(out)
    if optional > MAX_OPTIONAL_PARAMS:
        raise NotStrict(f"it has {optional} optional parameters (a request may have {MAX_OPTIONAL_PARAMS})")
    if unions > MAX_UNION_PARAMS:
        raise NotStrict(
            f"it has {unions} parameters with anyOf or a type array (a request may have {MAX_UNION_PARAMS})"
        )
    return out


def _counts(root: Schema) -> tuple[int, int]:
    """(optional properties, nodes with ``anyOf`` or a type array), at every depth."""
    optional = unions = 0

    def walk(node: Schema) -> None:
        nonlocal optional, unions
        if "anyOf" in node or isinstance(node.get("type"), list):
            unions += 1
        if "properties" in node:
            required = set(node.get("required", ()))
            optional += sum(1 for name in node["properties"] if name not in required)
            for sub in node["properties"].values():
                walk(sub)
        for key in ("items", "additionalProperties"):
            if isinstance(node.get(key), dict):
                walk(node[key])
        for branch in node.get("anyOf", ()):
            walk(branch)

    walk(root)
    return optional, unions


def _definition(name: str, description: str, schema: Schema, strict: bool, found: tuple[str, ...]) -> ToolDefinition:
    body: dict[str, Any] = {"name": name, "description": description, "input_schema": schema}
    if strict:
        body["strict"] = True
    return ToolDefinition(body, strict, found)


def _build(tool: ToolLike, strict: bool, stacklevel: int) -> ToolDefinition:
    src = source_of(tool)
    if strict:
        try:
            schema = anthropic_strict_schema(src.input_schema)
        except NotStrict as e:
            message = warn(f"Tool '{src.name}' is sent to Anthropic non-strict: {e}.", stacklevel=stacklevel + 1)
            return _definition(src.name, src.description, src.input_schema, False, (message,))
        return _definition(src.name, src.description, schema, True, ())
    return _definition(src.name, src.description, src.input_schema, False, ())


def anthropic_tool(tool: ToolLike, strict: bool = True) -> ToolDefinition:
    """The Anthropic tool definition of ``tool``; bind with ``tool.bind(arguments, provider="anthropic")``.

    This checks the tool on its own; for a request's limits across tools use
    ``anthropic_tools`` (or ``check_anthropic_limits``).
    """
    return _build(tool, strict, stacklevel=2)


@dataclass(frozen=True)
class AnthropicLimits:
    """Strict tools counted over one request, in order; ``non_strict`` are the tools that
    must go non-strict (in order, the first tools that would take a count past its limit)."""

    strict_tools: int
    optional_params: int
    union_params: int
    non_strict: tuple[str, ...]
    reasons: Mapping[str, str]

    @property
    def ok(self) -> bool:
        return not self.non_strict


def check_anthropic_limits(tools: ToolsLike) -> AnthropicLimits:
    """Count the strict tools of one request against Anthropic's limits.

    ``tools`` are a ``ToolSet``, ``Tool`` objects (converted as ``anthropic_tool`` would; two
    with one name raise OLT007) or Anthropic tool definitions (dicts with ``input_schema``,
    strict when ``"strict": true``). Tools are
    kept strict in order while the counts fit; a tool that would take the number of strict
    tools, optional parameters or union parameters past its limit is listed in ``non_strict``.
    """
    strict_tools = optional = unions = 0
    non_strict: list[str] = []
    reasons: dict[str, str] = {}
    for item in offered(tools):
        definition = _as_definition(item)
        if not definition.get("strict"):
            continue
        name = str(definition["name"])
        o, u = _counts(definition["input_schema"])
        why = None
        if strict_tools + 1 > MAX_STRICT_TOOLS:
            why = f"the request already has {MAX_STRICT_TOOLS} strict tools"
        elif optional + o > MAX_OPTIONAL_PARAMS:
            why = (
                f"its {_n(o, 'optional parameter')} would make {optional + o} across strict tools"
                f" (the limit is {MAX_OPTIONAL_PARAMS})"
            )
        elif unions + u > MAX_UNION_PARAMS:
            why = (
                f"its {_n(u, 'union parameter')} would make {unions + u} across strict tools"
                f" (the limit is {MAX_UNION_PARAMS})"
            )
        if why is not None:
            non_strict.append(name)
            reasons[name] = why
            continue
        strict_tools += 1
        optional += o
        unions += u
    return AnthropicLimits(strict_tools, optional, unions, tuple(non_strict), reasons)


def _n(n: int, what: str) -> str:
    return f"{n} {what}" if n == 1 else f"{n} {what}s"


def _as_definition(item: ToolLike) -> Mapping[str, Any]:
    if isinstance(item, Mapping) and "input_schema" in item and "qualname" not in item:
        return item
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return _build(item, True, stacklevel=2)


def anthropic_tools(tools: ToolsLike, strict: bool = True) -> list[ToolDefinition]:
    """The definitions for one request: each tool strict when it fits on its own and the
    request's limits allow, else non-strict with a ``ProviderWarning`` that says why.
    ``tools``: a ``ToolSet``, or a list of tools (two with one name raise OLT007) or entries."""
    items = offered(tools)
    built = [_build(t, strict, stacklevel=2) for t in items]
    if not strict:
        return built
    report = check_anthropic_limits(built)
    out: list[ToolDefinition] = []
    for t, d in zip(items, built, strict=True):
        name = str(d["name"])
        if name in report.reasons:
            message = warn(f"Tool '{name}' is sent to Anthropic non-strict: {report.reasons[name]}.", stacklevel=2)
            src = source_of(t)
            d = _definition(src.name, src.description, src.input_schema, False, (*d.warnings, message))
        out.append(d)
    return out


#: The registry's row for Anthropic: strict, with the request's limits applied across a list.
ADAPTER = Adapter(
    form=anthropic_tool,
    replies=(
        Reply(
            "anthropic",
            anthropic_calls,
            lambda id, name, _, result: anthropic_result(id, result, name),
            write_text=anthropic_text_item,
        ),
    ),
    definitions=anthropic_tools,
)
