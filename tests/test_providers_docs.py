"""docs/providers.md shows real output: every JSON block after an output or command marker
is what that expression or ``onellm schemas`` command prints today."""

from __future__ import annotations

import pytest
from provider_docs import DOC, blocks, evaluate

BLOCKS = blocks(DOC.read_text())


def test_the_doc_has_its_blocks() -> None:
    kinds = [k for k, _, _ in BLOCKS]
    assert kinds.count("command") == 4 and kinds.count("output") >= 8
    assert all(written is not None for _, _, written in BLOCKS)


@pytest.mark.parametrize(("kind", "text", "written"), BLOCKS, ids=[t for _, t, _ in BLOCKS])
def test_block_is_real_output(kind: str, text: str, written: str | None) -> None:
    assert written == evaluate(kind, text)
