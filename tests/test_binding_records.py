"""The binder on closed objects: parameters, records, discriminated unions (contract: Parameters,
Records, Unions, Decisions: Binding; HPD's strict-binding list), through both entrances.

Expected values and messages are written by hand from CONTRACT.md, the HPD seed and the
message table in ``onellm_runtime/binding/__init__.py``.
"""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass, field
from enum import Enum
from typing import Annotated, Any, Literal, NamedTuple, Optional, Union

import pytest
from typing_extensions import NotRequired, Required, TypedDict

from onellm_runtime import (
    ArgumentError,
    CancellationToken,
    Discriminator,
    JsonName,
    JsonValue,
    Range,
    Tool,
    ToolContext,
    tool,
)
from onellm_runtime.binding import MAX_REPORTED, compile_binder


def outcome(t: Tool[..., Any], arguments: object, provider: str | None = None) -> tuple[str, object]:
    try:
        return ("ok", t.bind(arguments, provider))  # type: ignore[arg-type]
    except ArgumentError as e:
        return ("error", str(e))


def both(t: Tool[..., Any], text: str, provider: str | None = None) -> tuple[str, object]:
    raw = outcome(t, text, provider)
    assert raw == outcome(t, json.loads(text), provider), "raw JSON and parsed mapping differ"
    return raw


def ok(t: Tool[..., Any], text: str, provider: str | None = None) -> dict[str, object]:
    kind, value = both(t, text, provider)
    assert kind == "ok", value
    assert isinstance(value, dict)
    return value


def error(t: Tool[..., Any], text: str, provider: str | None = None) -> str:
    kind, value = both(t, text, provider)
    assert kind == "error", value
    assert isinstance(value, str)
    return value


# --- parameters -------------------------------------------------------------------------


@tool
def search(query: str, limit: int = 20, case_sensitive: bool = False) -> str:
    return query


def test_parameters_bind_to_keyword_arguments() -> None:
    assert ok(search, '{"query": "TODO"}') == {"query": "TODO"}
    assert ok(search, '{"query": "TODO", "limit": 5, "case_sensitive": true}') == {
        "query": "TODO",
        "limit": 5,
        "case_sensitive": True,
    }


def test_unknown_argument() -> None:
    assert error(search, '{"query": "a", "page": 2}') == (
        "Argument 'page' is not a known property; known properties: query, limit, case_sensitive."
    )


def test_alternate_casing_is_unknown() -> None:
    assert error(search, '{"Query": "a"}') == (
        "Argument 'Query' is not a known property (did you mean 'query'?).\nArgument 'query' is required."
    )
    assert error(search, '{"query": "a", "caseSensitive": true}') == (
        "Argument 'caseSensitive' is not a known property (did you mean 'case_sensitive'?)."
    )


def test_missing_required_argument() -> None:
    assert error(search, "{}") == "Argument 'query' is required."


def test_odd_unknown_key_is_quoted() -> None:
    assert error(search, '{"query": "a", "a b": 1}') == (
        "Argument '[\"a b\"]' is not a known property; known properties: query, limit, case_sensitive."
    )


def test_a_tool_without_parameters() -> None:
    @tool
    def ping() -> str:
        return "pong"

    assert ok(ping, "{}") == {}
    assert error(ping, '{"x": 1}') == "Argument 'x' is not a known property; this takes no arguments."


def test_runtime_parameters_are_not_bound() -> None:
    @tool
    def inspect_path(path: str, ctx: ToolContext, token: CancellationToken) -> str:
        return path

    assert ok(inspect_path, '{"path": "src"}') == {"path": "src"}
    assert error(inspect_path, '{"path": "src", "ctx": {}}') == (
        "Argument 'ctx' is not a known property; known properties: path."
    )


