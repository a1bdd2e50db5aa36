"""9. Bind per shape of document, against the unchecked floor and pydantic strict.

One comparison per shape the binder is tuned for: many scalar parameters, many small
records, many discriminated-union items, long lists of scalars, and a pydantic ``BaseModel``.
The floor is what binding cannot avoid: ``json.loads`` and the plain construction of the
same objects, nothing checked. pydantic is ``TypeAdapter(<TypedDict of the parameters>)
.validate_json(raw, strict=True)``; msgspec's ``Decoder`` is printed as the C reference.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal, Union

from . import shapes
from .peers import Peers
from .report import Report
from .rounds import Comparison, Entry, Results, Target, ratios
from .timing import per_call

__all__ = ["comparisons", "show", "targets", "SHAPES"]

TITLE = "9. Bind per shape: onellm against the unchecked floor and pydantic strict"
NOTES = (
    "floor = json.loads(str) and the plain construction of the same objects (records built with their",
    "constructor, nothing checked): what any binder must spend. pydantic = TypeAdapter(<TypedDict of the",
    "parameters>).validate_json(raw, strict=True). A round's figure = median over batches of the batch",
    "mean, on the CPU clock, GC paused; ratio = row / onellm bind(str).",
)
FLOOR = "floor: json.loads(str) + plain construction"
ONELLM = "onellm Tool.bind(raw str)"
PYDANTIC = "pydantic TypeAdapter.validate_json strict"
MSGSPEC = "msgspec Decoder (C reference)"

#: The targets of every shape: onellm / the floor and onellm / pydantic strict, at most.
TARGET_VS_FLOOR = 1.3
TARGET_VS_PYDANTIC = 1.0


# --- the tools --------------------------------------------------------------------------


@dataclass
class Point:
    x: int
    y: int


@dataclass
class Add:
    op: Literal["add"]
    amount: int


@dataclass
class Remove:
    op: Literal["remove"]
    key: str


def configure(
    host: str,
    port: int,
    user: str,
    timeout: float,
    retries: int,
    verbose: bool,
    region: str,
    ratio: float,
    depth: int,
    secure: bool,
    label: str,
    weight: float,
) -> str:
    """Twelve scalar parameters."""
    return host


def trace(points: list[Point]) -> int:
    """Many two-field records."""
    return len(points)


def apply(steps: list[Union[Add, Remove]]) -> int:
    """Many items of a union told apart by ``op``."""
    return len(steps)


def lookup(ids: list[int], names: list[str]) -> int:
    """Long lists of scalars."""
    return len(ids) + len(names)


_SCALARS = {
    "host": "db.example.org",
    "port": 5432,
    "user": "admin",
    "timeout": 2.5,
    "retries": 3,
    "verbose": False,
    "region": "eu-west-1",
    "ratio": 0.75,
    "depth": 4,
    "secure": True,
    "label": "primary",
    "weight": 1.5,
}
_POINTS = {"points": [{"x": i, "y": -i} for i in range(100)]}
_STEPS = {"steps": [{"op": "add", "amount": i} if i % 2 else {"op": "remove", "key": f"k{i}"} for i in range(100)]}
_LISTS = {"ids": list(range(2000)), "names": [f"name-{i}" for i in range(200)]}


def _build_points(d: dict[str, Any]) -> object:
    return [Point(**p) for p in d["points"]]


def _build_steps(d: dict[str, Any]) -> object:
    return [Add(**s) if s["op"] == "add" else Remove(**s) for s in d["steps"]]


def _as_is(d: dict[str, Any]) -> object:
    return d


#: (name, description, function, document, the floor's construction of the parsed document).
SHAPES: list[tuple[str, str, Callable[..., Any], dict[str, Any], Callable[[dict[str, Any]], object]]] = [
    ("scalar-heavy", "12 scalar parameters", configure, _SCALARS, _as_is),
    ("record-heavy", "100 two-field dataclasses", trace, _POINTS, _build_points),
    ("union-heavy", "100 discriminated-union items", apply, _STEPS, _build_steps),
    ("list-heavy", "2,000 ints + 200 strings", lookup, _LISTS, _as_is),
]


def _basemodel() -> tuple[Callable[..., Any], dict[str, Any], Callable[[dict[str, Any]], object]]:
    """The BaseModel shape (made only when pydantic is there): an order of 100 plain lines."""
    from pydantic import BaseModel

    class Line(BaseModel):
        sku: str
        quantity: int
        price: float

    class Order(BaseModel):
        customer: str
        lines: list[Line]

    def submit(order: Any) -> str:
        return str(order.customer)

    submit.__annotations__ = {"order": Order, "return": str}
    doc = {"order": {"customer": "C-42", "lines": [{"sku": f"S{i}", "quantity": i, "price": 1.5} for i in range(100)]}}

    def construct(d: dict[str, Any]) -> object:
        o = d["order"]
        return Order.model_construct(customer=o["customer"], lines=[Line.model_construct(**x) for x in o["lines"]])

    return submit, doc, construct


def _entries(
    peers: Peers, fn: Callable[..., Any], raw: str, build: Callable[[dict[str, Any]], object], smoke: bool
) -> list[Entry]:
    from onellm_runtime import Tool

    calls, repeat = (3, 1) if smoke else (max(50, 2_000_000 // (len(raw) * 20)), 5)

    def timed(op: Callable[[], object]) -> Callable[[], float]:
        return lambda: per_call(op, calls, repeat).median_ns

    tool = Tool.create(fn)
    tool.bind(raw)  # the binder is compiled once, outside the timing
    entries = [
        Entry(FLOOR, timed(lambda: build(json.loads(raw))), base=ONELLM),
        Entry(ONELLM, timed(functools.partial(tool.bind, raw)), is_onellm=True),
    ]
    if peers.available("pydantic"):
        from pydantic import TypeAdapter

        adapter = TypeAdapter(shapes.args_typeddict(fn))
        adapter.validate_json(raw, strict=True)
        entries.append(Entry(PYDANTIC, timed(lambda: adapter.validate_json(raw, strict=True))))
    else:
        entries.append(Entry(PYDANTIC, None, skipped=peers.why_missing("pydantic")))
    if peers.available("msgspec"):
        import msgspec

        try:
            decoder = msgspec.json.Decoder(shapes.args_typeddict(fn))
        except TypeError as e:  # msgspec refuses some types outright (a union of two dataclasses)
            entries.append(Entry(MSGSPEC, None, skipped=f"msgspec cannot decode this shape: {e}"))
        else:
            entries.append(Entry(MSGSPEC, timed(functools.partial(decoder.decode, raw))))
    else:
        entries.append(Entry(MSGSPEC, None, skipped=peers.why_missing("msgspec")))
    return entries


def comparisons(peers: Peers, smoke: bool, rounds: int) -> list[Comparison]:
    out: list[Comparison] = []
    for name, what, fn, doc, build in SHAPES:
        raw = json.dumps(doc, separators=(",", ":"))
        out.append(
            Comparison("shapes", name, f"{name}: {what} ({len(raw):,} bytes)", _entries(peers, fn, raw, build, smoke))
        )
    what = "an order of 100 lines as a BaseModel"
    if peers.available("pydantic"):
        fn, doc, build = _basemodel()
        raw = json.dumps(doc, separators=(",", ":"))
        entries = _entries(peers, fn, raw, build, smoke)
        out.append(Comparison("shapes", "BaseModel", f"BaseModel: {what} ({len(raw):,} bytes)", entries))
    else:
        why = peers.why_missing("pydantic")
        skipped = [Entry(label, None, skipped=why) for label in (FLOOR, ONELLM, PYDANTIC, MSGSPEC)]
        out.append(Comparison("shapes", "BaseModel", f"BaseModel: {what}", skipped))
    return out


def show(report: Report, results: Results, smoke: bool) -> None:
    report.section(TITLE, *NOTES)
    for t in results.section_tables("shapes"):
        report.rounds_table(t)


def targets(results: Results) -> list[Target]:
    """Two lines per shape: onellm / the floor and onellm / pydantic strict, round by round."""
    out: list[Target] = []
    for name in [s[0] for s in SHAPES] + ["BaseModel"]:
        t = results.table("shapes", name)
        mine = None if t is None else t.figure(ONELLM)
        for label, limit, of in (
            (FLOOR, TARGET_VS_FLOOR, "the floor"),
            (PYDANTIC, TARGET_VS_PYDANTIC, "pydantic strict"),
        ):
            other = None if t is None else t.figure(label)
            values = [] if mine is None or other is None else ratios(mine, other)
            out.append(Target(f"bind / {of}, {name}", values, limit))
    return out
