"""What a tool call produces: parts, and the result that carries them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Union

from .context import CostLine

__all__ = ["TextPart", "JsonPart", "ImagePart", "FilePart", "Part", "ToolResult", "describe_part"]


@dataclass(frozen=True)
class TextPart:
    text: str


@dataclass(frozen=True)
class JsonPart:
    value: object


@dataclass(frozen=True)
class ImagePart:
    """An image a tool returns: its bytes and their media type (``image/png``...)."""

    data: bytes
    media_type: str


@dataclass(frozen=True)
class FilePart:
    """A file a tool returns: its bytes, their media type and the file's name (may be empty)."""

    data: bytes
    media_type: str
    name: str = ""


Part = Union[TextPart, JsonPart, ImagePart, FilePart]


def describe_part(part: ImagePart | FilePart) -> str:
    """The text that stands for an image or a file where only text can be sent."""
    if isinstance(part, ImagePart):
        return f"[image: {part.media_type}, {len(part.data)} bytes]"
    named = f"{part.name}, " if part.name else ""
    return f"[file: {named}{part.media_type}, {len(part.data)} bytes]"


@dataclass
class ToolResult:
    """The outcome of one tool call; an error is a result too, never an exception."""

    parts: list[Part] = field(default_factory=lambda: [])
    is_error: bool = False
    error: str | None = None
    typed_result: object = None
    costs: list[CostLine] = field(default_factory=lambda: [])

    @property
    def text(self) -> str:
        """The text of the parts, joined; JSON parts are written as compact JSON, images and
        files as their descriptions (``describe_part``)."""
        import json

        out: list[str] = []
        for part in self.parts:
            if isinstance(part, TextPart):
                out.append(part.text)
            elif isinstance(part, (ImagePart, FilePart)):
                out.append(describe_part(part))
            else:
                out.append(json.dumps(part.value, ensure_ascii=False, separators=(",", ":")))
        return "".join(out)

    @classmethod
    def failure(cls, message: str, costs: list[CostLine] | None = None) -> ToolResult:
        return cls([TextPart(message)], True, message, None, list(costs or []))
