"""OLT005 advice that fits the class: a file-system path is sent and returned as text (use str),
a plain class becomes one of the record kinds, and a return type's message says what cannot be
written instead of what cannot be built."""

from __future__ import annotations

import pathlib
from dataclasses import dataclass
from pathlib import Path, PurePath, PurePosixPath

from onellm_runtime import tool


class Point:
    def __init__(self, x: int, y: int) -> None:
        self.x = x
        self.y = y


@dataclass
class Upload:
    name: str
    target: Path


@tool
def read_file(
    path: Path,  # expect: OLT005
    base: PurePath,  # expect: OLT005
    posix: PurePosixPath | None,  # expect: OLT005
    qualified: pathlib.Path,  # expect: OLT005
    many: list[Path],  # expect: OLT005
    upload: Upload,  # expect: OLT005
) -> str:
    return ""


@tool
def move(
    to: Point,  # expect: OLT005
    route: list[Point],  # expect: OLT005
) -> str:
    return ""


@tool
def where() -> Point:  # expect: OLT005
    return Point(0, 0)


@tool
def home() -> Path:  # expect: OLT005
    return Path.home()


@tool
def listing() -> list[Path]:  # expect: OLT005
    return []
