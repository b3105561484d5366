"""The disqualification report: a plain-data record in, a PDF out (A4 or US Letter, readable in black and white)."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..texts import gettext as _
from . import html_to_pdf, page_margins, page_size, templates


@dataclass
class ReportStatement:
    author: str
    role: str
    taken: str  # when, and by whom or how
    text: str
    addendum: bool = False


@dataclass
class DQReport:
    number: str
    generated: str
    event: str
    event_date: str
    venue: str
    policy: str
    level: str
    head_judge: str
    organizer: str
    player: str
    player_id: str
    round: str
    table: str
    opponents: str
    infraction_code: str
    infraction_name: str
    section: str
    penalty: str
    revoked: list[str]
    ejected: bool
    status: str  # "finalized on …" or "draft: not finalized"
    timeline: list[tuple[str, str]]
    statements: list[ReportStatement]
    hj_infraction: str
    hj_facts: str
    hj_assumptions: str
    hj_reasoning: str
    summary: str
    incident_description: str = ""
    time_zone: str = "UTC"
    player_reading: str = ""  # the reading of the player's name (フリガナ), where known
    agreed: list[str] = field(default_factory=list)  # the other judges who agreed (Play! Pokémon 4.1), by name
    agreed_rule: str = ""  # the rule that asked for them: "3 judges, the head judge among them (4.1)"
    extra: dict = field(default_factory=dict)


def dq_report_html(report: DQReport, paper: str = "a4") -> str:
    """The report in the language in force (the event's: see judgeapp/reports/__init__.py)."""
    margins = page_margins(_("Report %(number)s", number=report.number))
    return templates.get_template("dq.html").render(r=report, page_size=page_size(paper), margins=margins)


def dq_report_pdf(report: DQReport, paper: str = "a4") -> bytes:
    """Render the report; `paper` is "a4" or "letter". Only the report stylesheet and fonts are ever loaded."""
    return html_to_pdf(dq_report_html(report, paper))