def test_positional_only_and_keyword_only_parameters() -> None:
    @tool
    def mixed(a: int, /, b: int, *, c: int = 3) -> str:
        return ""

    assert ok(mixed, '{"a": 1, "b": 2}') == {"a": 1, "b": 2}
    assert mixed.call_with(ok(mixed, '{"a": 1, "b": 2, "c": 4}')) == ""


# --- records ----------------------------------------------------------------------------


@dataclass(frozen=True)
class DateRange:
    start: dt.date
    end: dt.date

    def __post_init__(self) -> None:
        if self.end < self.start:
            raise ValueError("end is before start")


@tool
def create_report(project: str, range: DateRange) -> str:
    return project


def test_record_is_built_through_its_constructor() -> None:
    got = ok(create_report, '{"project": "HPD Agent", "range": {"start": "2026-07-01", "end": "2026-07-31"}}')
    assert got == {"project": "HPD Agent", "range": DateRange(dt.date(2026, 7, 1), dt.date(2026, 7, 31))}
    assert type(got["range"]) is DateRange


def test_record_is_closed_and_checked_field_by_field() -> None:
    assert error(
        create_report, '{"project": "p", "range": {"start": "2026-07-01", "end": "2026-07-31", "days": 3}}'
    ) == ("Argument 'range.days' is not a known property; known properties: start, end.")
    assert error(create_report, '{"project": "p", "range": {"start": "2026-07-01"}}') == (
        "Argument 'range.end' is required."
    )
    assert error(create_report, '{"project": "p", "range": {"start": "2026-07-01", "end": 5}}') == (
        "Argument 'range.end' must be a string, got integer 5."
    )
    assert error(create_report, '{"project": "p", "range": "July"}') == (
        "Argument 'range' must be an object, got string \"July\"."
    )


@dataclass
class Strict:
    n: int

    def __post_init__(self) -> None:
        if self.n % 2:
            raise ValueError("n must be even.")


def test_constructor_refusal_becomes_an_argument_error() -> None:
    assert error(create_report, '{"project": "p", "range": {"start": "2026-07-31", "end": "2026-07-01"}}') == (
        "Argument 'range' is not valid: ValueError: end is before start"
    )

    @tool
    def f(s: list[Strict]) -> str:
        return ""

    assert error(f, '{"s": [{"n": 2}, {"n": 3}]}') == "Argument 's[1]' is not valid: ValueError: n must be even."


@dataclass(frozen=True)
class Replacement:
    old_text: str
    new_text: str


@tool(naming="camelCase")
def replace_many(path: str, replacements: list[Replacement], include_globs: Optional[list[str]] = None) -> str:
    return path


def test_camel_case_wire_names_and_paths() -> None:
    got = ok(replace_many, '{"path": "a.py", "replacements": [{"oldText": "a", "newText": "b"}]}')
    assert got == {"path": "a.py", "replacements": [Replacement("a", "b")]}
    # parameters are never renamed
    assert ok(replace_many, '{"path": "a", "replacements": [], "include_globs": ["*.py"]}')["include_globs"] == ["*.py"]
    doc = {
        "path": "a.py",
        "replacements": [
            {"oldText": "a", "newText": "b"},
            {"oldText": "c", "newText": "d"},
            {"oldText": "e", "newText": 7},
        ],
    }
    assert error(replace_many, json.dumps(doc)) == "Argument 'replacements[2].newText' must be a string, got integer 7."


def test_python_field_name_is_not_the_wire_name() -> None:
    assert error(replace_many, '{"path": "a", "replacements": [{"old_text": "a", "newText": "b"}]}') == (
        "Argument 'replacements[0].old_text' is not a known property (did you mean 'oldText'?).\n"
        "Argument 'replacements[0].oldText' is required."
    )


@dataclass
class Renamed:
    kind: Annotated[str, JsonName("type")]
    size_bytes: int = 0


