"""Disqualifications: the head judge's decision on recommendations, investigations, statements and one-time links."""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import datetime
from typing import Any, cast

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from sqlalchemy import CursorResult, func, select, update
from sqlalchemy.orm import Session, selectinload

from .. import audit, permissions
from ..choices import catalog_name, level_name, rank_namer
from ..errors import FieldError, one_line
from ..incidents import services as incidents
from ..infractions import Policy, link_expiry
from ..lifecycles import INVESTIGATION, InvestigationState
from ..models import (
    Event,
    Incident,
    IncidentStatus,
    Investigation,
    InvestigationStatus,
    Role,
    StaffAssignment,
    Statement,
    StatementRequest,
    StatementRole,
    User,
    utcnow,
)
from ..permissions import Action
from ..records import MAX_REASON, MAX_STATEMENT, MAX_WRITE_UP, begin_keyed_write, insert_once


class LinkGone(Exception):
    """A one-time statement link that was used, withdrawn or has expired."""

    def __init__(self, why: str, event_id: int | None = None):
        self.why = why  # lazily translated: the page says it in the event's language when the browser asks for none
        self.event_id = event_id
        super().__init__(why)


def _require(session: Session, action: Action, *, actor: User, roles: frozenset, event: Event, record) -> None:
    """The permission table's answer for this action on this record (its state, the closed event)."""
    permissions.transition(session, action, user=actor, roles=roles, record=record, event=event)


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


incidents.DISQUALIFICATION_HOOKS.append(settle)  # incidents open and withdraw through this, never importing us


def investigation_of_incident(session: Session, incident: Incident) -> Investigation | None:
    return session.scalar(select(Investigation).where(Investigation.incident_id == incident.id))


