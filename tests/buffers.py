"""The editor's texts the live-checking tests share (``mypy --shadow-file``, ``onellm lsp``).

``SAVED`` is a file as saved; ``BUFFER`` the same file as the editor holds it, unsaved: two lines
added on top and a second tool. ``PAGE`` is that second tool alone. ``ANY`` and ``RANGE`` are
the two findings, as the language server publishes them (mypy adds ``  [OLTnnn]``).
"""

from __future__ import annotations

SAVED = """\
from typing import Any

from onellm_runtime import tool


@tool
def remember(key: str, value: Any) -> str:
    return key
"""

BUFFER = """\
# notes
# more notes
from typing import Annotated, Any

from onellm_runtime import Range, tool


@tool
def remember(key: str, value: Any) -> str:
    return key


@tool
def page(n: Annotated[int, Range(9, 5)]) -> str:
    return ""
"""

PAGE = """\
from typing import Annotated

from onellm_runtime import Range, tool


@tool
def page(n: Annotated[int, Range(9, 5)]) -> str:
    return ""
"""

ANY = "Tool 'remember': Parameter 'value': 'Any' has no schema; use a concrete type, or JsonValue to accept any JSON value"
RANGE = "Tool 'page': Parameter 'n': Range(9, 5) has its minimum above its maximum; swap the bounds"
