"""What a tool call produces: parts, and the result that carries them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Union

from .context import CostLine

__all__ = ["TextPart", "JsonPart", "Part", "ToolResult"]


@dataclass(frozen=True)
class TextPart:
    text: str


@dataclass(frozen=True)
class JsonPart:
    value: object


Part = Union[TextPart, JsonPart]


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
        """The text of the parts, joined; JSON parts are written as compact JSON."""
        import json

        out: list[str] = []
        for part in self.parts:
            if isinstance(part, TextPart):
                out.append(part.text)
            else:
                out.append(json.dumps(part.value, ensure_ascii=False, separators=(",", ":")))
        return "".join(out)

    @classmethod
    def failure(cls, message: str, costs: list[CostLine] | None = None) -> ToolResult:
        return cls([TextPart(message)], True, message, None, list(costs or []))
