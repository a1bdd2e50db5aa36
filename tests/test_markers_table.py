"""The marker table (``onellm_runtime.core.markers``): every row complete, read the same
from an object (runtime) and from a call in the source (static), setting the constraints the
contract's Annotations table gives it, refused on a type it does not fit with its exact text,
and written in a valid test-data module (so the static == runtime manifest tests cover it).
"""

from __future__ import annotations

import ast
import dataclasses
import importlib
import inspect
import json
import sys
from pathlib import Path
from typing import Annotated, Optional, get_args

import annotated_types as at
import pytest
import typing_extensions
from pydantic import StringConstraints
from schema_support import refusal, tool_with

from onellm_mypy import source
from onellm_runtime import (
    Description,
    Discriminator,
    Email,
    JsonName,
    Length,
    MaxLength,
    MinLength,
    Pattern,
    Range,
    StringLength,
    Tool,
    Url,
)
from onellm_runtime.core import markers, schema
from onellm_runtime.core.markers import REQUIRED, TABLE, MarkerSpec
from onellm_runtime.core.model import (
    Annotated as AnnotatedNode,
)
from onellm_runtime.core.model import (
    ArrayType,
    Constraints,
    MapType,
    Marker,
    Nullable,
    Record,
    Scalar,
    ScalarKind,
    TypeNode,
    UnionType,
)
from onellm_runtime.front import typing_front

CORPUS = Path(__file__).resolve().parent.parent / "test-data"
sys.path.insert(0, str(CORPUS))

import _corpus  # noqa: E402

NAMESPACE = {
    "Description": Description,
    "Doc": typing_extensions.Doc,
    "Range": Range,
    "StringLength": StringLength,
    "MinLength": MinLength,
    "MaxLength": MaxLength,
    "Length": Length,
    "Pattern": Pattern,
    "Email": Email,
    "Url": Url,
    "JsonName": JsonName,
    "Discriminator": Discriminator,
    "at": at,
    "StringConstraints": StringConstraints,
}

#: (the call as written, what it sets): the contract's Annotations table and its annotated_types line.
READINGS: list[tuple[str, Constraints | None]] = [
    ('Description("Where to write.")', Constraints(description="Where to write.")),
    ('Doc("From Doc.")', Constraints(description="From Doc.")),
    ("Range(1, 5)", Constraints(minimum=1, maximum=5)),
    ("Range(min=0.5)", Constraints(minimum=0.5)),
    ("Range(max=5)", Constraints(maximum=5)),
    ("StringLength(50, min_length=2)", Constraints(min_length=2, max_length=50)),
    ("StringLength(10, min_length=0)", Constraints(max_length=10)),
    ("StringLength(10)", Constraints(max_length=10)),
    ("MinLength(0)", Constraints(min_length=0)),
    ("MaxLength(3)", Constraints(max_length=3)),
    ("Length(2, 8)", Constraints(min_length=2, max_length=8)),
    ('Pattern("^[a-z]+$")', Constraints(pattern="^[a-z]+$")),
    ("Email()", Constraints(format="email")),
    ("Url()", Constraints(format="uri")),
    ('JsonName("given")', Constraints(json_name="given")),
    ('Discriminator("action")', Constraints(discriminator="action")),
    ("at.Ge(0)", Constraints(minimum=0)),
    ("at.Le(2.5)", Constraints(maximum=2.5)),
    ("at.Interval(ge=1, le=5)", Constraints(minimum=1, maximum=5)),
    ("at.Interval(ge=1)", Constraints(minimum=1)),
    ("at.Interval(gt=1)", Constraints(minimum=2)),  # exact on an integer type (others: OLT013)
    ("at.Interval(gt=0, lt=10)", Constraints(minimum=1, maximum=9)),
    ("at.Gt(0)", Constraints(minimum=1)),
    ("at.Gt(0.5)", Constraints()),  # not exact: refused on every type (OLT013)
    ("at.Lt(10)", Constraints(maximum=9)),
    (
        'StringConstraints(min_length=1, max_length=8, pattern="^a")',
        Constraints(min_length=1, max_length=8, pattern="^a"),
    ),
    ("StringConstraints(strip_whitespace=True)", Constraints()),  # refused (OLT013)
    ("at.MinLen(1)", Constraints(min_length=1)),
    ("at.MaxLen(9)", Constraints(max_length=9)),
    ("at.Len(1, 3)", Constraints(min_length=1, max_length=3)),
    ("at.Len(2)", Constraints(min_length=2)),
]


