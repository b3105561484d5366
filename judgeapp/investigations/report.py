"""A disqualification's timeline and its report (the page and the PDF sent on), numbered within the event."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from ..choices import catalog_name, level_name
from ..events import pairing_services
from ..infractions import Policy
from ..models import (
    Event,
    Investigation,
    Role,
    StaffAssignment,
    User,
    utcnow,
)
from ..texts import gettext as _


def report_number(event: Event, investigation: Investigation) -> str:
    return f"DQ-{event.id}-{investigation.number}"


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
    from ..i18n import format_day, language
    from ..reports import written
    from ..reports.dq import DQReport, ReportStatement
    from ..texts import gettext as _
    from ..texts import pgettext

    now = now or utcnow()
    stamp = lambda at: written(local(at))  # noqa: E731
    incident = investigation.incident
    players = [s.player for s in incident.subjects]
    seated = (
        pairing_services.pairings_of(session, incident.round).get(incident.table_number, [])
        if incident.table_number
        else []
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
        **_agreement(session, policy, event, incident),
    )


def _agreement(session: Session, policy: Policy, event: Event, incident) -> dict:
    """The judges who agreed to a disqualification a number of judges decide (Play! Pokémon 4.1), for the report."""
    from ..models import DisqualificationJudge
    from ..texts import gettext as _
    from .agreement import judges_needed

    rule = judges_needed(policy, event, incident)
    if rule is None:
        return {}
    names = session.scalars(
        select(User.name)
        .join(DisqualificationJudge, DisqualificationJudge.user_id == User.id)
        .where(DisqualificationJudge.incident_id == incident.id)
        .order_by(DisqualificationJudge.id)
    )
    wording = _("%(count)s judges, the head judge among them (%(section)s)", count=rule.judges, section=rule.section)
    return {"agreed": list(names), "agreed_rule": wording}


def report_filename(event: Event, report) -> str:
    """dq-report_<event>_<player>_<event date>.pdf, readable and safe in a Content-Disposition header."""
    from ..reports import slug

    return f"dq-report_{slug(event.name)}_{slug(report.player)}_{event.date.isoformat()}.pdf"
