"""Disqualification report rendering: a DQ report with 8 statements against WeasyPrint rendering a one-paragraph
document, timed in the same run. Goal: the report takes under 3× the trivial document.

Run: make bench (or .venv/bin/python bench/dq_report.py)
"""
from __future__ import annotations

import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from judgeapp.reports import html_to_pdf  # noqa: E402
from judgeapp.reports.dq import DQReport, ReportStatement, dq_report_pdf  # noqa: E402

RUNS = 9
STATEMENT = ("I was sitting at the next table and looked over when the players started arguing. I saw the player "
             "take the top card of the deck, look at it, and put it back before shuffling. ") * 4


def report() -> DQReport:
    roles = ["player", "opponent", "witness", "witness", "judge", "judge", "witness", "opponent"]
    names = ["佐藤 陽翔", "Chloé Dubois", "김지호", "Wendy Witness", "Fatima Floor", "Felix Floor", "李 伟", "Ana Souza"]
    return DQReport(
        number="DQ-1-1", generated="2026-11-21 15:02", event="Demo Open", event_date="2026-11-21",
        venue="Demo Convention Hall, Hall B", policy="Bushiroad TCG Advanced Floor Rules (version 1.11)",
        level="Level 2", head_judge="Hiro Head", organizer="Olivia Organizer", player="佐藤 陽翔", player_id="DEMO-007",
        round="3", table="4", opponents="鈴木 結衣 (DEMO-008)", infraction_code="4.1", infraction_name="Cheating",
        section="4.1 Cheating", penalty="Disqualification", revoked=["prizes", "standing"], ejected=False,
        status="finalized 2026-11-21 15:00 by Hiro Head",
        timeline=[(f"2026-11-21 14:{m:02d}", f"Step {m}") for m in range(12)],
        statements=[ReportStatement(author=n, role=r, taken=f"2026-11-21 14:{i:02d}, taken by Hiro Head",
                                    text=STATEMENT) for i, (n, r) in enumerate(zip(names, roles))],
        hj_infraction="Cheating (4.1).", hj_facts="Three witnesses saw the top card moved. " * 5,
        hj_assumptions="None.", hj_reasoning="Deliberate and for advantage. " * 6,
        summary="Disqualified; prizes and standing revoked.", incident_description="Seen looking at the top card.")


from bench.results import emit  # noqa: E402


def median_seconds(fn) -> float:
    fn()  # warm-up: fonts and stylesheet caches
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    data = report()
    pdf = dq_report_pdf(data)
    trivial = median_seconds(lambda: html_to_pdf("<p>One paragraph of text, nothing else.</p>"))
    full = median_seconds(lambda: dq_report_pdf(data))
    one = replace(data, statements=data.statements[:1])
    single = median_seconds(lambda: dq_report_pdf(one))
    print(f"{'one-paragraph document (baseline)':<44} {trivial * 1000:8.1f} ms")
    print(f"{'DQ report, 1 statement':<44} {single * 1000:8.1f} ms   {single / trivial:5.2f}× baseline")
    print(f"{'DQ report, 8 statements (' + str(len(pdf) // 1024) + ' KB PDF)':<44} {full * 1000:8.1f} ms"
          f"   {full / trivial:5.2f}× baseline (goal under 3×)")
    base = "one-paragraph PDF"
    emit("dq_report", "DQ report PDF, 1 statement", single * 1000, "ms", baseline=base, baseline_value=trivial * 1000)
    emit("dq_report", "DQ report PDF, 8 statements", full * 1000, "ms", baseline=base, baseline_value=trivial * 1000,
         goal="< 3× baseline", met=full / trivial < 3)


if __name__ == "__main__":
    main()
