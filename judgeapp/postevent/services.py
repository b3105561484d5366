"""After the event: closing and reopening it, the post-event report, the CSV exports, a player's history across events.

The page, the PDF and the CSV files are built from the same queries, so their numbers agree.
"""

from __future__ import annotations

import io
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from defusedcsv import csv
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_babel import ngettext, pgettext
from sqlalchemy import func, select
from sqlalchemy.orm import Session, joinedload, selectinload

from .. import audit
from ..calls import services as calls
from ..choices import catalog_name, level_name, rank_namer
from ..clock.services import round_clock
from ..errors import FieldError, one_line
from ..events.services import rounds_of
from ..i18n import format_day, language
from ..infractions import ExtensionReason, Policy
from ..infractions.calltimes import CallTimes, summarize
from ..investigations.services import report_number
from ..lifecycles import CallState
from ..models import (
    Appeal,
    AppealStatus,
    AuditEntry,
    DeckCheck,
    DeckCheckResult,
    Division,
    Event,
    Incident,
    IncidentStatus,
    IncidentSubject,
    Investigation,
    InvestigationStatus,
    JudgeCall,
    Player,
    Role,
    Round,
    StaffAssignment,
    SubjectKind,
    TimeExtension,
    User,
    utcnow,
)
from ..permissions import TABLE, Action
from ..records import MAX_REASON, lock_event
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
    PenaltyLine,
    PenaltyRow,
    RoundChecks,
    UpgradedLine,
)

Local = Callable[[datetime], datetime]


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


# ---- CSV exports -----------------------------------------------------------------------------------------------------
# The files are the event's, like its reports: their headers and their words (yes/no, statuses, outcomes) are in the
# event's language, whoever downloads them (the view makes them under reports.in_language). The English headers are
# the names the files have always had. Times stay in the ISO form (2026-11-23 14:05) in every language: spreadsheets
# read it as a time and sort by it.

INCIDENT_HEADER = [
    _l("event"),
    _l("incident"),
    _l("round"),
    _l("table"),
    _l("player"),
    _l("player_id"),
    _l("platform_ids"),
    _l("infraction_code"),
    _l("infraction"),
    _l("rank"),
    _l("suggested_rank"),
    _l("upgraded"),
    _l("suggestion_explanation"),
    _l("penalty_reason"),
    _l("judge"),
    _l("time"),
    _l("appeal_outcome"),
    _l("status"),
    _l("void"),
    _l("status_reason"),
    _l("description"),
]
EXTENSION_HEADER = [
    _l("event"),
    _l("round"),
    _l("table"),
    _l("minutes"),
    _l("extra_turns"),
    _l("reason"),
    _l("proposed_minutes"),
    _l("adjust_reason"),
    _l("incident"),
    _l("judge"),
    _l("time"),
    _l("void"),
    _l("void_reason"),
]
DECK_CHECK_HEADER = [
    _l("event"),
    _l("round"),
    _l("table"),
    _l("players"),
    _l("player_ids"),
    _l("judge"),
    _l("started"),
    _l("ended"),
    _l("minutes"),
    _l("result"),
    _l("notes"),
    _l("incidents"),
]


def _yes(flag: bool) -> str:
    return _("yes") if flag else _("no")


def _word(value: str) -> str:
    """A stored status (an incident's, an appeal's, a deck check's result) as the CSV files write it: the stored word
    in English, its translation in the event's language."""
    words = {
        "standing": pgettext("CSV status", "standing"),
        "recommended": pgettext("CSV status", "recommended"),
        "void": pgettext("CSV status", "void"),
        "overturned": pgettext("CSV status", "overturned"),
        "open": pgettext("CSV status", "open"),
        "upheld": pgettext("CSV status", "upheld"),
        "changed": pgettext("CSV status", "changed"),
        "in_progress": pgettext("CSV status", "in_progress"),
        "matches": pgettext("CSV status", "matches"),
        "problems": pgettext("CSV status", "problems"),
        "unfinished": pgettext("CSV status", "unfinished"),
    }
    return words.get(value, value)


