"""pydantic ``BaseModel`` records and ``Field(...)`` defaults, rows of the contract's paragraph.

One module of tools (``SOURCE``) is imported for the runtime and read by mypy for the static
side; every schema row is checked on both, as ``json.dumps`` bytes. Binding rows give the
arguments and the exact result text (validators' errors at their paths); results rows the
JSON a model return is written as; then ``@tool`` methods on a ``BaseModel`` subclass, the
refusals (OLT005 naming the feature, on both sides), and that ``import onellm_runtime`` never
imports pydantic.
"""

from __future__ import annotations

import asyncio
import importlib
import json
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from onellm_runtime import ArgumentError, Tool, ToolDefinitionError, ToolInvoker, tools_of

SOURCE = '''
import datetime
import uuid
from typing import Literal, Optional

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from onellm_runtime import tool


class Base(BaseModel):
    """Paging.

    Attributes:
        page: Page number.
        size: Rows per page (the Field's description wins).
    """

    page: int = Field(1, ge=1)
    size: int = Field(default=20, le=100, description="How many rows")


class Query(Base):
    """Attributes:
    customer_id: The customer.
    """

    customer_id: str = Field(alias="customerId", min_length=1)
    states: list[Literal["open", "closed"]] = Field(default_factory=list)
    since: Optional[datetime.date] = None


class Line(BaseModel):
    sku: str = Field(pattern=r"^[A-Z]+$")
    qty: int

    @field_validator("qty")
    @classmethod
    def positive(cls, value: int) -> int:
        if value <= 0:
            raise ValueError("qty must be positive")
        return value


class Order(BaseModel):
    model_config = ConfigDict(extra="allow", str_strip_whitespace=True)

    order_id: str = Field(alias="orderId")
    lines: list[Line] = Field(min_length=1)
    note: str = ""

    @model_validator(mode="after")
    def distinct(self) -> "Order":
        if len({line.sku for line in self.lines}) != len(self.lines):
            raise ValueError("each sku may appear once")
        return self


class Upload(BaseModel):
    name: str

    @model_validator(mode="before")
    @classmethod
    def refuse(cls, data: object) -> object:
        if isinstance(data, dict) and data.get("name") == "boom":
            raise KeyError("boom")
        return data


class Leg(BaseModel):
    start_date: datetime.date
    hotel_name: str = Field(alias="hotel")


class Trip(BaseModel):
    trip_id: uuid.UUID
    legs: list[Leg]
    when: datetime.datetime


@tool
def list_orders(query: Query) -> str:
    return f"{query.customer_id} {query.page} {query.size} {query.states} {query.since}"


@tool
def place(order: Order) -> str:
    return f"{order.order_id}: {[(l.sku, l.qty) for l in order.lines]} {order.note!r}"


@tool
def upload(file: Upload) -> str:
    return file.name


@tool(naming="camelCase")
def plan(trip: Trip, party_size: int = Field(2, ge=1)) -> Trip:
    return trip


@tool
def trips() -> list[Trip]:
    leg = Leg(start_date=datetime.date(2026, 12, 1), hotel="Bristol")
    when = datetime.datetime(2026, 12, 1, 9, 30, tzinfo=datetime.timezone.utc)
    return [Trip(trip_id=uuid.UUID(int=7), legs=[leg], when=when)]


@tool
def remember(
    fact: str = Field(description="What to remember"),
    tags: list[str] = Field(default_factory=list, description="Labels"),
    weight: float = Field(default=1.5),
) -> str:
    tags.append("seen")
    return f"{fact} {tags} {weight}"


class WeatherPlugin(BaseModel):
    unit: str = "celsius"

    @tool
    def get_temperature(self, city: str) -> str:
        """The temperature in a city."""
        return f"{city}: 20 {self.unit}"
'''


@pytest.fixture(scope="module")
def module(tmp_path_factory: pytest.TempPathFactory) -> Any:
    root = tmp_path_factory.mktemp("basemodel")
    (root / "bm_tools.py").write_text(SOURCE)
    sys.path.insert(0, str(root))
    try:
        yield importlib.import_module("bm_tools")
    finally:
        sys.path.remove(str(root))
        sys.modules.pop("bm_tools", None)


