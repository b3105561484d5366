"""Corrections, voids and notes on an incident already logged."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from .. import audit, permissions
from ..errors import FieldError, one_line
from ..events.round_services import started_round
from ..infractions import Policy
from ..models import Event, Incident, IncidentStatus, SubjectKind, User, utcnow
from ..permissions import Action, Role
from ..records import MAX_REASON
from ..texts import gettext as _
from .lookup_services import check_table
from .ruling_services import (
    check_game,
    check_rank,
    infraction_of,
    investigate_if_disqualification,
    related_record,
    resuggest,
    status_for,
)
from .services import checked_description


@dataclass
class IncidentEdit:
    round_number: int
    table_number: int | None
    infraction_code: str
    rank_id: str | None
    deviation_reason: str
    description: str
    note: str = ""  # why the correction
    # the game of the round's match (a rule counting per game) and the earlier record of the same cause (one penalty
    # for related errors): None clears them; the form sends them only where the policy has such rules
    game_number: int | None = None
    related_to_number: int | None = None
    game_sent: bool = False  # False: the form did not ask it (kept as it is)
    related_sent: bool = False


# what makes a ruling: a head judge's correction of one of these is their own decision (issue 33, guard 14); linking a
# record to another as the same cause takes its penalty away
RULING_FIELDS = frozenset({"infraction_code", "rank_id", "status", "related_to"})


def snapshot(incident: Incident) -> dict:
    return {
        "round": incident.round.number,
        "table_number": incident.table_number,
        "infraction_code": incident.infraction_code,
        "rank_id": incident.rank_id,
        "deviation_reason": incident.deviation_reason,
        "description": incident.description,
        "status": incident.status.value,
        "game_number": incident.game_number,
        "related_to": incident.related_to.number if incident.related_to is not None else None,
    }


def _checked_link(
    session: Session, policy: Policy, event: Event, incident: Incident, number: int | None, round_id: int
) -> Incident | None:
    """The earlier record a correction links `incident` to as the same cause (or None): of the same player and round,
    never itself, never in a circle, and never while other records are linked to this one (a link points at the record
    whose penalty stands for both, so links never chain)."""
    if number is None:
        return None
    if number == incident.number:
        raise FieldError("related_to", _("An incident cannot be linked to itself."))
    target = session.scalar(select(Incident).where(Incident.event_id == event.id, Incident.number == number))
    if target is not None and target.related_to_id == incident.id:
        raise FieldError(
            "related_to",
            _("Incident #%(number)s is linked to this one: a link may not go round in a circle.", number=number),
        )
    linked = related_record(
        session,
        policy,
        event,
        number=number,
        player_ids=[s.player_id for s in incident.subjects],
        round_id=round_id,
        before=incident.number,
    )
    child = session.scalar(
        select(Incident.number).where(Incident.related_to_id == incident.id).order_by(Incident.number).limit(1)
    )
    if child is not None:
        raise FieldError(
            "related_to",
            _(
                "Incident #%(child)s is linked to this one as the same cause: link it to incident #%(number)s first.",
                child=child,
                number=number,
            ),
        )
    return linked


def correct_incident(
    session: Session,
    policy: Policy,
    *,
    actor: User,
    roles: frozenset[str],
    event: Event,
    incident: Incident,
    data: IncidentEdit,
) -> dict:
    """Change an incident's facts; the engine re-checks the penalty against the history before it. Returns the diff."""
    # the judge who logged it while it stands as they ruled; the head judge always (a dated, audited change)
    permissions.transition(session, Action.CORRECT_INCIDENT, user=actor, roles=roles, record=incident, event=event)
    before = snapshot(incident)
    before_round_id = incident.round_id
    rnd = started_round(session, event, data.round_number, division_id=incident.round.division_id)
    table = check_table(session, event, data.table_number, required=incident.subject_kind is not SubjectKind.SPECTATOR)
    infraction = infraction_of(policy, data.infraction_code)
    if data.game_sent:
        incident.game_number = check_game(policy, infraction, event.level, data.game_number)
    elif incident.game_number is not None:  # kept, where the corrected infraction still counts per game
        incident.game_number = check_game(policy, infraction, event.level, incident.game_number)
    current = incident.related_to.number if incident.related_to is not None else None
    if data.related_sent and (data.related_to_number != current or rnd.id != before_round_id):
        linked = _checked_link(session, policy, event, incident, data.related_to_number, rnd.id)
        incident.related_to, incident.related_to_id = linked, linked.id if linked is not None else None
    suggestion = resuggest(session, policy, event, incident, infraction)
    rank_id, reason = check_rank(
        policy, suggestion, data.rank_id, data.deviation_reason, head_judge=Role.HEAD_JUDGE in roles
    )
    description = checked_description(data.description)
    incident.round, incident.round_id, incident.table_number = rnd, rnd.id, table
    incident.rank_id, incident.deviation_reason, incident.description = rank_id, reason, description
    if incident.status in (IncidentStatus.STANDING, IncidentStatus.RECOMMENDED):
        incident.status = status_for(policy, infraction, rank_id, roles, event.level, suggestion)
    changed = audit.changes(before, snapshot(incident))
    investigate_if_disqualification(
        session,
        policy,
        actor=actor,
        event=event,
        incident=incident,
        why=f"Incident #{incident.number} was corrected to {rank_id or 'no penalty'}.",
    )
    if changed:
        incident.updated_at = utcnow()
        if Role.HEAD_JUDGE in roles and RULING_FIELDS & changed.keys():
            # a new infraction or penalty is their decision, final; a clerical fix (a table number, the account)
            # leaves the ruling the floor judge's, and the player may still appeal it to the head judge
            incident.head_judge_decided_at = incident.updated_at
        note = " ".join((data.note or "").split())[:MAX_REASON] or None
        audit.record(
            session,
            actor,
            "incident.correct",
            incident,
            event_id=event.id,
            number=incident.number,
            changed=changed,
            note=note,
        )
    return changed


