"""What the schema build's shortcuts and caches must never change.

Each shortcut has a full path beside it (the docstring reader, the complete check,
``get_type_hints``, writing a record's schema again): these tests pin that the two agree, and that what is cached is never
shared where a caller could change it.
"""

from __future__ import annotations

import dataclasses
import json
import random
import sys
import textwrap
from dataclasses import dataclass
from types import MappingProxyType
from typing import Generic, Optional, TypeVar

import pytest

from onellm_runtime import Tool, ToolDefinitionError
from onellm_runtime.core.docstrings import ParsedDocstring, _clean_lines, _read_plain, _Reader, parse_docstring
from onellm_runtime.core.model import (
    ArrayType,
    Default,
    EnumType,
    Nullable,
    Param,
    Returns,
    Scalar,
    ScalarKind,
    ToolModel,
    TypeNode,
)
from onellm_runtime.core.options import DEFAULT_OPTIONS

# --- the one-pass reading of the usual tool docstrings agrees with the reader ---------------

_SUMMARIES = ["Open a ticket (variant 2).", "Search the help centre.", "Sum\nmore lines", "", "A\n----", "See `x`."]
_SUMMARIES += ["- a list item", "# a heading", "1. first", "Two  spaces.", "Has a colon: here", "Tab\there"]
_SUMMARIES += ["For example:", "Returns:", "Note: mind it", ":param x: a field", "Uses ``code`` here.", "Ends:"]
_SUMMARIES += ["Args:", "x\x0cy", "no\u00a0break", "Caf\u00e9 open.", "Line\r\nbreak", "Lone\rreturn", "2 things"]
_SUMMARIES += ["Sum\nReturns:", "Sum\nNote:", "One\r- two", "Para\r\rgraph", "Sum\n:returns: x", "Sum\n  # not"]
_TEXTS = ["The customer the ticket is for.", "A one-line summary.", "Days until due, or null.", "", " Lead.", "a: b"]
_TEXTS += ["Spaced  twice.", "Has\u00a0a no-break space.", "With `code`.", "Ends with a colon:", "x\x0cy"]
_TEXTS += ["Trailing space. ", "Caf\u00e9 open.", "A\ttab."]
_NAMES = [
    "query",
    "limit",
    "due_days",
    "_private",
    "query",
    "*args",
    "1bad",
    "na\u00efve",
    "q (int)",
    "Returns",
    "Note",
    "Query",
    "args",
]
_TAIL_HEADINGS = ["Returns:", "Raises:", "Yields:", "Note:", "Example:", "Returns", "Args:", "Attributes:", "See also:"]
_TAIL_HEADINGS += ["More prose.", "- item", "x: y", "Returns:\n    -------"]
_TAIL_LINES = ["The rows, as a list.", "KeyError: If missing.", "list: the rows", "- an item", "  deeper", ">>> f(1)"]
_TAIL_LINES += ["Ends:", "Raises:", "Args:", ":returns: x", "`code` here", "Two  spaces", "1. first", ""]
_TYPED = ["limit (int)", "due_days (Optional[int])", "query (list of str, optional)", "limit(int)", "query  (int)"]
_TYPED += ["(int)", "limit (b (c))", "limit (a(b)", "query (int", "limit (int) ", "Returns (int)"]
_TYPED += ["query (a:b)", "limit ()"]
_HEADERS = [
    "Args:",
    "Parameters:",
    "Params:",
    "Arguments:",
    "Attributes:",
    "Args: x",
    "Args:  ",
    "Returns:",
    "Attributes",
]