def test_json_name_wins_over_naming() -> None:
    @tool(naming="camelCase")
    def f(item: Renamed) -> str:
        return ""

    assert ok(f, '{"item": {"type": "a", "sizeBytes": 3}}') == {"item": Renamed("a", 3)}
    assert error(f, '{"item": {"kind": "a"}}') == (
        "Argument 'item.kind' is not a known property; known properties: type, sizeBytes.\n"
        "Argument 'item.type' is required."
    )


@dataclass
class WithDefaults:
    name: str
    tags: list[str] = field(default_factory=lambda: ["default"])
    limit: int = 10
    note: Optional[str] = None


def test_omitted_fields_take_the_constructor_defaults() -> None:
    @tool
    def f(w: WithDefaults) -> str:
        return ""

    assert ok(f, '{"w": {"name": "n"}}') == {"w": WithDefaults("n", ["default"], 10, None)}
    assert ok(f, '{"w": {"name": "n", "limit": 2, "note": null}}') == {"w": WithDefaults("n", ["default"], 2, None)}


class Point(NamedTuple):
    x: int
    y: int = 0


def test_named_tuple() -> None:
    @tool
    def f(p: Point, ps: tuple[Point, ...] = ()) -> str:
        return ""

    got = ok(f, '{"p": {"x": 1}, "ps": [{"x": 2, "y": 3}]}')
    assert got == {"p": Point(1, 0), "ps": (Point(2, 3),)}
    assert type(got["p"]) is Point


class Movie(TypedDict, total=False):
    title: Required[str]
    year: int
    rating: NotRequired[float]


class Cast(TypedDict):
    movie: Movie
    lead_actor: str


def test_typed_dict_binds_to_a_plain_dict_with_python_keys() -> None:
    @tool(naming="camelCase")
    def f(c: Cast) -> str:
        return ""

    got = ok(f, '{"c": {"movie": {"title": "Up", "year": 2009}, "leadActor": "Ed"}}')
    assert got == {"c": {"movie": {"title": "Up", "year": 2009}, "lead_actor": "Ed"}}
    assert type(got["c"]) is dict
    assert error(f, '{"c": {"movie": {"year": 2009}, "leadActor": "Ed"}}') == "Argument 'c.movie.title' is required."


@dataclass(frozen=True)
class Tag:
    name: str
    weight: int = 1


def test_set_of_records_unique_after_binding() -> None:
    @tool
    def f(tags: set[Tag]) -> str:
        return ""

    assert ok(f, '{"tags": [{"name": "a"}, {"name": "a", "weight": 2}]}') == {"tags": {Tag("a"), Tag("a", 2)}}
    # different JSON, equal once bound (the default fills in): the second is the duplicate
    assert error(f, '{"tags": [{"name": "a"}, {"name": "b"}, {"name": "a", "weight": 1}]}') == (
        "Argument 'tags[2]' repeats tags[0]; the items must be unique."
    )


def test_dictionary_paths() -> None:
    @tool
    def run_job(name: str, environment: Optional[dict[str, str]] = None) -> str:
        return name

    assert ok(run_job, '{"name": "build", "environment": {"CONFIGURATION": "Release", "CI": "true"}}') == {
        "name": "build",
        "environment": {"CONFIGURATION": "Release", "CI": "true"},
    }
    assert error(run_job, '{"name": "build", "environment": {"CI": true, "a.b": null}}') == (
        "Argument 'environment.CI' must be a string, got boolean true.\n"
        "Argument 'environment[\"a.b\"]' must be a string, got null."
    )


# --- closed operation unions --------------------------------------------------------------


@dataclass
class StartJob:
    action: Literal["start"]
    command: str
    environment: Optional[dict[str, str]] = None


@dataclass
class ReadJob:
    action: Literal["read"]
    handle_id: str
    tail_lines: int = 200


@dataclass
class StopJob:
    action: Literal["stop"]
    handle_id: str


@tool(naming="camelCase")
def manage_job(request: Union[StartJob, ReadJob, StopJob]) -> str:
    return ""


