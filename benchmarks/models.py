"""8. Binding a pydantic ``BaseModel`` record, beside pydantic's own ``validate_json`` of it.

The same document, an order with nested lines (a field validator on each line, a model
validator on the order), is bound by onellm (the schema checked, then ``model_validate`` with
the checked values, so the validators run) and validated by pydantic alone, from the raw JSON:
``TypeAdapter`` of the arguments (a TypedDict holding the model) and the model's own
``model_validate_json``. pydantic is the ``bench`` extra: without it the section is skipped.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from typing import Any

from .peers import Peers
from .report import Report
from .rounds import Comparison, Entry, Results, Target
from .timing import per_call

__all__ = ["comparisons", "show", "targets"]

TITLE = "8. BaseModel records: bind per call beside pydantic's validate_json"
NOTES = (
    "onellm checks every value against the schema, then builds the model with model_validate (its",
    "validators run); pydantic validates the same raw JSON in lax mode, its own default for models.",
    "A round's figure = median over batches of the batch mean, on the CPU clock, GC paused; ratio = row / onellm bind(str).",
)
LOADS = "json.loads(str) alone (the floor)"
ONELLM = "onellm Tool.bind(raw str)"
ADAPTER = "pydantic TypeAdapter(args).validate_json"
MODEL = "pydantic Order.model_validate_json(inner document)"


def _tool_and_models() -> tuple[Any, Any, Any]:
    """The tool, the arguments' TypedDict and the model, made only when pydantic is there."""
    from typing import Literal

    from pydantic import BaseModel, Field, field_validator, model_validator
    from typing_extensions import TypedDict

    from onellm_runtime import Tool

    class Line(BaseModel):
        sku: str = Field(pattern=r"^[A-Z0-9-]+$", max_length=12)
        quantity: int = Field(ge=1, le=1000)
        unit_price: float = Field(ge=0)

        @field_validator("sku")
        @classmethod
        def known_prefix(cls, value: str) -> str:
            if not value.startswith("SKU-"):
                raise ValueError("unknown sku")
            return value

    class Order(BaseModel):
        order_id: str = Field(alias="orderId")
        customer: str
        lines: list[Line] = Field(min_length=1)
        priority: Literal["low", "normal", "high"] = "normal"
        note: str = ""

        @model_validator(mode="after")
        def distinct(self) -> Order:
            if len({line.sku for line in self.lines}) != len(self.lines):
                raise ValueError("each sku may appear once")
            return self

    # Made from objects, not annotations (this module's annotations are strings and the
    # classes are local): the arguments' TypedDict and the tool's signature.
    args = TypedDict("args", {"order": Order})  # noqa: UP013

    def file_order(order: Any) -> str:
        return str(order.order_id)

    file_order.__annotations__ = {"order": Order, "return": str}
    return Tool.create(file_order), args, Order


def _document(lines: int) -> dict[str, Any]:
    return {
        "order": {
            "orderId": "A-1001",
            "customer": "C-42",
            "lines": [{"sku": f"SKU-{i}", "quantity": 1 + i % 9, "unit_price": 9.5} for i in range(lines)],
            "priority": "high",
        }
    }


def comparisons(peers: Peers, smoke: bool, rounds: int) -> list[Comparison]:
    out: list[Comparison] = []
    for name, lines in (("small", 2), ("large", 200)):
        raw = json.dumps(_document(lines))
        inner = json.dumps(_document(lines)["order"])
        calls = 3 if smoke else max(50, 1_000_000 // (len(raw) * 20))
        repeat = 1 if smoke else 5

        def timed(op: Callable[[], object], calls: int = calls, repeat: int = repeat) -> Callable[[], float]:
            return lambda: per_call(op, calls, repeat).median_ns

        entries = [Entry(LOADS, timed(functools.partial(json.loads, raw)), base=ONELLM)]
        heading = f"{name}: an order of {lines} lines as a BaseModel ({len(raw):,} bytes)"
        if not peers.available("pydantic"):
            why = peers.why_missing("pydantic")
            entries += [Entry(label, None, skipped=why) for label in (ONELLM, ADAPTER, MODEL)]
            out.append(Comparison("models", name, heading, entries))
            continue
        from pydantic import TypeAdapter

        tool, args, order = _tool_and_models()
        tool.bind(raw)  # the binder is compiled once, outside the timing
        adapter = TypeAdapter(args)
        adapter.validate_json(raw)
        entries += [
            Entry(ONELLM, timed(functools.partial(tool.bind, raw)), is_onellm=True),
            Entry(ADAPTER, timed(functools.partial(adapter.validate_json, raw))),
            Entry(MODEL, timed(functools.partial(order.model_validate_json, inner))),
        ]
        out.append(Comparison("models", name, heading, entries))
    return out


def show(report: Report, results: Results, smoke: bool) -> None:
    report.section(TITLE, *NOTES)
    for t in results.section_tables("models"):
        report.rounds_table(t)


def targets(results: Results) -> list[Target]:
    return []  # figures only: no target is set for this comparison
