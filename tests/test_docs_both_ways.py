"""Every row of a table in the code has its row on a page of ``docs/``, and every row there its code.

One line of ``TABLES`` per concept: the code's rows, the names the page gives, and a made-up row
for each side. ``test_code_and_page_have_the_same_rows`` holds the two to each other; the two
tests after it add the made-up row to one side only and see the check name it and the file to
edit, so neither direction can pass whatever the page says.
"""

from __future__ import annotations

import re
import typing
from collections.abc import Callable
from dataclasses import dataclass

import pytest
from doc_tables import backticked, page, resolve, scalar_rows, section, table, unmatched
from schema_support import tool_with

from onellm_runtime import ToolDefinitionError
from onellm_runtime.core import docstrings, fields, foreign, markers, metadata
from onellm_runtime.core.codes import CODES
from onellm_runtime.core.model import JsonType, Scalar
from onellm_runtime.core.scalars import ScalarKind
from onellm_runtime.provider_names import PROVIDER_NAMES, PROVIDERS
from onellm_runtime.providers.registry import ADAPTERS


@dataclass(frozen=True)
class DocTable:
    """A concept's rows in the code and on a page, and a made-up row to add to each side."""

    concept: str
    source: str
    page: str
    place: str
    #: The rows' names in the code.
    code: Callable[[], list[str]]
    #: The names the page's text gives.
    documented: Callable[[str], list[str]]
    #: A name no row has, added to the code's names.
    fake_name: str
    #: The page with a made-up row added, and the name that row gives.
    add_fake_row: Callable[[str], str]
    fake_row_name: str


def _after(anchor: str, line: str) -> Callable[[str], str]:
    """Adds ``line`` after the first line of a page that starts with ``anchor``."""

    def add(text: str) -> str:
        lines = text.splitlines()
        at = next(i for i, old in enumerate(lines) if old.startswith(anchor))
        return "\n".join([*lines[: at + 1], line, *lines[at + 1 :]])

    return add


def _replace(old: str, new: str) -> Callable[[str], str]:
    """Writes ``new`` for the one ``old`` on a page."""

    def add(text: str) -> str:
        assert text.count(old) == 1, old
        return text.replace(old, new)

    return add


# -- scalar types: contract.md "The types table" -------------------------------------------------


def _scalar_kind_named(name: str) -> str | None:
    """The ``ScalarKind`` a row's type lowers to; None for the JSON types (``JsonType``, not
    scalars); the name itself when it lowers to no scalar."""
    try:
        node = tool_with(resolve(name)).model.params[0].type
    except (ImportError, AttributeError, ToolDefinitionError):
        return name
    if isinstance(node, JsonType):
        return None
    return node.kind.value if isinstance(node, Scalar) and node.alias is None else name


def documented_scalars(text: str) -> list[str]:
    kinds = [_scalar_kind_named(name) for name, _, status in scalar_rows(text) if status == "implemented"]
    return [k for k in kinds if k is not None]


# -- markers: contract.md sections 9 and 10 -----------------------------------------------------

#: A class as a page writes it: ``Range(min, max)``, ``typing_extensions.Doc("...")``, ``Ge``.
_CLASS = re.compile(r"^(?:\w+\.)*([A-Z]\w*)(?:\(.*\))?$")


def _classes(text: str) -> list[str]:
    return [m.group(1) for span in backticked(text) if (m := _CLASS.match(span))]


#: Names section 10's honoured rows give that are another table's rows: the foreign classes
#: (``core/foreign.py``), pydantic's ``Field`` (``core/fields.py``) and ``BaseModel`` (a record kind).
_NOT_MARKERS = {c.shown for c in foreign.TABLE} | {"Field", "BaseModel"}


def documented_markers(text: str) -> list[str]:
    """The markers section 9 names, and those the rows of section 10's table read (not refuse)."""
    names = _classes("\n".join(section(text, "9. Annotations")))
    for written, read_as, _status in table(section(text, "nothing written is silently ignored")):
        if not read_as.startswith("OLT"):
            names += _classes(written)
    return [n for n in names if n not in _NOT_MARKERS]


# -- metadata classes refused or accepted by full name: diagnostics.md OLT013 ----------------

_OLT013 = "OLT013: an annotation does not fit its type"


def _short(fullname: str) -> str:
    return fullname.rpartition(".")[2]


def metadata_rows() -> list[str]:
    return [f"{_short(n)} ({'accepted' if m is None else 'refused'})" for n, m in metadata.REFUSED_CLASSES.items()]


def _accepted_part(lines: list[str]) -> str:
    """The text after "accepted with no wire meaning:" up to the end of its paragraph."""
    text = "\n".join(lines)
    return text.split("accepted with no wire meaning:", 1)[1].split("\n\n", 1)[0]


