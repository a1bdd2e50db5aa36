"""The shared docstring parser (contract: "Docstrings", "Parameters", "Records").

Every expected value here was written by hand from the rules, not captured from a run.
"""

from __future__ import annotations

import inspect
import textwrap
import time
from typing import Annotated

import pytest

from onellm_runtime import Description, tool
from onellm_runtime.core.docstrings import field_description, flatten, parse_docstring

# --- flatten ----------------------------------------------------------------

FLATTEN_CASES = [
    ("", ""),
    ("   \n\t  ", ""),
    ("  Hello,\n   world.  ", "Hello, world."),
    ("a\t\tb\n\nc", "a b c"),
    ("Uses :class:`~a.b.X` here.", "Uses X here."),
    ("Calls :func:`a.b.f`.", "Calls a.b.f."),
    ("See :meth:`the title <a.b>` too.", "See the title too."),
    ("A :py:class:`pkg.Thing` and :py:meth:`~pkg.Thing.run`.", "A pkg.Thing and run."),
    ("Raises :exc:`ValueError`.", "Raises ValueError."),
    ("Silent :func:`!nolink` role.", "Silent nolink role."),
    ("Method :meth:`~a.B.go()` call.", "Method go() call."),
    ("Role over\n:class:`lines\n  wrapped`", "Role over lines wrapped"),
    ("Pass ``None`` or ``x=1``.", "Pass None or x=1."),
    ("Literal ``a`b`` keeps its tick.", "Literal a`b keeps its tick."),
    ("Default role `x` too.", "Default role x too."),
    ("No *markdown* **changes** [here](x).", "No *markdown* **changes** [here](x)."),
    ("Unclosed `tick stays.", "Unclosed `tick stays."),
    ("Unclosed ``literal stays.", "Unclosed ``literal stays."),
    ("Colon: not a role `x`.", "Colon: not a role x."),
    ("Inside a literal ``:class:`X``` nothing else.", "Inside a literal :class:`X` nothing else."),
]


@pytest.mark.parametrize(("text", "expected"), FLATTEN_CASES)
def test_flatten(text: str, expected: str) -> None:
    assert flatten(text) == expected


# --- parse_docstring: one row per rule of the contract's "Docstrings" section -------
#
# Each row: a docstring as written in source, the tool's parameter names, the tool
# description the contract gives, and the parameter descriptions (in documentation order).

Row = tuple[str, str, tuple[str, ...], str, dict[str, str]]

ENTRY_FORMS: list[Row] = [
    ("google name: text", "Do it.\n\nArgs:\n    q: The query.", ("q",), "Do it.", {"q": "The query."}),
    ("google name (type): text", "Do it.\n\nArgs:\n    q (str): The query.", ("q",), "Do it.", {"q": "The query."}),
    ("dash list", "Do it.\n\nParameters:\n- q: The query.", ("q",), "Do it.", {"q": "The query."}),
    ("star list", "Do it.\n\nParameters:\n* q: The query.", ("q",), "Do it.", {"q": "The query."}),
    ("backticked name", "Do it.\n\nParameters:\n- `q`: The query.", ("q",), "Do it.", {"q": "The query."}),
    ("double-backticked name", "Do it.\n\nArgs:\n- ``q``: The query.", ("q",), "Do it.", {"q": "The query."}),
    ("bold name", "Do it.\n\nParameters:\n- **q**: The query.", ("q",), "Do it.", {"q": "The query."}),
    ("bold name, colon inside", "Do it.\n\nArgs:\n- **q:** The query.", ("q",), "Do it.", {"q": "The query."}),
    ("bulleted and typed", "Do it.\n\nArgs:\n- q (str): The query.", ("q",), "Do it.", {"q": "The query."}),
    (
        "numpy name : type, text below",
        "Do it.\n\nParameters\n----------\nq : str\n    The query.\nn\n    How many.",
        ("q", "n"),
        "Do it.",
        {"q": "The query.", "n": "How many."},
    ),
    (
        "numpy two names",
        "Do it.\n\nParameters\n----------\nx, y : int\n    A point.",
        ("x", "y"),
        "Do it.",
        {"x": "A point.", "y": "A point."},
    ),
    ("sphinx :param name:", "Do it.\n\n:param q: The query.", ("q",), "Do it.", {"q": "The query."}),
    ("sphinx :param type name:", "Do it.\n\n:param str q: The query.", ("q",), "Do it.", {"q": "The query."}),
    (
        "sphinx :arg: and :keyword:",
        "Do it.\n\n:arg q: The query.\n:keyword n: How many.",
        ("q", "n"),
        "Do it.",
        {"q": "The query.", "n": "How many."},
    ),
    (
        "starred names",
        "Do it.\n\nArgs:\n    *args: More.\n    **kwargs: Options.",
        ("args", "kwargs"),
        "Do it.",
        {"args": "More.", "kwargs": "Options."},
    ),
]

