"""The loop examples: their recorded replies have each API's shape, the requests they build are
valid requests, their output is what docs/loop.md shows, and they are pyright-strict clean."""

from __future__ import annotations

import asyncio
import importlib.util
import json
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from anthropic.types import Message, MessageParam
from google.genai import types as genai
from openai.types.responses import Response, ResponseInputParam
from pydantic import TypeAdapter
from test_providers_dispatch import _typed_dict

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ["loop_openai", "loop_anthropic", "loop_gemini", "mcp_server"]
DOC = ROOT / "docs" / "loop.md"
RUN = re.compile(r"<!-- run: (\S+) -->\n\n```text\n(.*?)\n```\n", re.S)


def _load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"example_{name}", ROOT / "examples" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_the_doc_shows_every_example() -> None:
    assert [path for path, _ in RUN.findall(DOC.read_text())] == [f"examples/{name}.py" for name in EXAMPLES]


@pytest.mark.parametrize(("path", "shown"), RUN.findall(DOC.read_text()), ids=lambda v: str(v)[:40])
def test_doc_output_is_real(path: str, shown: str) -> None:
    out = subprocess.run([sys.executable, path], capture_output=True, text=True, cwd=ROOT, timeout=120, check=True)
    assert out.stdout.rstrip() == shown


def test_openai_loop() -> None:
    ex = _load("loop_openai")
    for reply in ex.REPLIES:
        Response.model_validate(reply)
    model = ex.RecordedModel(ex.REPLIES)
    text = asyncio.run(ex.run_loop(model))
    assert text == "Oslo gets snow tomorrow; Paris stays dry: sun, then clouds."
    assert len(model.requests) == 2
    for conversation in model.requests:
        _typed_dict(TypeAdapter(ResponseInputParam), conversation)


def test_anthropic_loop() -> None:
    ex = _load("loop_anthropic")
    for reply in ex.REPLIES:
        Message.model_validate(reply)
    model = ex.RecordedModel(ex.REPLIES)
    asyncio.run(ex.run_loop(model))
    second = model.requests[1]
    assert [m["role"] for m in second] == ["user", "assistant", "user"]
    assert [b["is_error"] for b in second[2]["content"]] == [False, True]
    for message in second:
        _typed_dict(TypeAdapter(MessageParam), message)


def test_gemini_loop() -> None:
    ex = _load("loop_gemini")
    for reply in ex.REPLIES:
        genai.GenerateContentResponse.model_validate_json(json.dumps(reply))
    model = ex.RecordedModel(ex.REPLIES)
    answer = asyncio.run(ex.run_loop(model))
    assert answer == ex.Answer("Oslo: snow, then sleet.", True)
    for content in model.requests[1]:
        genai.Content.model_validate_json(json.dumps(content))
    declarations: Any = {"functionDeclarations": [dict(ex.gemini_tool(t)) for t in (ex.get_forecast, ex.final_answer)]}
    genai.Tool.model_validate(declarations)