@pytest.fixture(scope="module")
def static(module: Any) -> dict[str, Any]:
    from onellm_mypy.extract import extract

    result = extract([module.__file__])
    assert result.diagnostics == []
    return {t.qualname: t for t in result.tools}


def _tool(module: Any, qualname: str) -> Tool[..., Any]:
    found: Any = module
    for part in qualname.split("."):
        found = getattr(found, part)
    assert isinstance(found, Tool)
    return found


SCHEMAS = [
    (
        "list_orders",
        '{"type": "object", "properties": {"query": {"type": "object", "properties": {'
        '"page": {"type": "integer", "description": "Page number.", "minimum": 1, "default": 1}, '
        '"size": {"type": "integer", "description": "How many rows", "maximum": 100, "default": 20}, '
        '"customerId": {"type": "string", "description": "The customer.", "minLength": 1}, '
        '"states": {"type": "array", "items": {"type": "string", "enum": ["open", "closed"]}}, '
        '"since": {"type": ["string", "null"], "format": "date"}}, '
        '"required": ["customerId"], "additionalProperties": false}}, '
        '"required": ["query"], "additionalProperties": false}',
    ),
    (
        "place",
        '{"type": "object", "properties": {"order": {"type": "object", "properties": {'
        '"orderId": {"type": "string"}, '
        '"lines": {"type": "array", "items": {"type": "object", "properties": {'
        '"sku": {"type": "string", "pattern": "^[A-Z]+$"}, "qty": {"type": "integer"}}, '
        '"required": ["sku", "qty"], "additionalProperties": false}, "minItems": 1}, '
        '"note": {"type": "string", "default": ""}}, '
        '"required": ["orderId", "lines"], "additionalProperties": false}}, '
        '"required": ["order"], "additionalProperties": false}',
    ),
    (
        "plan",
        '{"type": "object", "properties": {"trip": {"type": "object", "properties": {'
        '"tripId": {"type": "string", "format": "uuid"}, '
        '"legs": {"type": "array", "items": {"type": "object", "properties": {'
        '"startDate": {"type": "string", "format": "date"}, "hotel": {"type": "string"}}, '
        '"required": ["startDate", "hotel"], "additionalProperties": false}}, '
        '"when": {"type": "string", "format": "date-time"}}, '
        '"required": ["tripId", "legs", "when"], "additionalProperties": false}, '
        '"party_size": {"type": "integer", "minimum": 1, "default": 2}}, '
        '"required": ["trip"], "additionalProperties": false}',
    ),
    (
        "remember",
        '{"type": "object", "properties": {'
        '"fact": {"type": "string", "description": "What to remember"}, '
        '"tags": {"type": "array", "description": "Labels", "items": {"type": "string"}}, '
        '"weight": {"type": "number", "default": 1.5}}, '
        '"required": ["fact"], "additionalProperties": false}',
    ),
    (
        "WeatherPlugin.get_temperature",
        '{"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"], '
        '"additionalProperties": false}',
    ),
]


@pytest.mark.parametrize(("qualname", "expected"), SCHEMAS, ids=[row[0] for row in SCHEMAS])
def test_input_schema_on_both_sides(module: Any, static: dict[str, Any], qualname: str, expected: str) -> None:
    from onellm_runtime.core import schema

    assert json.dumps(_tool(module, qualname).input_schema) == expected
    assert json.dumps(schema.input_schema(static[qualname].model)) == expected


def test_static_and_runtime_models_are_equal(module: Any, static: dict[str, Any]) -> None:
    for qualname, found in static.items():
        assert found.model.params == _tool(module, qualname).model.params, qualname
        assert found.model.returns == _tool(module, qualname).model.returns, qualname


def test_a_model_return_has_the_model_as_output_schema(module: Any, static: dict[str, Any]) -> None:
    from onellm_runtime.core import schema

    written = json.dumps(_tool(module, "plan").output_schema)
    assert written == json.dumps(_tool(module, "plan").input_schema["properties"]["trip"])
    assert json.dumps(schema.output_schema(static["plan"].model)) == written


