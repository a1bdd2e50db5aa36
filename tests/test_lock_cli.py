"""``onellm lock`` and ``onellm diff`` run as a user runs them (a subprocess), on the
project's own ``examples/`` and on a copy of ``examples/ticket_tracker.py`` changed the way
a pull request would change it."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml
from cli_support import ROOT, run

EXAMPLES = ROOT / "examples"

#: A real change: a required parameter added, an enum member removed, a description edited.
EDITS = (
    ('    Urgent = "urgent"\n', ""),
    (
        "        title: Annotated[str, MaxLength(120)],\n",
        "        title: Annotated[str, MaxLength(120)],\n        reporter: str,\n",
    ),
    ('        """Open a new ticket.', '        """Open a ticket for something that is wrong.'),
)


def _tracker(tmp_path: Path, *, edited: bool) -> Path:
    text = (EXAMPLES / "ticket_tracker.py").read_text(encoding="utf-8")
    if edited:
        for old, new in EDITS:
            assert old in text
            text = text.replace(old, new)
    path = tmp_path / "ticket_tracker.py"
    path.write_text(text, encoding="utf-8")
    return path


def test_examples_lock_static_and_runtime_alike_and_check_clean(tmp_path: Path) -> None:
    static = run("lock", str(EXAMPLES), "-o", "static.json", cwd=tmp_path)
    assert static.returncode == 0, static.stderr
    runtime = run("lock", "--runtime", str(EXAMPLES), "-o", "runtime.json", cwd=tmp_path)
    assert runtime.returncode == 0, runtime.stderr
    written = (tmp_path / "static.json").read_bytes()
    assert written == (tmp_path / "runtime.json").read_bytes()
    lock = json.loads(written)
    assert lock["version"] == 1
    assert list(lock["modules"]["ticket_tracker"]) == ["open_ticket", "list_tickets", "close_ticket"]
    tool = lock["modules"]["ticket_tracker"]["close_ticket"]
    assert list(tool["providers"]) == ["openai", "anthropic", "gemini", "mcp"]
    assert all(p["tokens"] > 0 for p in tool["providers"].values())
    check = run("lock", "--check", "--runtime", str(EXAMPLES), "-o", "static.json", cwd=tmp_path)
    assert (check.returncode, check.stdout, check.stderr) == (0, "", "no changes\n")
    same = run("diff", "static.json", "runtime.json", cwd=tmp_path)
    assert (same.returncode, same.stdout) == (0, "")


def test_examples_budgets(tmp_path: Path) -> None:
    run("lock", "--runtime", str(EXAMPLES), "-o", "onellm.lock.json", cwd=tmp_path)
    lock = json.loads((tmp_path / "onellm.lock.json").read_text(encoding="utf-8"))
    largest = max(
        (p["tokens"], provider, name)
        for tools in lock["modules"].values()
        for name, tool in tools.items()
        for provider, p in tool["providers"].items()
    )
    fits = run("diff", "onellm.lock.json", "onellm.lock.json", "--max-tokens", str(largest[0]), cwd=tmp_path)
    assert fits.returncode == 0
    over = run("diff", "onellm.lock.json", "onellm.lock.json", "--max-tokens", str(largest[0] - 1), cwd=tmp_path)
    assert over.returncode == 1
    assert (
        f"over-budget: {largest[2]}: {largest[1]} form: {largest[0]} tokens, over --max-tokens {largest[0] - 1}"
        in over.stdout
    )
    total = lock["total_tokens"]["mcp"]
    assert (
        run("lock", "--check", "--runtime", str(EXAMPLES), "--max-total-tokens", str(total), cwd=tmp_path).returncode
        == 0
    )
    over_total = run("lock", "--check", "--runtime", str(EXAMPLES), "--max-total-tokens", str(total - 1), cwd=tmp_path)
    assert over_total.returncode == 1
    assert (
        f"over-budget: (all tools): mcp form: {total} tokens, over --max-total-tokens {total - 1}" in over_total.stdout
    )


def test_a_real_change_is_classified_with_its_witness(tmp_path: Path) -> None:
    before = tmp_path / "before"
    after = tmp_path / "after"
    before.mkdir()
    after.mkdir()
    run("lock", "--runtime", str(_tracker(before, edited=False)), "-o", "old.json", cwd=tmp_path)
    run("lock", "--runtime", str(_tracker(after, edited=True)), "-o", "new.json", cwd=tmp_path)
    shown = run("diff", "old.json", "new.json", cwd=tmp_path)
    assert shown.returncode == 1
    lines = shown.stdout.splitlines()
    assert 'breaking: open_ticket.priority: enum member "urgent" removed  [ticket_tracker]' in lines
    assert '    accepted before, refused now: {"title": "", "priority": "urgent"}' in lines
    assert "breaking: open_ticket.reporter: required parameter added  [ticket_tracker]" in lines
    assert '    accepted before, refused now: {"title": ""}' in lines
    assert 'breaking: list_tickets.where.priority: enum member "urgent" removed  [ticket_tracker]' in lines
    assert "changed: open_ticket: description changed  [ticket_tracker]" in lines
    assert shown.stderr.startswith("breaking") is False and "breaking" in shown.stderr
    allowed = run("diff", "old.json", "new.json", "--allow-breaking", cwd=tmp_path)
    assert (allowed.returncode, allowed.stdout) == (0, shown.stdout)
    assert "(allowed by --allow-breaking)" in allowed.stderr
    check = run("lock", "--check", "--runtime", str(after / "ticket_tracker.py"), "-o", "old.json", cwd=tmp_path)
    assert (check.returncode, check.stdout) == (1, shown.stdout)
    assert "old.json is out of date" in check.stderr


@pytest.mark.parametrize("fmt", ["json", "github", "sarif"])
def test_formats(tmp_path: Path, fmt: str) -> None:
    for name, edited in (("old", False), ("new", True)):
        folder = tmp_path / name
        folder.mkdir()
        run("lock", "--runtime", str(_tracker(folder, edited=edited)), "-o", f"{name}.json", cwd=tmp_path)
    shown = run("diff", "old.json", "new.json", "--format", fmt, cwd=tmp_path)
    assert shown.returncode == 1
    if fmt == "json":
        rows = json.loads(shown.stdout)
        assert {
            "kind": "breaking",
            "module": "ticket_tracker",
            "tool": "open_ticket",
            "path": "reporter",
            "change": "required parameter added",
            "witness": {"title": ""},
            "witness_note": "accepted before, refused now",
        } in rows
    elif fmt == "github":
        assert (
            "::error file=new.json,title=onellm lock%3A breaking::open_ticket.reporter: required parameter added"
            ' (module ticket_tracker)%0AAccepted before, refused now: {"title": ""}'
        ) in shown.stdout.splitlines()
        assert (
            "::notice file=new.json,title=onellm lock%3A changed::open_ticket: description changed (module ticket_tracker)"
            in shown.stdout.splitlines()
        )
    else:
        log = json.loads(shown.stdout)
        schema = json.loads((ROOT / "tests" / "sarif" / "sarif-schema-2.1.0.json").read_text(encoding="utf-8"))
        jsonschema.Draft4Validator(schema, format_checker=jsonschema.FormatChecker()).validate(log)
        results = log["runs"][0]["results"]
        assert {r["ruleId"] for r in results} == {"breaking", "changed"}
        assert all(r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "new.json" for r in results)


def test_git_revision_and_unknown_version(tmp_path: Path) -> None:
    if shutil.which("git") is None:
        pytest.fail("git is needed for git:REV:PATH")
    tracker = _tracker(tmp_path, edited=False)
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@example.com"]
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    run("lock", "--runtime", str(tracker), cwd=tmp_path)
    subprocess.run([*git, "add", "onellm.lock.json"], cwd=tmp_path, check=True)
    subprocess.run([*git, "commit", "-qm", "lock"], cwd=tmp_path, check=True)
    _tracker(tmp_path, edited=True)
    rewritten = run("lock", "--runtime", str(tracker), cwd=tmp_path)
    assert rewritten.returncode == 0  # writing lists what it replaced; the gate is diff and --check
    assert "breaking: open_ticket.reporter: required parameter added  [ticket_tracker]" in rewritten.stdout
    shown = run("diff", "git:HEAD:onellm.lock.json", "onellm.lock.json", cwd=tmp_path)
    assert shown.returncode == 1
    assert shown.stdout == rewritten.stdout
    missing = run("diff", "git:HEAD:nothing.json", "onellm.lock.json", cwd=tmp_path)
    assert missing.returncode == 2 and "git:HEAD:nothing.json: git show failed" in missing.stderr
    document = json.loads((tmp_path / "onellm.lock.json").read_text(encoding="utf-8"))
    (tmp_path / "future.json").write_text(json.dumps({**document, "version": 2}), encoding="utf-8")
    future = run("diff", "future.json", "onellm.lock.json", cwd=tmp_path)
    assert future.returncode == 2
    assert future.stderr == (
        "onellm: error: future.json is a version 2 lock; this onellm reads version 1: "
        "install the onellm that wrote it, or write the lock again with `onellm lock`\n"
    )


def _docs_yaml(containing: str) -> Any:
    docs = (ROOT / "docs" / "ci.md").read_text(encoding="utf-8")
    (block,) = [b for b in re.findall(r"```yaml\n(.*?)```", docs, re.S) if containing in b]
    return yaml.safe_load(block)


@pytest.mark.slow  # the whole workflow of docs/ci.md; .ci/run runs its lock steps on examples/ as well
def test_the_ci_steps_of_the_docs_run_as_a_script(tmp_path: Path) -> None:
    """docs/ci.md's two lock steps, in a repository whose branch breaks a call of its base."""
    steps = {s["name"]: s["run"] for s in _docs_yaml("- name: Hold the tools to their lock")}
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@example.com"]
    _tracker(tmp_path, edited=False)
    subprocess.run(["git", "init", "-q", "-b", "main"], cwd=tmp_path, check=True)
    assert run("lock", "--runtime", ".", cwd=tmp_path).returncode == 0
    subprocess.run([*git, "add", "."], cwd=tmp_path, check=True)
    subprocess.run([*git, "commit", "-qm", "base"], cwd=tmp_path, check=True)
    subprocess.run(["git", "update-ref", "refs/remotes/origin/main", "HEAD"], cwd=tmp_path, check=True)
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}

    def step(name: str) -> subprocess.CompletedProcess[str]:
        command = ["bash", "-e", "-c", steps[name]]
        return subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=900, env=env)

    assert step("Hold the tools to their lock").returncode == 0
    _tracker(tmp_path, edited=True)
    held = step("Hold the tools to their lock")
    assert held.returncode == 1
    assert "::error file=onellm.lock.json,title=onellm lock%3A breaking::open_ticket.reporter" in held.stdout
    assert run("lock", "--runtime", ".", cwd=tmp_path).returncode == 0  # the branch rewrites its lock
    assert step("Hold the tools to their lock").returncode == 0
    env["GITHUB_BASE_REF"] = "main"
    against_base = step("Breaking changes against the base branch")
    assert against_base.returncode == 1
    assert against_base.stdout == held.stdout


