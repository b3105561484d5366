"""Disqualifications: the head judge's decision on recommendations and the investigation's lifecycle, here; its
statements and one-time links (statements.py); its timeline and report (report.py)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session, selectinload

from .. import audit
from ..choices import rank_namer
from ..errors import FieldError, one_line
from ..incidents import edit_services, ruling_services
from ..infractions import Policy
from ..lifecycles import INVESTIGATION, InvestigationState
from ..models import (
    DisqualificationJudge,
    Event,
    Incident,
    IncidentStatus,
    Investigation,
    InvestigationStatus,
    Statement,
    StatementRequest,
    User,
    utcnow,
)
from ..permissions import Action
from ..records import MAX_REASON, MAX_WRITE_UP
from ..roles import Role
from ..texts import gettext as _
from .agreement import agreeing_judges
from .report import (
    Moment,
    report_filename,
    report_number,
    report_of,
    timeline,
)
from .statements import (
    LinkGone,
    add_statement,
    hash_token,
    request_by_token,
    request_statement,
    require,
    revoke_request,
    submit_by_link,
)

# ---- opening, accepting and declining --------------------------------------------------------------------------------


def open_investigation(session: Session, *, actor: User, event: Event, incident: Incident) -> Investigation:
    """The investigation of a disqualification (given or recommended); one per incident."""
    existing = session.scalar(select(Investigation).where(Investigation.incident_id == incident.id))
    if existing is not None:
        return existing
    number = (session.scalar(select(func.max(Investigation.number)).where(Investigation.event_id == event.id)) or 0) + 1
    investigation = Investigation(
        event_id=event.id,
        number=number,
        incident=incident,
        opened_by_id=actor.id,
        hj_infraction=incident.infraction_code,
    )
    session.add(investigation)
    audit.record(
        session, actor, "investigation.open", investigation, event_id=event.id, number=number, incident=incident.number
    )
    return investigation


def settle(
    session: Session,
    *,
    actor: User,
    event: Event,
    incident: Incident,
    is_disqualification: bool,
    why: str | None = None,
) -> Investigation | None:
    """After an incident's penalty changed: a disqualification has its investigation (opened once); one that is no
    longer a disqualification has its investigation withdrawn, so nothing is left that keeps the event open."""
    if is_disqualification:
        opened = open_investigation(session, actor=actor, event=event, incident=incident)
        if opened.status is InvestigationStatus.WITHDRAWN:  # corrected back up: the inquiry goes on
            opened.status, opened.withdrawn_at = InvestigationStatus.OPEN, None
            audit.record(
                session,
                actor,
                "investigation.reopen",
                opened,
                event_id=event.id,
                number=opened.number,
                note=why,
                changed={"status": ["withdrawn", "open"]},
            )
        return opened
    investigation = investigation_of_incident(session, incident)
    if investigation is None or not INVESTIGATION.allows(InvestigationState(investigation.status.value), "withdraw"):
        return investigation
    before = investigation.status.value
    investigation.status = InvestigationStatus(INVESTIGATION.move(InvestigationState(before), "withdraw").value)
    investigation.withdrawn_at, investigation.withdrawn_reason = utcnow(), why
    for request in investigation.requests:  # the links still out stop working; what came back is kept
        if request.used_at is None and request.revoked_at is None:
            request.revoked_at = investigation.withdrawn_at
            audit.record(
                session,
                actor,
                "statement.revoke_link",
                request,
                event_id=event.id,
                investigation=investigation.number,
                author=request.author_name,
                note=why,
            )
    audit.record(
        session,
        actor,
        "investigation.withdraw",
        investigation,
        event_id=event.id,
        number=investigation.number,
        changed={"status": [before, "withdrawn"]},
        note=why,
    )
    return investigation


ruling_services.DISQUALIFICATION_HOOKS.append(settle)  # incidents open and withdraw through this, never importing us


def investigation_of_incident(session: Session, incident: Incident) -> Investigation | None:
    return session.scalar(select(Investigation).where(Investigation.incident_id == incident.id))


def _agreed(judges: list[User]) -> dict[str, Any]:
    """The audit entry of a disqualification a number of judges decided names the other judges who agreed."""
    return {"agreed": [u.id for u in judges]} if judges else {}


def _as_assistant(roles: frozenset[str]) -> dict[str, str]:
    """The audit entry of a recommendation an assistant head judge decided says so: their decision stands as a floor
    judge's ruling (the player may appeal it to the head judge, PPG 2.1), not as the head judge's."""
    return {} if Role.HEAD_JUDGE in roles else {"decided_as": Role.ASSISTANT_HEAD_JUDGE.value}


def accept_recommendation(
    session: Session,
    *,
    actor: User,
    roles: frozenset[str],
    event: Event,
    incident: Incident,
    policy: Policy | None = None,
    agreed: list[int] | None = None,
) -> Investigation | None:
    """The head judge gives the penalty a floor judge recommended. A disqualification opens its investigation; a
    recommendation made because only the head judge decides the infraction (Transformers 5.1) and naming a lesser
    penalty simply stands. Where the policy has a number of judges decide it (Play! Pokémon 4.1), `agreed` are the
    other judges of the event's staff who agreed, recorded with it; too few refuse it at the field `judges`."""
    require(session, Action.ACCEPT_RECOMMENDATION, actor=actor, roles=roles, event=event, record=incident)
    agreeing = agreeing_judges(session, policy, event, incident, actor, agreed) if policy is not None else []
    incident.status, incident.updated_at = IncidentStatus.STANDING, utcnow()
    if Role.HEAD_JUDGE in roles:
        incident.head_judge_decided_at = incident.updated_at
    else:
        incident.confirmed_by_id = actor.id
    audit.record(
        session,
        actor,
        "incident.accept",
        incident,
        event_id=event.id,
        number=incident.number,
        changed={"status": ["recommended", "standing"]},
        **_as_assistant(roles),
        **_agreed(agreeing),
    )
    for judge in agreeing:
        session.add(DisqualificationJudge(incident_id=incident.id, user_id=judge.id))
    if policy is not None and incident.rank_id not in policy.head_judge_only:
        return None
    return open_investigation(session, actor=actor, event=event, incident=incident)


