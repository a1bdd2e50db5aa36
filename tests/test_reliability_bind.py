"""The binder and decoration under hostile input: every failure is an ``ArgumentError`` or a
``ToolDefinitionError`` with the contract's text, never another exception, and no cost grows
faster than the input. Texts are the contract's ("Errors become results", "Parameters") and
the binder's message table (docs/binding.md). No timing is asserted here: the cost figures
are in benchmarks/hostile.py.
"""

from __future__ import annotations

import asyncio
import binascii
import dataclasses
import enum
import json
import sys
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Literal

import pytest

from onellm_runtime import (
    ArgumentError,
    Int64,
    JsonValue,
    Tool,
    ToolDefinitionError,
    ToolInvoker,
    tool,
)
from onellm_runtime.core import formats
from onellm_runtime.core.model import MAX_RECORD_DEPTH


def error_of(t: Tool[..., Any], arguments: object) -> str:
    with pytest.raises(ArgumentError) as info:
        t.bind(arguments)  # type: ignore[arg-type]
    return str(info.value)


@tool
def takes_int(x: int) -> str:
    return ""


@tool
def takes_int64(x: Int64) -> str:
    return ""


@tool
def takes_ints(x: list[int]) -> str:
    return ""


@tool
def takes_float(x: float) -> str:
    return ""


@tool
def takes_decimal(x: Decimal) -> str:
    return ""


@tool
def takes_json(x: JsonValue) -> str:
    return ""


@tool
def takes_literal(x: Literal[10**20, 5]) -> str:
    return ""


@tool
def takes_bytes(x: bytes) -> str:
    return ""


@tool
def takes_texts(x: dict[str, str]) -> str:
    return ""


# --- 1. integers written with an exponent or a fraction ---------------------------------

WRITTEN = "must be written in plain digits to be an integer of 10^20 or more, got {}."

EXPONENT_ROWS = [
    # (tool, raw value, what binds, or the excerpt a refusal quotes)
    (takes_int, "1e2", 100),
    (takes_int, "5.0", 5),
    (takes_int, "1e19", 10**19),
    (takes_int, "9.9999999999999999999e19", 10**20 - 1),
    (takes_int, "-9.9999999999999999999e19", -(10**20) + 1),
    (takes_int, "0e4299", 0),
    (takes_int, "100000000000000000000", 10**20),  # plain digits: any size within the digit limit
    (takes_int, "1e20", ("refused", "1e+20")),
    (takes_int, "-1e20", ("refused", "-1e+20")),
    (takes_int, "100000000000000000000.0", ("refused", "1e+20")),
    (takes_int, "1.5e30", ("refused", "1.5e+30")),
    (takes_int, "1e4299", ("refused", "1E+4299")),
    (takes_int64, "1e30", ("refused", "1e+30")),
    (takes_literal, "5.0", 5),
    (takes_literal, "1e20", ("refused", "1e+20")),
    (takes_literal, "100000000000000000000", 10**20),
]


@pytest.mark.parametrize(("t", "raw", "outcome"), EXPONENT_ROWS, ids=[f"{r[0].name}-{r[1]}" for r in EXPONENT_ROWS])
def test_an_integer_written_with_an_exponent_binds_below_ten_to_the_twenty(
    t: Tool[..., Any], raw: str, outcome: object
) -> None:
    doc = '{"x": ' + raw + "}"
    if isinstance(outcome, tuple):
        assert error_of(t, doc) == "Argument 'x' " + WRITTEN.format(outcome[1])
    else:
        assert t.bind(doc) == {"x": outcome}
        assert type(t.bind(doc)["x"]) is int


def test_the_same_rule_for_a_mapping_float() -> None:
    assert takes_int.bind({"x": 1e19}) == {"x": 10**19}
    assert error_of(takes_int, {"x": 1e20}) == "Argument 'x' " + WRITTEN.format("1e+20")
    assert error_of(takes_int, {"x": Decimal("1E+30")}) == "Argument 'x' " + WRITTEN.format("1e+30")
    assert takes_int.bind({"x": Decimal(10**25)}) == {"x": 10**25}  # exponent 0: plain digits