def _invoke(t: Tool[..., Any], arguments: str) -> tuple[bool, str]:
    result = asyncio.run(ToolInvoker().invoke(t, arguments))
    return result.is_error, result.text


BINDING = [
    ("list_orders", '{"query": {"customerId": "C1"}}', (False, "C1 1 20 [] None")),
    (
        "list_orders",
        '{"query": {"customerId": "C1", "page": 2, "states": ["open"], "since": "2026-12-01"}}',
        (False, "C1 2 20 ['open'] 2026-12-01"),
    ),
    ("list_orders", '{"query": {"customer_id": "C1"}}', None),  # the wire name is the alias
    ("list_orders", '{"query": {"customerId": "C1", "page": 0}}', None),
    ("place", '{"order": {"orderId": "A", "lines": [{"sku": "AB", "qty": 2}]}}', (False, "A: [('AB', 2)] ''")),
    (
        "place",
        '{"order": {"orderId": "A", "lines": [{"sku": "AB", "qty": 2}, {"sku": "CD", "qty": 0}]}}',
        (True, "Argument 'order.lines[1].qty' is not valid: Value error, qty must be positive"),
    ),
    (
        "place",
        '{"order": {"orderId": "A", "lines": [{"sku": "AB", "qty": 1}, {"sku": "AB", "qty": 2}]}}',
        (True, "Argument 'order' is not valid: Value error, each sku may appear once"),
    ),
    # model_config does not loosen the binder: no extra field, no stripping before the check
    (
        "place",
        '{"order": {"orderId": "A", "lines": [{"sku": "AB", "qty": 1}], "extra": 1}}',
        (True, "Argument 'order.extra' is not a known property; known properties: orderId, lines, note."),
    ),
    (
        "place",
        '{"order": {"orderId": "A", "lines": [{"sku": " AB", "qty": 1}]}}',
        (True, "Argument 'order.lines[0].sku' must match the pattern ^[A-Z]+$, got \" AB\"."),
    ),
    ("upload", '{"file": {"name": "a.txt"}}', (False, "a.txt")),
    ("upload", '{"file": {"name": "boom"}}', (True, "Argument 'file' is not valid: KeyError: 'boom'")),
    ("remember", '{"fact": "sky"}', (False, "sky ['seen'] 1.5")),
    ("remember", '{"fact": "sky", "tags": ["x"], "weight": 2}', (False, "sky ['x', 'seen'] 2.0")),
    ("remember", "{}", (True, "Argument 'fact' is required.")),
]


@pytest.mark.parametrize(("qualname", "arguments", "expected"), BINDING)
def test_binding(module: Any, qualname: str, arguments: str, expected: tuple[bool, str] | None) -> None:
    is_error, text = _invoke(_tool(module, qualname), arguments)
    if expected is None:
        assert is_error and text.startswith("Argument 'query."), text
    else:
        assert (is_error, text) == expected


def test_a_validator_error_is_an_argument_error_at_its_path(module: Any) -> None:
    with pytest.raises(ArgumentError) as raised:
        _tool(module, "place").bind('{"order": {"orderId": "A", "lines": [{"sku": "AB", "qty": -1}]}}')
    assert raised.value.path == "order.lines[0].qty"


def test_the_default_factory_is_called_for_each_call_and_the_field_info_never_passed(module: Any) -> None:
    t = _tool(module, "remember")
    first, second = t.bind('{"fact": "a"}'), t.bind('{"fact": "b"}')
    assert first == {"fact": "a", "tags": [], "weight": 1.5}
    assert first["tags"] is not second["tags"]


def test_binding_builds_the_model_by_model_validate(module: Any) -> None:
    bound = _tool(module, "place").bind('{"order": {"orderId": "A", "lines": [{"sku": "AB", "qty": 1}]}}')
    order = bound["order"]
    assert isinstance(order, module.Order) and type(order) is module.Order
    assert order.model_dump() == {"order_id": "A", "lines": [{"sku": "AB", "qty": 1}], "note": ""}