HEADINGS: list[Row] = [
    (f"heading {h!r}", f"Do it.\n\n{h}\n    q: The query.", ("q",), "Do it.", {"q": "The query."})
    for h in (
        "Args:",
        "Arguments:",
        "Parameters:",
        "Params:",
        "Keyword Args:",
        "args:",
        "PARAMETERS:",
        "Keyword  args:",
    )
] + [
    (
        "heading indented under text",
        "Do it.\n\nMore.\n    Args:\n    - q: The query.",
        ("q",),
        "Do it.\n\nMore.",
        {"q": "The query."},
    ),
    ("heading on the first line", "Args:\n    q: The query.", ("q",), "", {"q": "The query."}),
    (
        "numpy heading with a colon",
        "Do it.\n\nParameters:\n-----------\nq : str\n    The query.",
        ("q",),
        "Do it.",
        {"q": "The query."},
    ),
    (
        "not a parameters heading",
        "Do it.\n\nOptions:\n- q: The query.",
        ("q",),
        "Do it.\n\nOptions:\n- q: The query.",
        {},
    ),
]

CONTINUATION_AND_END: list[Row] = [
    (
        "continuation lines, deeper, joined with spaces",
        "Do it.\n\nArgs:\n    q: The query,\n        in words.\n    n: How\n       many.",
        ("q", "n"),
        "Do it.",
        {"q": "The query, in words.", "n": "How many."},
    ),
    (
        "a bullet's continuation",
        "Do it.\n\nParameters:\n- q: The query,\n  in words.\n- n: How many.",
        ("q", "n"),
        "Do it.",
        {"q": "The query, in words.", "n": "How many."},
    ),
    (
        "text on the line below the name",
        "Do it.\n\nArgs:\n    q:\n        The query.",
        ("q",),
        "Do it.",
        {"q": "The query."},
    ),
    (
        "a blank line between entries keeps the section",
        "Do it.\n\nArgs:\n    q: The query.\n\n    n: How many.",
        ("q", "n"),
        "Do it.",
        {"q": "The query.", "n": "How many."},
    ),
    (
        "a blank line inside an entry",
        "Do it.\n\nArgs:\n    q: The query.\n\n        Words only.",
        ("q",),
        "Do it.",
        {"q": "The query. Words only."},
    ),
    (
        "ends at a line that is no entry, no blank line before it",
        "Do it.\n\nParameters:\n- q: The query.\nFor the hosted mode:\n- poll the job",
        ("q",),
        "Do it.\n\nFor the hosted mode:\n- poll the job",
        {"q": "The query."},
    ),
    (
        "ends at a line that is no entry, after a blank line",
        "Do it.\n\nArgs:\n    q: The query.\n\nMind the quota.",
        ("q",),
        "Do it.\n\nMind the quota.",
        {"q": "The query."},
    ),
    (
        "ends at a line at another column",
        "Do it.\n\nArgs:\n    q: The query.\nnote: not an entry here.",
        ("q", "note"),
        "Do it.\n\nnote: not an entry here.",
        {"q": "The query."},
    ),
    (
        "ends at a line in the other form (a bulleted list, then no bullet)",
        "Do it.\n\nParameters:\n- q: The query.\n\nUsage: twice a day.",
        ("q",),
        "Do it.\n\nUsage: twice a day.",
        {"q": "The query."},
    ),
    (
        "ends at a capitalised section name",
        "Do it.\n\nArgs:\n    q: The query.\n    Returns: the rows.",
        ("q",),
        "Do it.\n\nReturns: the rows.",
        {"q": "The query."},
    ),
    (
        "a parameter may be called note",
        "Do it.\n\nArgs:\n    note: Why.",
        ("note",),
        "Do it.",
        {"note": "Why."},
    ),
    (
        "an entry with no text names its parameter and says nothing",
        "Do it.\n\nArgs:\n    q: The query.\n    flag:",
        ("q", "flag"),
        "Do it.",
        {"q": "The query."},
    ),
    (
        "ends at the next heading",
        "Do it.\n\nArgs:\n    q: The query.\nReturns:\n    Rows.",
        ("q",),
        "Do it.\n\nReturns:\nRows.",
        {"q": "The query."},
    ),
    (
        "numpy section ends at the next underlined heading",
        "Do it.\n\nParameters\n----------\nq : str\n    The query.\nReturns\n-------\nint\n    Rows.",
        ("q",),
        "Do it.\n\nReturns\nint Rows.",
        {"q": "The query."},
    ),
    (
        "sphinx field continues on deeper lines",
        "Do it.\n\n:param q: The query,\n    in words.\n:returns: Rows.",
        ("q",),
        "Do it.\n\n:returns: Rows.",
        {"q": "The query, in words."},
    ),
]