def decline_recommendation(
    session: Session,
    policy: Policy,
    *,
    actor: User,
    roles: frozenset[str],
    event: Event,
    incident: Incident,
    reason: str,
    rank_id: str | None,
) -> None:
    """The head judge declines a recommended penalty, with a reason and the penalty given instead."""
    require(session, Action.DECLINE_RECOMMENDATION, actor=actor, roles=roles, event=event, record=incident)
    reason = one_line(reason, "reason", limit=MAX_REASON, missing=_("Say why you decline the recommendation."))
    infraction = ruling_services.infraction_of(policy, incident.infraction_code)
    if rank_id:
        rank = ruling_services.rank_of(policy, rank_id, "rank")
        if rank.id in policy.head_judge_only:
            raise FieldError("rank", _("Choose the penalty you give instead of the recommendation."))
        rank_id = rank.id
    elif infraction.penalized and not policy.may_leave_rank_unnamed(infraction):
        raise FieldError("rank", _("Choose the penalty you give instead of the recommendation."))
    before = edit_services.snapshot(incident)
    incident.rank_id, incident.status, incident.updated_at = rank_id, IncidentStatus.STANDING, utcnow()
    recommended = rank_namer(policy)(before["rank_id"]) if before["rank_id"] else "ruling"
    if Role.HEAD_JUDGE in roles:
        incident.head_judge_decided_at = incident.updated_at
        incident.deviation_reason = f"Head judge declined the recommended {recommended}: {reason}"
    else:
        incident.confirmed_by_id = actor.id
        incident.deviation_reason = f"Assistant head judge declined the recommended {recommended}: {reason}"
    audit.record(
        session,
        actor,
        "incident.decline",
        incident,
        event_id=event.id,
        number=incident.number,
        changed=audit.changes(before, edit_services.snapshot(incident)),
        note=reason,
        **_as_assistant(roles),
    )
    investigation = investigation_of_incident(session, incident)
    if investigation is not None and investigation.status is InvestigationStatus.OPEN:
        investigation.status, investigation.summary = InvestigationStatus.DECLINED, reason
        audit.record(
            session,
            actor,
            "investigation.decline",
            investigation,
            event_id=event.id,
            number=investigation.number,
            note=reason,
        )


# ---- reading -------------------------------------------------------------------------------------------------------


def investigation_by_number(session: Session, event: Event, number: int) -> Investigation | None:
    return session.scalar(
        select(Investigation)
        .where(Investigation.event_id == event.id, Investigation.number == number)
        .options(
            selectinload(Investigation.statements).selectinload(Statement.taken_by),
            selectinload(Investigation.requests),
            selectinload(Investigation.incident).selectinload(Incident.round),
        )
    )


def investigations_of(session: Session, event: Event) -> list[Investigation]:
    return list(
        session.scalars(
            select(Investigation)
            .where(Investigation.event_id == event.id)
            .options(selectinload(Investigation.incident))
            .order_by(Investigation.number)
        )
    )


@dataclass
class Missing:
    request: StatementRequest
    expired: bool


def missing_statements(investigation: Investigation, now: datetime | None = None) -> list[Missing]:
    """Links handed out whose statement has not come back, with whether the link still works."""
    now = now or utcnow()
    return [
        Missing(r, r.expires_at <= now) for r in investigation.requests if r.used_at is None and r.revoked_at is None
    ]