def test_ten_thousand_huge_exponents_are_all_refused_and_counted() -> None:
    doc = '{"x": [' + ",".join(["1e4299"] * 10_000) + "]}"
    with pytest.raises(ArgumentError) as info:
        takes_ints.bind(doc)
    assert info.value.errors[0] == ("x[0]", "Argument 'x[0]' " + WRITTEN.format("1E+4299"))
    assert len(info.value.errors) == 20
    assert str(info.value).endswith("\n... and 9980 more.")


def test_decimal_and_float_still_read_huge_exponents() -> None:
    assert takes_decimal.bind('{"x": 1e4299}') == {"x": Decimal("1E+4299")}
    assert takes_decimal.bind('{"x": 12345678901234567890123.5}') == {"x": Decimal("12345678901234567890123.5")}
    assert takes_float.bind('{"x": 1e30}') == {"x": 1e30}
    assert takes_json.bind('{"x": 1e30}') == {"x": 1e30}
    assert (
        error_of(takes_float, '{"x": 1e4299}')
        == "Argument 'x' must be a finite number, got a number beyond the float range."
    )


# --- 2. bytes ------------------------------------------------------------------------------

BASE64_ROWS = [
    ("", b""),
    ("YQ==", b"a"),
    ("YWI=", b"ab"),
    ("YWJj", b"abc"),
    ("+/+/", b"\xfb\xff\xbf"),
    ("YQ", None),  # padding missing
    ("YQ=", None),
    ("YWJjZA", None),
    ("YWJj====", None),  # padding beyond the last group (binascii's strict mode lets this through)
    ("YWJjYQ===", None),
    ("Y===", None),
    ("YQ==YQ==", None),  # padding in the middle
    ("=YWJ", None),
    ("YW Jj", None),  # stray characters
    ("YWJj\n", None),
    ("-_-_", None),  # the URL-safe alphabet is not standard base64
    ("YWJ\u00e9", None),
]


@pytest.mark.parametrize(("text", "expected"), BASE64_ROWS, ids=[repr(r[0]) for r in BASE64_ROWS])
def test_base64_reading(text: str, expected: bytes | None) -> None:
    assert formats.read_base64(text) == expected
    doc = json.dumps({"x": text})
    if expected is None:
        assert error_of(takes_bytes, doc) == (
            f"Argument 'x' must be standard base64 with padding, got {json.dumps(text, ensure_ascii=False)}."
        )
    else:
        assert takes_bytes.bind(doc) == {"x": expected}


def _texts() -> Iterator[str]:
    alphabet = "AQ+/=\n-"
    texts = [""]
    for _ in range(6):
        texts = [t + c for t in texts for c in alphabet]
        yield from texts


def test_both_decoders_agree_with_the_standard_grammar() -> None:
    """Every text of up to 6 characters over a small alphabet: the strict-mode decoder (3.11+)
    and the 3.10 one give what RFC 4648's grammar gives."""
    import re

    grammar = re.compile(r"(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?")
    readers = [formats._decode_checked]  # pyright: ignore[reportPrivateUsage]
    if sys.version_info >= (3, 11):
        readers.append(formats._decode_strictly)  # pyright: ignore[reportPrivateUsage]
    for text in _texts():
        expected = binascii.a2b_base64(text) if grammar.fullmatch(text) else None
        if len(text) % 4 or text[len(text) - 3 : len(text) - 2] == "=":
            assert formats.read_base64(text) is None, text
            continue
        for read in readers:
            assert read(text) == expected, (read.__name__, text)


# --- 4. a Mapping is held to what json.loads could have produced --------------------------


class Unreadable(Mapping[str, object]):
    def __getitem__(self, key: str) -> object:
        raise RuntimeError("no reading")

    def __iter__(self) -> Iterator[str]:
        return iter(["x"])

    def __len__(self) -> int:
        return 1


