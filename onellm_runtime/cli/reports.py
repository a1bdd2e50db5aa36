"""The formats ``onellm check`` writes its findings in: one function per ``--format`` value.

- ``text``: ``path:line:col: error: message  [CODE]``, as mypy prints with column numbers;
- ``json``: a list of objects (path, line, column, end_line, end_column, code, message);
- ``github``: GitHub Actions workflow commands (``::error file=...::message``), which the
  runner turns into annotations on the pull request's diff;
- ``sarif``: one SARIF 2.1.0 log, for code-scanning tools (GitHub's ``upload-sarif``).

Columns are 1-based; an end column is the column just past the finding's last character.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..core.codes import CODES

__all__ = ["DOCS_URL", "FORMATS", "Finding", "help_uri", "github_escape_data", "github_escape_property", "sarif_log"]

#: Where the project's docs are to be published (its public repository, which is not up yet); a
#: rule's ``helpUri`` is a page and anchor below it.
DOCS_URL = "https://github.com/onellm-tools/onellm/blob/main/docs/"

#: Codes that are not OLT diagnostics: the file could not be read as Python at all.
OTHER_CODES: dict[str, str] = {"syntax": "The file cannot be decoded or parsed as Python"}

#: Each code's rule name in a SARIF log: an identifier that says what the rule finds (SARIF
#: viewers show it beside the id, and Microsoft's SARIF multitool warns when it repeats the id).
RULE_NAMES: dict[str, str] = {
    "OLT001": "ToolDecoratesAFunctionDirectly",
    "OLT002": "ParameterTypeHasNoSchema",
    "OLT003": "ReturnTypeNotSupported",
    "OLT004": "ToolIsGeneric",
    "OLT005": "ClassIsNotARecordKind",
    "OLT006": "TypeRefersToItself",
    "OLT007": "ToolNameRepeated",
    "OLT008": "ToolNameNotValid",
    "OLT009": "ContextParameterRepeated",
    "OLT010": "ContainingClassIsGeneric",
    "OLT011": "NamingNotSupported",
    "OLT012": "UnionHasNoDiscriminator",
    "OLT013": "AnnotationNotRead",
    "OLT014": "ValueNotComputedFromSource",
    "OLT015": "ParameterClashesWithInvocationMode",
    "syntax": "FileNotParsed",
}


@dataclass(frozen=True)
class Finding:
    """One finding as every format writes it."""

    path: str
    line: int
    column: int
    end_line: int
    end_column: int
    code: str
    message: str


def help_uri(code: str) -> str:
    """The docs page and anchor that explains ``code``."""
    page = "diagnostics.md" if code in CODES else "ci.md"
    return f"{DOCS_URL}{page}#{code.lower()}"


def text(findings: Sequence[Finding]) -> str:
    return "".join(f"{f.path}:{f.line}:{f.column}: error: {f.message}  [{f.code}]\n" for f in findings)


def as_json(findings: Sequence[Finding]) -> str:
    rows = [
        {
            "path": f.path,
            "line": f.line,
            "column": f.column,
            "end_line": f.end_line,
            "end_column": f.end_column,
            "code": f.code,
            "message": f.message,
        }
        for f in findings
    ]
    return json.dumps(rows, indent=2) + "\n"


def github_escape_data(value: str) -> str:
    """A workflow command's message, escaped as the Actions toolkit escapes it."""
    return value.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def github_escape_property(value: str) -> str:
    """A workflow command's property value (``file=``, ``title=``): also ``:`` and ``,``."""
    return github_escape_data(value).replace(":", "%3A").replace(",", "%2C")


def github(findings: Sequence[Finding]) -> str:
    lines: list[str] = []
    for f in findings:
        properties = {
            "file": f.path,
            "line": str(f.line),
            "col": str(f.column),
            "endLine": str(f.end_line),
            "endColumn": str(f.end_column),
            "title": f.code,
        }
        written = ",".join(f"{key}={github_escape_property(value)}" for key, value in properties.items())
        lines.append(f"::error {written}::{github_escape_data(f.message)}\n")
    return "".join(lines)


def _uri(path: str) -> str:
    """A path as a SARIF artifact URI: forward slashes, reserved characters percent-encoded."""
    from urllib.parse import quote

    return quote(path.replace("\\", "/"), safe="/")


def sarif(findings: Sequence[Finding]) -> str:
    meanings = {**CODES, **OTHER_CODES}
    rule_ids = list(meanings) + sorted({f.code for f in findings} - set(meanings))
    index = {code: i for i, code in enumerate(rule_ids)}
    rules = [
        {
            "id": code,
            "name": RULE_NAMES.get(code, f"Finding{code.capitalize()}"),
            "shortDescription": {"text": meanings.get(code, code)},
            "helpUri": help_uri(code),
            "defaultConfiguration": {"level": "error"},
        }
        for code in rule_ids
    ]
    results = [
        {
            "ruleId": f.code,
            "ruleIndex": index[f.code],
            "level": "error",
            "message": {"text": f.message},
            "locations": [
                {
                    "physicalLocation": {
                        "artifactLocation": {"uri": _uri(f.path), "uriBaseId": "%SRCROOT%"},
                        "region": {
                            "startLine": f.line,
                            "startColumn": f.column,
                            "endLine": f.end_line,
                            "endColumn": f.end_column,
                        },
                    }
                }
            ],
        }
        for f in findings
    ]
    return json.dumps(sarif_log(rules, results), indent=2) + "\n"


def sarif_log(rules: list[dict[str, Any]], results: list[dict[str, Any]]) -> dict[str, Any]:
    """A SARIF 2.1.0 log of one run of onellm: the rules its results name, and the results."""
    from .. import __version__

    return {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "onellm",
                        "version": __version__,
                        "informationUri": f"{DOCS_URL}ci.md",
                        "rules": rules,
                    }
                },
                "results": results,
            }
        ],
    }


#: ``--format`` value -> the function that writes the findings (in the order given).
FORMATS: dict[str, Callable[[Sequence[Finding]], str]] = {
    "text": text,
    "json": as_json,
    "github": github,
    "sarif": sarif,
}
