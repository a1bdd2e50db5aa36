"""2. Bind per call: from the raw JSON arguments to the keyword arguments of the call.

Also what each validator leaves unchecked: ``PROBES`` are documents that break one rule
each (a key twice, an unknown key, a bound, a lone surrogate, ...), and each implementation
is tried on every one; what it accepts is printed, so the claim is measured, not written.
"""

from __future__ import annotations

import functools
import json
import statistics
from collections.abc import Callable
from typing import Any

from . import shapes
from .peers import Peers
from .report import Report
from .rounds import Comparison, Entry, Results, Target, ratios
from .timing import per_call

__all__ = ["comparisons", "once", "show", "targets", "onellm_binder", "PROBES"]

TARGET_VS_LOADS = 1.5
TARGET_BYTES_VS_STR = 1.1

LOADS = "json.loads(str) alone (the floor)"
LOADS_BYTES = "json.loads(bytes) alone"
ONELLM = "onellm Tool.bind(raw str)"
ONELLM_BYTES = "onellm Tool.bind(raw bytes)"
ADAPTER = "pydantic TypeAdapter.validate_json strict"
VALIDATE_CALL = "pydantic validate_call(fn)(**json.loads(raw))"
MSGSPEC = "msgspec Decoder (C reference)"


def onellm_binder(fn: Callable[..., Any], raw: str | bytes) -> tuple[Callable[[], object] | None, str]:
    """``tool.bind(raw)`` ready to time, or None and why (the binder may not exist yet)."""
    from onellm_runtime import Tool

    tool = Tool.create(fn)
    try:
        tool.bind(raw)
    except NotImplementedError as e:
        return None, f"not available yet: Tool.bind raises NotImplementedError ({e})"
    return (lambda: tool.bind(raw)), ""


def _validators(
    peers: Peers, fn: Callable[..., Any]
) -> list[tuple[str, str, Callable[[], Callable[[str | bytes], object]], str]]:
    """(peer, label, make, note): each makes a one-argument validator of the raw document."""

    def type_adapter() -> Callable[[str | bytes], object]:
        from pydantic import TypeAdapter

        adapter = TypeAdapter(shapes.args_typeddict(fn))
        return lambda raw: adapter.validate_json(raw, strict=True)

    def validate_call() -> Callable[[str | bytes], object]:
        import pydantic

        wrapped = pydantic.validate_call(fn)
        return lambda raw: wrapped(**json.loads(raw))

    def msgspec() -> Callable[[str | bytes], object]:
        import msgspec

        decoder = msgspec.json.Decoder(shapes.args_typeddict(fn))
        return lambda raw: decoder.decode(raw)

    return [
        ("pydantic", ADAPTER, type_adapter, "a TypedDict of the parameters"),
        ("pydantic", VALIDATE_CALL, validate_call, "lax (strict refuses dicts for records); includes the call"),
        ("msgspec", MSGSPEC, msgspec, "does not enforce the annotated_types bounds"),
    ]


def _entries(peers: Peers, fn: Callable[..., Any], raw: str, calls: int, repeat: int) -> list[Entry]:
    def timed(op: Callable[[], object]) -> Callable[[], float]:
        return lambda: per_call(op, calls, repeat).median_ns

    raw_bytes = raw.encode()
    entries = [
        Entry(LOADS, timed(lambda: json.loads(raw)), base=ONELLM),
        Entry(LOADS_BYTES, timed(lambda: json.loads(raw_bytes)), base=ONELLM),
    ]
    for label, doc, onellm in ((ONELLM, raw, True), (ONELLM_BYTES, raw_bytes, False)):
        op, why = onellm_binder(fn, doc)
        entries.append(Entry(label, timed(op), is_onellm=onellm) if op is not None else Entry(label, None, skipped=why))
    for peer, label, make, note in _validators(peers, fn):
        if not peers.available(peer):
            entries.append(Entry(label, None, skipped=peers.why_missing(peer)))
            continue
        try:
            check = make()
            check(raw)
        except Exception as e:
            entries.append(Entry(label, None, skipped=f"failed: {type(e).__name__}: {str(e).splitlines()[0][:80]}"))
            continue
        entries.append(Entry(label, timed(functools.partial(check, raw)), note=note))
    return entries


def _name(label: str) -> str:
    return label.split(":")[0]


TITLE = "2. Bind per call from raw JSON"
NOTES = (
    "Each implementation turns the same JSON text into the call's arguments (records built, enums",
    "resolved); the binder/validator is prepared once per tool, outside the timing. 'raw bytes' is the",
    "same document as UTF-8 bytes (what an SDK or an HTTP body hands over).",
    "A round's figure = median over batches of the batch mean, on the CPU clock, GC paused; ratio = row / onellm bind(str).",
)