def void_incident(
    session: Session,
    policy: Policy,
    *,
    actor: User,
    roles: frozenset[str],
    event: Event,
    incident: Incident,
    reason: str,
) -> None:
    """Withdraw an incident: kept, marked void with the reason, no longer counted for upgrades."""
    permissions.transition(session, Action.VOID_INCIDENT, user=actor, roles=roles, record=incident, event=event)
    reason = one_line(reason, "reason", limit=MAX_REASON, missing=_("Say why the incident is withdrawn."))
    before = incident.status.value
    incident.status, incident.status_reason, incident.updated_at = IncidentStatus.VOID, reason, utcnow()
    if Role.HEAD_JUDGE in roles:
        incident.head_judge_decided_at = incident.updated_at
    audit.record(
        session,
        actor,
        "incident.void",
        incident,
        event_id=event.id,
        number=incident.number,
        changed={"status": [before, "void"]},
        note=reason,
    )
    investigate_if_disqualification(
        session,
        policy,
        actor=actor,
        event=event,
        incident=incident,
        why=f"Incident #{incident.number} was voided: {reason}",
    )


def add_note(
    session: Session,
    *,
    actor: User,
    roles: frozenset,
    event: Event,
    incident: Incident,
    text: str,
    ask_head_judge: bool = False,
) -> None:
    """A note on the record in any state (the way a floor judge speaks to a decided incident), or a question that
    appears in the head judge's feed. Kept as an entry of the incident's history."""
    permissions.transition(session, Action.NOTE_INCIDENT, user=actor, roles=roles, record=incident, event=event)
    text = (text or "").strip()
    if not text:
        raise FieldError("text", _("Write the note."))
    if len(text) > MAX_NOTE:
        raise FieldError("text", _("At most %(limit)s characters.", limit=MAX_NOTE))
    action = "incident.question" if ask_head_judge and Role.HEAD_JUDGE not in roles else "incident.note"
    audit.record(session, actor, action, incident, event_id=event.id, number=incident.number, note=text)


MAX_NOTE = 2000
