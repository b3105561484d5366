"""Closing and reopening an event: what keeps it open (its blockers and warnings), the close, the reopen, and the
history of both."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session, joinedload

from .. import audit
from ..calls import services as calls
from ..clock.services import round_clock
from ..errors import FieldError, one_line
from ..events.round_services import rounds_of
from ..investigations.services import report_number
from ..lifecycles import CallState
from ..models import (
    Appeal,
    AppealStatus,
    AuditEntry,
    DeckCheck,
    DeckCheckResult,
    Event,
    Incident,
    IncidentStatus,
    Investigation,
    InvestigationStatus,
    JudgeCall,
    User,
    utcnow,
)
from ..permissions import TABLE, Action
from ..records import MAX_REASON, lock_event
from ..texts import gettext as _
from ..texts import ngettext
from .report import Local, _count

# ---- closing ---------------------------------------------------------------------------------------------------------


@dataclass
class Blocker:
    """Something unfinished that keeps the event open, with the page where it is finished and, on that page, the
    button that finishes it: `anchor` is its id, `action` its label, `permission` (on `record`) who may press it."""

    text: str
    endpoint: str
    args: dict
    action: str = ""
    anchor: str = ""
    permission: Action | None = None
    record: Any = None
    action_endpoint: str = ""  # the page with the button, when it is not `endpoint`'s

    @property
    def who(self) -> str:
        """Who may finish it, for someone who may not (the table's own words)."""
        return str(TABLE[self.permission].refused) if self.permission else ""


def blockers(session: Session, event: Event, *, local: Local, now: datetime | None = None) -> list[Blocker]:
    """What must be finished before the event closes: open appeals, unfinished investigations, penalties waiting for
    the head judge, deck checks never ended, and a round still being played."""
    now = now or utcnow()
    out: list[Blocker] = []
    for appeal in session.scalars(
        select(Appeal)
        .where(Appeal.event_id == event.id, Appeal.status == AppealStatus.OPEN)
        .options(joinedload(Appeal.incident))
        .order_by(Appeal.number)
    ):
        out.append(
            Blocker(
                _(
                    "Appeal #%(appeal)s of incident #%(incident)s (%(who)s) is waiting for a decision.",
                    appeal=appeal.number,
                    incident=appeal.incident.number,
                    who=appeal.appellant_name,
                ),
                "appeals.show",
                {"number": appeal.number},
                _("Decide appeal #%(number)s", number=appeal.number),
                "decide",
                Action.DECIDE_APPEAL,
                appeal,
            )
        )
    investigated = set()
    for inv in session.scalars(
        select(Investigation)
        .where(Investigation.event_id == event.id, Investigation.status == InvestigationStatus.OPEN)
        .options(joinedload(Investigation.incident))
        .order_by(Investigation.number)
    ):
        investigated.add(inv.incident_id)
        out.append(
            Blocker(
                _(
                    "Disqualification investigation %(number)s (%(who)s) is not finalized.",
                    number=report_number(event, inv),
                    who=inv.incident.subject_name,
                ),
                "investigations.show",
                {"number": inv.number},
                _("Write up and finalize %(number)s", number=report_number(event, inv)),
                "write-up",
                Action.WRITE_UP,
                inv,
            )
        )
    for incident in session.scalars(
        select(Incident)
        .where(Incident.event_id == event.id, Incident.status == IncidentStatus.RECOMMENDED)
        .order_by(Incident.number)
    ):
        if incident.id not in investigated:
            out.append(
                Blocker(
                    _(
                        "Incident #%(number)s (%(who)s): a recommended penalty is waiting for the head judge.",
                        number=incident.number,
                        who=incident.subject_name,
                    ),
                    "incidents.show",
                    {"number": incident.number},
                    _("Accept or decline the recommendation"),
                    "recommendation",
                    Action.ACCEPT_RECOMMENDATION,
                    incident,
                )
            )
    for dc in session.scalars(
        select(DeckCheck)
        .where(DeckCheck.event_id == event.id, DeckCheck.result == DeckCheckResult.IN_PROGRESS)
        .options(joinedload(DeckCheck.round))
        .order_by(DeckCheck.id)
    ):
        out.append(
            Blocker(
                _(
                    "The deck check at table %(table)s (round %(round)s) was never ended.",
                    table=dc.table_number,
                    round=dc.round.number,
                ),
                "deckchecks.show",
                {"deck_check_id": dc.id},
                _("End the deck check"),
                "end-deck-check",
                Action.END_DECK_CHECK,
                dc,
            )
        )
    for call in session.scalars(
        select(JudgeCall)
        .where(JudgeCall.event_id == event.id, JudgeCall.state.in_([CallState.TAKEN, CallState.ESCALATED]))
        .order_by(JudgeCall.number)
    ):  # a judge is still at the table (calls nobody took are cancelled by the closing)
        out.append(
            Blocker(
                _(
                    "The judge call at table %(table)s is %(state)s: close it (or log its incident) first.",
                    table=call.table_number,
                    state=call.state.label,
                ),
                "calls.show",
                {"number": call.number},
                _("Close the call"),
                "close-call",
                Action.CLOSE_CALL,
                call,
            )
        )
    played = rounds_of(session, event)
    if played and played[-1].ended_at is None:  # a round the head judge ended is over, whatever its clock says
        clock = round_clock(session, played[-1])
        ends = max([clock.ends_at, *(t.ends_at for t in clock.tables)])
        if ends > now:
            out.append(
                Blocker(
                    _(
                        "Round %(number)s is still being played: the last table ends at %(time)s.",
                        number=played[-1].number,
                        time=f"{local(ends):%H:%M}",
                    ),
                    "clock.clock",
                    {},
                    _("End round %(number)s now", number=played[-1].number),
                    "end-round",
                    Action.END_ROUND,
                    played[-1],
                    "events.show",  # the end button is on the event page
                )
            )
    return out


def warnings(session: Session, event: Event) -> list[str]:
    """Worth a look before closing, but no reason to keep the event open."""
    played = len(rounds_of(session, event))
    if played < event.rounds:
        return [
            ngettext(
                "Only %(num)d of the %(planned)s planned rounds was started. Close anyway if the event ended early.",
                "Only %(num)d of the %(planned)s planned rounds were started. Close anyway if the event ended early.",
                played,
                planned=event.rounds,
            )
        ]
    return []


class CannotClose(Exception):
    def __init__(self, found: list[Blocker]):
        self.blockers = found
        super().__init__(f"{len(found)} things are unfinished")


def close_event(session: Session, *, actor: User, event: Event, local: Local, now: datetime | None = None) -> bool:
    """Close the event; False when it already was. Refused (CannotClose) while anything is unfinished; checked
    under the event's lock, so a record started at the same moment either lands before or is refused after."""
    now = now or utcnow()
    if lock_event(session, event, open_only=False) is not None:
        return False
    found = blockers(session, event, local=local, now=now)
    if found:
        raise CannotClose(found)
    session.refresh(event)
    cancelled = calls.close_with_event(session, actor=actor, event=event)
    event.closed_at, event.closed_by_id = now, actor.id
    counts: dict[str, Any] = {
        "calls_cancelled": cancelled,
        "incidents": _count(session, Incident, event),
        "appeals": _count(session, Appeal, event),
        "investigations": _count(session, Investigation, event),
    }
    audit.record(session, actor, "event.close", event, event_id=event.id, **counts)
    return True


def reopen_event(session: Session, *, actor: User, event: Event, reason: str) -> None:
    """The organizer reopens a closed event, saying why; recorded with the time it had been closed."""
    reason = one_line(reason, "reason", limit=MAX_REASON, missing="Say why the event is reopened.")
    closed_at = lock_event(session, event, open_only=False)
    if closed_at is None:
        raise FieldError("reason", "The event is not closed.")
    session.refresh(event)
    event.closed_at, event.closed_by_id = None, None
    audit.record(session, actor, "event.reopen", event, event_id=event.id, note=reason, closed_at=closed_at.isoformat())


def closing_history(session: Session, event: Event) -> list[tuple[AuditEntry, str]]:
    """Every close and reopen of the event, oldest first, with who did it."""
    return list(
        session.execute(
            select(AuditEntry, User.name)
            .join(User, User.id == AuditEntry.actor_id)
            .where(AuditEntry.event_id == event.id, AuditEntry.action.in_(("event.close", "event.reopen")))
            .order_by(AuditEntry.id)
        )
    )
