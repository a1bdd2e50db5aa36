"""docs/contract.md stays in step with the code where a machine can tell.

The page is the reference users read, so its tables are checked against what they describe:
the keyword order against the schema writer's, the diagnostics table against the code table
the mypy plugin registers, and each scalar row of the types table (and the sized integers)
against the fragment the runtime really writes. A row marked planned must really not be
implemented yet, so the marker cannot outlive the rule's arrival unnoticed; and the list of
planned rules at the end cites only sections that still hold a planned rule.
"""

from __future__ import annotations

import builtins
import enum
import importlib
import json
import re
from pathlib import Path

import pytest
from schema_support import fragment, tool_with

import onellm_runtime
from onellm_runtime import ToolDefinitionError
from onellm_runtime.core.codes import CODES
from onellm_runtime.core.schema import KEYWORD_ORDER

DOC = (Path(__file__).resolve().parent.parent / "docs" / "contract.md").read_text(encoding="utf-8")


def _section(title: str) -> list[str]:
    """The lines under the heading whose text ends with ``title``, up to the next heading of its level or above."""
    lines = DOC.splitlines()
    for i, line in enumerate(lines):
        m = re.match(r"(#+) (.*)$", line)
        if m and m.group(2).endswith(title):
            level = len(m.group(1))
            body: list[str] = []
            for rest in lines[i + 1 :]:
                h = re.match(r"(#+) ", rest)
                if h and len(h.group(1)) <= level:
                    break
                body.append(rest)
            return body
    raise AssertionError(f"docs/contract.md has no heading ending in {title!r}")


def _table(title: str) -> list[list[str]]:
    """The rows (cells stripped, ``\\|`` unescaped) of the first table in a section, header and rule left out."""
    rows = [line for line in _section(title) if line.startswith("|")]
    cells = [[c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", row)[1:-1]] for row in rows]
    assert len(cells) > 2, f"no table under {title!r}"
    return cells[2:]


def _resolve(name: str) -> object:
    """The object a type name in the doc stands for: a builtin, a dotted stdlib name, or an onellm name."""
    if "." in name:
        module, _, attr = name.rpartition(".")
        return getattr(importlib.import_module(module), attr)
    if hasattr(builtins, name):
        return getattr(builtins, name)
    return getattr(onellm_runtime, name)


def test_keyword_order_is_the_schema_writers() -> None:
    block = "\n".join(_section("Keyword order"))
    m = re.search(r"```text\n(.*?)\n```", block, re.S)
    assert m, "the keyword order is written in a text block"
    assert [k.strip() for k in m.group(1).split(",")] == list(KEYWORD_ORDER)


def test_diagnostics_table_has_every_code_with_its_meaning() -> None:
    rows = _table("Diagnostics")
    assert [(r[0], r[1]) for r in rows] == list(CODES.items())


# One name in backticks, optionally followed by a remark in parentheses: the scalar rows.
_SCALAR_CELL = re.compile(r"^`([A-Za-z_][\w.]*)`(?: \(.*\))?$")


def _scalar_rows() -> list[tuple[str, str, str]]:
    found = []
    for python_type, frag, _accepts, status in _table("The types table"):
        m = _SCALAR_CELL.match(python_type)
        if m and frag.startswith("`{") and frag.endswith("}`"):
            found.append((m.group(1), frag[1:-1], status))
    return found


SCALAR_ROWS = _scalar_rows()


def test_the_scalar_rows_are_all_found() -> None:
    assert [name for name, _, _ in SCALAR_ROWS] == [
        "bool", "int", "float", "decimal.Decimal", "str", "Char", "uuid.UUID", "datetime.datetime",
        "datetime.date", "datetime.time", "datetime.timedelta", "bytes", "ipaddress.IPv4Address",
        "ipaddress.IPv6Address", "JsonValue", "JsonObject", "JsonArray",
    ]  # fmt: skip


@pytest.mark.parametrize(("name", "doc_fragment", "status"), SCALAR_ROWS, ids=[r[0] for r in SCALAR_ROWS])
def test_scalar_row_is_what_the_runtime_writes(name: str, doc_fragment: str, status: str) -> None:
    tp = _resolve(name)
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
        assert fragment(_resolve(alias)) == json.dumps(expected), alias


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
