"""Every module-level memo is one bounded kind: none grows with the tools, classes or texts seen."""

from __future__ import annotations

import importlib

import pytest

from onellm_runtime.core.caches import DEFAULT_LIMIT, BoundedCache

MEMOS = [
    ("onellm_runtime.front.typing_front", "_ANNOTATIONS", DEFAULT_LIMIT),
    ("onellm_runtime.front.evaluation", "_CLASS_FORMS", DEFAULT_LIMIT),
    ("onellm_runtime.front.typing_front", "_PLAIN_ALIASES", DEFAULT_LIMIT),
    ("onellm_runtime.front.typing_front", "_CLASS_RETURNS", DEFAULT_LIMIT),
    ("onellm_runtime.front.records", "_RECORDS", DEFAULT_LIMIT),
    ("onellm_runtime.core.enums", "_ENUMS", DEFAULT_LIMIT),
    ("onellm_runtime.front.hints", "_CODE", DEFAULT_LIMIT),
    ("onellm_runtime.front.hints", "_EVALUATED", DEFAULT_LIMIT),
    ("onellm_runtime.front.sourcetext", "_WALKS", DEFAULT_LIMIT),
    ("onellm_runtime.core.diagnostics", "_CLEAN_RECORDS", DEFAULT_LIMIT),
    ("onellm_runtime.core.diagnostics", "_CLEAN_TYPES", DEFAULT_LIMIT),
    ("onellm_runtime.core.rules", "_DEPTHS", DEFAULT_LIMIT),
    ("onellm_runtime.core.schema", "_RECORD_SCHEMAS", DEFAULT_LIMIT),
    ("onellm_runtime.core.markers", "_BY_CLASS", 1024),
    ("onellm_runtime.core.docstrings", "_KINDS_SEEN", 512),
]


@pytest.mark.parametrize(("module", "name", "limit"), MEMOS, ids=[f"{m.rsplit('.', 1)[1]}.{n}" for m, n, _ in MEMOS])
def test_each_memo_is_bounded(module: str, name: str, limit: int) -> None:
    memo = getattr(importlib.import_module(module), name)
    assert type(memo) is BoundedCache
    assert memo.limit == limit


def test_a_full_memo_is_emptied_before_the_next_store() -> None:
    memo: BoundedCache[int, str] = BoundedCache(3)
    for i in range(3):
        assert memo.put(i, str(i)) == str(i)
    assert dict(memo) == {0: "0", 1: "1", 2: "2"}
    memo.put(3, "3")
    assert dict(memo) == {3: "3"}
    assert memo.get(3) == "3" and memo.get(0) is None


def test_building_many_tools_keeps_every_memo_within_its_limit() -> None:
    import dataclasses

    from onellm_runtime import Tool

    for i in range(DEFAULT_LIMIT + 50):  # a new record class per tool: the per-class memos fill
        record = dataclasses.make_dataclass(f"R{i}", [("x", int)])

        def f(r: object) -> str:
            return ""

        f.__annotations__ = {"r": record, "return": str}
        assert Tool.create(f, name=f"f{i}").input_schema["required"] == ["r"]
    for module, name, limit in MEMOS:
        assert len(getattr(importlib.import_module(module), name)) <= limit, name