def documented_metadata(text: str) -> list[str]:
    """The classes the OLT013 table refuses (a remark in parentheses left out: ``IsDigits``
    is a ``Predicate``), and the classes its "accepted" sentence names; markers and ``Field``
    are the rows of other tables, and a type a row speaks of (``Decimal``) is no row."""
    lines = section(text, _OLT013)
    own = {_short(n) for n in metadata.REFUSED_CLASSES}
    others = {spec.written for spec in markers.TABLE} | {"Field"}
    names = []
    for written, _message in table(lines):
        named = _classes(re.sub(r" \([^)]*\)", "", written))
        # a row that starts with a class (``Unit(...)``, pydantic's ``Discriminator(...)``) is that
        # class's; the classes after it share its message
        starts_with_class = re.match(r"(?:\w+'s )?`", written) is not None
        names += [
            f"{n} (refused)"
            for i, n in enumerate(named)
            if n in own or (i == 0 and starts_with_class and n not in others)
        ]
    names += [f"{n} (accepted)" for n in _classes(_accepted_part(lines)) if n not in others]
    return names


# -- pydantic Field's arguments: contract.md's Field row, and diagnostics.md's refusals --------


def _field_reading(name: str) -> str:
    reading = fields.ARGUMENTS[name]
    if reading == fields.ACCEPTED:
        return "accepted"
    return "refused" if reading == "refused" else "honoured"


def field_rows() -> list[str]:
    return [f"{n} ({_field_reading(n)})" for n in fields.ARGUMENTS if _field_reading(n) != "refused"]


def _field_row(text: str) -> str:
    rows = table(section(text, "nothing written is silently ignored"))
    return next(read_as for written, read_as, _ in rows if written.startswith("pydantic `Field(...)`"))


#: An argument as the Field row writes it: ``ge``, ``strict=True``, ``discriminator="f"``.
_ARGUMENT = re.compile(r"^([a-z_]+)(?:=.*)?$")


def _arguments(text: str) -> list[str]:
    return [m.group(1) for span in backticked(text) if (m := _ARGUMENT.match(span))]


def documented_field_arguments(text: str) -> list[str]:
    """The arguments the Field row reads, then those it accepts; its list of refused examples
    is held to the code by ``test_the_field_arguments_the_contract_refuses_are_refused``."""
    honoured, rest = _field_row(text).split("Arguments with no meaning on the wire", 1)
    accepted = rest.split("Any other argument", 1)[0]
    return [f"{n} (honoured)" for n in _arguments(honoured)] + [f"{n} (accepted)" for n in _arguments(accepted)]


def field_fixes() -> list[str]:
    """Each refused argument with a fix of its own (the rest are refused with "remove it")."""
    refused = [n for n in fields.ARGUMENTS if _field_reading(n) == "refused"]
    texts = {n: fields.refused_argument(n).split("; ", 1)[1] for n in refused}
    return [f"{n}: {fix}" for n, fix in texts.items() if fix != "remove it"]


def documented_field_fixes(text: str) -> list[str]:
    """The OLT013 row of Field arguments: ``Field(title=) ...; <fix>``, then runs of names each
    followed by their fix."""
    row = next(m for w, m in table(section(text, _OLT013)) if w.startswith("a `Field` argument"))
    first, *spans = backticked(row)
    head = re.match(r"Field\((\w+)=\) is not read by onellm; (.*)$", first)
    assert head, row
    found = [f"{head.group(1)}: {head.group(2)}"]
    names: list[str] = []
    for span in spans:
        if re.fullmatch(r"[a-z_]+", span):
            names.append(span)
        else:
            found += [f"{n}: {span}" for n in names]
            names = []
    return found


# -- docstrings: contract.md section 11 ---------------------------------------------------------


def _parameter_rows(kinds: dict[str, str]) -> list[str]:
    return [name for name, kind in kinds.items() if kind == docstrings._PARAMS]


def _parameter_entries(text: str) -> str:
    """Section 11's paragraph on parameter entries, up to the table of entry forms."""
    body = "\n".join(section(text, "11. Docstrings"))
    return body.split("**Parameter entries.**", 1)[1].split("Under it", 1)[0]


def documented_parameter_headings(text: str) -> list[str]:
    """``Args:``, NumPy's ``Parameters`` ...: as the parser keys them, lower case without the colon."""
    return [span.lower().rstrip(":") for span in backticked(_parameter_entries(text))]


def documented_sphinx_parameter_fields(text: str) -> list[str]:
    rows = table(section(text, "11. Docstrings"))
    sphinx = next(written for written, style in rows if style.startswith("Sphinx"))
    return [m.group(1) for span in backticked(sphinx) if (m := re.match(r":(\w+)", span))]


# -- providers: providers.md ------------------------------------------------------------------