def _static_name(obj: object) -> str:
    cls = type(obj)
    return f"{cls.__module__}.{cls.__qualname__}"


def _runtime_reading(text: str) -> tuple[str, Marker | None]:
    obj = eval(text, NAMESPACE)
    return _static_name(obj), markers.read_object(obj)


def _static_reading(fullname: str, text: str) -> Marker | None:
    call = ast.parse(text, mode="eval").body
    assert isinstance(call, ast.Call)
    return source.marker_from_call(fullname, call, lambda expr: None)


def _row_of(text: str) -> MarkerSpec:
    fullname, _ = _runtime_reading(text)
    spec = markers.spec_for_call(fullname)
    assert spec is not None, fullname
    return spec


@pytest.mark.parametrize(("text", "expected"), READINGS, ids=[t for t, _ in READINGS])
def test_runtime_and_static_read_a_marker_alike(text: str, expected: Constraints | None) -> None:
    fullname, at_runtime = _runtime_reading(text)
    statically = _static_reading(fullname, text)
    assert at_runtime == statically
    if expected is None:
        assert at_runtime is None
    else:
        assert at_runtime is not None and at_runtime.constraints == expected
        assert at_runtime.spec is markers.spec_for_call(fullname)


def test_the_readings_cover_every_row() -> None:
    covered = {id(_row_of(text)) for text, _ in READINGS}
    missing = [spec.static_names for spec in TABLE if id(spec) not in covered]
    assert missing == []


def _resolve(name: str) -> type | None:
    module, _, attr = name.rpartition(".")
    found = getattr(importlib.import_module(module), attr, None)
    return found if isinstance(found, type) else None


@pytest.mark.parametrize("spec", TABLE, ids=[s.static_names[0] for s in TABLE])
def test_every_row_is_complete(spec: MarkerSpec) -> None:
    assert spec.display.isidentifier()
    assert spec.fits in get_args(markers.Fits)
    assert spec.fix
    assert spec.runtime and len(set(spec.static_names)) == len(spec.static_names)
    classes = [c for c in (_resolve(n) for n in spec.static_names) if c is not None]
    assert classes, f"none of {spec.static_names} can be imported"
    for cls in classes:  # the signature both sides read by is the class's own
        params = inspect.signature(cls).parameters.values()
        written = [(p.name, REQUIRED if p.default is inspect.Parameter.empty else p.default) for p in params]
        assert written == [(p.name, p.default) for p in spec.signature]
    assert len(inspect.signature(spec.read).parameters) == len(spec.signature)
    for name in spec.static_names:
        assert markers.spec_for_call(name) is spec


def test_no_two_rows_claim_a_name() -> None:
    names = [n for spec in TABLE for n in spec.static_names]
    assert len(names) == len(set(names))