def _plain_docstring(rng: random.Random) -> str:
    """Docstrings of the usual shapes (prose alone; prose, ``Args:`` or ``Attributes:``,
    ``name: text`` lines), each perhaps broken in one of the ways the one-pass reading must
    refuse or read exactly."""
    header = rng.choice(["    ", "    ", "", "  "])
    entry = header + rng.choice(["    ", "    ", "", "        "])
    lines = [rng.choice(_SUMMARIES[:3]) if rng.random() < 0.8 else rng.choice(_SUMMARIES)]
    if rng.random() < 0.05:
        lines.insert(0, rng.choice(["", "   "]))  # the summary on the second line
    for _ in range(rng.randint(0, 2)):
        lines += [rng.choice(["", header, "   "]), header + rng.choice(_SUMMARIES)]
    if rng.random() < 0.15:  # prose alone
        lines.append(rng.choice(["", header, "    \n    "]))
        return "\n".join(lines)
    lines.append(rng.choice(["", "", header, "   "]))
    lines.append(header + (rng.choice(_HEADERS[:5]) if rng.random() < 0.85 else rng.choice(_HEADERS)))
    for _ in range(rng.randint(0, 5)):
        r = rng.random()
        indent = entry if r < 0.9 else entry + " " if r < 0.95 else rng.choice([header, "", "\t"])
        if rng.random() < 0.05:
            lines.append(rng.choice(["", "  ", entry + "more text", entry + "    continued", entry + "- item: x"]))
            continue
        r = rng.random()
        name = rng.choice(_NAMES) if r < 0.1 else rng.choice(_TYPED) if r < 0.25 else rng.choice(_NAMES[:4])
        text = rng.choice(_TEXTS) if rng.random() < 0.1 else rng.choice(_TEXTS[:3])
        lines.append(indent + name + (": " if rng.random() < 0.95 else rng.choice([":", " : ", ":  "])) + text)
    if rng.random() < 0.1:
        lines.append(header + rng.choice(["Returns:", "More text", "", "- a list"]))
    for _ in range(rng.randint(1, 2) if rng.random() < 0.4 else 0):  # sections after the entries
        lines.append(rng.choice(["", "", "   ", header]))
        indent = header if rng.random() < 0.8 else rng.choice([entry, entry + "  ", "", "\t"])
        lines.append(indent + (rng.choice(_TAIL_HEADINGS[:5]) if rng.random() < 0.8 else rng.choice(_TAIL_HEADINGS)))
        for _ in range(rng.randint(0, 2)):
            line = rng.choice(_TAIL_LINES[:3]) if rng.random() < 0.8 else rng.choice(_TAIL_LINES)
            lines.append(rng.choice([entry, entry, entry, header, ""]) + line)
    lines.append(rng.choice([header, "", entry, "    \n    "]))
    return ("\n" if rng.random() < 0.95 else "\r\n").join(lines)


def _read_fully(doc: str) -> ParsedDocstring:
    reader = _Reader(_clean_lines(doc))
    reader.read()
    return ParsedDocstring(MappingProxyType(reader.params), MappingProxyType(reader.attributes), tuple(reader.pieces))


def _name_sets(parsed: ParsedDocstring, rng: random.Random) -> list[set[str]]:
    """What tools a docstring may describe: none of its names, all, each alone, some, others."""
    names = [*parsed.params, *parsed.attributes]
    sets = [set(), set(names), {"other"}, set(names) | {"other"}]
    sets += [{name} for name in names]
    sets += [{name for name in names if rng.random() < 0.5} for _ in range(3)]
    return sets


def test_the_one_pass_reading_agrees_with_the_reader() -> None:
    rng = random.Random(11)
    read = {"prose": 0, "params": 0, "attributes": 0, "sections after": 0, "typed": 0}
    for _ in range(40000):
        doc = _plain_docstring(rng)
        plain = _read_plain(doc)
        if plain is None:
            continue
        read["params" if plain.params else "attributes" if plain.attributes else "prose"] += 1
        typed = type(plain) is ParsedDocstring  # typed entries: the reader's pieces themselves
        read["typed"] += typed
        read["sections after"] += not typed and bool(plain.params) and not plain.pieces[-1].heading
        full = _read_fully(doc)
        assert list(plain.params.items()) == list(full.params.items()), repr(doc)  # the same order too
        assert list(plain.attributes.items()) == list(full.attributes.items()), repr(doc)
        for names in _name_sets(full, rng):
            assert plain.description(names) == full.description(names), (repr(doc), names)
        assert parse_docstring(doc) == plain
        assert not typed or plain == full, repr(doc)
    # the generator reaches each shape of the one-pass reading often enough to mean something
    assert read["params"] > 2000 and read["attributes"] > 300 and read["prose"] > 300, read
    assert read["sections after"] > 500 and read["typed"] > 300, read


def test_the_one_pass_reading_takes_the_usual_tool_docstring_only() -> None:
    doc = """Open a ticket (variant 2).

        Args:
            title: A one-line summary.
            due_days: Days until it is due, or null for none.
            notify: Whether to e-mail.
        """
    parsed = _read_plain(doc)
    assert parsed is not None
    assert parsed.description(("title", "due_days", "notify")) == "Open a ticket (variant 2)."
    assert dict(parsed.params) == {
        "title": "A one-line summary.",
        "due_days": "Days until it is due, or null for none.",
        "notify": "Whether to e-mail.",
    }
    typed = doc.replace("due_days:", "due_days (int):")  # a type: the reader's pieces, read in one pass
    assert _read_plain(typed) == _read_fully(typed) and parse_docstring(typed).params == parsed.params
    # markup, a continuation, a blank line, text after the entries, a list in the summary: the reader's
    for other in (
        doc.replace("A one-line", "A `one`-line"),
        doc.replace("or null", "or\n                null"),
        doc.replace("            notify", "\n            notify"),
        doc + "Mind the quota.\n",
        doc.replace("Open", "- Open"),
    ):
        assert _read_plain(other) is None
        assert parse_docstring(other) == _read_fully(other)


