"""The shared docstring parser (contract: "Docstrings", "Parameters", "Records").

Every expected value here was written by hand from the rules, not captured from a run.
"""

from __future__ import annotations

import inspect
import textwrap
import time

import pytest

from onellm_runtime.core.docstrings import ParsedDocstring, field_description, flatten, parse_docstring

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


# --- parse_docstring: one table, each row a docstring as written in source ----

GOOGLE = """Fetch a docket.

    Looks it up by number and
    returns the :class:`~courts.Docket`.

    Args:
        number (str): The docket number,
            e.g. ``"1:23-cv-4"``.
        court: The court id.
        *args: Extra positionals.
        **kwargs (Any): Extra options.

    Keyword Args:
        timeout (float, optional): Seconds to wait.

    Returns:
        Docket: The docket found.

    Raises:
        KeyError: When missing.
    """

NUMPY = """Compute the mean.

    Longer description.

    Parameters
    ----------
    values : list of float
        The values to average.
        Must not be empty.
    weights : list of float, optional
        Per-value weights.
    x, y : int
        Two coordinates.
    *args
        Extra values.
    flag

    Returns
    -------
    float
        The mean.

    See Also
    --------
    median : The middle value.
    """

SPHINX = """Send a message.

    :param to: Who receives it.
    :param str body: The text,
        possibly long.
    :type body: str
    :param Dict[str, int] headers: Extra headers.
    :param *attachments: Files to attach.
    :returns: The message id.
    :rtype: str
    :raises ValueError: If ``to`` is empty.
    """