def _provider_table(text: str, title: str) -> list[list[str]]:
    return table(section(text, title))


def _provider_of(title: str) -> str:
    """The provider a column or row title names by its first word: ``Gemini `openapi``` -> gemini."""
    return title.split()[0].lower()


def documented_providers(text: str) -> list[str]:
    return [row[0].strip("`") for row in _provider_table(text, "The providers")]


def documented_adapter_columns(text: str) -> list[str]:
    header = next(line for line in section(text, "What each adapter changes") if line.startswith("|"))
    return [_provider_of(cell.strip()) for cell in header.strip("|").split("|")[1:]]


def documented_result_rows(text: str) -> list[str]:
    return [_provider_of(row[0]) for row in _provider_table(text, "Tool results: text, JSON, images and files")]


# -- OLT codes: contract.md's Diagnostics table, diagnostics.md's sections --------------------


def documented_codes_in_contract(text: str) -> list[str]:
    return [row[0] for row in table(section(text, "14. Diagnostics"))]


def documented_code_sections(text: str) -> list[str]:
    return re.findall(r"^## (OLT\d{3}):", text, re.M)


TABLES = [
    DocTable(
        "scalar type",
        "onellm_runtime/core/scalars.py (ScalarKind)",
        "contract.md",
        'docs/contract.md ("The types table")',
        lambda: [k.value for k in ScalarKind],
        documented_scalars,
        "made_up",
        _after(
            "| `bool` |",
            '| `made_up.MadeUp` | `{"type":"string","format":"made-up"}` | a made-up value | implemented |',
        ),
        "made_up.MadeUp",
    ),
    DocTable(
        "marker",
        "onellm_runtime/core/markers.py (TABLE)",
        "contract.md",
        'docs/contract.md ("9. Annotations", and the rows section 10 reads)',
        lambda: [spec.written for spec in markers.TABLE],
        documented_markers,
        "MadeUp",
        _after("| `Email()` |", "| `MadeUp()` | `format: made-up` |"),
        "MadeUp",
    ),
    DocTable(
        "metadata class",
        "onellm_runtime/core/metadata.py (REFUSED_CLASSES)",
        "diagnostics.md",
        'docs/diagnostics.md ("OLT013", its table and its "accepted" sentence)',
        metadata_rows,
        documented_metadata,
        "MadeUp (refused)",
        _after("| `Unit(...)` |", "| `MadeUp(...)` | `MadeUp is not read by onellm; remove it` |"),
        "MadeUp (refused)",
    ),
    DocTable(
        "Field argument",
        "onellm_runtime/core/fields.py (ARGUMENTS)",
        "contract.md",
        "docs/contract.md (section 10, the pydantic Field row)",
        field_rows,
        documented_field_arguments,
        "made_up (accepted)",
        _replace("(`repr`, `init`", "(`made_up`, `repr`, `init`"),
        "made_up (accepted)",
    ),
    DocTable(
        "Field argument's fix",
        "onellm_runtime/core/fields.py (_FIXES)",
        "diagnostics.md",
        'docs/diagnostics.md ("OLT013", the row of Field arguments)',
        field_fixes,
        documented_field_fixes,
        "made_up: remove it (it is made up)",
        _replace("`deprecated` `remove it", "`made_up` `remove it (it is made up)`, `deprecated` `remove it"),
        "made_up: remove it (it is made up)",
    ),
    DocTable(
        "docstring parameters heading",
        "onellm_runtime/core/docstrings.py (_SECTION_KINDS)",
        "contract.md",
        'docs/contract.md ("11. Docstrings", its "Parameter entries")',
        lambda: _parameter_rows(docstrings._SECTION_KINDS),
        documented_parameter_headings,
        "made up",
        _replace("`Params:`,", "`Params:`, `Made Up:`,"),
        "made up",
    ),
    DocTable(
        "Sphinx field of a parameter",
        "onellm_runtime/core/docstrings.py (_FIELD_KINDS)",
        "contract.md",
        'docs/contract.md ("11. Docstrings", the Sphinx row)',
        lambda: _parameter_rows(docstrings._FIELD_KINDS),
        documented_sphinx_parameter_fields,
        "made_up",
        _replace("(also `:parameter:`", "(also `:made_up:`, `:parameter:`"),
        "made_up",
    ),
    DocTable(
        "provider",
        "onellm_runtime/provider_names.py (PROVIDERS)",
        "providers.md",
        'docs/providers.md ("The providers")',
        lambda: list(PROVIDER_NAMES),
        documented_providers,
        "nosuch",
        _after("| `mcp` |", "| `nosuch` | `nosuch_tool(t)` | | no | no |"),
        "nosuch",
    ),
    DocTable(
        "provider",
        "onellm_runtime/provider_names.py (PROVIDERS)",
        "providers.md",
        'docs/providers.md ("What each adapter changes", a column each)',
        lambda: list(PROVIDER_NAMES),
        documented_adapter_columns,
        "nosuch",
        _replace("| MCP |\n|---", "| MCP | Nosuch |\n|---"),
        "nosuch",
    ),
    DocTable(
        "provider with reply shapes",
        "onellm_runtime/provider_names.py (PROVIDERS) and its adapter's replies",
        "providers.md",
        'docs/providers.md ("Tool results: text, JSON, images and files")',
        lambda: [p.name for p in PROVIDERS if ADAPTERS[p.name].replies],
        documented_result_rows,
        "nosuch",
        _after("| MCP (`CallToolResult`) |", "| Nosuch (`tool` message) | | | |"),
        "nosuch",
    ),
    DocTable(
        "OLT code",
        "onellm_runtime/core/codes.py (CODES)",
        "contract.md",
        'docs/contract.md ("14. Diagnostics")',
        lambda: list(CODES),
        documented_codes_in_contract,
        "OLT999",
        _after("| OLT015 |", "| OLT999 | A made-up finding | a made-up finding | implemented |"),
        "OLT999",
    ),
    DocTable(
        "OLT code",
        "onellm_runtime/core/codes.py (CODES)",
        "diagnostics.md",
        'docs/diagnostics.md (a "## OLTnnn:" section each)',
        lambda: list(CODES),
        documented_code_sections,
        "OLT999",
        _after('<a id="olt014"></a>', "## OLT999: a made-up finding"),
        "OLT999",
    ),
]
IDS = [f"{t.concept}-{t.page}-{i}" for i, t in enumerate(TABLES)]