def test_union_binds_the_branch_its_discriminator_names() -> None:
    assert ok(manage_job, '{"request": {"action": "read", "handleId": "job_123", "tailLines": 100}}') == {
        "request": ReadJob("read", "job_123", 100)
    }
    assert ok(manage_job, '{"request": {"action": "start", "command": "make"}}') == {
        "request": StartJob("start", "make")
    }


UNION_FAULTS = [
    (
        "missing",
        {"handleId": "j"},
        "Argument 'request.action' is required; it must be one of: start, read, stop.",
    ),
    ("non-string", {"action": 1}, "Argument 'request.action' must be one of: start, read, stop; got 1."),
    ("null", {"action": None}, "Argument 'request.action' must be one of: start, read, stop; got null."),
    ("blank", {"action": "  "}, "Argument 'request.action' must be one of: start, read, stop; got a blank string."),
    ("empty", {"action": ""}, "Argument 'request.action' must be one of: start, read, stop; got a blank string."),
    ("unknown", {"action": "delete"}, "Argument 'request.action' must be one of: start, read, stop; got \"delete\"."),
    (
        "wrong case",
        {"action": "Read", "handleId": "j"},
        'Argument \'request.action\' must be one of: start, read, stop; got "Read" (did you mean "read"?).',
    ),
    (
        "a field of another branch",
        {"action": "read", "handleId": "j", "command": "rm"},
        "Argument 'request.command' is not a field of 'read' (it belongs to 'start'); 'read' takes: action, handleId, tailLines.",
    ),
    (
        "a start request with handleId",
        {"action": "start", "command": "make", "handleId": "j"},
        "Argument 'request.handleId' is not a field of 'start' (it belongs to 'read', 'stop'); "
        "'start' takes: action, command, environment.",
    ),
    (
        "a field of no branch",
        {"action": "stop", "handleId": "j", "force": True},
        "Argument 'request.force' is not a field of 'stop'; 'stop' takes: action, handleId.",
    ),
    (
        "a branch's field with the wrong casing",
        {"action": "stop", "handleID": "j"},
        "Argument 'request.handleID' is not a field of 'stop' (did you mean 'handleId'?).\n"
        "Argument 'request.handleId' is required.",
    ),
    ("not an object", ["read"], "Argument 'request' must be an object, got array."),
]


@pytest.mark.parametrize(("request_value", "message"), [c[1:] for c in UNION_FAULTS], ids=[c[0] for c in UNION_FAULTS])
def test_union_faults(request_value: object, message: str) -> None:
    assert error(manage_job, json.dumps({"request": request_value})) == message


def test_duplicated_discriminator_in_raw_json() -> None:
    assert outcome(manage_job, '{"request": {"action": "read", "action": "stop", "handleId": "j"}}') == (
        "error",
        "Argument 'request.action' is given more than once.",
    )


@pytest.mark.parametrize(
    "member_order",
    [
        ["action", "handleId", "tailLines"],
        ["action", "handleId"],
        ["handleId", "action", "tailLines"],
        ["tailLines", "handleId", "action"],
    ],
)
def test_union_member_order_and_trailing_omissions_bind_alike(member_order: list[str]) -> None:
    full = {"action": "read", "handleId": "j", "tailLines": 5}
    item = {k: full[k] for k in member_order}
    assert ok(manage_job, json.dumps({"request": item})) == {
        "request": ReadJob("read", "j", item.get("tailLines", 200))
    }


