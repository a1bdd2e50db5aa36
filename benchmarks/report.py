"""Printing: one table per measurement, every row with its ratio to onellm's figure.

The ratio is always *the row's time divided by onellm's time*: ``21.0x`` means onellm
takes 1/21 of that row's time; ``0.70x`` means the row is faster than onellm. A target
line after each table says MET or MISSED with the numbers that decide it, and every
figure is also kept in ``Report.results`` for ``--json``.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from typing import Any, TextIO

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
_UNITS = {"us": 1e3, "ms": 1e6}


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
