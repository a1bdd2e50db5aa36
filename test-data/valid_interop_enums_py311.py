"""``enum.StrEnum`` (Python 3.11+): by value, ``auto()`` giving the lower-cased name; an explicit
value beside ``auto()``, an alias, a default, an ``Optional`` and a return.

Its tools are defined on Python 3.11 and later only, under a ``sys.version_info`` check that mypy
reads too; ``_corpus.valid_modules()`` leaves the module out on older interpreters (the ``_py311``
in its name). Does not use ``from __future__ import annotations``.
"""

import enum
import sys
from typing import Optional

from onellm_runtime import tool

if sys.version_info >= (3, 11):

    class Color(enum.StrEnum):
        RED = enum.auto()
        DarkGreen = enum.auto()
        BLUE = "navy"
        CRIMSON = "red"  # an alias of RED: auto() gave "red"

    @tool
    def paint(color: Color, accent: Optional[Color] = Color.CRIMSON) -> Color:
        """Paint in a color."""
        return color