def incident_rows(policy: Policy, event: Event, rec: Records, local: Local) -> list[list]:
    appeals, rank_name = rec.appeals_by_incident(), rank_namer(policy)
    rows = []
    for i in rec.incidents:
        name, code = _who(i)
        outcome = "; ".join(_word(a.status.value) for a in appeals.get(i.id, []))
        rows.append(
            [
                event.name,
                i.number,
                i.round.number,
                i.table_number if i.table_number is not None else "",
                name,
                code,
                "; ".join(_platform_ids(s.player) for s in i.subjects if s.player.platform_ids),
                i.infraction_code,
                _infraction(policy, i.infraction_code)[len(i.infraction_code) + 1 :],
                rank_name(i.rank_id),
                rank_name(i.suggested_rank_id) if i.suggested_rank_id else "",
                _yes(i.upgraded),
                i.suggestion_explanation or "",
                i.deviation_reason or "",  # why the penalty is not the suggested one
                i.judge.name,
                f"{local(i.created_at):%Y-%m-%d %H:%M}",
                outcome,
                _word(i.status.value),
                _yes(i.status is IncidentStatus.VOID),
                i.status_reason or "",
                i.description or "",
            ]
        )
    return rows


PLAYER_PENALTY_HEADER = [
    _l("player_id"),
    _l("player"),
    _l("reading"),
    _l("platform_ids"),
    _l("incident"),
    _l("round"),
    _l("table"),
    _l("infraction_code"),
    _l("infraction"),
    _l("rank"),
    _l("upgraded"),
    _l("team_penalty"),
    _l("status"),
    _l("appeal_outcome"),
]


def _platform_ids(player) -> str:
    """A player's IDs on other platforms as imported, `platform:ID` joined by "; " (e.g. `pokemon:1234567`)."""
    return "; ".join(f"{k}:{v}" for k, v in sorted((player.platform_ids or {}).items()))


def player_penalty_rows(policy: Policy, event: Event, rec: Records) -> list[list]:
    """Each player's penalties at the event, one row per player and penalty, players by ID (then name), penalties
    in incident order: for matching penalties back into the pairing software. A team penalty has a row for each
    member; void and overturned penalties stay, with their status; players without a penalty have no row."""
    appeals, rank_name = rec.appeals_by_incident(), rank_namer(policy)
    rows = []
    for i in rec.incidents:
        if i.rank_id is None:
            continue
        outcome = "; ".join(_word(a.status.value) for a in appeals.get(i.id, []))
        for subject in i.subjects:
            p = subject.player
            rows.append(
                [
                    p.player_code or "",
                    p.name,
                    p.reading or "",
                    _platform_ids(p),
                    i.number,
                    i.round.number,
                    i.table_number if i.table_number is not None else "",
                    i.infraction_code,
                    _infraction(policy, i.infraction_code)[len(i.infraction_code) + 1 :],
                    rank_name(i.rank_id),
                    _yes(i.upgraded),
                    _yes(i.subject_kind is SubjectKind.TEAM),
                    _word(i.status.value),
                    outcome,
                ]
            )
    rows.sort(key=lambda r: (r[0] == "", r[0], r[1], r[4]))
    return rows


def extension_rows(event: Event, rec: Records, local: Local) -> list[list]:
    return [
        [
            event.name,
            e.round.number,
            e.table_number,
            e.minutes,
            e.extra_turns or "",
            e.reason.label,
            e.proposed_minutes if e.proposed_minutes is not None else "",
            e.adjust_reason or "",
            rec.numbers.get(e.incident_id, "") if e.incident_id else "",
            e.judge.name,
            f"{local(e.created_at):%Y-%m-%d %H:%M}",
            _yes(e.voided_at is not None),
            e.void_reason or "",
        ]
        for e in rec.extensions
    ]


CALL_HEADER = [
    _l("event"),
    _l("call"),
    _l("round"),
    _l("table"),
    _l("reason"),
    _l("player's note"),
    _l("called"),
    _l("taken"),
    _l("taken by"),
    _l("handed to the head judge"),
    _l("head judge took it"),
    _l("head judge"),
    _l("closed"),
    _l("outcome"),
    _l("incident"),
    _l("waiting seconds"),
    _l("at the table seconds"),
]