#: (annotation, exact message): a marker on a type it does not fit, and values it refuses.
REFUSALS: list[tuple[str, object, str, str]] = [
    ("Description", Annotated[int, Description("Any type.")], "", ""),
    ("Doc", Annotated[list[int], typing_extensions.Doc("Any type.")], "", ""),
    (
        "Range",
        Annotated[str, Range(1, 5)],
        "OLT013",
        "Range applies to numbers, not to 'str'; remove the annotation or change the type",
    ),
    (
        "Range swapped",
        Annotated[int, Range(5, 1)],
        "OLT013",
        "Range(5, 1) has its minimum above its maximum; swap the bounds",
    ),
    (
        "StringLength",
        Annotated[list[str], StringLength(5)],
        "OLT013",
        "StringLength applies to strings, not to 'list[str]'; remove the annotation or change the type",
    ),
    (
        "StringLength values",
        Annotated[str, StringLength(5, min_length=9)],
        "OLT013",
        "StringLength(5, min_length=9) needs 0 <= min_length <= max; fix the bounds",
    ),
    (
        "MinLength",
        Annotated[int, MinLength(1)],
        "OLT013",
        "MinLength applies to strings and arrays, not to 'int'; remove the annotation or change the type",
    ),
    (
        "MinLength negative",
        Annotated[str, MinLength(-1)],
        "OLT013",
        "MinLength needs lengths of 0 or more; fix the bounds",
    ),
    (
        "MaxLength",
        Annotated[bool, MaxLength(1)],
        "OLT013",
        "MaxLength applies to strings and arrays, not to 'bool'; remove the annotation or change the type",
    ),
    (
        "MaxLength negative",
        Annotated[str, MaxLength(-1)],
        "OLT013",
        "MaxLength needs lengths of 0 or more; fix the bounds",
    ),
    (
        "Length",
        Annotated[dict[str, int], Length(1, 2)],
        "OLT013",
        "Length applies to strings and arrays, not to 'dict[str, int]'; remove the annotation or change the type",
    ),
    (
        "Length swapped",
        Annotated[str, Length(5, 2)],
        "OLT013",
        "Length(5, 2) has its minimum above its maximum; swap the bounds",
    ),
    (
        "Pattern",
        Annotated[int, Pattern("^a")],
        "OLT013",
        "Pattern applies to strings, not to 'int'; remove the annotation or change the type",
    ),
    (
        "Pattern unreadable",
        Annotated[str, Pattern("(?<=a)b")],
        "OLT013",
        "Pattern('(?<=a)b') cannot be used: '(?<=' (lookbehind) is read differently by JSON Schema validators and Python; rewrite the pattern without it",
    ),
    (
        "Email",
        Annotated[int, Email()],
        "OLT013",
        "Email applies to strings, not to 'int'; remove the annotation or change the type",
    ),
    (
        "Url",
        Annotated[list[str], Url()],
        "OLT013",
        "Url applies to strings, not to 'list[str]'; remove the annotation or change the type",
    ),
    (
        "JsonName",
        Annotated[str, JsonName("y")],
        "OLT013",
        "JsonName cannot be used here (tool parameters are never renamed); remove it",
    ),
    (
        "Discriminator",
        Annotated[str, Discriminator("action")],
        "OLT012",
        "Discriminator('action') applies only to a union of records, not to 'str'",
    ),
    (
        "at.Ge",
        Annotated[str, at.Ge(1)],
        "OLT013",
        "Range applies to numbers, not to 'str'; remove the annotation or change the type",
    ),
    (
        "at.Le",
        Annotated[bool, at.Le(1)],
        "OLT013",
        "Range applies to numbers, not to 'bool'; remove the annotation or change the type",
    ),
    (
        "at.Interval",
        Annotated[str, at.Interval(ge=1, le=2)],
        "OLT013",
        "Range applies to numbers, not to 'str'; remove the annotation or change the type",
    ),
    (
        "at.Interval swapped",
        Annotated[int, at.Interval(ge=5, le=1)],
        "OLT013",
        "Range(5, 1) has its minimum above its maximum; swap the bounds",
    ),
    (
        "at.MinLen",
        Annotated[float, at.MinLen(1)],
        "OLT013",
        "MinLength applies to strings and arrays, not to 'float'; remove the annotation or change the type",
    ),
    (
        "at.MaxLen",
        Annotated[float, at.MaxLen(3)],
        "OLT013",
        "MaxLength applies to strings and arrays, not to 'float'; remove the annotation or change the type",
    ),
    (
        "at.MaxLen negative",
        Annotated[str, at.MaxLen(-1)],
        "OLT013",
        "MaxLength needs lengths of 0 or more; fix the bounds",
    ),
    (
        "at.Len",
        Annotated[int, at.Len(1, 3)],
        "OLT013",
        "Length applies to strings and arrays, not to 'int'; remove the annotation or change the type",
    ),
    (
        "at.Len min only",
        Annotated[int, at.Len(2)],
        "OLT013",
        "Length applies to strings and arrays, not to 'int'; remove the annotation or change the type",
    ),
    (
        "at.Gt",
        Annotated[str, at.Gt(1)],
        "OLT013",
        "Gt applies to numbers, not to 'str'; remove the annotation or change the type",
    ),
    (
        "at.Lt",
        Annotated[bool, at.Lt(1)],
        "OLT013",
        "Lt applies to numbers, not to 'bool'; remove the annotation or change the type",
    ),
    (
        "StringConstraints",
        Annotated[int, StringConstraints(max_length=3)],
        "OLT013",
        "StringConstraints applies to strings, not to 'int'; remove the annotation or change the type",
    ),
    (
        "at.Len swapped",
        Annotated[str, at.Len(5, 2)],
        "OLT013",
        "Length(5, 2) has its minimum above its maximum; swap the bounds",
    ),
]


