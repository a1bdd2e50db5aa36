"""Printing: one table per comparison, every row with its ratio to its base (onellm's row unless said).

The ratio is *the row's time divided by its base's time*, taken round by round and printed
as the median over the rounds with its range (min-max): ``21.0x`` means onellm takes 1/21
of that row's time; ``0.70x`` means the row is faster. Each figure is printed as its
minimum over the rounds, its median, and the range (min-max) across the rounds. Target
lines say met or missed with the numbers that decide them.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from typing import Any, TextIO

from .rounds import Table, ratios, spread
from .timing import Stats

__all__ = ["Row", "Report"]


@dataclass
class Row:
    label: str
    stats: Stats | None
    #: Why there is no figure (a skipped peer), printed in place of one.
    skipped: str = ""
    note: str = ""
    is_onellm: bool = False


#: How many ns one printed unit is.
_UNITS = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}


def _fmt(ns: float, unit: str) -> str:
    value = ns / _UNITS[unit]
    if value >= 100:
        return f"{value:,.0f}"
    if value >= 10:
        return f"{value:.1f}"
    return f"{value:.2f}"


@dataclass
class Report:
    out: TextIO = sys.stdout
    results: dict[str, Any] = field(default_factory=dict)
    targets: list[tuple[str, bool, str]] = field(default_factory=list)

    def print(self, text: str = "") -> None:
        print(text, file=self.out, flush=True)

    def section(self, title: str, *notes: str) -> None:
        self.print()
        self.print("=" * 100)
        self.print(title)
        self.print("=" * 100)
        for note in notes:
            self.print(f"  {note}")

    def table(self, key: str, heading: str, rows: list[Row], unit: str = "us") -> None:
        """Rows with median, p10-p90, count and the ratio to the onellm row."""
        base = next((r.stats for r in rows if r.is_onellm and r.stats is not None), None)
        self.print()
        self.print(f"  {heading}")
        width = max(44, *(len(r.label) + 2 for r in rows))
        self.print(f"    {'implementation':<{width}}{'median ' + unit:>12}{'p10-p90':>18}{'n':>8}   row/onellm")
        kept: dict[str, Any] = {}
        for r in rows:
            if r.stats is None:
                self.print(f"    {r.label:<{width}}{'skipped: ' + r.skipped}")
                kept[r.label] = {"skipped": r.skipped}
                continue
            s = r.stats
            ratio = "" if base is None else f"{s.median_ns / base.median_ns:.2f}x"
            if r.is_onellm:
                ratio = "1.00x (onellm)"
            spread = f"{_fmt(s.p10_ns, unit)}-{_fmt(s.p90_ns, unit)}"
            line = f"    {r.label:<{width}}{_fmt(s.median_ns, unit):>12}{spread:>18}{s.n:>8}   {ratio}"
            self.print(line + (f"   {r.note}" if r.note else ""))
            scale = _UNITS[unit]
            kept[r.label] = {
                f"median_{unit}": round(s.median_ns / scale, 3),
                f"p10_{unit}": round(s.p10_ns / scale, 3),
                f"p90_{unit}": round(s.p90_ns / scale, 3),
                "n": s.n,
                "ratio_to_onellm": None if base is None else round(s.median_ns / base.median_ns, 3),
            }
        self.results.setdefault(key, {})[heading] = kept

    def rounds_table(self, t: Table) -> None:
        """A comparison's figures over the rounds: minimum, median, min-max, and the ratio to the base."""
        unit = t.unit
        self.print()
        self.print(f"  {t.heading}")
        width = max(44, *(len(f.label) + 2 for f in t.figures))
        self.print(
            f"    {'implementation':<{width}}{'min ' + unit:>10}{'median':>10}{'min-max':>20}{'rounds':>7}"
            "   row/base: median (min-max)"
        )
        for f in t.figures:
            if not f.samples:
                self.print(f"    {f.label:<{width}}skipped: {f.skipped or 'no figure'}")
                continue
            rng = f"{_fmt(f.minimum, unit)}-{_fmt(max(f.samples), unit)}"
            base = t.base_of(f)
            if f.is_onellm and f.base is None:
                ratio = "1.00x (onellm)"
            elif base is None:
                ratio = ""
            else:
                ratio = spread(ratios(f, base), unit="x") + (
                    "" if base.is_onellm and f.base is None else f" of '{base.label}'"
                )
            line = (
                f"    {f.label:<{width}}{_fmt(f.minimum, unit):>10}{_fmt(f.median, unit):>10}{rng:>20}"
                f"{len(f.samples):>7}   {ratio}"
            )
            self.print(line + (f"   {f.note}" if f.note else ""))

    def target(self, what: str, met: bool, detail: str) -> None:
        verdict = "MET" if met else "MISSED"
        self.print(f"  TARGET {what}: {verdict} ({detail})")
        self.targets.append((what, met, detail))

    def summary(self) -> None:
        self.section("Targets")
        if not self.targets:
            self.print("  (no target was measured)")
        for what, met, detail in self.targets:
            self.print(f"  {'MET   ' if met else 'MISSED'}  {what}: {detail}")
