"""The contract's "Records" and "Unions" sections, rule by rule, as exact strings.

The record classes live at module level (as users write them); this module does not use
``from __future__ import annotations``, valid_records.py in the corpus does.
"""

import dataclasses
import json
from dataclasses import dataclass, field
from typing import Annotated, Literal, NamedTuple, Optional, Union

import pytest
from schema_support import fragment, output
from typing_extensions import Doc, NotRequired, Required, TypedDict

from onellm_runtime import Description, Discriminator, JsonName


@dataclass
class Base:
    """Not written.

    Attributes:
        a: From the base.
    """

    a: int
    b: str = "x"


@dataclass
class Derived(Base):
    c: float = 1.5
    d: list[int] = field(default_factory=list)
    e: int = field(default=0, init=False)
    f: bool = field(default=True)


class Pair(NamedTuple):
    """A pair.

    Args:
        left: The left one.
    """

    left: int
    right: str = "r"


class Movie(TypedDict):
    title: str
    year: int


class MovieOptional(Movie, total=False):
    rating: float
    studio: Required[str]


class Book(TypedDict):
    title: str
    isbn: NotRequired[str]


@dataclass
class NumPyDoc:
    """A record documented NumPy style.

    Parameters
    ----------
    x : int
        The x.
    """

    x: int


@dataclass
class Named:
    old_text: str
    new_text: Annotated[str, Description("The new text.")]
    file_path: Annotated[str, JsonName("path")]
    doc_field: Annotated[int, Doc("Via Doc.")] = 3
    already_camel: Annotated[int, JsonName("AlreadyCamel")] = 0


@dataclass
class Start:
    action: Literal["start"]
    job: str


@dataclass
class Stop:
    action: Literal["stop"] = "stop"
    force: bool = False


class Read(TypedDict):
    kind: Literal["read"]
    op: Literal["r"]


class Write(TypedDict):
    kind: Literal["write"]
    op: Literal["w"]
    text: str


RECORDS_TABLE = [
    (
        "dataclass: fields with init=True, bases first, defaults by the parameter rule",
        Derived,
        '{"type": "object", "properties": {"a": {"type": "integer", "description": "From the base."}, '
        '"b": {"type": "string", "default": "x"}, "c": {"type": "number", "default": 1.5}, '
        '"d": {"type": "array", "items": {"type": "integer"}}, "f": {"type": "boolean", "default": true}}, '
        '"required": ["a"], "additionalProperties": false}',
    ),
    (
        "NamedTuple: fields in order, Args entry read",
        Pair,
        '{"type": "object", "properties": {"left": {"type": "integer", "description": "The left one."}, '
        '"right": {"type": "string", "default": "r"}}, "required": ["left"], "additionalProperties": false}',
    ),
    (
        "TypedDict total",
        Movie,
        '{"type": "object", "properties": {"title": {"type": "string"}, "year": {"type": "integer"}}, '
        '"required": ["title", "year"], "additionalProperties": false}',
    ),
    (
        "TypedDict total=False with Required, inheriting a total base",
        MovieOptional,
        '{"type": "object", "properties": {"title": {"type": "string"}, "year": {"type": "integer"}, '
        '"rating": {"type": "number"}, "studio": {"type": "string"}}, '
        '"required": ["title", "year", "studio"], "additionalProperties": false}',
    ),
    (
        "TypedDict NotRequired",
        Book,
        '{"type": "object", "properties": {"title": {"type": "string"}, "isbn": {"type": "string"}}, '
        '"required": ["title"], "additionalProperties": false}',
    ),
    (
        "NumPy Parameters entry",
        NumPyDoc,
        '{"type": "object", "properties": {"x": {"type": "integer", "description": "The x."}}, '
        '"required": ["x"], "additionalProperties": false}',
    ),
    (
        "names as written, JsonName renames, Description and Doc describe",
        Named,
        '{"type": "object", "properties": {"old_text": {"type": "string"}, '
        '"new_text": {"type": "string", "description": "The new text."}, "path": {"type": "string"}, '
        '"doc_field": {"type": "integer", "description": "Via Doc.", "default": 3}, '
        '"AlreadyCamel": {"type": "integer", "default": 0}}, '
        '"required": ["old_text", "new_text", "path"], "additionalProperties": false}',
    ),
    (
        "nullable record",
        Optional[Pair],
        '{"type": ["object", "null"], "properties": {"left": {"type": "integer", "description": "The left one."}, '
        '"right": {"type": "string", "default": "r"}}, "required": ["left"], "additionalProperties": false}',
    ),
]


@pytest.mark.parametrize(("annotation", "expected"), [pytest.param(a, e, id=i) for i, a, e in RECORDS_TABLE])
def test_records_row(annotation: object, expected: str) -> None:
    assert fragment(annotation) == expected
    assert output(annotation) == expected


def test_camel_case_converts_field_names_and_json_name_always_wins() -> None:
    assert fragment(Named, naming="camelCase") == (
        '{"type": "object", "properties": {"oldText": {"type": "string"}, '
        '"newText": {"type": "string", "description": "The new text."}, "path": {"type": "string"}, '
        '"docField": {"type": "integer", "description": "Via Doc.", "default": 3}, '
        '"AlreadyCamel": {"type": "integer", "default": 0}}, '
        '"required": ["oldText", "newText", "path"], "additionalProperties": false}'
    )