def call_rows(event: Event, rec: Records, local: Local) -> list[list]:
    """One row per judge call, oldest first; times in the event's clock, durations in whole seconds."""
    stamp = lambda at: f"{local(at):%Y-%m-%d %H:%M:%S}" if at else ""  # noqa: E731
    rows = []
    for c in rec.calls:
        times = call_times(c)
        rows.append(
            [
                event.name,
                c.number,
                c.round.number if c.round else "",
                c.table_number,
                c.reason.label,
                calls.without_direction_controls(c.note),  # also a note stored before they were taken out
                stamp(c.raised_at),
                stamp(c.taken_at),
                c.taken_by.name if c.taken_by else "",
                stamp(c.escalated_at),
                stamp(c.head_taken_at),
                c.head_taken_by.name if c.head_taken_by else "",
                stamp(c.closed_at),
                c.outcome.label if c.outcome else c.state.label,
                c.incident.number if c.incident else "",
                int(times.waited.total_seconds()) if times.waited is not None else "",
                int(times.at_table.total_seconds()) if times.at_table is not None else "",
            ]
        )
    return rows


def deck_check_rows(event: Event, rec: Records, local: Local) -> list[list]:
    linked = rec.incidents_by_deck_check()
    rows = []
    for dc in rec.deck_checks:
        minutes = round((dc.ended_at - dc.started_at).total_seconds() / 60) if dc.ended_at else ""
        rows.append(
            [
                event.name,
                dc.round.number,
                dc.table_number,
                "; ".join(p.name for p in dc.players),
                "; ".join(p.player_code or "" for p in dc.players),
                dc.judge.name,
                f"{local(dc.started_at):%Y-%m-%d %H:%M}",
                f"{local(dc.ended_at):%Y-%m-%d %H:%M}" if dc.ended_at else "",
                minutes,
                _word(dc.result.value),
                dc.notes,
                "; ".join(map(str, linked.get(dc.id, []))),
            ]
        )
    return rows


DANGEROUS = ("=", "+", "-", "@", "|", "%")
PADDING = " \t\r\n\x00\xa0\u3000"  # the last: the ideographic space a Japanese keyboard types


def _defuse_padded(value):
    """defusedcsv neutralises a cell that starts with a formula character; spreadsheets also skip leading white
    space and control characters, so a cell padded before its formula character gets the same apostrophe. So does
    one starting with a full-width formula character (＝ ＋ － ＠ ｜ ％, as a Japanese keyboard's IME types them,
    which Japanese Excel reads as the half-width ones): NFKC makes each its half-width twin."""
    if (
        isinstance(value, str)
        and value
        and value[0] not in DANGEROUS  # those are defusedcsv's own
        and unicodedata.normalize("NFKC", value.lstrip(PADDING)[:1]) in DANGEROUS
    ):
        return "'" + value
    return value


# The exports that gain a last "division" column at an event of several divisions: the column of the incident's
# number in each row (an event of one division exports exactly as before).
DIVISION_OF_ROW = {"incidents": 1, "player-penalties": 4}


def several_divisions(session: Session, event: Event) -> bool:
    return (session.scalar(select(func.count()).select_from(Division).where(Division.event_id == event.id)) or 0) > 1


def with_division(header: Sequence[Any], rows: list[list], rec: Records, number_at: int) -> tuple[list, list[list]]:
    """The export with a last column naming the division of each row's incident (its round's division)."""
    division_of = {i.number: i.round.division.name for i in rec.incidents}
    return [*header, _l("division")], [[*row, division_of.get(row[number_at], "")] for row in rows]


def to_csv(header: Sequence[str], rows: list[list]) -> bytes:
    """UTF-8 with a byte-order mark (so spreadsheets read accented and Japanese names right), a header row, and
    every cell that a spreadsheet would run as a formula neutralised."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow([str(name) for name in header])  # the names are translated when the file is made
    for row in rows:
        writer.writerow([_defuse_padded(v) for v in row])
    return out.getvalue().encode("utf-8-sig")


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
