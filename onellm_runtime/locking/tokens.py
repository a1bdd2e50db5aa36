"""A token estimate for a tool definition, with no tokenizer installed.

Tokenizers of the byte-pair kind (OpenAI's ``o200k_base``, Anthropic's and Google's are alike
in this) first cut text into pieces: runs of letters (split where a lower-case run meets an
upper-case letter), runs of up to three digits, runs of punctuation, white space. Common
pieces are one token; a long word is several. The estimate counts pieces the same way and
charges a long run by its length (``_RUN_LETTERS`` letters, ``_RUN_PUNCTUATION`` marks a token),
a character outside ASCII one token each. ``benchmarks/token_estimate.py`` measures it
against ``o200k_base`` and ``cl100k_base`` over the test corpus; docs/ci.md states the error.
Linear in the text's length.
"""

from __future__ import annotations

import json
import math
import re

__all__ = ["ESTIMATOR", "estimate_tokens", "estimate_text_tokens", "form_text"]

#: The name and revision of the estimate a lock records (a changed estimator changes every count).
ESTIMATOR = "onellm-pieces-1"

_PIECES = re.compile(
    r" ?[A-Z]?[a-z]+| ?[A-Z]+(?![a-z])|[0-9]{1,3}| ?[^\sA-Za-z0-9\x80-\U0010ffff]+|\s+|[\x80-\U0010ffff]"
)
_RUN_LETTERS = 10
_RUN_PUNCTUATION = 5


def estimate_text_tokens(text: str) -> int:
    """The estimated token count of ``text``."""
    count = 0
    for m in _PIECES.finditer(text):
        piece = m.group().lstrip(" ") or " "
        first = piece[0]
        if first.isascii() and first.isalpha():
            count += math.ceil(len(piece) / _RUN_LETTERS)
        elif first.isspace() or first.isdigit() or not first.isascii():
            count += 1
        else:
            count += math.ceil(len(piece) / _RUN_PUNCTUATION)
    return count


def form_text(form: object) -> str:
    """The text a definition is measured as: its compact JSON (``,`` and ``:`` separators, non-ASCII kept)."""
    return json.dumps(form, ensure_ascii=False, separators=(",", ":"))


def estimate_tokens(form: object) -> int:
    """The estimated token count of a definition (a JSON-ready value)."""
    return estimate_text_tokens(form_text(form))
