"""2. Bind per call: from the raw JSON arguments to the keyword arguments of the call."""

from __future__ import annotations

import json
from typing import Any, Callable

from . import shapes
from .peers import Peers
from .report import Report, Row
from .timing import per_call

__all__ = ["run", "onellm_binder"]

TARGET_VS_LOADS = 1.5


def onellm_binder(fn: Callable[..., Any], raw: str) -> tuple[Callable[[], object] | None, str]:
    """``tool.bind(raw)`` ready to time, or None and why (the binder may not exist yet)."""
    from onellm_runtime import Tool

    tool = Tool.create(fn)
    try:
        tool.bind(raw)
    except NotImplementedError as e:
        return None, f"not available yet: Tool.bind raises NotImplementedError ({e})"
    return (lambda: tool.bind(raw)), ""


def _rows(peers: Peers, fn: Callable[..., Any], raw: str, calls: int, repeat: int) -> list[Row]:
    rows = [Row("json.loads alone (the floor)", per_call(lambda: json.loads(raw), calls, repeat))]
    op, why = onellm_binder(fn, raw)
    rows.append(
        Row("onellm Tool.bind(raw)", per_call(op, calls, repeat), is_onellm=True)
        if op is not None
        else Row("onellm Tool.bind(raw)", None, skipped=why)
    )

    def add(peer: str, label: str, make: Callable[[], Callable[[], object]], note: str = "") -> None:
        if not peers.available(peer):
            rows.append(Row(label, None, skipped=peers.why_missing(peer)))
            return
        try:
            op = make()
            op()
        except Exception as e:
            rows.append(Row(label, None, skipped=f"failed: {type(e).__name__}: {str(e).splitlines()[0][:80]}"))
            return
        rows.append(Row(label, per_call(op, calls, repeat), note=note))

    def type_adapter() -> Callable[[], object]:
        from pydantic import TypeAdapter

        adapter = TypeAdapter(shapes.args_typeddict(fn))
        return lambda: adapter.validate_json(raw, strict=True)

    def validate_call() -> Callable[[], object]:
        import pydantic

        wrapped = pydantic.validate_call(fn)
        return lambda: wrapped(**json.loads(raw))

    def msgspec() -> Callable[[], object]:
        import msgspec

        decoder = msgspec.json.Decoder(shapes.args_typeddict(fn))
        return lambda: decoder.decode(raw)

    add("pydantic", "pydantic TypeAdapter.validate_json strict", type_adapter, "a TypedDict of the parameters")
    add(
        "pydantic",
        "pydantic validate_call(fn)(**json.loads(raw))",
        validate_call,
        "lax (strict refuses dicts for records); includes the call",
    )
    add("msgspec", "msgspec Decoder (C reference)", msgspec, "does not enforce the annotated_types bounds")
    return rows


def run(report: Report, peers: Peers, smoke: bool) -> None:
    report.section(
        "2. Bind per call from raw JSON",
        "Each implementation turns the same JSON text into the call's arguments (records built, enums",
        "resolved); the binder/validator is prepared once per tool, outside the timing.",
        "Time per call = median over batches of the batch mean, on the CPU clock, GC paused; ratio = row / onellm.",
    )
    ratios: dict[str, float] = {}
    for label, fn, _, raw in shapes.BIND_DOCS:
        calls = 3 if smoke else max(50, 2_000_000 // (len(raw) * 20))
        repeat = 2 if smoke else 15
        rows = _rows(peers, fn, raw, calls, repeat)
        report.table("bind", f"{label} ({len(raw):,} bytes)", rows)
        loads, mine = rows[0].stats, rows[1].stats
        if loads is not None and mine is not None:
            ratios[label] = mine.median_ns / loads.median_ns
    if ratios:
        worst = max(ratios, key=lambda k: ratios[k])
        report.target(
            f"bind <= {TARGET_VS_LOADS}x json.loads alone (every document)",
            ratios[worst] <= TARGET_VS_LOADS,
            ", ".join(f"{k.split(':')[0]} {v:.2f}x" for k, v in ratios.items()),
        )
    else:
        report.target(
            f"bind <= {TARGET_VS_LOADS}x json.loads alone (every document)", False, "the onellm binder is not available"
        )