# --- a record's schema is written once, and every tool gets its own copy ------------------


@dataclass
class Spot:
    """A place.

    Attributes:
        name: What it is called.
        tags: Labels.
    """

    name: str
    tags: list[str] = dataclasses.field(default_factory=list)


def _visit(spot: Spot, note: Optional[str] = None) -> str:
    """Visit a spot.

    Args:
        spot: Where to go.
        note: Anything to add.
    """
    return spot.name


# --- a documented property written with its description in place -----------------------

_DESCRIBED_NODES = [
    *[pytest.param(Scalar(kind), id=f"scalar-{kind.name}") for kind in ScalarKind],
    *[pytest.param(Nullable(Scalar(kind)), id=f"optional-{kind.name}") for kind in ScalarKind],
    pytest.param(Scalar(ScalarKind.INT, -(2**31), 2**31 - 1, "Int32"), id="int32"),
    pytest.param(Nullable(Scalar(ScalarKind.INT, -(2**31), 2**31 - 1, "Int32")), id="optional-int32"),
    pytest.param(EnumType("Colour", ("RED", "GREEN")), id="enum"),
    pytest.param(Nullable(EnumType("Colour", ("RED", "GREEN"))), id="optional-enum"),
    pytest.param(ArrayType(Scalar(ScalarKind.STR)), id="list"),
]


@pytest.mark.parametrize("node", _DESCRIBED_NODES)
def test_a_documented_property_is_the_fragment_with_its_description(node: TypeNode) -> None:
    from onellm_runtime.core import schema

    expected = json.dumps(schema._with_description(schema.fragment(node, None), "The text."))
    assert json.dumps(schema._property(node, None, "The text.", Default("none"))) == expected


def test_tools_sharing_a_record_get_schemas_they_can_change_alone() -> None:
    first = Tool.create(_visit).input_schema
    expected = repr(first)
    first["properties"]["spot"]["properties"]["name"]["type"] = "integer"
    first["properties"]["spot"]["required"].append("tags")
    second = Tool.create(_visit, name="visit_again").input_schema
    assert repr(second) == expected
    assert second["properties"]["spot"] is not first["properties"]["spot"]
    second["properties"]["spot"]["properties"]["tags"]["items"]["type"] = "integer"  # a copy's nested dict
    assert repr(Tool.create(_visit, name="visit_third").input_schema) == expected


def test_a_cached_schema_holding_one_dict_twice_would_be_kept_without_sharing() -> None:
    from onellm_runtime.core.schema import _is_tree

    shared: dict[str, object] = {"type": "string"}
    assert _is_tree({"a": {"b": [shared]}, "c": ["x", "x"]}, set())
    assert not _is_tree({"a": shared, "b": shared}, set())
    assert not _is_tree({"a": [shared, shared]}, set())


# --- a class's type variable found nothing in one tool: it still does in another ----------

U = TypeVar("U")


def test_a_type_variable_allowed_in_a_generic_class_is_still_olt004_in_a_function() -> None:
    with pytest.raises((ToolDefinitionError, RuntimeError)) as in_class:  # (before 3.12: wrapped, see test_methods)

        class Box(Generic[U]):
            @Tool.create
            def put(self, item: U) -> str:
                """Put."""
                return ""

    error = in_class.value if isinstance(in_class.value, ToolDefinitionError) else in_class.value.__cause__
    assert isinstance(error, ToolDefinitionError) and error.code == "OLT010"

    def take(item: U) -> str:
        """Take."""
        return ""

    with pytest.raises(ToolDefinitionError) as in_function:
        Tool.create(take)
    assert in_function.value.code == "OLT004"


# --- string annotations: compiled once, read as get_type_hints reads them -----------------


def test_a_quoted_annotation_with_a_none_default_is_what_the_unquoted_one_is() -> None:
    # Python 3.10's get_type_hints makes the quoted one Optional[int]; 3.11 no longer does,
    # and an unquoted 'int = None' never was: every version now reads both alike.
    def quoted(count: "int" = None) -> str:  # type: ignore[assignment]  # noqa: RUF013
        """Count."""
        return ""

    def unquoted(count: int = None) -> str:  # type: ignore[assignment]  # noqa: RUF013
        """Count."""
        return ""

    assert Tool.create(quoted).input_schema == Tool.create(unquoted).input_schema
    assert Tool.create(quoted).input_schema["properties"]["count"] == {"type": "integer"}