def test_union_faults_after_the_tag_are_found_in_any_member_order() -> None:
    assert error(manage_job, '{"request": {"action": "read", "handleId": 7}}') == (
        "Argument 'request.handleId' must be a string, got integer 7."
    )
    assert error(manage_job, '{"request": {"action": "read", "handleId": "j", "tailLines": null}}') == (
        "Argument 'request.tailLines' must be an integer, got null; leave it out to use the default."
    )
    assert ok(manage_job, '{"request": {"action": "read", "handleId": "j", "tailLines": null}}', provider="openai") == {
        "request": ReadJob("read", "j")
    }
    assert outcome(manage_job, '{"request": {"action": "stop", "handleId": "j", "action": "read"}}') == (
        "error",
        "Argument 'request.action' is given more than once.",
    )
    assert error(manage_job, '{"request": {"action": "stop", "handleId": "j", "tailLines": 1}}') == (
        "Argument 'request.tailLines' is not a field of 'stop' (it belongs to 'read'); 'stop' takes: action, handleId."
    )


@dataclass
class Series:
    name: str
    values: list[int]


def test_a_record_s_long_list_field_is_checked_item_by_item_on_a_fault() -> None:
    @tool
    def plot(series: list[Series]) -> str:
        return ""

    values = list(range(30))
    assert ok(plot, json.dumps({"series": [{"name": "a", "values": values}]})) == {"series": [Series("a", values)]}
    assert ok(plot, json.dumps({"series": [{"values": [*values, 3.0], "name": "a"}]})) == {
        "series": [Series("a", [*values, 3])]
    }
    assert error(plot, json.dumps({"series": [{"name": "a", "values": [*values, False]}]})) == (
        "Argument 'series[0].values[30]' must be an integer, got boolean false."
    )


@dataclass
class Cat:
    kind: Literal["cat"]
    meows: bool


@dataclass
class Dog:
    kind: Literal["dog"]
    barks: bool
    name: Literal["rex"] = "rex"


def test_explicit_discriminator_and_nullable_union() -> None:
    @tool
    def pet(p: Annotated[Optional[Union[Cat, Dog]], Discriminator("kind")]) -> str:
        return ""

    assert ok(pet, '{"p": null}') == {"p": None}
    assert ok(pet, '{"p": {"kind": "dog", "barks": true}}') == {"p": Dog("dog", True)}
    assert error(pet, '{"p": {"kind": "cow"}}') == "Argument 'p.kind' must be one of: cat, dog; got \"cow\"."
    assert error(pet, '{"p": 3}') == "Argument 'p' must be an object or null, got integer 3."


# --- duplicate keys (raw JSON only: a mapping cannot hold them) ----------------------------


def test_duplicate_keys_at_any_depth() -> None:
    assert outcome(search, '{"query": "a", "query": "b"}') == ("error", "Argument 'query' is given more than once.")
    assert outcome(
        create_report, '{"project": "p", "range": {"start": "2026-07-01", "end": "2026-07-02", "end": "2026-07-03"}}'
    ) == (
        "error",
        "Argument 'range.end' is given more than once.",
    )


def test_duplicate_keys_in_dictionaries_and_json_values() -> None:
    @tool
    def f(env: dict[str, str], data: JsonValue = None) -> str:
        return ""

    assert outcome(f, '{"env": {"A": "1", "A": "2"}}') == ("error", "Argument 'env.A' is given more than once.")
    assert outcome(f, '{"env": {}, "data": [{"k": 1, "k": 2}]}') == (
        "error",
        "Argument 'data[0].k' is given more than once.",
    )


# --- several faults at once -----------------------------------------------------------------


def test_all_faults_of_one_call_are_reported_together() -> None:
    @tool
    def order(items: list[dict[str, int]], note: str, priority: Annotated[int, Range(1, 3)] = 1) -> str:
        return ""

    doc = '{"items": [{"qty": 1}, {"qty": "2"}, {"qty": 2.5}], "priority": 9, "extra": true}'
    with pytest.raises(ArgumentError) as info:
        order.bind(doc)
    err = info.value
    assert err.errors == [
        ("extra", "Argument 'extra' is not a known property; known properties: items, note, priority."),
        ("items[1].qty", "Argument 'items[1].qty' must be an integer, got string \"2\"."),
        ("items[2].qty", "Argument 'items[2].qty' must be an integer, got 2.5."),
        ("note", "Argument 'note' is required."),
        ("priority", "Argument 'priority' must be between 1 and 3, got 9."),
    ]
    assert err.path == "extra"
    assert str(err) == "\n".join(message for _, message in err.errors)