PARSE_CASES: list[tuple[str, str | None, ParsedDocstring]] = [
    ("none", None, ParsedDocstring("", {}, {}, None)),
    ("empty", "", ParsedDocstring("", {}, {}, None)),
    ("blank", "  \n   \n ", ParsedDocstring("", {}, {}, None)),
    ("summary only", "Just a summary.", ParsedDocstring("Just a summary.", {}, {}, None)),
    (
        "multi paragraph summary",
        """First line.

        Second paragraph
        wraps here.
        """,
        ParsedDocstring("First line. Second paragraph wraps here.", {}, {}, None),
    ),
    (
        "google",
        GOOGLE,
        ParsedDocstring(
            "Fetch a docket. Looks it up by number and returns the Docket.",
            {
                "number": 'The docket number, e.g. "1:23-cv-4".',
                "court": "The court id.",
                "args": "Extra positionals.",
                "kwargs": "Extra options.",
                "timeout": "Seconds to wait.",
            },
            {},
            "The docket found.",
        ),
    ),
    (
        "numpy",
        NUMPY,
        ParsedDocstring(
            "Compute the mean. Longer description.",
            {
                "values": "The values to average. Must not be empty.",
                "weights": "Per-value weights.",
                "x": "Two coordinates.",
                "y": "Two coordinates.",
                "args": "Extra values.",
            },
            {},
            "The mean.",
        ),
    ),
    (
        "sphinx",
        SPHINX,
        ParsedDocstring(
            "Send a message.",
            {
                "to": "Who receives it.",
                "body": "The text, possibly long.",
                "headers": "Extra headers.",
                "attachments": "Files to attach.",
            },
            {},
            "The message id.",
        ),
    ),
    (
        "google attributes and args (class docstring)",
        """A range of lines.

        Attributes:
            start (int): First line, 1-based.
            end: Last line,
                inclusive.

        Args:
            start: Constructor start.
            extra: Only in args.
        """,
        ParsedDocstring(
            "A range of lines.",
            {"start": "Constructor start.", "extra": "Only in args."},
            {"start": "First line, 1-based.", "end": "Last line, inclusive."},
            None,
        ),
    ),
    (
        "numpy attributes",
        """Point.

        Attributes
        ----------
        x : float
            Abscissa.
        y : float
            Ordinate.
        """,
        ParsedDocstring("Point.", {}, {"x": "Abscissa.", "y": "Ordinate."}, None),
    ),
    (
        "sphinx ivar var cvar",
        """Config.

        :ivar name: The name.
        :var int size: The size.
        :cvar registry: Shared registry.
        :vartype size: int
        """,
        ParsedDocstring(
            "Config.",
            {},
            {"name": "The name.", "size": "The size.", "registry": "Shared registry."},
            None,
        ),
    ),
    (
        "headers are case insensitive, Arguments and Return",
        """Do it.

        ARGUMENTS:
            a: Alpha.
        return:
            Just text without a type.
        """,
        ParsedDocstring("Do it.", {"a": "Alpha."}, {}, "Just text without a type."),
    ),
    (
        "Params and Parameters with Google colon",
        """Do it.

        Params:
            a: Alpha.
        Parameters:
            b: Beta.
        Other Parameters:
            c: Gamma.
        Keyword Arguments:
            d: Delta.
        """,
        ParsedDocstring("Do it.", {"a": "Alpha.", "b": "Beta.", "c": "Gamma.", "d": "Delta."}, {}, None),
    ),
    (
        "summary ends at any recognised section, even an unread one",
        """Summary text.

        Example:
            >>> f()

        Args:
            a: Alpha.
        """,
        ParsedDocstring("Summary text.", {"a": "Alpha."}, {}, None),
    ),
    (
        "summary ends at Note",
        """Summary.

        Note:
            Not summary.
        """,
        ParsedDocstring("Summary.", {}, {}, None),
    ),
    (
        "summary ends at the first sphinx field even :raises:",
        """Summary.
        More summary.
        :raises ValueError: bad.
        :param a: Alpha.
        """,
        ParsedDocstring("Summary. More summary.", {"a": "Alpha."}, {}, None),
    ),
    (
        "reST literal block marker is not a header",
        """Summary.

        Example::

            f()
        """,
        ParsedDocstring("Summary. Example:: f()", {}, {}, None),
    ),
    (
        "a role at a line start is not a sphinx field",
        """Returns a
        :class:`~x.Y` instance.
        """,
        ParsedDocstring("Returns a Y instance.", {}, {}, None),
    ),
    (
        "no summary",
        """
        Args:
            a: Alpha.
        """,
        ParsedDocstring("", {"a": "Alpha."}, {}, None),
    ),
    (
        "header on the first line: cleandoc leaves its body unindented",
        """Args:
            a: Alpha.
            b: Beta.
        Returns:
            The sum.
        """,
        ParsedDocstring("", {"a": "Alpha.", "b": "Beta."}, {}, "The sum."),
    ),
    (
        "unindented google body runs to the next section",
        """Do.

        Args:
        a: Alpha.
        b: Beta.

        Returns:
        The value.
        """,
        ParsedDocstring("Do.", {"a": "Alpha.", "b": "Beta."}, {}, "The value."),
    ),
    (
        "entry description starting on the next line, and multi paragraph",
        """Do.

        Args:
            a:
                Alpha on its own line.

                Second paragraph.
            b (list[int]): Beta.
        """,
        ParsedDocstring("Do.", {"a": "Alpha on its own line. Second paragraph.", "b": "Beta."}, {}, None),
    ),
    (
        "google type with parentheses and a colon in the description",
        """Do.

        Args:
            pair (tuple(int, int)): A pair: first, second.
            f (Callable): Uses g(x): see docs.
        """,
        ParsedDocstring(
            "Do.",
            {"pair": "A pair: first, second.", "f": "Uses g(x): see docs."},
            {},
            None,
        ),
    ),
    (
        "google section ends at dedent; stray text after it is not summary",
        """Do.

        Args:
            a: Alpha.

        Trailing prose.
        """,
        ParsedDocstring("Do.", {"a": "Alpha."}, {}, None),
    ),
    (
        "empty descriptions are left out, returns None",
        """Do.

        Args:
            a (int):
            b: Beta.

        Returns:
        """,
        ParsedDocstring("Do.", {"b": "Beta."}, {}, None),
    ),
    (
        "first entry for a name wins",
        """Do.

        Args:
            a: From args.

        :param a: From sphinx.
        """,
        ParsedDocstring("Do.", {"a": "From args."}, {}, None),
    ),
    (
        "unindented continuation in a google section continues the entry",
        """Do.

        Args:
            a: Alpha
            continues here.
            b: Beta.
        """,
        ParsedDocstring("Do.", {"a": "Alpha continues here.", "b": "Beta."}, {}, None),
    ),
    (
        "google returns: type dropped only when it is one word",
        """Do.

        Returns:
            dict[str, int]: Counts
                by key.
        """,
        ParsedDocstring("Do.", {}, {}, "Counts by key."),
    ),
    (
        "google returns: prose with a colon keeps its text",
        """Do.

        Returns:
            A mapping of names: values.
        """,
        ParsedDocstring("Do.", {}, {}, "A mapping of names: values."),
    ),
    (
        "google returns: union type dropped",
        """Do.

        Returns:
            int | None: The count, if any.
        """,
        ParsedDocstring("Do.", {}, {}, "The count, if any."),
    ),
    (
        "numpy returns with names and several entries",
        """Do.

        Returns
        -------
        lo : int
            Lower bound.
        hi : int
            Upper bound.
        """,
        ParsedDocstring("Do.", {}, {}, "Lower bound. Upper bound."),
    ),
    (
        "numpy returns without descriptions keeps the head text",
        """Do.

        Returns
        -------
        int
        """,
        ParsedDocstring("Do.", {}, {}, "int"),
    ),
    (
        "numpy unindented description continues the entry",
        """Do.

        Parameters
        ----------
        a : int
        The alpha.
        """,
        ParsedDocstring("Do.", {"a": "The alpha."}, {}, None),
    ),
    (
        "numpy unknown header underline is not a section",
        """Title
        -----

        Body text.
        """,
        ParsedDocstring("Title ----- Body text.", {}, {}, None),
    ),
    (
        "numpy header with = underline and colon",
        """Do.

        Parameters:
        ===========
        a : int
            Alpha.
        """,
        ParsedDocstring("Do.", {"a": "Alpha."}, {}, None),
    ),
    (
        "sphinx keyword fields, param without name ignored",
        """Do.

        :keyword timeout: Seconds.
        :key retries: Count.
        :arg a: Alpha.
        :argument b: Beta.
        :parameter c: Gamma.
        :param: No name.
        :return: Result.
        """,
        ParsedDocstring(
            "Do.",
            {"timeout": "Seconds.", "retries": "Count.", "a": "Alpha.", "b": "Beta.", "c": "Gamma."},
            {},
            "Result.",
        ),
    ),
    (
        "sphinx continuation and text on the next line",
        """Do.

        :param a:
            Alpha on the
            next lines.
        :returns:
            Many
            lines.
        """,
        ParsedDocstring("Do.", {"a": "Alpha on the next lines."}, {}, "Many lines."),
    ),
    (
        "roles and literals inside entries",
        """Do.

        Args:
            node (:class:`ast.AST`): A :class:`~ast.FunctionDef` or ``None``.
        """,
        ParsedDocstring("Do.", {"node": "A FunctionDef or None."}, {}, None),
    ),
    (
        "windows line endings and tabs",
        "Do\r\n\tthis.\r\n\r\n\tArgs:\r\n\t\ta: Alpha.\r\n",
        ParsedDocstring("Do this.", {"a": "Alpha."}, {}, None),
    ),
    (
        "first line indented too",
        "   Summary here.\n   Args:\n       a: Alpha.\n",
        ParsedDocstring("Summary here.", {"a": "Alpha."}, {}, None),
    ),
]