def test_string_annotations_needing_the_full_path_still_resolve() -> None:
    namespace: dict[str, object] = {}
    source = textwrap.dedent(
        '''
        from __future__ import annotations
        from typing import Optional
        from dataclasses import dataclass

        @dataclass
        class Item:
            sku: str

        def order(items: list["Item"], first: Optional["Item"] = None) -> str:
            """Order."""
            return ""
        '''
    )
    exec(compile(source, "<order>", "exec"), namespace)
    schema = Tool.create(namespace["order"]).input_schema  # type: ignore[arg-type]
    assert schema["properties"]["items"]["items"]["properties"] == {"sku": {"type": "string"}}
    assert schema["properties"]["first"]["type"] == ["object", "null"]


# --- options and nodes: the shortcuts keep what was given ---------------------------------


def _ping() -> str:
    """Ping."""
    return "pong"


def test_options_equal_to_the_defaults_keep_their_own_values() -> None:
    given = Tool.create(_ping, timeout_seconds=0.0)
    assert type(given.timeout_seconds) is float  # the manifest prints 0.0, not 0
    assert type(Tool.create(_ping).timeout_seconds) is int


def test_a_node_built_with_its_defaults_is_the_node_built_without_them() -> None:
    bare = Param("x", Scalar(ScalarKind.STR))
    spelled = Param("x", Scalar(ScalarKind.STR, None, None, None), "normal", bare.default, None)
    assert bare == spelled and hash(bare) == hash(spelled) and repr(bare) == repr(spelled)
    assert dataclasses.replace(bare, kind="context").kind == "context"
    with pytest.raises(dataclasses.FrozenInstanceError):
        bare.name = "y"  # type: ignore[misc]
    model = ToolModel(function_name="f", docstring=None, params=(bare,), returns=Returns("none"))
    assert model.options is DEFAULT_OPTIONS and model.loc is None and "options" not in vars(model)


def test_bound_copies_share_the_output_schema() -> None:
    class Shop:
        @Tool.create
        def price(self, sku: str) -> Spot:
            """Price."""
            return Spot(sku)

    shop = Shop()
    assert shop.price.output_schema is Shop().price.output_schema
    assert shop.price.output_schema is not None


@pytest.mark.skipif(sys.version_info < (3, 12), reason="PEP 695 syntax needs Python 3.12")
def test_function_type_parameters_are_still_seen() -> None:
    namespace: dict[str, object] = {}
    exec("def first[T](items: list[T]) -> str:\n    '''First.'''\n    return ''\n", namespace)
    with pytest.raises(ToolDefinitionError) as raised:
        Tool.create(namespace["first"])  # type: ignore[arg-type]
    assert raised.value.code == "OLT004"


# --- string annotations: a new alias object per function, looked up by equality when plain -----


def _with_annotations(**annotations: object) -> Tool[..., object]:
    """A new function with these annotations, as a string annotation's evaluation gives them."""
    code = "def g(" + ", ".join(annotations) + ") -> str:\n    return ''\n"
    scope: dict[str, object] = {}
    exec(code, scope)
    g = scope["g"]
    g.__annotations__ = {**annotations, "return": str}  # type: ignore[attr-defined]
    return Tool.create(g)  # type: ignore[arg-type]


def test_equal_plain_aliases_from_different_functions_lower_alike() -> None:
    @dataclasses.dataclass
    class Leg:
        start: str

    first = _with_annotations(legs=list[Leg], table=dict[str, list[int]])
    second = _with_annotations(legs=list[Leg], table=dict[str, list[int]])  # new alias objects, equal ones
    assert first.input_schema == second.input_schema
    assert first.input_schema["properties"]["legs"]["items"]["properties"] == {"start": {"type": "string"}}

    @dataclasses.dataclass
    class Leg2:  # another class of another shape: its alias is not equal to the first's
        end: int

    other = _with_annotations(legs=list[Leg2], table=dict[str, list[int]])
    assert other.input_schema["properties"]["legs"]["items"]["properties"] == {"end": {"type": "integer"}}


def test_an_alias_holding_a_literal_keeps_its_own_order() -> None:
    from typing import Literal

    ab = _with_annotations(x=list[Literal["a", "b"]])
    ba = _with_annotations(x=list[Literal["b", "a"]])  # equal to the first by typing's rules
    assert ab.input_schema["properties"]["x"]["items"]["enum"] == ["a", "b"]
    assert ba.input_schema["properties"]["x"]["items"]["enum"] == ["b", "a"]