class Loud:
    def __str__(self) -> str:
        raise RuntimeError("no text")


MAPPING_ROWS: list[tuple[str, Tool[..., Any], object, str]] = [
    ("tuple", takes_ints, (1, 2), "Argument 'x' must be an array, got tuple."),
    ("tuple in JSON", takes_json, [(1, 2)], "Argument 'x[0]' must be a JSON value, got tuple."),
    ("set", takes_json, {1}, "Argument 'x' must be a JSON value, got set."),
    ("bytes", takes_json, {"a": b"x"}, "Argument 'x.a' must be a JSON value, got bytes."),
    ("object", takes_json, Loud(), "Argument 'x' must be a JSON value, got Loud."),
    ("NaN float", takes_float, float("nan"), "Argument 'x' must be a finite number, got NaN."),
    (
        "NaN in JSON",
        takes_json,
        [float("inf")],
        "Argument 'x[0]' must be a finite number, got a number beyond the float range.",
    ),
    ("sNaN float", takes_float, Decimal("sNaN"), "Argument 'x' must be a finite number, got sNaN."),
    ("sNaN JSON", takes_json, Decimal("sNaN"), "Argument 'x' must be a finite number, got sNaN."),
    ("sNaN int", takes_int, Decimal("sNaN"), "Argument 'x' must be an integer, got sNaN."),
    (
        "sNaN literal",
        takes_literal,
        Decimal("sNaN"),
        "Argument 'x' must be one of: 100000000000000000000, 5; got sNaN.",
    ),
    ("NaN Decimal", takes_decimal, Decimal("NaN"), "Argument 'x' must be a finite number, got NaN."),
    ("Infinity Decimal", takes_decimal, Decimal("-Infinity"), "Argument 'x' must be a finite number, got -Infinity."),
    (
        "int over the limit",
        takes_int,
        10**5000,
        "Argument 'x' has more than 4300 digits, more than an integer may have.",
    ),
    (
        "int over the limit, Decimal",
        takes_decimal,
        10**5000,
        "Argument 'x' has more than 4300 digits, more than an integer may have.",
    ),
    (
        "int over the limit, JSON",
        takes_json,
        {"a": [10**5000]},
        "Argument 'x.a[0]' has more than 4300 digits, more than an integer may have.",
    ),
    (
        "int over the limit, list",
        takes_ints,
        [1] * 20 + [-(10**5000)],
        "Argument 'x[20]' has more than 4300 digits, more than an integer may have.",
    ),
    ("non-str key", takes_texts, {1: "a"}, "Argument 'x' has a key that is not a string: 1."),
    (
        "unreadable mapping",
        takes_json,
        {"a": Unreadable()},
        "Argument 'x.a' could not be read: RuntimeError: no reading",
    ),
]


@pytest.mark.parametrize(("t", "value", "message"), [r[1:] for r in MAPPING_ROWS], ids=[r[0] for r in MAPPING_ROWS])
def test_a_mapping_value_json_loads_could_not_produce_is_an_argument_error(
    t: Tool[..., Any], value: object, message: str
) -> None:
    assert error_of(t, {"x": value}) == message


def test_a_mapping_whose_getitem_raises_is_an_argument_error() -> None:
    assert error_of(takes_int, Unreadable()) == "Arguments could not be read: RuntimeError: no reading"


def test_what_json_loads_produces_binds_from_a_mapping() -> None:
    assert takes_int.bind({"x": 10**4000}) == {"x": 10**4000}
    assert takes_ints.bind({"x": [10**4000] * 20}) == {"x": [10**4000] * 20}
    assert takes_decimal.bind({"x": Decimal("0.1")}) == {"x": Decimal("0.1")}
    assert takes_json.bind({"x": {"a": [1, 2.5, "s", None, True, Decimal("1.5")]}}) == {
        "x": {"a": [1, 2.5, "s", None, True, 1.5]}
    }


