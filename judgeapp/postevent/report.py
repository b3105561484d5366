"""The post-event report: the event's records loaded once, and the report built from them (the page and the PDF).

The page, the PDF and the CSV files (exports.py) are built from the same records, so their numbers agree.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.orm import Session, joinedload, selectinload

from ..choices import catalog_name, level_name, rank_namer
from ..i18n import format_day, language
from ..infractions import ExtensionReason, Policy
from ..infractions.calltimes import CallTimes, summarize
from ..investigations.services import report_number
from ..models import (
    Appeal,
    DeckCheck,
    DeckCheckResult,
    Division,
    Event,
    Incident,
    IncidentStatus,
    IncidentSubject,
    Investigation,
    JudgeCall,
    Player,
    Role,
    Round,
    StaffAssignment,
    SubjectKind,
    TimeExtension,
    utcnow,
)
from ..reports import written
from ..reports.event import (
    AppealLine,
    Count,
    DeckProblem,
    DeviationLine,
    DivisionLine,
    DQLine,
    EventReport,
    JudgeAppeals,
    JudgedLine,
    PenaltyLine,
    PenaltyRow,
    RoundChecks,
    UpgradedLine,
)
from ..texts import gettext as _

Local = Callable[[datetime], datetime]  # the venue's clock: a stored UTC time as it reads there


# ---- the records, loaded once ----------------------------------------------------------------------------------------


@dataclass
class Records:
    incidents: list[Incident]
    appeals: list[Appeal]
    investigations: dict[int, Investigation]  # by incident id
    deck_checks: list[DeckCheck]
    extensions: list[TimeExtension]
    numbers: dict[int, int]  # incident id -> number
    calls: list[JudgeCall] = field(default_factory=list)

    def incidents_by_deck_check(self) -> dict[int, list[int]]:
        """The numbers of the incidents logged from each deck check."""
        out: dict[int, list[int]] = defaultdict(list)
        for i in self.incidents:
            if i.deck_check_id is not None:
                out[i.deck_check_id].append(i.number)
        return out

    def appeals_by_incident(self) -> dict[int, list[Appeal]]:
        out: dict[int, list[Appeal]] = defaultdict(list)
        for a in self.appeals:
            out[a.incident_id].append(a)
        return out


def records_of(session: Session, event: Event) -> Records:
    incidents = list(
        session.scalars(
            select(Incident)
            .where(Incident.event_id == event.id)
            .order_by(Incident.number)
            .options(
                joinedload(Incident.judge),
                joinedload(Incident.round),
                selectinload(Incident.subjects).joinedload(IncidentSubject.player),
            )
        )
    )
    appeals = list(
        session.scalars(
            select(Appeal)
            .where(Appeal.event_id == event.id)
            .order_by(Appeal.number)
            .options(joinedload(Appeal.ruling_judge), joinedload(Appeal.decided_by))
        )
    )
    investigations = {
        i.incident_id: i for i in session.scalars(select(Investigation).where(Investigation.event_id == event.id))
    }
    deck_checks = list(
        session.scalars(
            select(DeckCheck)
            .where(DeckCheck.event_id == event.id)
            .order_by(DeckCheck.started_at, DeckCheck.id)
            .options(joinedload(DeckCheck.judge), joinedload(DeckCheck.round), selectinload(DeckCheck.players))
        )
    )
    extensions = list(
        session.scalars(
            select(TimeExtension)
            .where(TimeExtension.event_id == event.id)
            .order_by(TimeExtension.created_at, TimeExtension.id)
            .options(joinedload(TimeExtension.judge), joinedload(TimeExtension.round))
        )
    )
    calls = list(
        session.scalars(
            select(JudgeCall)
            .where(JudgeCall.event_id == event.id)
            .order_by(JudgeCall.number)
            .options(
                joinedload(JudgeCall.round),
                joinedload(JudgeCall.taken_by),
                joinedload(JudgeCall.escalated_by),
                joinedload(JudgeCall.head_taken_by),
                joinedload(JudgeCall.incident),
            )
        )
    )
    numbers = {i.id: i.number for i in incidents}
    return Records(incidents, appeals, investigations, deck_checks, extensions, numbers, calls)


def _who(incident: Incident) -> tuple[str, str]:
    """The name and player ID(s) an incident is about: the player, the team (members' IDs) or the spectator."""
    players = [s.player for s in incident.subjects]
    if incident.subject_kind is SubjectKind.PLAYER and players:
        return players[0].name, players[0].player_code or ""
    return incident.subject_name, "; ".join(p.player_code for p in players if p.player_code)


def _infraction(policy: Policy, code: str) -> str:
    try:  # the infraction's name in the language in force (reports: the event's)
        return f"{code} {catalog_name(policy.infraction(code))}"
    except LookupError:
        return code


def _table(value: int | None) -> str:
    return str(value) if value is not None else "—"


# ---- the counts of the report's heading -----------------------------------------------------------------------------


def divisions_of_report(session: Session, event: Event) -> list[DivisionLine]:
    """Each division's players and rounds played, in the event's order; none at an event of one division."""
    divisions = list(
        session.scalars(select(Division).where(Division.event_id == event.id).order_by(Division.position, Division.id))
    )
    if len(divisions) < 2:
        return []
    players = dict(
        session.execute(
            select(Player.division_id, func.count()).where(Player.event_id == event.id).group_by(Player.division_id)
        ).all()
    )
    rounds = dict(
        session.execute(
            select(Round.division_id, func.count()).where(Round.event_id == event.id).group_by(Round.division_id)
        ).all()
    )
    return [DivisionLine(d.name, players.get(d.id, 0), rounds.get(d.id, 0)) for d in divisions]


def _count(session: Session, model, event: Event) -> int:
    return session.scalar(select(func.count()).select_from(model).where(model.event_id == event.id)) or 0


# ---- the report ------------------------------------------------------------------------------------------------------


def report_of(
    session: Session, policy: Policy, event: Event, *, local: Local, tz_name: str, now: datetime | None = None
) -> EventReport:
    now = now or utcnow()
    rec = records_of(session, event)
    rank_name = rank_namer(policy)  # rank names in the language in force (reports: the event's)
    stamp = lambda at: written(local(at))  # noqa: E731
    standing = [i for i in rec.incidents if i.status is IncidentStatus.STANDING]

    # Penalties by infraction and rank: the policy's ranks in order, any rank the catalog no longer has, then
    # "no penalty" when any was logged.
    rank_ids = [r.id for r in policy.ranks]
    logged = {i.rank_id for i in standing}
    columns = rank_ids + sorted(r for r in logged - set(rank_ids) if r is not None) + ([None] if None in logged else [])
    grid: dict[str, Counter] = defaultdict(Counter)
    for i in standing:
        grid[i.infraction_code][i.rank_id] += 1
    order = {inf.code: n for n, inf in enumerate(policy.infractions)}
    penalties = []
    for code in sorted(grid, key=lambda c: (order.get(c, len(order)), c)):
        name = _infraction(policy, code)[len(code) + 1 :]
        penalties.append(PenaltyRow(code, name, [grid[code][rid] for rid in columns]))
    status_counts = Counter(i.status for i in rec.incidents)
    not_counted = [
        Count(label, status_counts[status])
        for status, label in (
            (IncidentStatus.VOID, _("void")),
            (IncidentStatus.OVERTURNED, _("overturned on appeal")),
            (IncidentStatus.RECOMMENDED, _("pending head judge")),
        )
        if status_counts[status]
    ]

    # The incident tables group by division at an event of several (in the event's order), as the lists do.
    division_lines = divisions_of_report(session, event)
    several = bool(division_lines)
    division_order = {d.name: n for n, d in enumerate(division_lines)}

    # Loss of game and above: the ranks reported to the head judge, listed one by one.
    serious_from = policy.reported_from
    rank_order = {r.id: r.order for r in policy.ranks}
    serious = []
    for i in standing:
        if i.rank_id is not None and serious_from is not None and rank_order.get(i.rank_id, -1) >= serious_from.order:
            name, code = _who(i)
            serious.append(
                PenaltyLine(
                    i.number,
                    name,
                    code,
                    i.round.number,
                    _table(i.table_number),
                    _infraction(policy, i.infraction_code),
                    rank_name(i.rank_id),
                    i.judge.name,
                    i.upgraded,
                    i.round.division.name if several else "",
                )
            )
    serious.sort(key=lambda p: (division_order.get(p.division, 0), p.round, p.number))

    # Penalties other than the suggestion, with the reason given for each (the judge's, or the head judge's decline).
    deviations = []
    for i in standing:
        if i.deviation_reason and i.rank_id != i.suggested_rank_id:
            name, code = _who(i)
            deviations.append(
                DeviationLine(
                    i.number,
                    name,
                    code,
                    i.round.number,
                    _table(i.table_number),
                    _infraction(policy, i.infraction_code),
                    rank_name(i.rank_id) if i.rank_id else _("no penalty"),
                    rank_name(i.suggested_rank_id) if i.suggested_rank_id else _("no penalty"),
                    i.judge.name,
                    i.deviation_reason,
                    i.round.division.name if several else "",
                )
            )
    deviations.sort(key=lambda p: (division_order.get(p.division, 0), p.round, p.number))

    # Minutes late (the row the engine picked), the game of the match (a per-game rule), the same-cause link (one
    # penalty for related errors) and the escalations offered as the judge's call, taken or not.
    judged = []
    for i in standing:
        notes = []
        if i.minutes_late is not None:
            notes.append(_("%(minutes)s minutes late", minutes=i.minutes_late))
        if i.game_number is not None:
            notes.append(_("game %(game)s of the match", game=i.game_number))
        if i.related_to is not None:
            notes.append(_("same cause as incident #%(number)s: no second penalty", number=i.related_to.number))
        if i.offered_rank_id:
            taken = i.rank_id == i.offered_rank_id
            notes.append(
                _("escalation to %(rank)s offered: taken", rank=rank_name(i.offered_rank_id))
                if taken
                else _("escalation to %(rank)s offered: not taken", rank=rank_name(i.offered_rank_id))
            )
        if notes:
            name, code = _who(i)
            judged.append(
                JudgedLine(
                    i.number,
                    name,
                    code,
                    i.round.number,
                    _table(i.table_number),
                    _infraction(policy, i.infraction_code),
                    rank_name(i.rank_id) if i.rank_id else _("no penalty"),
                    i.judge.name,
                    notes,
                    i.round.division.name if several else "",
                )
            )
    judged.sort(key=lambda p: (division_order.get(p.division, 0), p.round, p.number))

    top = policy.top_rank.id if policy.top_rank else None
    dqs = []
    for i in standing:
        if top is not None and i.rank_id == top:
            inv = rec.investigations.get(i.id)
            name, code = _who(i)
            dqs.append(
                DQLine(
                    i.number,
                    name,
                    code,
                    i.round.number,
                    _table(i.table_number),
                    _infraction(
                        policy, inv.decision_infraction_code or i.infraction_code if inv else i.infraction_code
                    ),
                    report_number(event, inv) if inv else None,
                    inv.number if inv else None,
                    inv.status.label if inv else _("no investigation"),
                )
            )

    by_judge: dict[str, JudgeAppeals] = {}
    appeal_lines = []
    incident_by_id = {i.id: i for i in rec.incidents}
    for a in rec.appeals:
        j = by_judge.setdefault(a.ruling_judge.name, JudgeAppeals(a.ruling_judge.name))
        setattr(j, a.status.value, getattr(j, a.status.value) + 1)
        incident = incident_by_id[a.incident_id]
        appeal_lines.append(
            AppealLine(
                a.number,
                incident.number,
                incident.round.number,
                _table(incident.table_number),
                _infraction(policy, a.ruling.get("infraction") or incident.infraction_code),
                a.appellant_name,
                a.ruling_judge.name,
                a.status.label,
                (
                    (_("%(name)s (proxy)", name=a.decided_by.name) if a.decided_as_proxy else a.decided_by.name)
                    if a.decided_by
                    else "—"
                ),
                a.decision_reason or "",
            )
        )

    checks = rec.deck_checks
    per_round: dict[int, RoundChecks] = {}
    problems = []
    linked = rec.incidents_by_deck_check()
    for dc in checks:
        rc = per_round.setdefault(dc.round.number, RoundChecks(dc.round.number, 0, 0))
        rc.checks += 1
        if dc.result is DeckCheckResult.PROBLEMS:
            rc.problems += 1
            problems.append(
                DeckProblem(
                    dc.round.number,
                    dc.table_number,
                    _players(dc.players),
                    dc.judge.name,
                    dc.notes,
                    linked.get(dc.id, []),
                )
            )

    live = [e for e in rec.extensions if e.voided_at is None]
    by_reason: dict[ExtensionReason, Count] = {}
    for e in live:
        c = by_reason.setdefault(e.reason, Count(e.reason.label, 0, 0))
        c.count, c.minutes = c.count + 1, c.minutes + e.minutes
    longest = max(live, key=lambda e: (e.minutes, -e.id), default=None)

    upgraded = []
    for i in standing:
        if i.upgraded:
            name, code = _who(i)
            upgraded.append(
                UpgradedLine(
                    name,
                    code,
                    i.number,
                    i.round.number,
                    _infraction(policy, i.infraction_code),
                    rank_name(i.rank_id),
                    list(i.upgrade_refs or []),
                    i.suggestion_explanation or "",
                )
            )
    upgraded.sort(key=lambda u: (u.player.casefold(), u.number))

    return EventReport(
        divisions=division_lines,
        event=event.name,
        event_date=format_day(event.date, language()),
        venue=event.venue,
        policy=_("%(policy)s (version %(version)s)", policy=catalog_name(policy), version=event.policy_version),
        level=level_name(policy, event.level),
        rounds_planned=event.rounds,
        rounds_played=_count(session, Round, event),
        round_minutes=event.round_minutes,
        players=_count(session, Player, event),
        organizer=event.organizer.name,
        staff=staff_by_role(session, event, local),
        status=(
            _(
                "closed %(when)s by %(name)s",
                when=stamp(event.closed_at),
                name=event.closed_by.name if event.closed_by else "?",
            )
            if event.closed_at
            else _("DRAFT: the event is not closed")
        ),
        closed=event.closed_at is not None,
        generated=stamp(now),
        time_zone=tz_name,
        ranks=[rank_name(rid) for rid in columns],
        penalties=penalties,
        not_counted=not_counted,
        incidents_logged=len(rec.incidents),
        serious_from=catalog_name(serious_from) if serious_from else "",
        serious=serious,
        deviations=deviations,
        judged=judged,
        dqs=dqs,
        appeals_by_judge=sorted(by_judge.values(), key=lambda j: j.judge.casefold()),
        appeals=appeal_lines,
        deck_checks=len(checks),
        deck_checks_with_problems=len(problems),
        deck_checks_in_progress=sum(dc.result is DeckCheckResult.IN_PROGRESS for dc in checks),
        deck_checks_by_round=[per_round[n] for n in sorted(per_round)],
        deck_problems=problems,
        extensions=len(live),
        extension_minutes=sum(e.minutes for e in live),
        extension_longest=(
            _(
                "%(minutes)s min, round %(round)s table %(table)s (%(reason)s)",
                minutes=longest.minutes,
                round=longest.round.number,
                table=longest.table_number,
                reason=longest.reason.label,
            )
            if longest
            else "—"
        ),
        extensions_by_reason=[by_reason[r] for r in ExtensionReason if r in by_reason],
        extensions_voided=len(rec.extensions) - len(live),
        upgraded=upgraded,
        calls=summarize((call_times(c) for c in rec.calls), round_label=_round_label) if rec.calls else None,
    )


def _round_label(number: int | None) -> str:
    return _("Round %(number)s", number=number) if number is not None else _("Between rounds")


def call_times(call: JudgeCall) -> CallTimes:
    return CallTimes(
        round=call.round.number if call.round else None,
        raised_at=call.raised_at,
        taken_at=call.taken_at,
        closed_at=call.closed_at,
        judge=call.taken_by.name if call.taken_by else None,
        outcome=call.outcome.value if call.outcome else None,
        escalated_at=call.escalated_at,
        head_taken_at=call.head_taken_at,
    )


def staff_by_role(session: Session, event: Event, local: Local) -> list[tuple[str, list[str]]]:
    """Everyone who held a role, head judge first; people who left are marked with the time they left."""
    out = []
    assignments = session.scalars(
        select(StaffAssignment)
        .where(StaffAssignment.event_id == event.id)
        .options(joinedload(StaffAssignment.user))
        .order_by(StaffAssignment.id)
    ).all()
    for role, label in (
        (Role.HEAD_JUDGE, _("Head judge")),
        (Role.ASSISTANT_HEAD_JUDGE, _("Assistant head judges")),
        (Role.FLOOR_JUDGE, _("Floor judges")),
        (Role.SCOREKEEPER, _("Scorekeepers")),
    ):
        names = [
            _("%(name)s (until %(time)s)", name=a.user.name, time=f"{local(a.ended_at):%H:%M}")
            if a.ended_at
            else a.user.name
            for a in assignments
            if a.role is role
        ]
        if names:
            out.append((label, names))
    return out


def _players(players: Iterable[Player]) -> str:
    return ", ".join(f"{p.name} ({p.player_code})" if p.player_code else p.name for p in players)


def dq_investigations(session: Session, event: Event, report: EventReport) -> list[Investigation]:
    """The investigations behind the report's disqualifications, in the report's order (for the appendix)."""
    numbers = [d.investigation_number for d in report.dqs if d.investigation_number is not None]
    found = {
        i.number: i
        for i in session.scalars(
            select(Investigation)
            .where(Investigation.event_id == event.id, Investigation.number.in_(numbers))
            .options(joinedload(Investigation.incident))
        )
    }
    return [found[n] for n in numbers if n in found]