def comparisons(peers: Peers, smoke: bool, rounds: int) -> list[Comparison]:
    out = []
    for label, fn, _, raw in shapes.BIND_DOCS:
        calls = 3 if smoke else max(50, 2_000_000 // (len(raw) * 20))
        repeat = 1 if smoke else 5
        out.append(
            Comparison("bind", _name(label), f"{label} ({len(raw):,} bytes)", _entries(peers, fn, raw, calls, repeat))
        )
    return out


# --- what each leaves unchecked ----------------------------------------------------------

_ITEM = '{"sku":"A","quantity":1,"unit_price":%s}'
_ORDER = '{"customer":{"name":"A","address":{"street":"s","city":"c"}},"items":[%s]}'

#: (what the document breaks, the function, the raw document): each must be refused.
PROBES: list[tuple[str, Callable[..., Any], str | bytes]] = [
    ("a key given twice", shapes.search_docs, '{"query":"a","query":"b"}'),
    ("an unknown key", shapes.search_docs, '{"query":"a","colour":"red"}'),
    ("a bound (limit 0, at least 1)", shapes.search_docs, '{"query":"a","limit":0}'),
    ("a bound inside a list item (quantity 0)", shapes.place_order, _ORDER % '{"sku":"A","quantity":0,"unit_price":1}'),
    ("true for an int", shapes.search_docs, '{"query":"a","limit":true}'),
    ("a string for an int", shapes.search_docs, '{"query":"a","limit":"5"}'),
    ("NaN for a float", shapes.place_order, _ORDER % (_ITEM % "NaN")),
    ("Infinity for a float", shapes.place_order, _ORDER % (_ITEM % "Infinity")),
    ("1e400 (overflows to inf) for a float", shapes.place_order, _ORDER % (_ITEM % "1e400")),
    ("a lone surrogate in a string", shapes.search_docs, '{"query":"\\ud800"}'),
    ("a byte-order mark before the document", shapes.search_docs, '\ufeff{"query":"a"}'),
    ("invalid UTF-8 in bytes", shapes.search_docs, b'{"query":"\xff"}'),
]


def _accepts(check: Callable[[str | bytes], object], raw: str | bytes) -> bool:
    try:
        check(raw)
    except Exception:
        return False
    return True


def once(peers: Peers, smoke: bool) -> dict[str, Any]:
    """For each implementation, the probes it accepts (what it does not check)."""
    from onellm_runtime import Tool

    tools: dict[Callable[..., Any], Any] = {}
    found: dict[str, list[str]] = {ONELLM: []}
    for what, fn, raw in PROBES:
        tool = tools.setdefault(fn, Tool.create(fn))
        if _accepts(tool.bind, raw):
            found[ONELLM].append(what)
    for peer, label, _make, _ in _validators(peers, shapes.search_docs):
        if label == VALIDATE_CALL or not peers.available(peer):
            continue
        accepted: list[str] = []
        made: dict[Callable[..., Any], Callable[[str | bytes], object]] = {}
        for what, fn, raw in PROBES:
            if fn not in made:
                made[fn] = dict((lab, mk) for _, lab, mk, _ in _validators(peers, fn))[label]()
            if _accepts(made[fn], raw):
                accepted.append(what)
        found[label] = accepted
    return {"bind_unchecked": found}


def show(report: Report, results: Results, smoke: bool) -> None:
    report.section(TITLE, *NOTES)
    vs_loads: dict[str, list[float]] = {}
    for t in results.section_tables("bind"):
        report.rounds_table(t)
        loads, mine = t.figure(LOADS), t.figure(ONELLM)
        if loads is not None and mine is not None:
            vs_loads[t.name] = ratios(mine, loads)
    if vs_loads:
        med = {k: statistics.median(v) for k, v in vs_loads.items()}
        worst = max(med, key=lambda k: med[k])
        report.target(
            f"bind <= {TARGET_VS_LOADS}x json.loads alone (every document)",
            med[worst] <= TARGET_VS_LOADS,
            ", ".join(f"{k} {v:.2f}x" for k, v in med.items()),
        )
    unchecked: dict[str, list[str]] = results.once.get("bind_unchecked", {})
    if unchecked:
        report.print()
        report.print(
            f"  What each accepts of {len(PROBES)} documents that break one rule each (what it does not check):"
        )
        for label, accepted in unchecked.items():
            report.print(f"    {label}: {'; '.join(accepted) if accepted else 'refuses every one'}")


def targets(results: Results) -> list[Target]:
    out = []
    for t in results.section_tables("bind"):
        s, b = t.figure(ONELLM), t.figure(ONELLM_BYTES)
        out.append(
            Target(
                f"bind(bytes) / bind(str), {t.name} document",
                [] if s is None or b is None else ratios(b, s),
                TARGET_BYTES_VS_STR,
            )
        )
    return out