# A JsonValue's arrays are the reader's own lists when nothing in them changes (no second copy
# of a deep document); a mapping's lists are always copied, since the caller still holds them.
JSON_VALUE_ROWS = [
    ('{"x": [[[[[]]]]]}', [[[[[]]]]]),
    ('{"x": [1, "a", [2.5, true, null]]}', [1, "a", [2.5, True, None]]),
    ('{"x": [[{"k": [1]}], 2]}', [[{"k": [1]}], 2]),
    ('{"x": {"a": {"b": [{"c": 1}]}}}', {"a": {"b": [{"c": 1}]}}),
    ('{"x": [1, {"a": 2}, [3]]}', [1, {"a": 2}, [3]]),
]


@pytest.mark.parametrize(("raw", "expected"), JSON_VALUE_ROWS)
def test_a_json_value_binds_as_plain_data(raw: str, expected: object) -> None:
    bound = takes_json.bind(raw)["x"]
    assert bound == expected
    assert json.dumps(bound) == json.dumps(expected)  # dicts and lists only, no pairs left


def test_a_json_value_nested_as_deep_as_the_reader_binds() -> None:
    depth = 500  # a 1 KB document: every level a one-item array
    bound = takes_json.bind('{"x": ' + "[" * depth + "]" * depth + "}")["x"]
    for _ in range(depth - 1):
        assert type(bound) is list and len(bound) == 1
        bound = bound[0]
    assert bound == []


def test_a_mappings_lists_and_dicts_are_copied() -> None:
    inner: list[object] = [1, 2]
    outer: dict[str, object] = {"k": inner}
    bound = takes_json.bind({"x": [outer, inner]})["x"]
    assert bound == [{"k": [1, 2]}, [1, 2]]
    assert type(bound) is list and bound[1] is not inner and bound[0] is not outer


def test_the_digit_limit_is_the_interpreters() -> None:
    if not hasattr(sys, "set_int_max_str_digits"):
        pytest.skip("no digit limit before 3.10.7")
    before = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(1000)
    try:
        assert (
            error_of(takes_int, {"x": 10**1000})
            == "Argument 'x' has more than 1000 digits, more than an integer may have."
        )
        assert takes_int.bind({"x": 10**999}) == {"x": 10**999}
    finally:
        sys.set_int_max_str_digits(before)


# --- 5. a record's constructor raising --------------------------------------------------


class Unprintable(ValueError):
    def __str__(self) -> str:
        raise RuntimeError("no text")


@dataclass
class File:
    path: str

    def __post_init__(self) -> None:
        kind = self.path
        if kind == "exit":
            raise SystemExit(2)
        if kind == "interrupt":
            raise KeyboardInterrupt
        if kind == "unprintable":
            raise Unprintable
        if kind == "long":
            raise ValueError("x" * 5000)
        if kind == "stop":
            raise StopIteration
        if kind == "bad":
            raise ValueError("the path is bad")


@tool
def open_file(file: File, files: list[File] | None = None) -> str:
    return ""


CONSTRUCT_ROWS = [
    ("bad", "Argument 'file' is not valid: ValueError: the path is bad"),
    ("exit", "Argument 'file' is not valid: SystemExit: 2"),
    ("interrupt", "Argument 'file' is not valid: KeyboardInterrupt"),
    ("stop", "Argument 'file' is not valid: StopIteration"),
    ("unprintable", "Argument 'file' is not valid: Unprintable"),
    ("long", "Argument 'file' is not valid: ValueError: " + "x" * 1999 + "…"),
]


@pytest.mark.parametrize(("path", "message"), CONSTRUCT_ROWS, ids=[r[0] for r in CONSTRUCT_ROWS])
def test_an_exception_while_building_a_record_is_an_argument_error(path: str, message: str) -> None:
    for doc in (json.dumps({"file": {"path": path}}), {"file": {"path": path}}):
        assert error_of(open_file, doc) == message
    nested = json.dumps({"file": {"path": "ok"}, "files": [{"path": "ok"}, {"path": path}]})
    assert error_of(open_file, nested) == message.replace("'file'", "'files[1]'")