@pytest.mark.parametrize("t", TABLES, ids=IDS)
def test_code_and_page_have_the_same_rows(t: DocTable) -> None:
    problems = unmatched(t.code(), t.documented(page(t.page)), concept=t.concept, source=t.source, place=t.place)
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("t", TABLES, ids=IDS)
def test_a_row_only_in_the_code_is_named_with_the_page_to_edit(t: DocTable) -> None:
    problems = unmatched(
        [*t.code(), t.fake_name], t.documented(page(t.page)), concept=t.concept, source=t.source, place=t.place
    )
    assert f"{t.concept} {t.fake_name!r} is a row of {t.source} but has no row in {t.place}: add it there" in problems


@pytest.mark.parametrize("t", TABLES, ids=IDS)
def test_a_row_only_on_the_page_is_named_with_the_table_to_edit(t: DocTable) -> None:
    problems = unmatched(
        t.code(), t.documented(t.add_fake_row(page(t.page))), concept=t.concept, source=t.source, place=t.place
    )
    assert (
        f"{t.place} has a row for {t.concept} {t.fake_row_name!r}, which is no row of {t.source}: "
        "remove it from the page, or add the row to the code"
    ) in problems


# -- what the rows say, beyond their names ------------------------------------------------------


def test_each_refused_metadata_class_has_its_message() -> None:
    """The message beside the first class a row of the OLT013 table names is that class's own."""
    own = {_short(n): m for n, m in metadata.REFUSED_CLASSES.items() if m is not None}
    for written, message in table(section(page("diagnostics.md"), _OLT013)):
        named = _classes(re.sub(r" \([^)]*\)", "", written))
        if named and named[0] in own:
            assert backticked(message)[0] == own[named[0]], f"docs/diagnostics.md, OLT013, the row {written!r}"


def test_the_field_arguments_the_contract_refuses_are_refused() -> None:
    examples = _arguments(_field_row(page("contract.md")).split("Any other argument", 1)[1].split(" is OLT013", 1)[0])
    assert examples, "the Field row gives examples of refused arguments"
    wrong = [n for n in examples if fields.ARGUMENTS.get(n) != "refused"]
    assert not wrong, f"docs/contract.md's Field row calls {wrong} refused; core/fields.py does not refuse them"


def test_the_diagnostics_page_title_spans_the_codes() -> None:
    first, last = min(CODES), max(CODES)
    title = page("diagnostics.md").splitlines()[0]
    assert title == f"# Diagnostics: {first} \N{EN DASH} {last}", (
        "docs/diagnostics.md: the title names the first and last code"
    )


def test_the_doc_tables_read_json_types_apart_from_scalars() -> None:
    """The three JSON rows are no scalar kinds, and are left out of the scalar rows on purpose."""
    names = [name for name, _, _ in scalar_rows(page("contract.md")) if _scalar_kind_named(name) is None]
    assert names == ["JsonValue", "JsonObject", "JsonArray"]
    assert typing.get_args(typing.get_type_hints(JsonType)["kind"]) == ("value", "object", "array")
