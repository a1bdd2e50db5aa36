"""Interleaved rounds: every comparison's entries take turns, and the whole run repeats.

A *comparison* is what one table prints: the entries measured on the same input (onellm,
each peer, a baseline such as ``json.loads`` or plain mypy). Each entry has a ``sample``
that measures it once and returns one figure (ns per operation; itself a median of many
operations, see ``timing.py``). A round takes one sample of every entry of every
comparison, the entries alternating (their order rotated each round), so a busy spell of
the shared machine falls on all of them alike; the run repeats the round ``rounds`` times.

A ratio is taken *within a round* (entry / its base in the same round) and then summarised
over the rounds, so the load of a round cancels out of it.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Entry", "Comparison", "Figure", "Results", "Target", "spread", "run_rounds"]


@dataclass
class Entry:
    label: str
    #: One measurement, ns per operation; None when the entry is skipped.
    sample: Callable[[], float] | None
    skipped: str = ""
    note: str = ""
    is_onellm: bool = False
    #: The label of the entry this one's ratio is taken against (default: the comparison's onellm entry).
    base: str | None = None


@dataclass
class Comparison:
    #: The section's name (``build``, ``bind``, ...): what ``--only`` selects.
    section: str
    #: A short stable name within the section, used to find the figures again (targets, ``--baseline``).
    name: str
    heading: str
    entries: list[Entry]
    unit: str = "us"


@dataclass
class Figure:
    """One entry's samples over the rounds, as a plain record (what ``--json`` and the workers carry)."""

    label: str
    samples: list[float] = field(default_factory=list)
    skipped: str = ""
    note: str = ""
    is_onellm: bool = False
    base: str | None = None

    @property
    def median(self) -> float:
        return statistics.median(self.samples)

    @property
    def minimum(self) -> float:
        return min(self.samples)


@dataclass
class Table:
    section: str
    name: str
    heading: str
    unit: str
    figures: list[Figure]

    def figure(self, label: str) -> Figure | None:
        return next((f for f in self.figures if f.label == label and f.samples), None)

    def base_of(self, f: Figure) -> Figure | None:
        if f.base is not None:
            return self.figure(f.base)
        if f.is_onellm:
            return None
        return next((g for g in self.figures if g.is_onellm and g.samples), None)


def ratios(num: Figure, den: Figure) -> list[float]:
    """Round-by-round ratios ``num / den`` (the rounds both have)."""
    return [a / b for a, b in zip(num.samples, den.samples) if b > 0]


def spread(values: list[float], fmt: str = "{:.2f}", unit: str = "") -> str:
    """``median (min-max)`` of ``values``: how every ratio and figure range is printed."""
    if not values:
        return "n/a"
    med = fmt.format(statistics.median(values)) + unit
    if len(values) == 1:
        return med
    return f"{med} ({fmt.format(min(values))}-{fmt.format(max(values))})"


@dataclass
class Results:
    """Every table of a run, plus what sections measured once (memory, hostile bounds)."""

    tables: list[Table] = field(default_factory=list)
    once: dict[str, Any] = field(default_factory=dict)
    rounds: int = 0

    def table(self, section: str, name: str) -> Table | None:
        return next((t for t in self.tables if t.section == section and t.name == name), None)

    def figure(self, section: str, name: str, label: str) -> Figure | None:
        t = self.table(section, name)
        return None if t is None else t.figure(label)

    def section_tables(self, section: str) -> list[Table]:
        return [t for t in self.tables if t.section == section]

    def to_json(self) -> dict[str, Any]:
        return {
            "rounds": self.rounds,
            "once": self.once,
            "tables": [
                {
                    "section": t.section,
                    "name": t.name,
                    "heading": t.heading,
                    "unit": t.unit,
                    "figures": [vars(f) for f in t.figures],
                }
                for t in self.tables
            ],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Results:
        tables = [
            Table(t["section"], t["name"], t["heading"], t["unit"], [Figure(**f) for f in t["figures"]])
            for t in data["tables"]
        ]
        return cls(tables, dict(data.get("once", {})), int(data.get("rounds", 0)))

    def extend(self, other: Results) -> None:
        """Append ``other``'s samples (a later round of the same run) to these."""
        self.rounds += other.rounds
        self.once.update({k: v for k, v in other.once.items() if k not in self.once})
        for t in other.tables:
            mine = self.table(t.section, t.name)
            if mine is None:
                self.tables.append(t)
                continue
            for f in t.figures:
                g = next((g for g in mine.figures if g.label == f.label), None)
                if g is None:
                    mine.figures.append(f)
                else:
                    g.samples.extend(f.samples)
                    g.skipped = g.skipped or f.skipped


@dataclass
class Target:
    """One line of the final summary: a measured ratio against its limit."""

    what: str
    #: The ratios over the rounds (the verdict is on their median); empty when not measured.
    values: list[float]
    limit: float
    #: True: the figure must stay at or below ``limit``; False: at or above it.
    at_most: bool = True
    detail: str = ""
    why_not: str = ""
    #: How the figure and the limit are printed after their number.
    unit: str = "x"

    @property
    def met(self) -> bool | None:
        if not self.values:
            return None
        m = statistics.median(self.values)
        return m <= self.limit if self.at_most else m >= self.limit

    def line(self) -> str:
        verdict = {True: "met   ", False: "missed", None: "n/a   "}[self.met]
        sign = "<=" if self.at_most else ">="
        figure = spread(self.values, unit=self.unit) if self.values else self.why_not or "not measured"
        extra = f"; {self.detail}" if self.detail else ""
        return f"  {verdict}  {self.what} {sign} {self.limit:.2f}{self.unit}: {figure}{extra}"


def _order(entries: list[Entry], round_no: int) -> list[Entry]:
    k = round_no % len(entries) if entries else 0
    return entries[k:] + entries[:k]


def run_rounds(
    comparisons: list[Comparison],
    rounds: int,
    on_round: Callable[[int], None] | None = None,
) -> Results:
    """Sample every entry once per round, entries alternating; a failing entry is skipped from then on."""
    figures = {
        id(e): Figure(e.label, [], e.skipped, e.note, e.is_onellm, e.base) for c in comparisons for e in c.entries
    }
    for r in range(rounds):
        if on_round is not None:
            on_round(r)
        for c in comparisons:
            for e in _order(c.entries, r):
                f = figures[id(e)]
                if e.sample is None or f.skipped:
                    continue
                try:
                    f.samples.append(float(e.sample()))
                except Exception as exc:  # a peer that cannot do this: a result, not a crash
                    f.skipped = f"failed: {type(exc).__name__}: {str(exc).splitlines()[0][:80] if str(exc) else ''}"
                    f.samples.clear()
    tables = [Table(c.section, c.name, c.heading, c.unit, [figures[id(e)] for e in c.entries]) for c in comparisons]
    return Results(tables, {}, rounds)


def all_figures(results: Iterable[Table]) -> Iterable[tuple[Table, Figure]]:
    for t in results:
        for f in t.figures:
            yield t, f