def test_a_model_return_is_written_by_its_schema_and_validates(module: Any) -> None:
    t = _tool(module, "trips")
    is_error, text = _invoke(t, "{}")
    assert not is_error
    # a datetime as every record writes it (pydantic would write "Z"; both are RFC 3339)
    assert text == (
        '[{"trip_id":"00000000-0000-0000-0000-000000000007","legs":[{"start_date":"2026-12-01","hotel":"Bristol"}],'
        '"when":"2026-12-01T09:30:00+00:00"}]'
    )
    value = json.loads(text)
    jsonschema.validate(value, t.output_schema)
    # where pydantic's JSON form is the schema's, it is what model_dump writes
    (trip,) = t()
    assert isinstance(trip, module.Trip)
    assert value[0]["legs"] == [leg.model_dump(mode="json", by_alias=True) for leg in trip.legs]


def test_a_model_return_follows_the_tools_naming(module: Any) -> None:
    t = _tool(module, "plan")
    arguments = (
        '{"trip": {"tripId": "00000000-0000-0000-0000-000000000007", '
        '"legs": [{"startDate": "2026-12-01", "hotel": "Bristol"}], "when": "2026-12-01T09:30:00+00:00"}}'
    )
    is_error, text = _invoke(t, arguments)
    assert not is_error
    assert text == (
        '{"tripId":"00000000-0000-0000-0000-000000000007","legs":[{"startDate":"2026-12-01","hotel":"Bristol"}],'
        '"when":"2026-12-01T09:30:00+00:00"}'
    )
    jsonschema.validate(json.loads(text), t.output_schema)


def test_an_unannotated_model_return_is_written_by_model_dump() -> None:
    from pydantic import BaseModel, Field

    class Reply(BaseModel):
        reply_text: str = Field(alias="replyText")

    def answer():  # type: ignore[no-untyped-def]
        return Reply(replyText="hi")

    is_error, text = _invoke(Tool.create(answer), "{}")
    assert (is_error, text) == (False, '{"replyText":"hi"}')


def test_an_aliased_field_with_a_default_binds_the_value_given() -> None:
    """pydantic ignores a key it does not know: a value handed over under the field's name
    instead of its alias would leave the default in place, silently, in any construction path."""
    from pydantic import BaseModel, Field

    class Page(BaseModel):
        page_size: int = Field(default=10, alias="pageSize")
        title: str = "untitled"

    def show(page: Any) -> str:
        return ""

    show.__annotations__ = {"page": Page, "return": str}
    t = Tool.create(show)
    for raw in ('{"page": {"pageSize": 50, "title": "t"}}', '{"page": {"title": "t", "pageSize": 50}}'):
        assert t.bind(raw) == {"page": Page(pageSize=50, title="t")}
        assert t.bind(json.loads(raw)) == {"page": Page(pageSize=50, title="t")}
    assert t.bind('{"page": {"pageSize": 50}}') == {"page": Page(pageSize=50)}
    assert t.bind('{"page": {}}') == {"page": Page()}


# -- methods on a BaseModel subclass ----------------------------------------------------------


def test_tool_methods_on_a_model_work_bound_to_an_instance(module: Any) -> None:
    plugin = module.WeatherPlugin(unit="kelvin")
    assert list(module.WeatherPlugin.model_fields) == ["unit"]  # the tool is no field
    (bound,) = tools_of(plugin)
    assert bound.name == "get_temperature"
    assert _invoke(bound, '{"city": "Oslo"}') == (False, "Oslo: 20 kelvin")
    assert _invoke(plugin.get_temperature, '{"city": "Rome"}') == (False, "Rome: 20 kelvin")


def test_a_model_with_tool_methods_still_validates(module: Any) -> None:
    from pydantic import ValidationError

    assert module.WeatherPlugin.model_validate({"unit": "f"}).unit == "f"
    with pytest.raises(ValidationError):
        module.WeatherPlugin.model_validate({"unit": 3})
    assert module.WeatherPlugin().model_dump() == {"unit": "celsius"}


