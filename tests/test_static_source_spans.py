"""``ModuleSource.span``: the bytes an annotation was written as, the key of the static side's
annotation memo. A wrong span would let two different annotations share one lowering."""

from __future__ import annotations

import ast

import pytest

from onellm_mypy.source import _parse


def _annotations(data: bytes) -> list[bytes | None]:
    ms = _parse("m.py", data)
    assert ms is not None
    fn = next(n for n in ast.walk(ms.tree) if isinstance(n, ast.FunctionDef))
    return [ms.span(a.annotation) for a in fn.args.args if a.annotation is not None]


@pytest.mark.parametrize(
    ("source", "spans"),
    [
        (b"def f(a: int, b: list[str]) -> None: ...\n", [b"int", b"list[str]"]),
        # columns are UTF-8 byte offsets: a non-ASCII default before the annotation
        ("def f(a: str = 'é€', b: dict[str, 'Ü'] = {}) -> None: ...\n".encode(), [b"str", "dict[str, 'Ü']".encode()]),
        # over several lines
        (
            b"def f(\n    a: dict[\n        str,\n        int],\n) -> None: ...\n",
            [b"dict[\n        str,\n        int]"],
        ),
        # a byte-order mark does not shift the first line
        (b"\xef\xbb\xbfdef f(a: bytes) -> None: ...\n", [b"bytes"]),
        # an explicit UTF-8 declaration is still UTF-8
        (b"# -*- coding: utf-8 -*-\ndef f(a: float) -> None: ...\n", [b"float"]),
        # Windows line ends
        (b"x = 1\r\ndef f(a: int,\r\n      b: str) -> None: ...\r\n", [b"int", b"str"]),
    ],
)
def test_a_span_is_the_text_as_written(source: bytes, spans: list[bytes]) -> None:
    assert _annotations(source) == spans


def test_another_declared_encoding_gives_no_span() -> None:
    """Its columns count the re-encoded UTF-8 text, not the file's bytes: nothing is remembered."""
    source = "# coding: latin-1\ndef f(a: str = 'é', b: int = 1) -> None: ...\n".encode("latin-1")
    assert _annotations(source) == [None, None]