def test_invoke_reports_a_construction_failure_as_an_argument_error() -> None:
    result = asyncio.run(ToolInvoker().invoke(open_file, '{"file": {"path": "exit"}}'))
    assert result.is_error
    assert result.error == "Argument 'file' is not valid: SystemExit: 2"


# --- 3. Literal de-duplication is by value and kind --------------------------------------


def test_a_large_literal_keeps_first_occurrences_in_order() -> None:
    values = tuple(f"v{i % 20_000}" for i in range(40_000))

    def f(x: Any) -> str:
        return ""

    f.__annotations__["x"] = Literal.__getitem__(values)  # type: ignore[attr-defined]
    t = Tool.create(f)
    assert t.input_schema["properties"]["x"]["enum"] == [f"v{i}" for i in range(20_000)]


def test_literal_true_and_one_stay_apart_in_a_union_of_literals() -> None:
    @tool
    def f(x: Literal[1, 2] | Literal[2, 3]) -> str:
        return ""

    assert json.dumps(f.input_schema["properties"]["x"]) == '{"type": "integer", "enum": [1, 2, 3]}'


def test_a_large_enum_with_aliases() -> None:
    members = {f"M{i}": f"v{i}" for i in range(10_000)}
    members.update({f"A{i}": f"v{i}" for i in range(0, 10_000, 1000)})
    Big = enum.Enum("Big", members)  # type: ignore[misc]

    def f(x: Any) -> str:
        return ""

    f.__annotations__["x"] = Big
    t = Tool.create(f)
    # every value a string: by value (the functional API's values as a class body's), aliases left out
    assert t.input_schema["properties"]["x"]["enum"] == [f"v{i}" for i in range(10_000)]
    assert t.bind('{"x": "v9999"}') == {"x": Big.M9999}


ENUM_BODY = """
class E(enum.Enum):
    A = 1
    B = 1.0
    C = True
    D = (1, 2)
    E = (1, 2)
    F = "f"
    G = 2
    H = 2.0
    I = "f"
    J = (1, 2.0)
"""


def test_the_static_alias_scan_finds_what_enum_finds() -> None:
    """The source reader's aliases (a dict by value, as ``Enum`` keeps them) against the class itself."""
    import ast

    from onellm_mypy import enums

    node = ast.parse(ENUM_BODY).body[0]
    assert isinstance(node, ast.ClassDef)
    names = enums.enum_members(node, lambda expr: None)
    namespace: dict[str, Any] = {"enum": enum}
    exec(ENUM_BODY, namespace)
    runtime = {name: member.name for name, member in namespace["E"].__members__.items()}
    assert (
        names
        == runtime
        == {
            "A": "A",
            "B": "A",
            "C": "A",
            "D": "D",
            "E": "D",
            "F": "F",
            "G": "G",
            "H": "G",
            "I": "F",
            "J": "D",
        }
    )


# --- 6. decoration: deep records, annotations that are not Python -------------------------


def _chain(depth: int) -> type:
    inner: type = int
    for i in range(depth):
        inner = dataclasses.make_dataclass(f"Level{i}", [("inner", inner)])
    return inner


def _taking(annotation: object) -> Any:
    def takes(r: Any) -> str:
        return ""

    takes.__annotations__["r"] = annotation
    return takes


TOO_DEEP = (
    f"Tool 'takes': Parameter 'r': records nested more than {MAX_RECORD_DEPTH} deep have no schema "
    "(each level is one object a model must write); flatten the structure  [OLT002]"
)


@pytest.mark.parametrize("depth", [MAX_RECORD_DEPTH + 1, MAX_RECORD_DEPTH + 2, 200, 2000])
def test_records_nested_too_deep_are_olt002(depth: int) -> None:
    with pytest.raises(ToolDefinitionError) as info:
        Tool.create(_taking(_chain(depth)))
    assert info.value.code == "OLT002"
    assert str(info.value) == TOO_DEEP


