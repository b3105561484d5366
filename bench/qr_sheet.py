"""The QR call sheet: its PDF for 20, 100 and 300 tables (one card per table, four to a page), rendered through
judgeapp.reports.call_sheet as the sheet's job does, timed in CPU seconds of this process (rendering is
single-threaded: the wall time of an idle machine; the wall time of a shared one is printed too).

Goal (issue 32): the time per table stays flat: per table, 300 tables take at most 1.5× what 20 take, measured in the
same run. Before the fix the sheet was one flex box wrapping every card across pages, laid out again for each page:
20 tables 2.2 s, 60 tables 22 s, 500 tables several minutes.

Run: make bench (or .venv/bin/python bench/qr_sheet.py [--sizes 20,100,300] [--runs 3])
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.results import emit
from judgeapp.reports.call_sheet import call_sheet_pdf

GOAL = 1.5


def tables(count: int) -> list[tuple[int, str]]:
    """Call links shaped like the app's: the public address, the event, the table and a 16-character signature."""
    return [(t, f"https://judge.example.org/call/12/{t}/{t * 7919:016x}") for t in range(1, count + 1)]


def timed(count: int, runs: int) -> tuple[float, float]:
    """The best CPU and wall seconds of `runs` renders of the sheet of `count` tables."""
    links = tables(count)
    cpu, wall = [], []
    for _ in range(runs):
        c, w = time.process_time(), time.perf_counter()
        pdf = call_sheet_pdf("Regional Qualifier — Spring", links, "a4")
        cpu.append(time.process_time() - c)
        wall.append(time.perf_counter() - w)
        assert pdf.startswith(b"%PDF")
    return min(cpu), min(wall)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="20,100,300")
    parser.add_argument("--runs", type=int, default=3, help="renders of each size but the largest (best one kept)")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    timed(4, 1)  # fonts and templates loaded once, as in a running worker
    per_table = {}
    for n, count in enumerate(sizes):
        cpu, wall = timed(count, 1 if n == len(sizes) - 1 else args.runs)
        per_table[count] = cpu / count
        print(f"{count} tables: {cpu:.2f} s CPU ({wall:.2f} s wall), {1000 * cpu / count:.1f} ms per table", flush=True)
        emit("qr_sheet", f"QR sheet PDF, {count} tables (CPU)", cpu * 1000, "ms")
    smallest = sizes[0]
    for count in sizes[1:]:
        ratio = per_table[count] / per_table[smallest]
        last = count == sizes[-1]
        print(f"per table, {count} against {smallest}: {ratio:.2f}×", flush=True)
        emit(
            "qr_sheet",
            f"QR sheet PDF per table, {count} tables (CPU)",
            per_table[count] * 1000,
            "ms",
            baseline=f"per table, {smallest} tables (CPU)",
            baseline_value=per_table[smallest] * 1000,
            goal=f"≤ {GOAL}× baseline" if last else "",
            met=ratio <= GOAL if last else None,
        )


if __name__ == "__main__":
    main()
