"""The post-event report: a plain-data record in; the same record feeds the web page, the PDF and the bar chart."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from markupsafe import Markup, escape

from ..infractions.calltimes import CallSummary, minutes_seconds
from ..texts import gettext as _
from . import documents_to_pdf, page_margins, page_size, templates


@dataclass
class Count:
    label: str
    count: int
    minutes: int = 0


@dataclass
class PenaltyRow:
    """How often one infraction drew each rank (columns in the policy's order, then "no penalty")."""

    code: str
    name: str
    counts: list[int]

    @property
    def total(self) -> int:
        return sum(self.counts)


@dataclass
class PenaltyLine:
    number: int
    player: str
    player_id: str
    round: int
    table: str
    infraction: str
    rank: str
    judge: str
    upgraded: bool = False
    division: str = ""  # at an event of several divisions: the incident's (its round's); the table groups by it


@dataclass
class JudgedLine:
    """A penalty whose row or escalation the judge settled: how late the player was (tardiness by minutes), the
    escalation the policy offered as the judge's call and whether they took it."""

    number: int
    player: str
    player_id: str
    round: int
    table: str
    infraction: str
    rank: str
    judge: str
    notes: list[str]
    division: str = ""


@dataclass
class DeviationLine:
    """A penalty other than the one the policy suggested, and the reason given for it."""

    number: int
    player: str
    player_id: str
    round: int
    table: str
    infraction: str
    rank: str
    suggested: str
    judge: str
    reason: str
    division: str = ""  # as PenaltyLine's


@dataclass
class DQLine:
    number: int  # the incident
    player: str
    player_id: str
    round: int
    table: str
    infraction: str
    report_number: str | None  # DQ-<event>-<n> when there is an investigation
    investigation_number: int | None
    status: str


@dataclass
class JudgeAppeals:
    judge: str
    upheld: int = 0
    overturned: int = 0
    changed: int = 0
    open: int = 0

    @property
    def total(self) -> int:
        return self.upheld + self.overturned + self.changed + self.open


@dataclass
class AppealLine:
    number: int
    incident: int
    round: int
    table: str
    infraction: str
    appellant: str
    ruling_judge: str
    outcome: str
    decided_by: str
    reason: str


@dataclass
class RoundChecks:
    round: int
    checks: int
    problems: int


@dataclass
class DeckProblem:
    round: int
    table: int
    players: str
    judge: str
    notes: str
    incidents: list[int]


@dataclass
class UpgradedLine:
    player: str
    player_id: str
    number: int
    round: int
    infraction: str
    rank: str
    because: list[int]
    explanation: str = ""  # the engine's sentence: the rule, its section, the count


@dataclass
class DivisionLine:
    """One division of an event of several: its players and the rounds it played."""

    name: str
    players: int
    rounds: int


@dataclass
class EventReport:
    event: str
    event_date: str
    venue: str
    policy: str
    level: str
    rounds_planned: int
    rounds_played: int
    round_minutes: int
    players: int
    organizer: str
    staff: list[tuple[str, list[str]]]
    status: str  # "closed … by …" or "DRAFT: the event is not closed"
    closed: bool
    generated: str
    time_zone: str
    ranks: list[str]  # the penalty table's columns
    penalties: list[PenaltyRow]
    not_counted: list[Count]  # void, overturned, pending head judge
    incidents_logged: int
    serious_from: str  # the lowest rank listed in full ("Loss of Game")
    serious: list[PenaltyLine]
    deviations: list[DeviationLine]  # penalties other than the suggestion, with their reasons
    judged: list[JudgedLine]  # minutes late, and offered escalations taken or not
    dqs: list[DQLine]
    appeals_by_judge: list[JudgeAppeals]
    appeals: list[AppealLine]
    deck_checks: int
    deck_checks_with_problems: int
    deck_checks_in_progress: int
    deck_checks_by_round: list[RoundChecks]
    deck_problems: list[DeckProblem]
    extensions: int
    extension_minutes: int
    extension_longest: str  # "12 min, round 3 table 7 (deck check)" or "—"
    extensions_by_reason: list[Count]
    extensions_voided: int
    upgraded: list[UpgradedLine]
    calls: CallSummary | None = None  # None: no judge call at this event
    extra: dict = field(default_factory=dict)
    divisions: list[DivisionLine] = field(default_factory=list)  # empty at an event of one division

    @property
    def rank_totals(self) -> list[int]:
        return [sum(row.counts[i] for row in self.penalties) for i in range(len(self.ranks))]

    @property
    def penalties_total(self) -> int:
        return sum(row.total for row in self.penalties)

    @property
    def appeal_totals(self) -> JudgeAppeals:
        out = JudgeAppeals(_("All judges"))
        for j in self.appeals_by_judge:
            out.upheld, out.overturned = out.upheld + j.upheld, out.overturned + j.overturned
            out.changed, out.open = out.changed + j.changed, out.open + j.open
        return out


# Grey levels from light to dark, one per rank: the chart stays readable printed in black and white.
SHADES = ["#e6e6e6", "#bdbdbd", "#8c8c8c", "#595959", "#262626", "#000000"]


def bar_chart_svg(report: EventReport, *, width: int = 330, font: int = 11) -> Markup:
    """Penalties by infraction as horizontal bars stacked by rank, drawn as inline SVG (no image is fetched).
    Every label is escaped; the numbers are the same ones as in the table."""
    rows = [r for r in report.penalties if r.total]
    if not rows:
        return Markup("")
    label_w, count_w, bar_h, gap = 4 * font, 3 * font, font + 5, 6
    legend_h = (font + 8) * ((len(report.ranks) + 2) // 3)
    plot_w = width - label_w - count_w
    top = max(r.total for r in rows)
    height = len(rows) * (bar_h + gap) + legend_h + 4
    shades = [SHADES[min(i, len(SHADES) - 1)] for i in range(len(report.ranks))]
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 {width} {height}" '
        f'width="100%" role="img" aria-label="{escape(_("Penalties by infraction and rank"))}">'
    ]
    for n, row in enumerate(rows):
        y = n * (bar_h + gap)
        parts.append(f'<text x="0" y="{y + bar_h - 4}" font-size="{font}">{escape(row.code)}</text>')
        x = float(label_w)
        for i, count in enumerate(row.counts):
            if not count:
                continue
            w = plot_w * count / top
            parts.append(
                f'<rect x="{x:.1f}" y="{y}" width="{w:.1f}" height="{bar_h}" fill="{shades[i]}" '
                f'stroke="#000" stroke-width="0.5"><title>{escape(row.code)} {escape(report.ranks[i])}: '
                f"{count}</title></rect>"
            )
            x += w
        parts.append(f'<text x="{x + 3:.1f}" y="{y + bar_h - 4}" font-size="{font}">{row.total}</text>')
    y0 = len(rows) * (bar_h + gap) + 4
    for i, rank in enumerate(report.ranks):
        lx, ly = (i % 3) * (width // 3), y0 + (i // 3) * (font + 8)
        parts.append(
            f'<rect x="{lx}" y="{ly}" width="{font}" height="{font}" fill="{shades[i]}" stroke="#000" '
            f'stroke-width="0.5"/><text x="{lx + font + 4}" y="{ly + font - 1}" '
            f'font-size="{font - 1}">{escape(rank)}</text>'
        )
    parts.append("</svg>")
    return Markup("".join(parts))


def event_report_html(report: EventReport, paper: str = "a4") -> str:
    """The report in the language in force (the event's: see judgeapp/reports/__init__.py)."""
    return templates.get_template("event.html").render(
        r=report,
        page_size=page_size(paper),
        margins=page_margins(_("Post-event report")),
        chart=bar_chart_svg(report, width=480, font=10),
        mmss=minutes_seconds,
    )


def event_report_pdf(
    report: EventReport,
    paper: str = "a4",
    appendices: Sequence[str] = (),
    progress: Callable[[int], None] | None = None,
) -> bytes:
    """The report, then each appended document (the disqualification reports' HTML), in one PDF. Each appended
    report keeps its own page numbers, as it was issued. `progress(n)`: the first n documents are laid out."""
    return documents_to_pdf([event_report_html(report, paper), *appendices], progress=progress)
