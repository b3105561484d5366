"""Reading the incidents: one by number, the event's list, the head judge's feed and its questions."""

from __future__ import annotations

from sqlalchemy import func, or_, select
from sqlalchemy.orm import Session, selectinload

from ..infractions import Policy
from ..models import AuditEntry, Event, Incident, IncidentStatus, IncidentSubject, User


def incident_by_number(session: Session, event: Event, number: int) -> Incident | None:
    return session.scalar(
        select(Incident)
        .where(Incident.event_id == event.id, Incident.number == number)
        .options(selectinload(Incident.subjects).selectinload(IncidentSubject.player))
    )


def incidents_of(session: Session, event: Event, *, limit: int | None = None) -> list[Incident]:
    query = (
        select(Incident)
        .where(Incident.event_id == event.id)
        .order_by(Incident.number.desc())
        .options(selectinload(Incident.round), selectinload(Incident.judge))
    )
    if limit:
        query = query.limit(limit)
    return list(session.scalars(query))


def head_judge_feed(session: Session, policy: Policy, event: Event, limit: int = 100) -> list[Incident]:
    """What the policy makes the floor report to the head judge, the penalties waiting for them, and incidents sent
    from a phone's outbox whose suggestion changed on the way (to be checked), newest first."""
    reported = sorted(policy.report_to_head_judge | policy.head_judge_only)
    return list(
        session.scalars(
            select(Incident)
            .where(
                Incident.event_id == event.id,
                or_(
                    Incident.rank_id.in_(reported),
                    Incident.status == IncidentStatus.RECOMMENDED,
                    Incident.suggestion_changed.is_(True),
                    Incident.id.in_(_questions(event)),
                ),
            )
            .order_by(Incident.number.desc())
            .limit(limit)
            .options(selectinload(Incident.round), selectinload(Incident.judge))
        )
    )


def questions_of(session: Session, event: Event, incidents: list[Incident]) -> dict[int, list[tuple[str, str]]]:
    """What floor judges asked the head judge about these incidents: incident id -> [(who, question)], oldest first."""
    if not incidents:
        return {}
    rows = session.execute(
        select(AuditEntry.object_id, User.name, AuditEntry.note)
        .join(User, User.id == AuditEntry.actor_id)
        .where(
            AuditEntry.event_id == event.id,
            AuditEntry.object_type == "Incident",
            AuditEntry.action == "incident.question",
            AuditEntry.object_id.in_([i.id for i in incidents]),
        )
        .order_by(AuditEntry.id)
    )
    out: dict[int, list[tuple[str, str]]] = {}
    for incident_id, who, note in rows:
        if incident_id is None:  # never: the query asks for these incidents' ids
            continue
        out.setdefault(incident_id, []).append((who, note or ""))
    return out


def _questions(event: Event):
    """Incidents a floor judge asked the head judge about."""
    return select(AuditEntry.object_id).where(
        AuditEntry.event_id == event.id, AuditEntry.object_type == "Incident", AuditEntry.action == "incident.question"
    )


def pending_count(session: Session, event: Event) -> int:
    return (
        session.scalar(
            select(func.count())
            .select_from(Incident)
            .where(Incident.event_id == event.id, Incident.status == IncidentStatus.RECOMMENDED)
        )
        or 0
    )