# ---- the head judge's write-up and decision --------------------------------------------------------------------------


@dataclass
class WriteUp:
    hj_infraction: str
    hj_facts: str
    hj_assumptions: str
    hj_reasoning: str
    decision_infraction_code: str
    revoke_prizes: bool
    revoke_standing: bool
    ejected: bool
    summary: str


WRITE_UP_FIELDS = (
    "hj_infraction",
    "hj_facts",
    "hj_assumptions",
    "hj_reasoning",
    "decision_infraction_code",
    "revoke_prizes",
    "revoke_standing",
    "ejected",
    "summary",
)


def save_write_up(
    session: Session,
    policy: Policy,
    *,
    actor: User,
    roles: frozenset[str],
    event: Event,
    investigation: Investigation,
    data: WriteUp,
) -> dict:
    """Save the head judge's statement and decision as a draft (every change audited). Returns what changed."""
    require(session, Action.WRITE_UP, actor=actor, roles=roles, event=event, record=investigation)
    values = {}
    for name in WRITE_UP_FIELDS:
        value = getattr(data, name)
        if isinstance(value, str):
            value = value.strip()
            if len(value) > MAX_WRITE_UP:
                raise FieldError(name, _("At most %(count)s characters.", count=MAX_WRITE_UP))
        values[name] = value
    if values["decision_infraction_code"]:
        values["decision_infraction_code"] = ruling_services.infraction_of(
            policy, values["decision_infraction_code"]
        ).code
    else:
        values["decision_infraction_code"] = None
    changed = {}
    for name, value in values.items():
        before = getattr(investigation, name)
        if before != value:
            changed[name] = [before, value]
            setattr(investigation, name, value)
    if changed:
        audit.record(
            session,
            actor,
            "investigation.write_up",
            investigation,
            event_id=event.id,
            number=investigation.number,
            changed=changed,
        )
    return changed


def finalize(
    session: Session,
    policy: Policy,
    *,
    actor: User,
    roles: frozenset[str],
    event: Event,
    investigation: Investigation,
    data: WriteUp,
    without_statement: bool = False,
    now: datetime | None = None,
) -> None:
    """Save the write-up and lock the investigation. A disqualification still recommended is given by this. With no
    statement on file it locks only when the head judge confirmed finalizing without any (`without_statement`)."""
    now = now or utcnow()
    save_write_up(session, policy, actor=actor, roles=roles, event=event, investigation=investigation, data=data)
    for name, message in (
        ("hj_facts", _("State the facts you consider established, and why. It is required to finalize.")),
        ("hj_reasoning", _("Give your reasoning. It is required to finalize.")),
        (
            "decision_infraction_code",
            _("Choose the infraction the disqualification is for. It is required to finalize."),
        ),
        ("summary", _("Write the summary of your decision. It is required to finalize.")),
    ):
        if not getattr(investigation, name):
            raise FieldError(name, message)
    if not investigation.statements and not without_statement:  # asked here too: the phone's dialog needs script
        raise FieldError(
            "without_statement",
            _(
                "No statement is on file: not the player's, the opponent's nor a witness's. To lock the investigation"
                " without any, tick “Finalize without any statement” and finalize again; statements taken later are"
                " only dated addenda."
            ),
        )
    incident = investigation.incident
    if incident.status is IncidentStatus.RECOMMENDED:
        accept_recommendation(session, actor=actor, roles=roles, event=event, incident=incident)
    elif incident.status is not IncidentStatus.STANDING:
        raise FieldError(
            "summary",
            _(
                "Incident #%(number)s is %(status)s: there is no disqualification to finalize.",
                number=incident.number,
                status=incident.status.label,
            ),
        )
    investigation.status = InvestigationStatus.FINALIZED
    investigation.decided_at = investigation.decided_at or now
    investigation.finalized_at, investigation.finalized_by_id = now, actor.id
    audit.record(
        session,
        actor,
        "investigation.finalize",
        investigation,
        event_id=event.id,
        number=investigation.number,
        revoke_prizes=investigation.revoke_prizes,
        revoke_standing=investigation.revoke_standing,
        ejected=investigation.ejected,
        without_statement=not investigation.statements,
    )


__all__ = [
    "WRITE_UP_FIELDS",
    "LinkGone",
    "Missing",
    "Moment",
    "WriteUp",
    "accept_recommendation",
    "add_statement",
    "decline_recommendation",
    "finalize",
    "hash_token",
    "investigation_by_number",
    "investigation_of_incident",
    "investigations_of",
    "missing_statements",
    "open_investigation",
    "report_filename",
    "report_number",
    "report_of",
    "request_by_token",
    "request_statement",
    "revoke_request",
    "save_write_up",
    "settle",
    "submit_by_link",
    "timeline",
]
