"""After the event, its use cases as the views call them: closing and reopening it (closing.py), the post-event
report (report.py), the CSV exports (exports.py), and here a player's history across the organizer's events.

The page, the PDF and the CSV files are built from the same queries, so their numbers agree.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session, joinedload

from ..choices import rank_namer
from ..errors import one_line
from ..infractions import Policy
from ..models import (
    Event,
    Incident,
    IncidentStatus,
    IncidentSubject,
    Player,
    User,
)
from .closing import (
    Blocker,
    CannotClose,
    blockers,
    close_event,
    closing_history,
    reopen_event,
    warnings,
)
from .exports import (
    CALL_HEADER,
    DECK_CHECK_HEADER,
    DIVISION_OF_ROW,
    EXTENSION_HEADER,
    INCIDENT_HEADER,
    PLAYER_PENALTY_HEADER,
    call_rows,
    deck_check_rows,
    extension_rows,
    incident_rows,
    player_penalty_rows,
    several_divisions,
    to_csv,
    with_division,
    with_divisions,
)
from .report import (
    Local,
    Records,
    _infraction,
    call_times,
    divisions_of_report,
    dq_investigations,
    records_of,
    report_of,
    staff_by_role,
)

__all__ = [
    "CALL_HEADER",
    "DECK_CHECK_HEADER",
    "DIVISION_OF_ROW",
    "EXTENSION_HEADER",
    "INCIDENT_HEADER",
    "PLAYER_PENALTY_HEADER",
    "Blocker",
    "CannotClose",
    "HistoryLine",
    "Local",
    "PlayerHistory",
    "Records",
    "blockers",
    "call_rows",
    "call_times",
    "close_event",
    "closing_history",
    "deck_check_rows",
    "divisions_of_report",
    "dq_investigations",
    "extension_rows",
    "incident_rows",
    "player_history",
    "player_penalty_rows",
    "records_of",
    "reopen_event",
    "report_of",
    "several_divisions",
    "staff_by_role",
    "to_csv",
    "warnings",
    "with_division",
    "with_divisions",
]


# ---- one player's penalties across the organizer's events ------------------------------------------------------------


@dataclass
class HistoryLine:
    event: Event
    incident: Incident
    name: str
    infraction: str
    rank: str
    is_top: bool


@dataclass
class PlayerHistory:
    code: str
    names: list[str]
    events: list[Event]  # every event of the organizer the player was registered at
    lines: list[HistoryLine]

    @property
    def disqualifications(self) -> int:
        return sum(1 for line in self.lines if line.is_top and line.incident.status is IncidentStatus.STANDING)


def player_history(
    session: Session, policy_of: Callable[[Event], Policy | None], *, organizer: User, code: str
) -> PlayerHistory:
    """Every penalty of the player with this ID at the events `organizer` organized, newest event first, each named
    by the policy its event enforces (`policy_of`: extensions.known_event_policy, the uploaded file where there is
    one; None when the policy is no longer known)."""
    code = one_line(code, "code", limit=64, missing="Type a player ID.")
    players = session.scalars(
        select(Player)
        .join(Event, Event.id == Player.event_id)
        .where(Event.organizer_id == organizer.id, Player.player_code == code)
    ).all()
    events = {p.event_id: session.get_one(Event, p.event_id) for p in players}
    incidents = (
        session.scalars(
            select(Incident)
            .join(IncidentSubject, IncidentSubject.incident_id == Incident.id)
            .where(IncidentSubject.player_id.in_([p.id for p in players]))
            .options(joinedload(Incident.round), joinedload(Incident.judge))
            .order_by(Incident.created_at)
        )
        .unique()
        .all()
    )
    lines = []
    policies: dict[int, Policy | None] = {}
    for i in incidents:
        event = events[i.event_id]
        policy = policies[event.id] if event.id in policies else policies.setdefault(event.id, policy_of(event))
        lines.append(
            HistoryLine(
                event,
                i,
                i.subject_name,
                _infraction(policy, i.infraction_code) if policy else i.infraction_code,
                rank_namer(policy)(i.rank_id) if policy else (i.rank_id or "No penalty"),
                policy is not None and policy.top_rank is not None and i.rank_id == policy.top_rank.id,
            )
        )
    lines.sort(key=lambda line: (line.event.date, line.event.id, line.incident.number), reverse=True)
    return PlayerHistory(
        code,
        sorted({p.name for p in players}),
        sorted(events.values(), key=lambda e: (e.date, e.id), reverse=True),
        lines,
    )