@pytest.mark.parametrize(("doc", "expected"), [c[1:] for c in PARSE_CASES], ids=[c[0] for c in PARSE_CASES])
def test_parse_docstring(doc: str | None, expected: ParsedDocstring) -> None:
    parsed = parse_docstring(doc)
    assert parsed.summary == expected.summary
    assert dict(parsed.params) == dict(expected.params)
    assert list(parsed.params) == list(expected.params)  # documentation order
    assert dict(parsed.attributes) == dict(expected.attributes)
    assert parsed.returns == expected.returns
    assert parsed == expected


# --- cleandoc equivalence (raw __doc__, ast.get_docstring(clean=False), 3.13 dedent) --

DEDENT_DOCS = [c[1] for c in PARSE_CASES if c[1]]


@pytest.mark.parametrize("doc", DEDENT_DOCS, ids=[c[0] for c in PARSE_CASES if c[1]])
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

    expected = ParsedDocstring("Fetch a docket.", {"number": "The docket number.", "court": "The court id."}, {}, None)
    assert parse_docstring(get_docket.__doc__) == expected
    assert parse_docstring(inspect.getdoc(get_docket)) == expected


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
    assert field_description(ParsedDocstring(), "size") is None


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
    assert isinstance(parsed.summary, str)


def test_garbage_specific_results() -> None:
    assert parse_docstring("Args:\nx: not indented") == ParsedDocstring("", {"x": "not indented"}, {}, None)
    assert parse_docstring("Returns:\n    :") == ParsedDocstring("", {}, {}, ":")
    assert parse_docstring(":param x") == ParsedDocstring(":param x", {}, {}, None)
    # A role has at most four name parts (":c:d:e:f:"), so ":a:b" stays as text.
    assert parse_docstring(":a:b:c:d:e:f:`x`").summary == ":a:bx"


def test_non_string_input() -> None:
    assert parse_docstring(b"bytes") == ParsedDocstring()  # type: ignore[arg-type]
    assert parse_docstring(42) == ParsedDocstring()  # type: ignore[arg-type]
    assert flatten(None) == ""  # type: ignore[arg-type]


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