DESCRIPTION: list[Row] = [
    (
        "everything else, in order",
        "Do it.\n\nArgs:\n    q: The query.\n\nBetween.\n\nKeyword Args:\n    n: How many.\n\nAfter.",
        ("q", "n"),
        "Do it.\n\nBetween.\n\nAfter.",
        {"q": "The query.", "n": "How many."},
    ),
    (
        "an entry naming nothing the tool has stays, under its heading",
        "Do it.\n\nArgs:\n    q: The query.\n    recursive: Not supported.",
        ("q",),
        "Do it.\n\nArgs:\nrecursive: Not supported.",
        {"q": "The query.", "recursive": "Not supported."},
    ),
    (
        "an entry for a parameter the runtime fills in is taken out",
        "Do it.\n\nArgs:\n    q: The query.\n    ctx: The context.",
        ("q", "ctx"),
        "Do it.",
        {"q": "The query.", "ctx": "The context."},
    ),
    (
        "other sections keep their headings as written",
        "Do it.\n\nArgs:\n    q: The query.\n\nReturns:\n    int: Rows.\n\nRaises:\n    KeyError: When missing.\n\n"
        "Yields:\n    A row.\n\nExamples:\n    do_it(1)\n\nNotes:\n    Slow.",
        ("q",),
        "Do it.\n\nReturns:\nint: Rows.\n\nRaises:\nKeyError: When missing.\n\nYields:\nA row.\n\nExamples:\ndo_it(1)\n\nNotes:\nSlow.",
        {"q": "The query."},
    ),
    (
        "sphinx fields that are not parameters stay, each on its line",
        "Do it.\n\n:param q: The query.\n:type q: str\n:returns: Rows.\n:rtype: int\n:raises KeyError: When missing.",
        ("q",),
        "Do it.\n\n:type q: str\n:returns: Rows.\n:rtype: int\n:raises KeyError: When missing.",
        {"q": "The query."},
    ),
    (
        "a numpy heading keeps its words, not its underline",
        "Do it.\n\nNotes\n-----\nSlow.",
        (),
        "Do it.\n\nNotes\nSlow.",
        {},
    ),
    (
        "a heading left with no entry disappears, its blank line passed on",
        "Do it.\n\nArgs:\n    q: The query.\nAfter.",
        ("q",),
        "Do it.\n\nAfter.",
        {"q": "The query."},
    ),
    (
        "two headings left with no entry, one after the other",
        "Do it.\n\nArgs:\n    q: The query.\n\nKeyword Args:\n    n: How many.\nAfter.",
        ("q", "n"),
        "Do it.\n\nAfter.",
        {"q": "The query.", "n": "How many."},
    ),
    (
        "of two sections, the one left with an entry keeps its heading",
        "Do it.\n\nArgs:\n    q: The query.\n\nKeyword Args:\n    zz: Unknown.",
        ("q",),
        "Do it.\n\nKeyword Args:\nzz: Unknown.",
        {"q": "The query.", "zz": "Unknown."},
    ),
    (
        "a heading that never had an entry stays",
        "Do it.\n\nArgs:\n    None.",
        (),
        "Do it.\n\nArgs:\nNone.",
        {},
    ),
    (
        "the first entry with text wins; both leave the description",
        "Do it.\n\nArgs:\n    q:\n    q: The query.\n\n:param q: Again.",
        ("q",),
        "Do it.",
        {"q": "The query."},
    ),
    (
        "an attributes section in a function stays",
        "Do it.\n\nAttributes:\n    a: Alpha.",
        (),
        "Do it.\n\nAttributes:\na: Alpha.",
        {},
    ),
]

