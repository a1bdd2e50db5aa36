"""``onellm_runtime.testing`` over every tool of the corpus (test-data/valid_*.py): each derived
call is refused by the binder at the path the case names, and the cases cover the kinds the
contract lists wherever the schema allows them."""

from __future__ import annotations

import inspect
import sys
from pathlib import Path
from typing import Any

import pytest

from onellm_runtime import ArgumentError, Tool
from onellm_runtime.testing import KINDS, assert_refuses, refusal_cases

CORPUS = Path(__file__).resolve().parent.parent / "test-data"
sys.path.insert(0, str(CORPUS))

import _corpus  # noqa: E402


def _corpus_tools() -> list[Any]:
    params = []
    for path in _corpus.valid_modules():
        if _corpus.needs_newer_python(path.stem) or _corpus.needs_missing_package(path):
            continue
        module = _corpus.load_module(path)
        found: dict[int, Tool[Any, Any]] = {}
        for value in vars(module).values():
            if isinstance(value, Tool) and value.__module__ == module.__name__:
                found[id(value)] = value
            elif isinstance(value, type) and value.__module__ == module.__name__:
                found.update({id(a): a for a in value.__dict__.values() if isinstance(a, Tool)})
        for t in sorted(found.values(), key=lambda t: inspect.unwrap(t.fn).__code__.co_firstlineno):
            params.append(pytest.param(t, id=f"{path.stem}:{t.__qualname__}"))
    return params


CORPUS_TOOLS = _corpus_tools()


def test_the_corpus_has_tools() -> None:
    assert len(CORPUS_TOOLS) > 100


@pytest.mark.parametrize("t", CORPUS_TOOLS)
def test_every_case_is_refused_at_its_path(t: Tool[Any, Any]) -> None:
    for case in refusal_cases(t):
        with pytest.raises(ArgumentError) as refused:
            t.bind(case.json)
        assert refused.value.path == case.path, str(case)
    assert_refuses(t)


def test_the_corpus_cases_cover_every_kind() -> None:
    kinds = {case.kind for param in CORPUS_TOOLS for case in refusal_cases(param.values[0])}
    assert sorted(set(KINDS) - kinds) == []
