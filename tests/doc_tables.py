"""Reading the tables of the pages in ``docs/``, and holding a table of the code to a page both ways.

A concept with rows in the code (scalar types, markers, providers, OLT codes, ...) has its rows
on a page too. ``unmatched`` compares the two sets of names and says, for each name on one side
only, which file to edit: the page, when the code has a row the page lacks; the code's table,
when the page names a row the code does not have.
"""

from __future__ import annotations

import builtins
import importlib
import re
from collections.abc import Iterable
from pathlib import Path

import onellm_runtime

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"


def page(name: str) -> str:
    """The text of ``docs/<name>``."""
    return (DOCS / name).read_text(encoding="utf-8")


def section(text: str, title: str) -> list[str]:
    """The lines under the heading whose text ends with ``title``, up to the next heading of its level or above."""
    lines = text.splitlines()
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
    raise AssertionError(f"no heading ending in {title!r}")


def table(lines: list[str]) -> list[list[str]]:
    """The rows (cells stripped, ``\\|`` unescaped) of the first table in ``lines``, header and rule left out."""
    rows: list[str] = []
    for line in lines:
        if line.startswith("|"):
            rows.append(line)
        elif rows:
            break
    cells = [[c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", row)[1:-1]] for row in rows]
    assert len(cells) > 2, "no table with rows here"
    return cells[2:]


def backticked(text: str) -> list[str]:
    """The spans written in backticks, in order."""
    return re.findall(r"`([^`]+)`", text)


def resolve(name: str) -> object:
    """The object a type name on a page stands for: a builtin, a dotted name, or an onellm name."""
    if "." in name:
        module, _, attr = name.rpartition(".")
        return getattr(importlib.import_module(module), attr)
    if hasattr(builtins, name):
        return getattr(builtins, name)
    return getattr(onellm_runtime, name)


#: One name in backticks, optionally followed by a remark in parentheses: a scalar row's type cell.
_SCALAR_CELL = re.compile(r"^`([A-Za-z_][\w.]*)`(?: \(.*\))?$")


def scalar_rows(text: str) -> list[tuple[str, str, str]]:
    """(type name, fragment, status) of the types table's rows that name one type and one fragment."""
    found = []
    for python_type, frag, _accepts, status in table(section(text, "The types table")):
        m = _SCALAR_CELL.match(python_type)
        if m and frag.startswith("`{") and frag.endswith("}`"):
            found.append((m.group(1), frag[1:-1], status))
    return found


def unmatched(code: Iterable[str], documented: Iterable[str], *, concept: str, source: str, place: str) -> list[str]:
    """One message per name found on one side only, naming the row and the file to edit.

    ``source`` is the code's table (``onellm_runtime/core/scalars.py, ScalarKind``), ``place``
    the page and its part (``docs/contract.md, "The types table"``).
    """
    in_code, on_page = list(dict.fromkeys(code)), list(dict.fromkeys(documented))
    messages = [
        f"{concept} {name!r} is a row of {source} but has no row in {place}: add it there"
        for name in in_code
        if name not in on_page
    ]
    messages += [
        f"{place} has a row for {concept} {name!r}, which is no row of {source}: "
        "remove it from the page, or add the row to the code"
        for name in on_page
        if name not in in_code
    ]
    return messages