def test_a_model_with_only_tool_methods_can_be_made() -> None:
    from pydantic import BaseModel

    from onellm_runtime import tool

    class Ping(BaseModel):
        @tool
        def ping(self) -> str:
            return "pong"

        @tool
        @staticmethod
        def echo(text: str) -> str:
            return text

    assert Ping.model_fields == {}
    assert [t.name for t in tools_of(Ping())] == ["ping", "echo"]
    assert tools_of(Ping())[1]("x") == "x"


# -- refusals: the same finding on both sides -------------------------------------------------

REFUSED = [
    (
        "computed",
        """
        class M(BaseModel):
            price: int

            @computed_field  # type: ignore[prop-decorator]
            @property
            def total(self) -> int:
                return self.price
        """,
        "model 'M' uses computed_field 'total'",
    ),
    (
        "field_serializer",
        """
        class M(BaseModel):
            cents: int

            @field_serializer("cents")
            def text(self, cents: int) -> str:
                return str(cents)
        """,
        "model 'M' uses field_serializer 'text'",
    ),
    (
        "model_serializer",
        """
        class M(BaseModel):
            x: int

            @model_serializer
            def pair(self) -> dict[str, int]:
                return {"y": self.x}
        """,
        "model 'M' uses model_serializer 'pair'",
    ),
    (
        "alias_generator",
        """
        class M(BaseModel):
            model_config = ConfigDict(alias_generator=str.upper)

            x: int
        """,
        "model 'M' uses alias_generator",
    ),
    (
        "serialization_alias",
        """
        class M(BaseModel):
            x: int = Field(serialization_alias="X")
        """,
        "model 'M' uses serialization_alias on field 'x'",
    ),
]

_REFUSED_HEAD = """
from pydantic import BaseModel, ConfigDict, Field, computed_field, field_serializer, model_serializer

from onellm_runtime import tool
"""
_REFUSED_TAIL = """

@tool
def use(m: M) -> str:
    return ""
"""


@pytest.fixture(scope="module")
def refused_rows(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, list[tuple[str, str]]]]:
    """Every refused row as its own module, read by one static run (a run costs seconds):
    the directory, and each module's findings by its file name."""
    from onellm_mypy.extract import extract

    directory = tmp_path_factory.mktemp("refused_models")
    paths = []
    for name, body, _ in REFUSED:
        path = directory / f"refused_{name}.py"
        path.write_text(_REFUSED_HEAD + textwrap.dedent(body) + _REFUSED_TAIL)
        paths.append(str(path))
    found: dict[str, list[tuple[str, str]]] = {}
    for d in extract(paths).diagnostics:
        found.setdefault(Path(d.path).name, []).append((d.code, d.message))
    return directory, found


@pytest.mark.parametrize(("name", "body", "expected"), REFUSED, ids=[row[0] for row in REFUSED])
def test_a_model_whose_written_form_differs_is_olt005_on_both_sides(
    refused_rows: tuple[Path, dict[str, list[tuple[str, str]]]], name: str, body: str, expected: str
) -> None:
    tmp_path, static = refused_rows
    path = tmp_path / f"refused_{name}.py"
    message = (
        f"Tool 'use': Parameter 'm': {expected}, so what it writes differs from its fields and no schema can "
        "describe it; remove it, or use a separate model with plain fields"
    )
    assert static.get(path.name) == [("OLT005", message)]
    sys.path.insert(0, str(tmp_path))
    try:
        with pytest.raises(ToolDefinitionError) as raised:
            importlib.import_module(path.stem)
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop(path.stem, None)
    assert str(raised.value) == message + "  [OLT005]"


def test_import_onellm_runtime_never_imports_pydantic() -> None:
    code = textwrap.dedent(
        """
        import asyncio, dataclasses, sys
        import onellm_runtime
        from onellm_runtime import ToolInvoker, tool
        from onellm_runtime.providers import openai_tool

        @dataclasses.dataclass
        class Point:
            x: int

        @tool
        def move(p: Point, by: int = 1) -> Point:
            return p

        result = asyncio.run(ToolInvoker().invoke(move, '{"p": {"x": 1}}'))
        assert not result.is_error, result.text
        openai_tool(move)
        print(sorted(m for m in sys.modules if m.split(".")[0] in ("pydantic", "pydantic_core")))
        """
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "[]\n"