def test_camel_case_applies_to_the_output_schema_too() -> None:
    assert json.loads(output(list[Named], naming="camelCase"))["items"]["required"] == ["oldText", "newText", "path"]


def test_a_typeddict_key_can_be_renamed() -> None:
    class Person(TypedDict):
        first_name: Annotated[str, JsonName("given")]

    assert fragment(Person, naming="camelCase") == (
        '{"type": "object", "properties": {"given": {"type": "string"}}, "required": ["given"], '
        '"additionalProperties": false}'
    )


def test_dataclass_init_false_fields_are_left_out() -> None:
    assert "e" not in [f.name for f in dataclasses.fields(Derived) if f.init]
    assert '"e"' not in fragment(Derived)


# --- Unions -----------------------------------------------------------------------------

START = (
    '{"type": "object", "properties": {"action": {"type": "string", "enum": ["start"]}, "job": {"type": "string"}}, '
    '"required": ["action", "job"], "additionalProperties": false}'
)
STOP = (
    '{"type": "object", "properties": {"action": {"type": "string", "enum": ["stop"]}, '
    '"force": {"type": "boolean", "default": false}}, "required": ["action"], "additionalProperties": false}'
)
READ = (
    '{"type": "object", "properties": {"kind": {"type": "string", "enum": ["read"]}, '
    '"op": {"type": "string", "enum": ["r"]}}, "required": ["kind", "op"], "additionalProperties": false}'
)
WRITE = (
    '{"type": "object", "properties": {"kind": {"type": "string", "enum": ["write"]}, '
    '"op": {"type": "string", "enum": ["w"]}, "text": {"type": "string"}}, '
    '"required": ["kind", "op", "text"], "additionalProperties": false}'
)

UNIONS_TABLE = [
    ("implicit discriminator, members in union order", Union[Start, Stop], '{"anyOf": [' + START + ", " + STOP + "]}"),
    ("order follows the union", Union[Stop, Start], '{"anyOf": [' + STOP + ", " + START + "]}"),
    (
        "explicit Discriminator picks one of two candidates",
        Annotated[Union[Read, Write], Discriminator("kind")],
        '{"anyOf": [' + READ + ", " + WRITE + "]}",
    ),
    (
        "nullable union: a last null branch",
        Optional[Union[Start, Stop]],
        '{"anyOf": [' + START + ", " + STOP + ', {"type": "null"}]}',
    ),
    (
        "described union: description before anyOf",
        Annotated[Union[Start, Stop], Description("What to do.")],
        '{"description": "What to do.", "anyOf": [' + START + ", " + STOP + "]}",
    ),
    (
        "union of records inside a list",
        list[Union[Start, Stop]],
        '{"type": "array", "items": {"anyOf": [' + START + ", " + STOP + "]}}",
    ),
]


@pytest.mark.parametrize(("annotation", "expected"), [pytest.param(a, e, id=i) for i, a, e in UNIONS_TABLE])
def test_unions_row(annotation: object, expected: str) -> None:
    assert fragment(annotation) == expected
    assert output(annotation) == expected


def test_camel_case_renames_the_discriminator_property() -> None:
    @dataclass
    class RenameOp:
        op_kind: Literal["rename"]
        new_name: str

    @dataclass
    class DeleteOp:
        op_kind: Literal["delete"]

    assert fragment(Union[RenameOp, DeleteOp], naming="camelCase") == (
        '{"anyOf": [{"type": "object", "properties": {"opKind": {"type": "string", "enum": ["rename"]}, '
        '"newName": {"type": "string"}}, "required": ["opKind", "newName"], "additionalProperties": false}, '
        '{"type": "object", "properties": {"opKind": {"type": "string", "enum": ["delete"]}}, '
        '"required": ["opKind"], "additionalProperties": false}]}'
    )


# --- string annotations naming KW_ONLY and InitVar ---------------------------------------------

_KW_ONLY_SOURCE = """
from __future__ import annotations

import dataclasses
from dataclasses import KW_ONLY, InitVar, dataclass


@dataclass
class Window:
    width: int
    _: KW_ONLY
    height: int = 1
    scale: InitVar[int] = 1
"""


def test_a_record_whose_string_annotations_name_kw_only_and_initvar() -> None:
    """Python 3.10's ``get_type_hints`` refuses the strings "KW_ONLY" and "InitVar[int]"
    (neither is a type); such a record is still read, on every version."""
    import sys
    import types

    from onellm_runtime.front import hints

    module = types.ModuleType("kw_only_records")
    sys.modules[module.__name__] = module
    try:
        exec(compile(_KW_ONLY_SOURCE, "<kw_only_records>", "exec"), vars(module))
        window = module.Window
        assert fragment(window) == (
            '{"type": "object", "properties": {"width": {"type": "integer"}, "height": {"type": "integer", '
            '"default": 1}}, "required": ["width"], "additionalProperties": false}'
        )
        unchecked = hints._class_hints_unchecked(window, {})  # pyright: ignore[reportPrivateUsage]
        assert unchecked["width"] is int and unchecked["_"] is dataclasses.KW_ONLY
    finally:
        del sys.modules[module.__name__]
