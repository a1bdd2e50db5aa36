"""Records of the three kinds, inheritance, field descriptions, defaults, JsonName, camelCase.

Uses ``from __future__ import annotations``: the record fields are strings too, and the
TypedDict ``Required``/``NotRequired`` qualifiers are only visible once they are resolved.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Annotated, NamedTuple

from typing_extensions import Doc, NotRequired, Required, TypedDict

from onellm_runtime import Description, JsonName, tool


class Color(enum.Enum):
    RED = "red"
    BLUE = "blue"


@dataclass
class Point:
    """A point on the plane (this summary is never written).

    Attributes:
        x: Horizontal position.
        y: Vertical position.
    """

    x: float
    y: float = 0.0


@dataclass
class Point3(Point):
    """A point in space.

    Args:
        z: Depth.
    """

    z: float = 0.0


@dataclass
class Labelled:
    label: str = "none"
    tags: list[str] = field(default_factory=list)
    internal: int = field(default=0, init=False)
    color: Color = Color.RED
    count: int | None = None
    note: Annotated[str, Description("A note.")] = ""
    aside: Annotated[str, Doc("An aside.")] = "-"


class Span(NamedTuple):
    """A span of lines.

    Attributes:
        start: First line.
        end: Last line.
    """

    start: int
    end: int = 10


class Movie(TypedDict):
    """A film.

    Attributes:
        title: The title.
    """

    title: str
    year: int


class MovieExtra(Movie, total=False):
    rating: float
    studio: Required[str]


class Book(TypedDict):
    title: str
    isbn: NotRequired[str]


@dataclass
class Line:
    start: Point
    end: Point
    via: list[Point]
    label: Labelled | None = None


@dataclass
class Edit:
    old_text: str
    new_text: str
    file_path: Annotated[str, JsonName("path")]
    _private_flag: bool = False
    already_camelCase: int = 0
    nested_span: Span | None = None


class Renamed(TypedDict):
    first_name: Annotated[str, JsonName("given")]
    last_name: str


@tool
def place(point: Point, where: Point3) -> str:
    """Dataclasses; a subclass's fields come after its base's."""
    return ""


@tool
def label(item: Labelled, maybe: Point | None = None) -> str:
    """Field defaults follow the parameter rule; init=False fields are left out."""
    return ""


@tool
def span(lines: Span) -> str:
    """A NamedTuple."""
    return ""


@tool
def movies(movie: Movie, extra: MovieExtra, book: Book) -> str:
    """TypedDicts: total, total=False, Required, NotRequired, inheritance."""
    return ""


@tool
def draw(line: Line) -> str:
    """A record used twice inside another is not a self-reference."""
    return ""


@tool(naming="camelCase")
def edit_files(edits: list[Edit], dry_run: bool = False, person: Renamed | None = None) -> str:
    """camelCase renames record fields, never parameters; JsonName always wins."""
    return ""


@tool
def edit_plain(edit: Edit, person: Renamed) -> str:
    """Without naming, fields keep their Python names (JsonName still renames)."""
    return ""


@tool
def returns_point() -> Point:
    return Point(0.0)


@tool(naming="camelCase")
def returns_edits() -> list[Edit]:
    return []


@tool
def returns_movie() -> Movie:
    return {"title": "", "year": 0}