LAYOUT: list[Row] = [
    ("paragraph lines joined", "Do it\nwith   care.\n\nThen\nrest.", (), "Do it with care.\n\nThen rest.", {}),
    ("blank lines between paragraphs become one", "Do it.\n\n\n\nThen rest.", (), "Do it.\n\nThen rest.", {}),
    (
        "list items keep their line, their indentation dropped",
        "Do it:\n- one\n   * two\n+ three\n1. four\n2) five",
        (),
        "Do it:\n- one\n* two\n+ three\n1. four\n2) five",
        {},
    ),
    ("a list item's deeper line joins it", "Do it:\n- one,\n  more\nAfter.", (), "Do it:\n- one, more\nAfter.", {}),
    ("markdown headings keep their line", "Do it.\n## Usage\nCall it.", (), "Do it.\n## Usage\nCall it.", {}),
    ("a setext heading", "Do it.\n\nUsage\n=====\nCall it.", (), "Do it.\n\nUsage\nCall it.", {}),
    ("not list items", "Use -1 or *all* or 2.5\nnow.", (), "Use -1 or *all* or 2.5 now.", {}),
    (
        "roles and literals keep their text",
        "Read a :class:`~a.b.Docket`\nand ``its`` parts.\n\nArgs:\n    q: See :func:`a.find`.",
        ("q",),
        "Read a Docket and its parts.",
        {"q": "See a.find."},
    ),
    ("no white space at the ends", "\n\n   Do it.   \n\n\n", (), "Do it.", {}),
    ("an empty docstring", "   \n  \n", ("q",), "", {}),
]

ROWS = ENTRY_FORMS + HEADINGS + CONTINUATION_AND_END + DESCRIPTION + LAYOUT


@pytest.mark.parametrize(("doc", "names", "description", "params"), [r[1:] for r in ROWS], ids=[r[0] for r in ROWS])
def test_parse_docstring(doc: str, names: tuple[str, ...], description: str, params: dict[str, str]) -> None:
    parsed = parse_docstring(doc)
    assert parsed.description(names) == description
    assert list(parsed.params.items()) == list(params.items())


# --- cleandoc equivalence (raw __doc__, ast.get_docstring(clean=False), 3.13 dedent) --

# Rows as a function holds them: the lines after the first indented.
INDENTED = [r[1].replace("\n", "\n        ") + "\n        " for r in ROWS if r[1].strip()]


@pytest.mark.parametrize("doc", INDENTED, ids=[r[0] for r in ROWS if r[1].strip()])
def test_same_result_raw_and_dedented(doc: str) -> None:
    raw = parse_docstring(doc)
    assert parse_docstring(inspect.cleandoc(doc)) == raw
    # What Python 3.13 stores: lines after the first dedented, the first kept.
    first, _, rest = doc.partition("\n")
    assert parse_docstring(first + "\n" + textwrap.dedent(rest)) == raw
    # Extra indentation everywhere (a method nested deeper) changes nothing.
    assert parse_docstring(first + "\n" + textwrap.indent(rest, "        ")) == raw


def test_real_function_docstring() -> None:
    def get_docket(number: str, court: str = "") -> str:
        """Fetch a docket.

        Args:
            number: The docket number.
            court: The court id.
        """
        return number + court

    for doc in (get_docket.__doc__, inspect.getdoc(get_docket)):
        parsed = parse_docstring(doc)
        assert parsed.description(("number", "court")) == "Fetch a docket."
        assert dict(parsed.params) == {"number": "The docket number.", "court": "The court id."}


def test_description_and_doc_win_and_a_given_description_wins() -> None:
    def find(q: Annotated[str, Description("Given.")], n: int) -> str:
        """Find things.

        Args:
            q: From the docstring.
            n: How many.
        """
        return q

    made = tool(find)
    assert made.description == "Find things."
    assert made.input_schema["properties"]["q"]["description"] == "Given."
    assert made.input_schema["properties"]["n"]["description"] == "How many."
    given = tool(description="Told.")(find)
    assert given.description == "Told."
    assert given.input_schema["properties"]["n"]["description"] == "How many."