def test_the_pre_commit_snippet_is_the_hook() -> None:
    (snippet,) = _docs_yaml("- id: onellm-lock")
    hooks = {h["id"]: h for h in yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))}
    assert snippet == {"id": "onellm-lock", "args": hooks["onellm-lock"]["args"]}
    assert hooks["onellm-lock"]["entry"] == "onellm lock"


def test_a_tool_that_cannot_be_described_stops_the_lock(tmp_path: Path) -> None:
    (tmp_path / "bad.py").write_text(
        "from onellm_runtime import tool\n\n\n@tool\ndef f(x: object) -> str:\n    return ''\n", encoding="utf-8"
    )
    static = run("lock", "bad.py", cwd=tmp_path)
    assert static.returncode == 1
    assert static.stdout == "" and "bad.py:5:7: error: " in static.stderr and "[OLT002]" in static.stderr
    runtime = run("lock", "--runtime", "bad.py", cwd=tmp_path)
    assert runtime.returncode == 1 and runtime.stderr.startswith("onellm: a tool could not be built:\n")
    assert not (tmp_path / "onellm.lock.json").exists()
    missing = run("lock", "--check", "--runtime", str(EXAMPLES / "ticket_tracker.py"), cwd=tmp_path)
    assert (missing.returncode, missing.stderr) == (
        2,
        f"onellm: error: no lock at onellm.lock.json: write it with `onellm lock {EXAMPLES / 'ticket_tracker.py'}`\n",
    )
