"""Every tool the provider tests run over: ``test-data/valid_*.py`` (loaded with importlib,
as the corpus README says) and the provider tests' own set (``provider_tools.OWN``)."""

from __future__ import annotations

import inspect
import sys
from pathlib import Path
from typing import Any

import provider_tools

from onellm_runtime import Tool

TEST_DATA = Path(__file__).resolve().parent.parent / "test-data"


def _tools_of(module: Any) -> list[Tool[..., Any]]:
    found: dict[int, Tool[..., Any]] = {}
    for value in vars(module).values():
        if isinstance(value, Tool) and value.__module__ == module.__name__:
            found[id(value)] = value
        elif isinstance(value, type) and value.__module__ == module.__name__:
            for attr in value.__dict__.values():
                if isinstance(attr, Tool):
                    found[id(attr)] = attr
    return sorted(found.values(), key=lambda t: inspect.unwrap(t.fn).__code__.co_firstlineno)


def all_tools() -> list[tuple[str, Tool[..., Any]]]:
    """(id, tool) for every corpus tool, then the own set."""
    out: list[tuple[str, Tool[..., Any]]] = []
    if (TEST_DATA / "_corpus.py").exists():
        if str(TEST_DATA) not in sys.path:
            sys.path.insert(0, str(TEST_DATA))
        import _corpus

        for path in _corpus.valid_modules():
            module = _corpus.load_module(path)
            out.extend((f"{path.stem}:{t.__qualname__}", t) for t in _tools_of(module))
    out.extend((f"own:{t.__qualname__}", t) for t in provider_tools.OWN)
    return out


ALL = all_tools()
IDS = [i for i, _ in ALL]
TOOLS = [t for _, t in ALL]
