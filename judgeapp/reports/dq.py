"""The disqualification report: a plain-data record in, a PDF out (A4 or US Letter, readable in black and white)."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, select_autoescape

from . import html_to_pdf

TEMPLATES = Path(__file__).resolve().parent / "templates"
_env = Environment(loader=FileSystemLoader(TEMPLATES), autoescape=select_autoescape(default=True),
                   trim_blocks=True, lstrip_blocks=True)
PAPERS = {"a4": "A4", "letter": "letter"}

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
    extra: dict = field(default_factory=dict)

def dq_report_html(report: DQReport, paper: str = "a4") -> str:
    size = PAPERS.get(paper)
    if size is None:
        raise ValueError(f"unknown paper size {paper!r}")
    return _env.get_template("dq.html").render(r=report, page_size=size)

def dq_report_pdf(report: DQReport, paper: str = "a4") -> bytes:
    """Render the report; `paper` is "a4" or "letter". Only the report stylesheet and fonts are ever loaded."""
    return html_to_pdf(dq_report_html(report, paper))