@pytest.mark.parametrize(("label", "annotation", "code", "text"), REFUSALS, ids=[r[0] for r in REFUSALS])
def test_a_marker_is_refused_with_its_rows_text(label: str, annotation: object, code: str, text: str) -> None:
    if not code:
        tool_with(annotation)  # fits every type
        return
    assert refusal(lambda: tool_with(annotation)) == ([code], f"Tool 'f': Parameter 'x': {text}  [{code}]")


def test_the_refusals_cover_every_row_that_can_misfit() -> None:
    covered = set()
    for _, annotation, _, _ in REFUSALS:
        for meta in getattr(annotation, "__metadata__", ()):
            m = markers.read_object(meta)
            assert m is not None
            covered.add(id(m.spec))
    assert [s.static_names for s in TABLE if id(s) not in covered] == []


def _specs_in(node: TypeNode, seen: set[int], out: set[int]) -> None:
    if id(node) in seen:
        return
    seen.add(id(node))
    if isinstance(node, AnnotatedNode):
        out.update(id(m.spec) for m in node.markers)
    if isinstance(node, (AnnotatedNode, Nullable)):
        _specs_in(node.inner, seen, out)
    elif isinstance(node, ArrayType):
        _specs_in(node.item, seen, out)
    elif isinstance(node, MapType):
        _specs_in(node.value, seen, out)
    elif isinstance(node, Record):
        for f in node.fields:
            _specs_in(f.type, seen, out)
    elif isinstance(node, UnionType):
        for member in node.members:
            _specs_in(member, seen, out)


def test_every_row_is_written_in_a_valid_corpus_module() -> None:
    """So the static == runtime manifest tests over test-data read every row on both sides."""
    found: set[int] = set()
    seen: set[int] = set()
    for path in _corpus.valid_modules():
        module = _corpus.load_module(path)
        tools = [v for v in vars(module).values() if isinstance(v, Tool)]
        tools += [
            a for v in vars(module).values() if isinstance(v, type) for a in vars(v).values() if isinstance(a, Tool)
        ]
        for t in tools:
            for p in t.model.params:
                _specs_in(p.type, seen, found)
            if t.model.returns.type is not None:
                _specs_in(t.model.returns.type, seen, found)
    assert [s.static_names for s in TABLE if id(s) not in found] == []


def test_markers_are_frozen_values_compared_by_row_and_arguments() -> None:
    a, b = markers.read_object(Range(1, 5)), markers.read_object(Range(1, 5))
    assert a is not None and a == b and hash(a) == hash(b)
    assert a != markers.read_object(Range(1, 6))
    assert a != markers.read_object(at.Interval(ge=1, le=5))  # another row, the same constraints
    with pytest.raises(dataclasses.FrozenInstanceError):
        a.constraints.minimum = 2  # type: ignore[misc]


_KEYWORDS = {"minimum": "minimum", "maximum": "maximum", "minLength": "min_length", "maxLength": "max_length"}


@pytest.mark.parametrize(
    "node", [Scalar(kind) for kind in ScalarKind] + [Scalar(ScalarKind.INT, -128, 127, "Int8")], ids=repr
)
def test_a_scalars_own_bounds_are_those_its_fragment_writes(node: Scalar) -> None:
    """The binder enforces ``scalar_constraints``; the schema writes the fragment: they agree."""
    written = {_KEYWORDS[k]: v for k, v in schema.fragment(node, None).items() if k in _KEYWORDS}
    c = markers.scalar_constraints(node)
    assert written == {k: v for k, v in c.items()}


def test_the_binder_enforces_the_bounds_of_every_layer_as_the_schema_writes_them() -> None:
    """Inner layers first, each ``Annotated`` over the ones inside it; a sized integer's range under all."""
    from onellm_runtime import Int8

    node = typing_front.lower_type(Annotated[Optional[Annotated[Int8, Range(min=0)]], Range(max=9), at.Ge(2)])
    assert json.dumps(schema.fragment(node, None)) == '{"type": ["integer", "null"], "minimum": 2, "maximum": 9}'
    assert markers.constraints_of(node) == Constraints(minimum=2, maximum=9)
    inner = typing_front.lower_type(Annotated[Int8, Range(min=0)])
    assert markers.constraints_of(inner) == Constraints(minimum=0, maximum=127)


def test_a_copied_marker_keeps_its_row() -> None:
    import copy
    import pickle

    m = markers.read_object(Range(1, 5))
    assert m is not None
    assert copy.deepcopy(m).spec is m.spec and pickle.loads(pickle.dumps(m)) == m
