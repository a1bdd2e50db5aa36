"""``onellm check --format github|sarif``: escaped workflow commands with end positions, and a
SARIF 2.1.0 log valid against the official schema (kept in ``tests/sarif/``). Real subprocesses."""

from __future__ import annotations

import json
import re
from pathlib import Path

import jsonschema
import pytest
from cli_support import ROOT, run, write

from onellm_runtime.cli.reports import DOCS_URL, github_escape_data, github_escape_property
from onellm_runtime.core.codes import CODES

SCHEMA = json.loads((ROOT / "tests" / "sarif" / "sarif-schema-2.1.0.json").read_text())

# A file name and a tool name that would inject fields into a workflow command if not escaped.
HOSTILE_NAME = "a,line=999::x%.py"
HOSTILE = """\
from typing import Any
from onellm_runtime import tool


@tool(name="100%\\nsure")
def f(q: str) -> str:
    return q


@tool
def g(q: Any) -> str:
    return ""
"""
OLT008 = (
    "Tool '100%\nsure': the tool name '100%\\nsure' is not 1-64 ASCII letters, digits, '_' or '-'; "
    "pass name=... with a valid name"
)
OLT002 = "Tool 'g': Parameter 'q': 'Any' has no schema; use a concrete type, or JsonValue to accept any JSON value"


@pytest.mark.parametrize(
    ("value", "as_property", "as_data"),
    [
        ("a,b:c", "a%2Cb%3Ac", "a,b:c"),
        ("100%", "100%25", "100%25"),
        ("one\r\ntwo", "one%0D%0Atwo", "one%0D%0Atwo"),
        ("%0A", "%250A", "%250A"),  # escaping is not applied twice
    ],
)
def test_workflow_command_escaping_follows_the_actions_toolkit(value: str, as_property: str, as_data: str) -> None:
    assert github_escape_property(value) == as_property
    assert github_escape_data(value) == as_data


def test_github_format_escapes_properties_and_message_and_gives_end_positions(tmp_path: Path) -> None:
    write(tmp_path, {HOSTILE_NAME: HOSTILE})
    proc = run("check", "--format", "github", HOSTILE_NAME, cwd=tmp_path)
    assert proc.returncode == 1, proc.stderr
    assert proc.stdout == (
        "::error file=a%2Cline=999%3A%3Ax%25.py,line=6,col=1,endLine=7,endColumn=13,title=OLT008::"
        "Tool '100%25%0Asure': the tool name '100%25\\nsure' is not 1-64 ASCII letters, digits, '_' or '-'; "
        "pass name=... with a valid name\n"
        "::error file=a%2Cline=999%3A%3Ax%25.py,line=11,col=7,endLine=11,endColumn=13,title=OLT002::" + OLT002 + "\n"
    )


def test_sarif_log_is_valid_sarif_2_1_0_and_carries_every_finding(tmp_path: Path) -> None:
    write(tmp_path, {HOSTILE_NAME: HOSTILE, "bad.py": "def broken(:\n"})
    proc = run("check", "--format", "sarif", HOSTILE_NAME, "bad.py", cwd=tmp_path)
    assert proc.returncode == 1, proc.stderr
    log = json.loads(proc.stdout)
    jsonschema.Draft4Validator(SCHEMA, format_checker=jsonschema.FormatChecker()).validate(log)
    (only_run,) = log["runs"]
    driver = only_run["tool"]["driver"]
    assert [r["id"] for r in driver["rules"]] == [*CODES, "syntax"]
    assert [(r["ruleId"], r["ruleIndex"], r["message"]["text"]) for r in only_run["results"]] == [
        ("OLT008", 7, OLT008),
        ("OLT002", 1, OLT002),
        ("syntax", 15, "invalid syntax"),
    ]
    assert [r["locations"][0]["physicalLocation"] for r in only_run["results"]] == [
        {
            "artifactLocation": {"uri": "a%2Cline%3D999%3A%3Ax%25.py", "uriBaseId": "%SRCROOT%"},
            "region": {"startLine": 6, "startColumn": 1, "endLine": 7, "endColumn": 13},
        },
        {
            "artifactLocation": {"uri": "a%2Cline%3D999%3A%3Ax%25.py", "uriBaseId": "%SRCROOT%"},
            "region": {"startLine": 11, "startColumn": 7, "endLine": 11, "endColumn": 13},
        },
        {
            "artifactLocation": {"uri": "bad.py", "uriBaseId": "%SRCROOT%"},
            "region": {"startLine": 1, "startColumn": 12, "endLine": 1, "endColumn": 13},
        },
    ]


def test_sarif_rules_link_to_an_anchor_that_exists_in_the_docs(tmp_path: Path) -> None:
    write(tmp_path, {"fine.py": "x = 1\n"})
    proc = run("check", "--format", "sarif", "fine.py", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    log = json.loads(proc.stdout)
    jsonschema.Draft4Validator(SCHEMA, format_checker=jsonschema.FormatChecker()).validate(log)
    assert log["runs"][0]["results"] == []
    for rule in log["runs"][0]["tool"]["driver"]["rules"]:
        page, anchor = rule["helpUri"].removeprefix(DOCS_URL).split("#")
        text = (ROOT / "docs" / page).read_text()
        assert re.search(rf'<a id="{re.escape(anchor)}"></a>', text), rule["helpUri"]


def test_sarif_rules_have_descriptive_names_apart_from_their_ids(tmp_path: Path) -> None:
    # SARIF1001 (Microsoft's SARIF multitool): a rule's name must not repeat its id; it is an
    # identifier, in PascalCase, saying what the rule finds.
    write(tmp_path, {"fine.py": "x = 1\n"})
    proc = run("check", "--format", "sarif", "fine.py", cwd=tmp_path)
    rules = json.loads(proc.stdout)["runs"][0]["tool"]["driver"]["rules"]
    names = {r["id"]: r["name"] for r in rules}
    assert names["OLT002"] == "ParameterTypeHasNoSchema"
    assert names["syntax"] == "FileNotParsed"
    for code, name in names.items():
        assert name != code and re.fullmatch(r"[A-Z][A-Za-z]+", name), (code, name)
    assert len(set(names.values())) == len(names)
