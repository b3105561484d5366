"""Disqualification report rendering: a DQ report with 8 statements against WeasyPrint rendering the same text (every
word of the report: facts, timeline, statements, signatures) as plain paragraphs with the same fonts, the report's
bold text in bold, so that both PDFs embed the same four faces (Noto Sans and Noto Sans CJK, regular and bold).
What is left between the two is the report's own layout: tables, borders, page headers and footers, break rules.
Goal (issue 24): the report takes at most 1.5× the baseline. Both are rendered through judgeapp.reports, alternately,
and timed in CPU seconds of this process (rendering is single-threaded, so that is the wall time of an idle machine;
the wall time of a shared one is printed too).

Where the goal is not met, the top of a profile of the report's rendering is printed: the floor.

Run: make bench (or .venv/bin/python bench/dq_report.py [--runs 15])
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from html import escape
from html.parser import HTMLParser
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.results import emit
from judgeapp.reports import html_to_pdf
from judgeapp.reports.dq import DQReport, ReportStatement, dq_report_html, dq_report_pdf

GOAL = 1.5
STATEMENT = (
    "I was sitting at the next table and looked over when the players started arguing. I saw the player "
    "take the top card of the deck, look at it, and put it back before shuffling. "
) * 4
# The plain stylesheet: the report's font stack and size, nothing else.
PLAIN_CSS = 'body { font-family: "Noto Sans", "Noto Sans CJK JP", "DejaVu Sans", sans-serif; font-size: 10pt; }'


def report() -> DQReport:
    roles = ["player", "opponent", "witness", "witness", "judge", "judge", "witness", "opponent"]
    names = [
        "佐藤 陽翔",
        "Chloé Dubois",
        "김지호",
        "Wendy Witness",
        "Fatima Floor",
        "Felix Floor",
        "李 伟",
        "Ana Souza",
    ]
    return DQReport(
        number="DQ-1-1",
        generated="2026-11-21 15:02",
        event="Demo Open",
        event_date="2026-11-21",
        venue="Demo Convention Hall, Hall B",
        policy="Bushiroad TCG Advanced Floor Rules (version 1.11)",
        level="Level 2",
        head_judge="Hiro Head",
        organizer="Olivia Organizer",
        player="佐藤 陽翔",
        player_id="DEMO-007",
        round="3",
        table="4",
        opponents="鈴木 結衣 (DEMO-008)",
        infraction_code="4.1",
        infraction_name="Cheating",
        section="4.1 Cheating",
        penalty="Disqualification",
        revoked=["prizes", "standing"],
        ejected=False,
        status="finalized 2026-11-21 15:00 by Hiro Head",
        timeline=[(f"2026-11-21 14:{m:02d}", f"Step {m}") for m in range(12)],
        statements=[
            ReportStatement(author=n, role=r, taken=f"2026-11-21 14:{i:02d}, taken by Hiro Head", text=STATEMENT)
            for i, (n, r) in enumerate(zip(names, roles, strict=True))
        ],
        hj_infraction="Cheating (4.1).",
        hj_facts="Three witnesses saw the top card moved. " * 5,
        hj_assumptions="None.",
        hj_reasoning="Deliberate and for advantage. " * 6,
        summary="Disqualified; prizes and standing revoked.",
        incident_description="Seen looking at the top card.",
    )


class _PlainText(HTMLParser):
    """A report's words, one paragraph per block (a heading, a paragraph, a table row), bold where the report is."""

    BLOCKS = frozenset({"p", "h1", "h2", "h3", "tr", "div", "section", "header", "li"})
    BOLD = frozenset({"h1", "h2", "h3", "th", "strong", "b"})
    SKIPPED = frozenset({"head", "style", "title", "svg"})

    def __init__(self) -> None:
        super().__init__()
        self.open: list[tuple[str, str]] = []
        self.paragraphs: list[str] = []
        self.words: list[str] = []
        self.skipping = 0

    def bold(self) -> bool:
        bold = False
        for tag, classes in self.open:
            if tag in self.BOLD or "label" in classes.split():
                bold = True
            if "role" in classes.split():  # the report sets a statement author's role in normal weight
                bold = False
        return bold

    def flush(self) -> None:
        if text := "".join(self.words).strip():
            self.paragraphs.append(text)
        self.words = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.skipping += tag in self.SKIPPED
        if tag in self.BLOCKS:
            self.flush()
        if tag not in {"br", "meta", "link", "col", "rect"}:
            self.open.append((tag, dict(attrs).get("class") or ""))

    def handle_endtag(self, tag: str) -> None:
        self.skipping -= tag in self.SKIPPED
        if any(open_tag == tag for open_tag, _ in self.open):
            while self.open.pop()[0] != tag:
                pass
        if tag in self.BLOCKS:
            self.flush()

    def handle_data(self, data: str) -> None:
        if self.skipping or not data.strip():
            return
        text = escape(" ".join(data.split()))
        self.words.append(f"<b>{text}</b> " if self.bold() else f"{text} ")