def accept_recommendation(
    session: Session,
    *,
    actor: User,
    roles: frozenset[str],
    event: Event,
    incident: Incident,
    policy: Policy | None = None,
) -> Investigation | None:
    """The head judge gives the penalty a floor judge recommended. A disqualification opens its investigation; a
    recommendation made because only the head judge decides the infraction (Transformers 5.1) and naming a lesser
    penalty simply stands."""
    _require(session, Action.ACCEPT_RECOMMENDATION, actor=actor, roles=roles, event=event, record=incident)
    incident.status, incident.updated_at = IncidentStatus.STANDING, utcnow()
    incident.head_judge_decided_at = incident.updated_at
    audit.record(
        session,
        actor,
        "incident.accept",
        incident,
        event_id=event.id,
        number=incident.number,
        changed={"status": ["recommended", "standing"]},
    )
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
    _require(session, Action.DECLINE_RECOMMENDATION, actor=actor, roles=roles, event=event, record=incident)
    reason = one_line(reason, "reason", limit=MAX_REASON, missing=_("Say why you decline the recommendation."))
    infraction = incidents.infraction_of(policy, incident.infraction_code)
    if rank_id:
        rank = incidents.rank_of(policy, rank_id, "rank")
        if rank.id in policy.head_judge_only:
            raise FieldError("rank", _("Choose the penalty you give instead of the recommendation."))
        rank_id = rank.id
    elif infraction.penalized and not policy.may_leave_rank_unnamed(infraction):
        raise FieldError("rank", _("Choose the penalty you give instead of the recommendation."))
    before = incidents.snapshot(incident)
    incident.rank_id, incident.status, incident.updated_at = rank_id, IncidentStatus.STANDING, utcnow()
    incident.head_judge_decided_at = incident.updated_at
    recommended = rank_namer(policy)(before["rank_id"]) if before["rank_id"] else "ruling"
    incident.deviation_reason = f"Head judge declined the recommended {recommended}: {reason}"
    audit.record(
        session,
        actor,
        "incident.decline",
        incident,
        event_id=event.id,
        number=incident.number,
        changed=audit.changes(before, incidents.snapshot(incident)),
        note=reason,
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


def report_number(event: Event, investigation: Investigation) -> str:
    return f"DQ-{event.id}-{investigation.number}"


# ---- statements ------------------------------------------------------------------------------------------------------


def _role(value: str | StatementRole) -> StatementRole:
    try:
        return StatementRole(value)
    except ValueError:
        raise FieldError("author_role", _("Choose whose statement this is.")) from None


def _author(name: str) -> str:
    return one_line(name, "author_name", limit=200, missing=_("Give the name of the person making the statement."))


def _text(text: str) -> str:
    text = (text or "").strip()
    if not text:
        raise FieldError("text", _("The statement is empty."))
    if len(text) > MAX_STATEMENT:
        raise FieldError("text", _("At most %(count)s characters.", count=MAX_STATEMENT))
    return text


def add_statement(
    session: Session,
    *,
    actor: User,
    roles: frozenset[str],
    event: Event,
    investigation: Investigation,
    key: str,
    author_name: str,
    author_role: str,
    text: str,
    now: datetime | None = None,
) -> tuple[Statement, bool]:
    """A statement typed on the head judge's phone. After finalizing it is a dated addendum."""
    _require(session, Action.TAKE_STATEMENT, actor=actor, roles=roles, event=event, record=investigation)
    key, existing = begin_keyed_write(session, Statement, key, event, scope=investigation.id, lock=False)
    if existing is not None:
        return existing, False
    statement = Statement(
        investigation=investigation,
        author_name=_author(author_name),
        author_role=_role(author_role),
        text=_text(text),
        taken_by_id=actor.id,
        client_key=key,
        taken_at=now or utcnow(),
        addendum=investigation.status is InvestigationStatus.FINALIZED,
    )
    statement, created = insert_once(session, statement, key, scope=investigation.id)
    if not created:
        return statement, False
    audit.record(
        session,
        actor,
        "statement.add",
        statement,
        event_id=event.id,
        investigation=investigation.number,
        author=statement.author_name,
        role=statement.author_role.value,
        addendum=statement.addendum,
    )
    return statement, True


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def request_statement(
    session: Session,
    *,
    actor: User,
    roles: frozenset[str],
    event: Event,
    investigation: Investigation,
    author_name: str,
    author_role: str,
    now: datetime | None = None,
) -> tuple[StatementRequest, str]:
    """A one-time link for one person's statement. The token is returned once and only its hash is stored."""
    _require(session, Action.MANAGE_STATEMENT_LINKS, actor=actor, roles=roles, event=event, record=investigation)
    now = now or utcnow()
    token = secrets.token_urlsafe(32)
    request = StatementRequest(
        investigation=investigation,
        token_hash=hash_token(token),
        author_name=_author(author_name),
        author_role=_role(author_role),
        created_by_id=actor.id,
        created_at=now,
        expires_at=link_expiry(now, event.statement_days),
    )
    session.add(request)
    audit.record(
        session,
        actor,
        "statement.request",
        request,
        event_id=event.id,
        investigation=investigation.number,
        author=request.author_name,
        role=request.author_role.value,
        expires=request.expires_at.isoformat(),
    )
    return request, token


def request_by_token(session: Session, token: str, now: datetime | None = None) -> StatementRequest:
    """The statement request a link names; LookupError when there is none, LinkGone when it no longer works."""
    if not token or len(token) > 100:
        raise LookupError(token)
    request = session.scalar(
        select(StatementRequest)
        .where(StatementRequest.token_hash == hash_token(token))
        .options(selectinload(StatementRequest.investigation))
    )
    if request is None:
        raise LookupError(token)
    now = now or utcnow()
    event = request.investigation.event_id
    if request.used_at is not None:
        raise LinkGone(_l("This link has already been used: the statement was received. Each link works once."), event)
    if request.revoked_at is not None:
        raise LinkGone(_l("The head judge has withdrawn this link."), event)
    if request.investigation.status in (InvestigationStatus.DECLINED, InvestigationStatus.WITHDRAWN):
        raise LinkGone(_l("This investigation is closed."), event)
    if request.expires_at <= now:
        raise LinkGone(
            _l("This link has expired. Ask the head judge for a new one if you still want to make a statement."), event
        )
    return request


def submit_by_link(session: Session, *, token: str, text: str, now: datetime | None = None) -> Statement:
    """The person writes their statement on the link; the link is spent in the same transaction."""
    now = now or utcnow()
    request = request_by_token(session, token, now)
    text = _text(text)
    spent = cast(
        CursorResult[Any],
        session.execute(  # an UPDATE's result counts its rows
            update(StatementRequest)
            .where(StatementRequest.id == request.id, StatementRequest.used_at.is_(None))
            .values(used_at=now)
        ),
    )
    if spent.rowcount != 1:  # another submission of the same link won the race
        raise LinkGone(_("This link has already been used: the statement was received. Each link works once."))
    investigation = request.investigation
    statement = Statement(
        investigation=investigation,
        author_name=request.author_name,
        author_role=request.author_role,
        text=text,
        taken_by_id=None,
        client_key=f"link:{request.id}",
        taken_at=now,
        addendum=investigation.status is InvestigationStatus.FINALIZED,
    )
    session.add(statement)
    session.flush()
    request.statement_id, request.used_at = statement.id, now
    audit.record(
        session,
        None,
        "statement.submit_by_link",
        statement,
        event_id=investigation.event_id,
        investigation=investigation.number,
        author=statement.author_name,
        request=request.id,
        addendum=statement.addendum,
    )
    return statement


def revoke_request(
    session: Session, *, actor: User, roles: frozenset[str], event: Event, request: StatementRequest
) -> None:
    _require(
        session, Action.MANAGE_STATEMENT_LINKS, actor=actor, roles=roles, event=event, record=request.investigation
    )
    if request.used_at is None and request.revoked_at is None:
        request.revoked_at = utcnow()
        audit.record(
            session,
            actor,
            "statement.revoke_link",
            request,
            event_id=event.id,
            investigation=request.investigation.number,
            author=request.author_name,
        )


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
    _require(session, Action.WRITE_UP, actor=actor, roles=roles, event=event, record=investigation)
    values = {}
    for name in WRITE_UP_FIELDS:
        value = getattr(data, name)
        if isinstance(value, str):
            value = value.strip()
            if len(value) > MAX_WRITE_UP:
                raise FieldError(name, _("At most %(count)s characters.", count=MAX_WRITE_UP))
        values[name] = value
    if values["decision_infraction_code"]:
        values["decision_infraction_code"] = incidents.infraction_of(policy, values["decision_infraction_code"]).code
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


# ---- timeline ------------------------------------------------------------------------------------------------------


@dataclass
class Moment:
    at: datetime
    what: str


def timeline(investigation: Investigation) -> list[Moment]:
    incident = investigation.incident
    moments = [
        Moment(
            incident.created_at,
            _("Incident #%(number)s logged by %(judge)s", number=incident.number, judge=incident.judge.name),
        ),
        Moment(investigation.opened_at, _("Investigation opened")),
    ]
    for r in investigation.requests:
        moments.append(
            Moment(
                r.created_at,
                _("Statement link given to %(name)s (%(role)s)", name=r.author_name, role=r.author_role.label),
            )
        )
    for s in investigation.statements:
        who = {"name": s.author_name, "role": s.author_role.label}
        if s.taken_by and s.addendum:
            what = _("Addendum of %(name)s (%(role)s), taken by %(judge)s", judge=s.taken_by.name, **who)
        elif s.taken_by:
            what = _("Statement of %(name)s (%(role)s), taken by %(judge)s", judge=s.taken_by.name, **who)
        elif s.addendum:
            what = _("Addendum of %(name)s (%(role)s), written on a one-time link", **who)
        else:
            what = _("Statement of %(name)s (%(role)s), written on a one-time link", **who)
        moments.append(Moment(s.taken_at, what))
    if investigation.finalized_at:
        moments.append(Moment(investigation.decided_at or investigation.finalized_at, _("Decision: disqualification")))
        moments.append(Moment(investigation.finalized_at, _("Investigation finalized")))
    return sorted(moments, key=lambda m: m.at)


# ---- the report ------------------------------------------------------------------------------------------------------


def report_of(
    session: Session,
    policy: Policy,
    event: Event,
    investigation: Investigation,
    *,
    local,
    tz_name: str,
    now: datetime | None = None,
):
    """The disqualification report as plain data, in the language in force (the event's: the view sets it); `local`
    turns a stored UTC time into venue time."""
    from flask_babel import gettext as _
    from flask_babel import pgettext

    from ..i18n import format_day, language
    from ..reports import written
    from ..reports.dq import DQReport, ReportStatement

    now = now or utcnow()
    stamp = lambda at: written(local(at))  # noqa: E731
    incident = investigation.incident
    players = [s.player for s in incident.subjects]
    seated = (
        incidents.pairings_of(session, incident.round).get(incident.table_number, []) if incident.table_number else []
    )
    opponents = [p for p in seated if p.id not in {q.id for q in players}]
    head = session.scalar(
        select(User)
        .join(StaffAssignment, StaffAssignment.user_id == User.id)
        .where(
            StaffAssignment.event_id == event.id,
            StaffAssignment.role == Role.HEAD_JUDGE,
            StaffAssignment.ended_at.is_(None),
        )
    )
    code = investigation.decision_infraction_code or incident.infraction_code
    try:
        infraction = policy.infraction(code)
        name = catalog_name(infraction)
        sub = policy.subsection(infraction.subsection)
        section = f"{sub.code} {catalog_name(sub)}"
    except (LookupError, StopIteration):
        name, section = "", ""
    revoked = [
        what
        for flag, what in (
            (investigation.revoke_prizes, pgettext("revoked", "prizes")),
            (investigation.revoke_standing, pgettext("revoked", "standing")),
        )
        if flag
    ]
    statements = [
        ReportStatement(
            author=s.author_name,
            role=s.author_role.label,
            taken=(
                _("%(when)s, taken by %(judge)s", when=stamp(s.taken_at), judge=s.taken_by.name)
                if s.taken_by
                else _("%(when)s, written by the author on a one-time link", when=stamp(s.taken_at))
            ),
            text=s.text,
            addendum=s.addendum,
        )
        for s in investigation.statements
    ]
    by = investigation.finalized_by.name if investigation.finalized_by else "?"
    status = (
        _("finalized %(when)s by %(judge)s", when=stamp(investigation.finalized_at), judge=by)
        if investigation.finalized_at
        else _("DRAFT: not finalized")
    )
    return DQReport(
        number=report_number(event, investigation),
        generated=stamp(now),
        event=event.name,
        event_date=format_day(event.date, language()),
        venue=event.venue,
        policy=_("%(policy)s (version %(version)s)", policy=catalog_name(policy), version=policy.version),
        level=level_name(policy, event.level),
        head_judge=head.name if head else "—",
        organizer=event.organizer.name,
        player=_(", ").join(p.name for p in players) or incident.subject_name,
        player_reading=_(", ").join(p.reading for p in players if p.reading),
        player_id=", ".join(p.player_code or "—" for p in players) or "—",
        round=str(incident.round.number),
        table=str(incident.table_number or "—"),
        opponents=", ".join(f"{p.name} ({p.player_code})" if p.player_code else p.name for p in opponents) or "—",
        infraction_code=code,
        infraction_name=name,
        section=section,
        penalty=catalog_name(policy.rank(incident.rank_id)) if incident.rank_id else _("No penalty"),
        revoked=revoked,
        ejected=investigation.ejected,
        status=status,
        timeline=[(stamp(m.at), m.what) for m in timeline(investigation)],
        statements=statements,
        hj_infraction=investigation.hj_infraction,
        hj_facts=investigation.hj_facts,
        hj_assumptions=investigation.hj_assumptions,
        hj_reasoning=investigation.hj_reasoning,
        summary=investigation.summary,
        incident_description=incident.description,
        time_zone=tz_name,
    )


def report_filename(event: Event, report) -> str:
    """dq-report_<event>_<player>_<event date>.pdf, readable and safe in a Content-Disposition header."""
    from ..reports import slug

    return f"dq-report_{slug(event.name)}_{slug(report.player)}_{event.date.isoformat()}.pdf"
