"""Where the ``Any`` -> ``JsonValue`` quick fix imports ``JsonValue``: read from the module's tree.

Finding the place needs the whole module parsed (an import may come anywhere at the top
level), which costs about half a second on a megabyte of source. The check process
(``checkworker``) parses the buffer anyway, so it works this out there and hands it to
the server with the findings; the server's answer to a code action then costs no parse.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

__all__ = ["ImportEdit", "json_value_import"]


@dataclass(frozen=True)
class ImportEdit:
    """Insert ``text`` at ``line``, ``column`` (0-based); an empty ``text``: ``JsonValue`` is imported already."""

    line: int
    column: int
    text: str


def json_value_import(source: str) -> ImportEdit | None:
    """The edit that imports ``JsonValue`` into ``source``; None when ``source`` does not parse."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return None
    last_import: ast.stmt | None = None
    runtime_import: ast.ImportFrom | None = None
    for stmt in tree.body:
        if isinstance(stmt, (ast.Import, ast.ImportFrom)):
            last_import = stmt
            if isinstance(stmt, ast.ImportFrom) and stmt.module == "onellm_runtime" and stmt.level == 0:
                if any(alias.name == "JsonValue" and alias.asname in (None, "JsonValue") for alias in stmt.names):
                    return ImportEdit(0, 0, "")
                if runtime_import is None and stmt.lineno == stmt.end_lineno:
                    runtime_import = stmt
    if runtime_import is not None:
        # ``from onellm_runtime import tool`` -> ``from onellm_runtime import JsonValue, tool``
        return ImportEdit(runtime_import.lineno - 1, runtime_import.names[0].col_offset, "JsonValue, ")
    line = last_import.end_lineno if last_import is not None and last_import.end_lineno else 0
    return ImportEdit(line, 0, "from onellm_runtime import JsonValue\n")