def test_reports_are_capped() -> None:
    @tool
    def f(xs: list[int]) -> str:
        return ""

    with pytest.raises(ArgumentError) as info:
        f.bind(json.dumps({"xs": ["a"] * 50}))
    err = info.value
    assert len(err.errors) == MAX_REPORTED == 20
    assert err.errors[19] == ("xs[19]", "Argument 'xs[19]' must be an integer, got string \"a\".")
    assert str(err).endswith("Argument 'xs[19]' must be an integer, got string \"a\".\n... and 30 more.")


# --- provider="openai" ----------------------------------------------------------------------


@dataclass
class Filter:
    field_name: str
    limit: int = 5
    label: Optional[str] = "x"


@tool
def lookup(name: str, page: int = 1, team: Optional[str] = "core", f: Optional[Filter] = None) -> str:
    return name


def test_openai_null_means_omitted_for_optional_non_nullable() -> None:
    assert ok(lookup, '{"name": "a", "page": null}', provider="openai") == {"name": "a"}
    assert ok(lookup, '{"name": "a", "team": null}', provider="openai") == {"name": "a", "team": None}
    assert ok(lookup, '{"name": "a", "f": {"field_name": "n", "limit": null, "label": null}}', provider="openai") == {
        "name": "a",
        "f": Filter("n", 5, None),
    }
    # required stays required, and without the provider null is still refused
    assert error(lookup, '{"name": null}', provider="openai") == "Argument 'name' must be a string, got null."
    assert error(lookup, '{"name": "a", "page": null}') == (
        "Argument 'page' must be an integer, got null; leave it out to use the default."
    )


# --- invocation mode --------------------------------------------------------------------------


def test_invocation_mode_is_a_control_not_an_argument() -> None:
    @tool(invocation_mode="model_choice")
    def build_index(path: str) -> str:
        return path

    binder = compile_binder(build_index.model)
    assert binder.bind_call('{"path": "src", "invocationMode": "background"}') == ({"path": "src"}, "background")
    assert binder.bind_call({"path": "src"}) == ({"path": "src"}, "wait")
    assert ok(build_index, '{"path": "src", "invocationMode": "wait"}') == {"path": "src"}
    assert error(build_index, '{"path": "src", "invocationMode": "later"}') == (
        "Argument 'invocationMode' must be one of: wait, background; got \"later\"."
    )

    @tool
    def waits(path: str) -> str:
        return path

    assert error(waits, '{"path": "src", "invocationMode": "wait"}') == (
        "Argument 'invocationMode' is not a known property; known properties: path."
    )


# --- bound tools ------------------------------------------------------------------------------


class Tickets:
    @tool
    def close(self, ticket_id: int, reason: str = "done") -> str:
        return f"{ticket_id}:{reason}"


def test_bound_method_tools_bind_without_self() -> None:
    t = Tickets().close
    assert ok(t, '{"ticket_id": 3}') == {"ticket_id": 3}
    assert error(t, '{"self": 1, "ticket_id": 3}') == (
        "Argument 'self' is not a known property; known properties: ticket_id, reason."
    )


def test_the_binder_is_compiled_once_per_model() -> None:
    assert compile_binder(search.model) is compile_binder(search.model)


# --- member order never matters -----------------------------------------------------------------


@dataclass
class Line:
    sku: str
    quantity: Annotated[int, Range(1, 9)]
    gift: bool = False
    note: Optional[str] = None


@tool
def order_lines(lines: list[Line], express: bool = False, memo: Optional[str] = None) -> str:
    return ""