def test_the_depth_limit_does_not_depend_on_what_was_lowered_before() -> None:
    inner = _chain(MAX_RECORD_DEPTH)
    t = Tool.create(_taking(inner))  # exactly the limit: fine
    doc = '{"r": ' + '{"inner": ' * MAX_RECORD_DEPTH + "1" + "}" * MAX_RECORD_DEPTH + "}"
    assert "r" in t.bind(doc)
    outer = dataclasses.make_dataclass("Outer", [("inner", inner)])  # one more, around a cached record
    with pytest.raises(ToolDefinitionError) as info:
        Tool.create(_taking(list[outer]))  # type: ignore[valid-type]
    assert str(info.value) == TOO_DEEP.replace("Parameter 'r':", "Parameter 'r' item:")


INVALID_ANNOTATIONS = ["list[int", "int)", "", "x y", "lambda: int"]


@pytest.mark.parametrize("text", INVALID_ANNOTATIONS)
def test_a_string_annotation_that_is_not_python_is_olt002(text: str) -> None:
    if text == "lambda: int":  # an expression, just not a type
        with pytest.raises(ToolDefinitionError) as other:
            Tool.create(_taking(text))
        assert other.value.code == "OLT002"
        return
    with pytest.raises(ToolDefinitionError) as info:
        Tool.create(_taking(text))
    assert info.value.code == "OLT002"
    assert str(info.value) == (
        f"Tool 'takes': Parameter 'r': the annotation {text!r} is not a valid Python expression; "
        "write a type such as 'list[int]'  [OLT002]"
    )


def test_an_invalid_string_inside_an_annotation_is_olt002() -> None:
    with pytest.raises(ToolDefinitionError) as info:
        Tool.create(_taking(list["int["])).input_schema  # type: ignore[name-defined]  # noqa: B018, F722
    assert info.value.code == "OLT002"
    assert "the annotation 'int[' is not a valid Python expression" in str(info.value)


def test_a_record_field_annotation_that_is_not_python_is_olt002() -> None:
    @dataclass
    class Broken:
        x: "list[int"  # type: ignore[syntax]  # noqa: F722

    with pytest.raises(ToolDefinitionError) as info:
        Tool.create(_taking(Broken))
    assert info.value.code == "OLT002"
    assert "the annotation 'list[int' is not a valid Python expression" in str(info.value)


# --- 7. defaults json.dumps cannot write -------------------------------------------------


def _with_default(annotation: object, default: object) -> Any:
    def takes(n: Any = default) -> Any:
        return n

    takes.__annotations__["n"] = annotation
    takes.__annotations__["return"] = JsonValue
    return takes


UNWRITABLE_DEFAULTS = [
    (int, 10**5000),
    (int, -(10**5000)),
    (float, float("nan")),
    (float, float("inf")),
    (float, float("-inf")),
]


@pytest.mark.parametrize(
    ("annotation", "default"), UNWRITABLE_DEFAULTS, ids=["10**5000", "-10**5000", "nan", "inf", "-inf"]
)
def test_a_default_json_cannot_write_is_not_written_and_still_applies(annotation: type, default: object) -> None:
    fn = _with_default(annotation, default)
    t = Tool.create(fn)
    assert json.dumps(t.input_schema) == (
        '{"type": "object", "properties": {"n": {"type": "'
        + ("integer" if annotation is int else "number")
        + '"}}, "additionalProperties": false}'
    )
    assert t.bind("{}") == {}
    assert fn(**t.bind("{}")) is default  # the function's own default applies


def test_a_default_at_the_digit_limit_is_written() -> None:
    t = Tool.create(_with_default(int, 10**4299))
    assert t.input_schema["properties"]["n"]["default"] == 10**4299
    assert len(json.dumps(t.input_schema)) > 4300