# --- field_description --------------------------------------------------------

CLASS_DOC = parse_docstring(
    """A record.

    Attributes:
        a: From attributes.
        b:

    Args:
        a: From args.
        b: B from args.
        c: C from args.
    """
)

FIELD_CASES = [
    ("a", "From attributes."),  # Attributes wins over Args
    ("b", "B from args."),  # empty Attributes entry falls back to Args
    ("c", "C from args."),
    ("missing", None),
]


@pytest.mark.parametrize(("name", "expected"), FIELD_CASES)
def test_field_description(name: str, expected: str | None) -> None:
    assert field_description(CLASS_DOC, name) == expected


def test_field_description_numpy_parameters() -> None:
    doc = parse_docstring(
        """Record.

        Parameters
        ----------
        size : int
            The size.
        """
    )
    assert field_description(doc, "size") == "The size."
    assert field_description(parse_docstring(None), "size") is None


# --- robustness -----------------------------------------------------------------

GARBAGE = [
    ":",
    "::",
    ":param",
    ":param:",
    ":param x",
    "Args:",
    "Args:\n",
    "Returns\n-------",
    "Parameters\n----------\n",
    "Parameters\n----------\n: int\n    desc",
    "``",
    "`",
    ":class:`",
    ":a:b:c:d:e:f:`x`",
    "Args:\n    (int): no name\n    : nothing",
    "\x00\x01\x02",
    "\ud800 lone surrogate",
    "\n\n\n",
    "\t\t\t",
    "Args:\nx: not indented",
    "   \n  Args:\n      \n",
    "Returns:\n    :",
    "Returns:\n    (: unbalanced",
]


@pytest.mark.parametrize("doc", GARBAGE)
def test_garbage_does_not_raise(doc: str) -> None:
    parsed = parse_docstring(doc)
    assert isinstance(parsed.description(("x",)), str)


def test_garbage_specific_results() -> None:
    assert parse_docstring("Args:\nx: not indented").params == {"x": "not indented"}
    assert parse_docstring("Returns:\n    :").description(()) == "Returns:\n:"
    assert parse_docstring(":param x").description(()) == ":param x"
    # A role has at most four name parts (":c:d:e:f:"), so ":a:b" stays as text.
    assert parse_docstring(":a:b:c:d:e:f:`x`").description(()) == ":a:bx"


def test_non_string_input() -> None:
    assert parse_docstring(b"bytes") == parse_docstring(None)
    assert parse_docstring(42) == parse_docstring("")
    assert flatten(None) == ""


def test_result_is_read_only() -> None:
    parsed = parse_docstring("Do.\n\nArgs:\n    a: Alpha.\n")
    with pytest.raises(TypeError):
        parsed.params["b"] = "x"  # type: ignore[index]


BIG = 200_000

HUGE_DOCS = [
    "word " * (BIG // 5),
    ":a" * (BIG // 2),
    ":param" + " " * BIG,
    "``x`" * (BIG // 4),
    "`" * BIG,
    "``" + "a`" * (BIG // 2),
    ":class:`" + "x" * BIG,
    "Args:\n    x (" + ") " * (BIG // 2),
    "Args:\n    x" + " " * BIG + "(",
    "Args:\n    " + "a" * BIG,
    "Returns:\n    " + "[" * BIG + ":",
    "Parameters\n----------\n" + "x : int\n    d\n" * (BIG // 14),
    "Args:\n" + "    a: b\n" * (BIG // 9),
    "Summary.\n" + "Returns\n-------\n" * (BIG // 16),
    ":meth:`" + " " * BIG + "<" + ">`",
    "\n" * BIG,
    ("x" * 99 + "\n") * (BIG // 100),
]


@pytest.mark.parametrize("doc", HUGE_DOCS, ids=range(len(HUGE_DOCS)))
def test_huge_docstrings_do_not_hang(doc: str) -> None:
    # A hang guard, not a speed target (speed lives in benchmarks/): each input takes well
    # under a second here, while catastrophic backtracking on 200 KB would take minutes.
    started = time.perf_counter()
    parse_docstring(doc)
    flatten(doc)
    assert time.perf_counter() - started < 30.0