@pytest.mark.parametrize(
    "member_order",
    [
        ["sku", "quantity", "gift", "note"],
        ["sku", "quantity", "gift"],
        ["sku", "quantity"],
        ["quantity", "sku", "gift"],
        ["note", "gift", "quantity", "sku"],
    ],
)
def test_member_order_and_trailing_omissions_bind_alike(member_order: list[str]) -> None:
    full = {"sku": "A-1", "quantity": 2, "gift": True, "note": None}
    item = {k: full[k] for k in member_order}
    expected = Line("A-1", 2, bool(item.get("gift", False)), None)
    for top in (
        {"lines": [item]},
        {"express": True, "lines": [item]},
        {"lines": [item], "express": False, "memo": "m"},
    ):
        got = ok(order_lines, json.dumps(top))
        assert got["lines"] == [expected]
        assert got == {**top, "lines": [expected]}


def test_faults_in_ordered_members_are_still_found() -> None:
    assert error(order_lines, '{"lines": [{"sku": "A", "quantity": 10}]}') == (
        "Argument 'lines[0].quantity' must be between 1 and 9, got 10."
    )
    assert error(order_lines, '{"lines": [{"sku": "A", "quantity": 1, "gift": null}]}') == (
        "Argument 'lines[0].gift' must be a boolean, got null; leave it out to use the default."
    )
    assert ok(order_lines, '{"lines": [{"sku": "A", "quantity": 1, "gift": null}]}', provider="openai") == {
        "lines": [Line("A", 1)]
    }
    assert outcome(order_lines, '{"lines": [{"sku": "A", "sku": "B", "quantity": 1}]}') == (
        "error",
        "Argument 'lines[0].sku' is given more than once.",
    )
    assert error(order_lines, '{"lines": [7, null]}') == (
        "Argument 'lines[0]' must be an object, got integer 7.\nArgument 'lines[1]' must be an object, got null."
    )


class Shade(Enum):
    RED = "RED"
    BLUE = "BLUE"


@dataclass
class Row:
    name: str
    label: str = "-"
    count: Annotated[int, Range(0, 9)] = 0
    ratio: float = 0.5
    flag: bool = False
    shade: Shade = Shade.RED
    kind: Literal["a", "b"] = "a"
    tags: list[str] = field(default_factory=list)


@tool
def tabulate(rows: list[Row], first: Row) -> str:
    return ""


_FULL_ROW = {
    "name": "n",
    "label": "L",
    "count": 3,
    "ratio": 1.5,
    "flag": True,
    "shade": "BLUE",
    "kind": "b",
    "tags": ["t"],
}


@pytest.mark.parametrize(
    ("member", "expected", "default"),
    [
        ("label", "must be a string", "-"),
        ("count", "must be an integer", 0),
        ("ratio", "must be a number", 0.5),
        ("flag", "must be a boolean", False),
        ("shade", "must be one of: RED, BLUE;", Shade.RED),
        ("kind", "must be one of: a, b;", "a"),
        ("tags", "must be an array", []),
    ],
)
def test_null_for_an_optional_member_written_inline(member: str, expected: str, default: object) -> None:
    """Null in each member a record's generated code checks inline: refused with its path, or
    (provider="openai") the default, in an array of records and in one record."""
    row = {**_FULL_ROW, member: None}
    text = json.dumps({"rows": [row, row], "first": row})
    got = "null; leave it out to use the default."
    assert error(tabulate, text).splitlines() == [
        f"Argument '{where}.{member}' {expected}{'' if expected.endswith(';') else ','} got {got}"
        for where in ("rows[0]", "rows[1]", "first")
    ]
    bound = ok(tabulate, text, provider="openai")
    values = {**_FULL_ROW, "shade": Shade.BLUE, member: default}
    expected_row = Row(**values)  # type: ignore[arg-type]
    assert bound == {"rows": [expected_row, expected_row], "first": expected_row}
