"""docs/providers.md and its evidence appendix show real output: every JSON block after an
output or command marker is what that expression or ``onellm schemas`` command prints today."""

from __future__ import annotations

import re

import pytest
from provider_docs import DOCS, blocks, evaluate

from onellm_runtime.provider_names import PROVIDER_NAMES, PROVIDERS
from onellm_runtime.providers.registry import ADAPTERS

BLOCKS = [block for path in DOCS for block in blocks(path.read_text())]


def test_the_doc_has_its_blocks() -> None:
    kinds = [k for k, _, _ in BLOCKS]
    assert kinds.count("command") == len(PROVIDER_NAMES) and kinds.count("output") >= 8
    assert all(written is not None for _, _, written in BLOCKS)


@pytest.mark.parametrize(("kind", "text", "written"), BLOCKS, ids=[t for _, t, _ in BLOCKS])
def test_block_is_real_output(kind: str, text: str, written: str | None) -> None:
    assert written == evaluate(kind, text)


# -- the providers the docs name are the registry's (each table's rows both ways: test_docs_both_ways.py) ---

USER_DOC = DOCS[0].read_text()
ALL_DOCS = "\n".join(path.read_text() for path in DOCS)


def _table(doc: str, heading: str) -> list[list[str]]:
    """The cells of the first table under ``heading``, header row first (the rule row left out)."""
    section = doc.split(f"\n{heading}\n", 1)[1]
    rows = [line for line in section.split("\n\n## ", 1)[0].splitlines() if line.startswith("|")]
    return [[cell.strip() for cell in row.strip("|").split(" | ")] for row in rows if not row.startswith("|---")]


def test_the_providers_table_is_the_registry() -> None:
    rows = _table(USER_DOC, "## The providers")[1:]
    documented = [
        (
            row[0].strip("`"),
            tuple(re.findall(r'"([a-z-]+)"', row[2])),
            row[3].startswith("yes"),
            row[4].startswith("yes"),
        )
        for row in rows
    ]
    registry = [
        (p.name, tuple(r.name for r in ADAPTERS[p.name].replies), p.entry_pairs, p.null_means_absent) for p in PROVIDERS
    ]
    assert documented == registry


def test_every_provider_spelt_in_the_docs_is_in_the_registry() -> None:
    spelt = set(re.findall(r'provider="([^"]+)"', ALL_DOCS)) | set(re.findall(r"--provider ([a-z][a-z-]*)", ALL_DOCS))
    assert spelt and spelt <= set(PROVIDER_NAMES)


def test_every_provider_has_its_real_output() -> None:
    commands = [text.split()[1] for kind, text, _ in BLOCKS if kind == "command"]
    assert commands == list(PROVIDER_NAMES)