def same_text_plain(html: str) -> str:
    """The words of a report's HTML as plain paragraphs (bold kept), for a baseline with the same text and fonts."""
    parser = _PlainText()
    parser.feed(html)
    parser.flush()
    return "<!doctype html><html><body>" + "".join(f"<p>{p}</p>" for p in parser.paragraphs) + "</body></html>"


def fonts_of(pdf: bytes) -> list[str]:
    """The embedded font faces of a PDF (pdffonts), without their subset prefixes."""
    out = subprocess.run(["pdffonts", "-"], input=pdf, capture_output=True, check=True).stdout.decode().splitlines()[2:]
    return sorted(line.split()[0].split("+")[-1] for line in out if line.strip())


def interleaved(subject: Callable[[], object], baseline: Callable[[], object], runs: int) -> dict[str, float]:
    """Medians of alternate runs of both, in CPU and wall seconds, and the ratio of the CPU medians."""
    subject(), baseline()  # warm-up: fonts, stylesheets, templates
    cpu: dict[str, list[float]] = {"subject": [], "baseline": []}
    wall: dict[str, list[float]] = {"subject": [], "baseline": []}
    for _ in range(runs):
        for name, fn in (("baseline", baseline), ("subject", subject)):
            c, w = time.process_time(), time.perf_counter()
            fn()
            cpu[name].append(time.process_time() - c)
            wall[name].append(time.perf_counter() - w)
    medians = {
        "cpu": statistics.median(cpu["subject"]),
        "base_cpu": statistics.median(cpu["baseline"]),
        "wall": statistics.median(wall["subject"]),
        "base_wall": statistics.median(wall["baseline"]),
    }
    return {**medians, "ratio": medians["cpu"] / medians["base_cpu"]}


def profile_top(fn: Callable[[], object], lines: int = 15, repeat: int = 3) -> str:
    """The top of a cumulative profile of fn (CPU time), as text."""
    profile = cProfile.Profile(time.process_time)
    profile.enable()
    for _ in range(repeat):
        fn()
    profile.disable()
    out = io.StringIO()
    pstats.Stats(profile, stream=out).strip_dirs().sort_stats("cumulative").print_stats(lines)
    return out.getvalue()[out.getvalue().find("   ncalls") :].rstrip()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    data = report()
    one = replace(data, statements=data.statements[:1])
    plain, plain_one = same_text_plain(dq_report_html(data)), same_text_plain(dq_report_html(one))
    pdf, base_pdf = dq_report_pdf(data), html_to_pdf(plain, PLAIN_CSS)
    print(f"fonts embedded: report {', '.join(fonts_of(pdf))}; baseline {', '.join(fonts_of(base_pdf))}")
    single = interleaved(lambda: dq_report_pdf(one), lambda: html_to_pdf(plain_one, PLAIN_CSS), args.runs)
    full = interleaved(lambda: dq_report_pdf(data), lambda: html_to_pdf(plain, PLAIN_CSS), args.runs)
    print(f"CPU ms (wall ms on this machine in brackets), medians of {args.runs} alternate runs")
    for label, r in (("1 statement", single), ("8 statements", full)):
        print(
            f"{'same text, plain stylesheet, ' + label:<44} {r['base_cpu'] * 1000:7.1f} ({r['base_wall'] * 1000:.0f})"
        )
        print(
            f"{'DQ report, ' + label:<44} {r['cpu'] * 1000:7.1f} ({r['wall'] * 1000:.0f})   {r['ratio']:5.2f}× baseline"
        )
    met = full["ratio"] <= GOAL
    print(
        f"goal: 8 statements ≤ {GOAL}× the same text in a plain stylesheet -> {full['ratio']:.2f}× "
        f"({'met' if met else 'NOT met'}; {len(pdf) // 1024} KB PDF against {len(base_pdf) // 1024} KB)"
    )
    if not met:
        print("where the report's time goes (cumulative CPU, 3 renders):")
        print(profile_top(lambda: dq_report_pdf(data)))
    base = "same text, plain stylesheet, same fonts (CPU)"
    emit(
        "dq_report",
        "DQ report PDF, 1 statement (CPU)",
        single["cpu"] * 1000,
        "ms",
        baseline=base,
        baseline_value=single["base_cpu"] * 1000,
    )
    emit(
        "dq_report",
        "DQ report PDF, 8 statements (CPU)",
        full["cpu"] * 1000,
        "ms",
        baseline=base,
        baseline_value=full["base_cpu"] * 1000,
        goal=f"≤ {GOAL}× baseline",
        met=met,
    )


if __name__ == "__main__":
    main()
