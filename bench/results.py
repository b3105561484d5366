"""One figure of a benchmark, printed as a line and, under bench/all.py, collected for the table.

A figure is a measurement, its baseline measured in the same run, the ratio between them, and the goal (if any)
with whether it was met.
"""

from __future__ import annotations

import json
import os


def emit(
    bench: str,
    figure: str,
    value: float,
    unit: str,
    *,
    baseline: str = "",
    baseline_value: float | None = None,
    goal: str = "",
    met: bool | None = None,
) -> None:
    ratio = value / baseline_value if baseline_value else None
    row = {
        "bench": bench,
        "figure": figure,
        "value": value,
        "unit": unit,
        "baseline": baseline,
        "baseline_value": baseline_value,
        "ratio": ratio,
        "goal": goal,
        "met": met,
    }
    path = os.environ.get("BENCH_RESULTS")
    if path:
        with open(path, "a", encoding="utf-8") as out:
            out.write(json.dumps(row, ensure_ascii=False) + "\n")
