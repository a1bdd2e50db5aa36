"""docs/contract.md stays in step with the code where a machine can tell.

The page is the reference users read, so its tables are checked against what they describe:
the keyword order against the schema writer's, the diagnostics table against the code table
the mypy plugin registers, and each scalar row of the types table (and the sized integers)
against the fragment the runtime really writes. A row marked planned must really not be
implemented yet, so the marker cannot outlive the rule's arrival unnoticed; and the list of
planned rules at the end cites only sections that still hold a planned rule. That each row of
the code's tables has its row here, and each row here its code, is tests/test_docs_both_ways.py.
"""

from __future__ import annotations

import enum
import json
import re
from pathlib import Path

import pytest
from doc_tables import page, resolve, scalar_rows, section, table
from schema_support import fragment, tool_with

from onellm_runtime import ToolDefinitionError
from onellm_runtime.core.codes import CODES
from onellm_runtime.core.schema import KEYWORD_ORDER

DOC = page("contract.md")


def _section(title: str) -> list[str]:
    return section(DOC, title)


def _table(title: str) -> list[list[str]]:
    return table(section(DOC, title))


def test_keyword_order_is_the_schema_writers() -> None:
    block = "\n".join(_section("Keyword order"))
    m = re.search(r"```text\n(.*?)\n```", block, re.S)
    assert m, "the keyword order is written in a text block"
    assert [k.strip() for k in m.group(1).split(",")] == list(KEYWORD_ORDER)


def test_diagnostics_table_has_every_code_with_its_meaning() -> None:
    rows = _table("Diagnostics")
    assert [(r[0], r[1]) for r in rows] == list(CODES.items())


#: The rows that name one type and its fragment; tests/test_docs_both_ways.py holds them to ScalarKind.
SCALAR_ROWS = scalar_rows(DOC)


@pytest.mark.parametrize(("name", "doc_fragment", "status"), SCALAR_ROWS, ids=[r[0] for r in SCALAR_ROWS])
def test_scalar_row_is_what_the_runtime_writes(name: str, doc_fragment: str, status: str) -> None:
    tp = resolve(name)
    if status.startswith("**planned**"):
        with pytest.raises(ToolDefinitionError):
            _ = tool_with(tp).input_schema
    else:
        assert status == "implemented"
        assert fragment(tp) == json.dumps(json.loads(doc_fragment))


def test_sized_integer_ranges_are_the_aliases() -> None:
    rows = _table("Sized integers")
    listed = next(r[0] for r in _table("The types table") if r[0].startswith("`Int8`"))
    aliases = [r[0].strip("`") for r in rows]
    assert aliases == re.findall(r"`(\w+)`", listed.split(" (")[0])
    for alias, (_, lo, hi) in zip(aliases, rows, strict=True):
        expected = {"type": "integer", "minimum": int(lo), "maximum": int(hi)}
        assert fragment(resolve(alias)) == json.dumps(expected), alias


class _Shade(enum.Enum):
    LIGHT = "light"
    DARK = "dark"


def test_string_valued_enum_row_status_is_true() -> None:
    row = next(
        r
        for r in _table("The types table")
        if r[0].startswith("an `Enum` subclass whose member values are all strings")
    )
    written = json.loads(fragment(_Shade))["enum"]
    if row[3].startswith("**planned**"):
        assert written == ["LIGHT", "DARK"]
    else:
        assert row[3] == "implemented"
        assert written == ["light", "dark"]


def _slug(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")


def test_links_lead_somewhere() -> None:
    anchors = {_slug(m.group(1)) for m in re.finditer(r"^#+ (.*)$", DOC, re.M)}
    docs = Path(__file__).resolve().parent.parent / "docs"
    for target in re.findall(r"\]\(([^)]+)\)", DOC):
        if target.startswith("#"):
            assert target[1:] in anchors, target
        else:
            assert (docs / target).is_file(), target


def _numbered_sections() -> dict[int, str]:
    """Each numbered section's text (``## 6. Types`` is 6), subsections included."""
    parts = re.split(r"^## (\d+)\. .*$", DOC, flags=re.M)
    return {int(number): body.split("\n## ", 1)[0] for number, body in zip(parts[1::2], parts[2::2], strict=True)}


def test_planned_list_cites_sections_that_still_have_planned_rules() -> None:
    if "**planned**" not in DOC:  # every rule followed: no list either
        assert "## Planned rules at a glance" not in DOC
        return
    items = re.findall(r"^\d+\. (.*(?:\n   .*)*)", "\n".join(_section("Planned rules at a glance")), re.M)
    sections = _numbered_sections()
    assert items, "the list is empty: then the page should have no planned marker left"
    for item in items:
        cited = [int(n) for n in re.findall(r"\b(\d+)\b", " ".join(re.findall(r"sections? [\d, and]+", item)))]
        assert cited, item
        for number in cited:
            assert "**planned**" in sections[number], f"section {number} has no planned rule left: {item}"
