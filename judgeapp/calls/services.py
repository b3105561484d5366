"""Judge calls: a player calls from the table's link, the floor judges' queue, taking, handing to the head judge,
closing, and the call that becomes an incident. One function per use case.

A table's call link is signed with the event's own secret (`Event.call_key`), so it cannot be made up from another
table's: it names the event and the table, and shows only that table's own call.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import cast

from sqlalchemy import CursorResult, bindparam, func, or_, select, update
from sqlalchemy.orm import Session, selectinload

from .. import audit, permissions
from ..errors import DIRECTION_CONTROLS, FieldError, one_line
from ..imports.model import MAX_TABLE
from ..lifecycles import CALL, CallOutcome, CallState
from ..models import (
    CallReason,
    Division,
    Event,
    Incident,
    JudgeCall,
    Player,
    Role,
    Round,
    StaffAssignment,
    User,
    utcnow,
)
from ..permissions import Action
from ..records import lock_event
from ..roles import JUDGE_ROLES
from ..texts import gettext as _

MAX_NOTE = 120  # the player's one line
CANCEL_SHOWN = timedelta(minutes=15)  # how long a table's page says its call was closed by the head judge
SIGNATURE_CHARS = 16  # 80 bits of the HMAC, base32: short enough for a QR code a phone reads from across a table

# ---- the tables' call links ----------------------------------------------------------------------------------------


def call_key_of(session: Session, event: Event, actor: User | None) -> str:
    """The event's secret for its call links, made (and stored, with its audit entry naming who first asked for the
    links, never the key itself) the first time a link is shown."""
    if not event.call_key:
        event.call_key = secrets.token_urlsafe(32)
        session.flush()
        audit.record(session, actor, "event.call_links", event, event_id=event.id)
    return event.call_key


def table_links(
    session: Session, event: Event, actor: User | None, first: int, last: int, division_id: int | None = None
) -> list[tuple[int, str]]:
    """The call links of tables `first` to `last` (of one division: its tables' links name it; None: the links of
    an event of one division, which name none) on the configured public address (JUDGEAPP_BASE_URL, as the emailed
    links): never the Host header of a request, so a sheet printed from localhost, behind a proxy or with a forged
    Host (or by the job worker, outside any request) carries the address players can reach."""
    from flask import current_app, url_for

    key = call_key_of(session, event, actor)
    base = current_app.config["JUDGEAPP_BASE_URL"].rstrip("/")
    with current_app.test_request_context("/", base_url=base):
        if division_id is not None:
            return [
                (t, url_for("calls.division_table", event_id=event.id, division_id=division_id, table=t,
                            sig=signature(key, event.id, t, division_id), _external=True))
                for t in range(first, last + 1)
            ]  # fmt: skip
        return [
            (t, url_for("calls.table", event_id=event.id, table=t, sig=signature(key, event.id, t), _external=True))
            for t in range(first, last + 1)
        ]


def signature(key: str, event_id: int, table: int, division_id: int | None = None) -> str:
    """The signature that makes `table`'s link at `event_id` (of `division_id`, when the link names a division;
    lower-case base32, no padding)."""
    message = f"{event_id}:{table}" if division_id is None else f"{event_id}:{division_id}:{table}"
    digest = hmac.new(key.encode(), message.encode(), hashlib.sha256).digest()
    return base64.b32encode(digest).decode().lower()[:SIGNATURE_CHARS]


def event_of_link(
    session: Session, event_id: int, table: int, sig: str, division_id: int | None = None
) -> Event | None:
    """The event a table's call link belongs to, or None when the link is not one judgeapp made (wrong signature,
    no such event or division of it, a table out of range): the player sees "not found", and learns nothing more."""
    if not 1 <= table <= MAX_TABLE or len(sig) != SIGNATURE_CHARS:
        return None
    event = session.get(Event, event_id)
    if event is None or not event.call_key:
        return None
    if not hmac.compare_digest(signature(event.call_key, event_id, table, division_id), sig.lower()):
        return None
    if division_id is not None:
        division = session.get(Division, division_id)
        if division is None or division.event_id != event_id:
            return None
    return event


def _division(session: Session, event: Event, division_id: int | None) -> int:
    """The division of a table's call: the link's, else the event's first."""
    if division_id is not None:
        return division_id
    first = session.scalar(
        select(Division.id).where(Division.event_id == event.id).order_by(Division.position, Division.id).limit(1)
    )
    if first is None:  # an event made before divisions: its one division, made now
        division = Division(event_id=event.id, name="", position=0)
        session.add(division)
        session.flush()
        return division.id
    return first


def without_direction_controls(text: str | None) -> str:
    return DIRECTION_CONTROLS.sub("", text or "")


# ---- the player's side ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TableCall:
    """What a table's call page shows: only that table's own live call, and its place in the queue."""

    call: JudgeCall | None
    place: int | None  # 1 = next; None once a judge has taken it
    cancelled: JudgeCall | None = None  # no live call: the table's last one, closed without a judge lately

    @property
    def coming(self) -> bool:
        return self.call is not None and self.call.state is not CallState.OPEN


def live_call_at(session: Session, event: Event, table: int, division_id: int | None = None) -> JudgeCall | None:
    """The live call at a table of a division (None: of the event's first division)."""
    division = _division(session, event, division_id)
    return session.scalar(
        select(JudgeCall).where(
            JudgeCall.event_id == event.id, JudgeCall.division_id == division, JudgeCall.live_table == table
        )
    )


def table_call(
    session: Session, event: Event, table: int, now: datetime | None = None, division_id: int | None = None
) -> TableCall:
    division = _division(session, event, division_id)
    call = live_call_at(session, event, table, division)
    if call is None:
        last = session.scalar(
            select(JudgeCall)
            .where(JudgeCall.event_id == event.id, JudgeCall.division_id == division, JudgeCall.table_number == table)
            .order_by(JudgeCall.number.desc())
            .limit(1)
        )
        lately = (now or utcnow()) - CANCEL_SHOWN
        if last is not None and last.outcome is CallOutcome.CANCELLED and last.closed_at and last.closed_at >= lately:
            return TableCall(None, None, cancelled=last)
        return TableCall(None, None)
    if call.state is not CallState.OPEN:
        return TableCall(call, None)
    ahead = session.scalar(
        select(func.count())
        .select_from(JudgeCall)
        .where(JudgeCall.event_id == event.id, JudgeCall.state == CallState.OPEN, JudgeCall.number < call.number)
    )
    return TableCall(call, (ahead or 0) + 1)


def _running_round(session: Session, event: Event, division_id: int) -> Round | None:
    return session.scalar(
        select(Round)
        .where(Round.event_id == event.id, Round.division_id == division_id, Round.ended_at.is_(None))
        .order_by(Round.number.desc())
    )


def raise_call(
    session: Session,
    *,
    event: Event,
    table: int,
    reason: str | None,
    note: str | None,
    now: datetime | None = None,
    division_id: int | None = None,
) -> tuple[JudgeCall, bool]:
    """A player's call from `table` (of `division_id`, where the link names one: its round, its seating). The
    table's live call when it has one (a second tap adds nothing); else a new call at the end of the queue. Returns
    (call, created). Refused (EventClosed) once the event is closed."""
    try:
        why = CallReason(reason) if reason else CallReason.OTHER
    except ValueError:
        raise FieldError("reason", _("Choose one of the reasons.")) from None
    text = one_line(without_direction_controls(note), "note", limit=MAX_NOTE) or ""
    lock_event(session, event)  # serialises two taps at one table: the second finds the first's call
    division = _division(session, event, division_id)
    existing = live_call_at(session, event, table, division)
    if existing is not None:
        return existing, False
    number = (session.scalar(select(func.max(JudgeCall.number)).where(JudgeCall.event_id == event.id)) or 0) + 1
    rnd = _running_round(session, event, division)
    call = JudgeCall(
        event_id=event.id,
        division_id=division,
        number=number,
        table_number=table,
        live_table=table,
        round_id=rnd.id if rnd else None,
        reason=why,
        note=text,
        state=CallState.OPEN,
        raised_at=now or utcnow(),
    )
    session.add(call)
    session.flush()
    audit.record(session, None, "raise_call", call, event_id=event.id, table=table, reason=why.value)
    return call, True


# ---- the judges' queue ---------------------------------------------------------------------------------------------


def call_by_number(session: Session, event: Event, number: int) -> JudgeCall | None:
    return session.scalar(select(JudgeCall).where(JudgeCall.event_id == event.id, JudgeCall.number == number))


def live_calls(session: Session, event: Event) -> list[JudgeCall]:
    """The calls not closed yet, oldest first (the order judges answer them in)."""
    return list(
        session.scalars(
            select(JudgeCall)
            .where(JudgeCall.event_id == event.id, JudgeCall.live_table.is_not(None))
            .options(
                selectinload(JudgeCall.taken_by),
                selectinload(JudgeCall.escalated_by),
                selectinload(JudgeCall.head_taken_by),
                selectinload(JudgeCall.division),
            )
            .order_by(JudgeCall.raised_at, JudgeCall.number)
        )
    )


def closed_calls(session: Session, event: Event, limit: int = 20) -> list[JudgeCall]:
    """The latest closed calls, newest first."""
    return list(
        session.scalars(
            select(JudgeCall)
            .where(JudgeCall.event_id == event.id, JudgeCall.state == CallState.CLOSED)
            .options(selectinload(JudgeCall.taken_by), selectinload(JudgeCall.incident))
            .order_by(JudgeCall.closed_at.desc(), JudgeCall.number.desc())
            .limit(limit)
        )
    )


# The header's badge on every page of a judge (calls/views.py _calls_badge): its statements are built once, not per
# page (building a statement's clauses cost as much as running it), and run with the user's id; the count and whether
# there is a badge at all are one statement, the calls handed to a head judge a second one for a head judge only.
def _judged_now(*roles: Role):
    """The open events where the user (bound as "user_id") holds one of `roles` now."""
    return (
        select(StaffAssignment.event_id)
        .join(Event, Event.id == StaffAssignment.event_id)
        .where(
            StaffAssignment.user_id == bindparam("user_id"),
            StaffAssignment.ended_at.is_(None),
            StaffAssignment.role.in_(roles),
            Event.closed_at.is_(None),
        )
    )


_JUDGING_NOW, _HEADING_NOW = _judged_now(*JUDGE_ROLES), _judged_now(Role.HEAD_JUDGE)
_BADGE = select(
    _JUDGING_NOW.exists(),
    select(func.count())
    .select_from(JudgeCall)
    .where(
        JudgeCall.event_id.in_(_JUDGING_NOW),
        or_(
            JudgeCall.state == CallState.OPEN,
            (JudgeCall.state == CallState.ESCALATED) & JudgeCall.event_id.in_(_HEADING_NOW),
        ),
    )
    .scalar_subquery(),
    _HEADING_NOW.exists(),
)
_HANDED = (
    select(JudgeCall)
    .where(JudgeCall.event_id.in_(_HEADING_NOW), JudgeCall.state == CallState.ESCALATED)
    .options(selectinload(JudgeCall.escalated_by))
    .order_by(JudgeCall.escalated_at)
)
_JUDGED = select(Event).where(Event.id.in_(_JUDGING_NOW)).order_by(Event.date.desc(), Event.id)


@dataclass(frozen=True)
class Badge:
    """The header's calls badge: how many calls wait for `user` (None: they judge at no open event, no badge), and
    for a head judge the calls handed to them, each shown on every page until they take it."""

    count: int | None
    handed: list[JudgeCall]


def badge_for(session: Session, user: User) -> Badge:
    judges, count, head_judge = session.execute(_BADGE, {"user_id": user.id}).one()
    if not judges:
        return Badge(None, [])
    handed = list(session.scalars(_HANDED, {"user_id": user.id})) if head_judge else []
    return Badge(int(count or 0), handed)


def waiting_for(session: Session, user: User) -> int | None:
    """The badge's number: calls waiting for a judge at the events where `user` judges now, and for a head judge
    the calls handed to them. None when they judge at no open event (no badge)."""
    judges, count, _head_judge = session.execute(_BADGE, {"user_id": user.id}).one()
    return int(count or 0) if judges else None


def events_judged(session: Session, user: User) -> list[Event]:
    return list(session.scalars(_JUDGED, {"user_id": user.id}))


def seated_at(session: Session, call: JudgeCall) -> list[Player]:
    """The players the pairings seat at the call's table in its round, of that round's division (none without
    pairings)."""
    from ..events.pairing_services import seating_of

    if call.round is None:
        return []
    return seating_of(session, call.event_id, call.round.number, call.round.division_id).get(call.table_number, [])


# ---- taking, handing over, closing -----------------------------------------------------------------------------------


class CallTaken(Exception):
    """Another judge took the call first: answered 409, naming who has it."""

    def __init__(self, call: JudgeCall):
        self.call = call
        who = call.holder.name if call.holder else _("another judge")
        super().__init__(
            _("%(judge)s has already taken the call at table %(table)s.", judge=who, table=call.table_number)
        )


def take(session: Session, *, actor: User, roles: frozenset[str], event: Event, call: JudgeCall) -> JudgeCall:
    """ "I'll take it": the call becomes this judge's. Of two judges taking it at once, the first wins and the other is
    told who has it (CallTaken), on SQLite and PostgreSQL alike: the call is read again under the event's lock (as a
    close or a hand-over reads it), and the update is conditional on the state read. Taking a call one already holds
    (a resent tap) changes nothing. The head judge taking a call handed to them keeps its first take (who and when)
    and is stored beside it: the waiting time runs to the first take."""
    lock_event(session, event, open_only=False)  # as every change of a call: closing or handing over waits for us
    session.refresh(event)
    session.refresh(call)
    if call.state is CallState.TAKEN and call.holder_id == actor.id:
        return call
    if call.state is CallState.TAKEN:
        raise CallTaken(call)
    permissions.require_on(session, Action.TAKE_CALL, user=actor, roles=roles, record=call, event=event)
    seen = call.state  # compare and set: the update goes through only if nobody changed the call since we read it
    taker = (
        {"head_taken_at": utcnow(), "head_taken_by_id": actor.id}
        if seen is CallState.ESCALATED
        else {"taken_at": utcnow(), "taken_by_id": actor.id}
    )
    result = session.execute(
        update(JudgeCall)
        .where(JudgeCall.id == call.id, JudgeCall.state == seen)
        .values(state=CALL.move(seen, "take"), **taker)
        .execution_options(synchronize_session=False)
    )
    session.refresh(call)
    if cast(CursorResult, result).rowcount != 1:
        if call.state is CallState.TAKEN and call.holder_id == actor.id:
            return call
        if call.state is CallState.TAKEN:
            raise CallTaken(call)
        permissions.require_on(session, Action.TAKE_CALL, user=actor, roles=roles, record=call, event=event)
        raise CallTaken(call)  # changed and changed back meanwhile: let the judge look again
    audit.record(session, actor, "take_call", call, event_id=event.id)
    return call


def escalate(session: Session, *, actor: User, roles: frozenset[str], event: Event, call: JudgeCall) -> JudgeCall:
    """The judge at the table hands the call to the head judge, whose badge counts it until they take it."""
    permissions.transition(session, Action.ESCALATE_CALL, user=actor, roles=roles, record=call, event=event)
    call.state = CallState(CALL.move(call.state, "escalate"))
    call.escalated_at, call.escalated_by_id = utcnow(), actor.id
    session.flush()
    audit.record(session, actor, "escalate_call", call, event_id=event.id)
    return call


def _close(session: Session, actor: User | None, call: JudgeCall, outcome: CallOutcome, transition: str) -> None:
    call.state = CallState(CALL.move(call.state, transition))
    call.live_table = None
    call.closed_at, call.closed_by_id, call.outcome = utcnow(), actor.id if actor else None, outcome


def close(session: Session, *, actor: User, roles: frozenset[str], event: Event, call: JudgeCall) -> JudgeCall:
    """Close a call with no incident: the judge answered it at the table. A call nobody took (the head judge closing
    it) is closed as cancelled."""
    permissions.transition(session, Action.CLOSE_CALL, user=actor, roles=roles, record=call, event=event)
    outcome = CallOutcome.NO_INCIDENT if call.state is CallState.TAKEN else CallOutcome.CANCELLED
    _close(session, actor, call, outcome, "close")
    session.flush()
    audit.record(session, actor, "close_call", call, event_id=event.id, outcome=outcome.value)
    return call


def call_for_incident(
    session: Session, *, actor: User, roles: frozenset[str], event: Event, number: int | None, strict: bool = True
) -> JudgeCall | None:
    """The call an incident form was opened from, when the judge may log from it now; otherwise FieldError (`strict`,
    when the form is opened) or None (when it is saved: the incident is kept all the same, only not joined to a call
    that another judge or the head judge has closed meanwhile, e.g. while the phone was offline)."""
    if number is None:
        return None
    call = call_by_number(session, event, number)
    if call is not None:
        if call.incident_id is not None and not strict:
            return call  # a resent save of the incident that closed it: close_with_incident sees it is the same
        decision = permissions.check(session, Action.LOG_FROM_CALL, user=actor, roles=roles, record=call, event=event)
        if decision:
            return call
    if strict:
        why = f"{decision.why} {decision.instead}".strip() if call is not None else _("This call is not this event's.")
        raise FieldError("call", why)
    return None


def close_with_incident(session: Session, *, actor: User, event: Event, call: JudgeCall, incident: Incident) -> None:
    """The incident logged from the call closes it, in the same transaction; a resent save changes nothing more. Read
    again under the event's lock (logging took it): a call the head judge closed meanwhile stays as they closed it,
    and the incident is kept without it."""
    session.refresh(call)
    if call.incident_id is not None:  # this incident's resent save (or another's): the call is settled already
        return
    if not CALL.allows(call.state, "log_incident"):
        return
    _close(session, actor, call, CallOutcome.INCIDENT, "log_incident")
    call.incident_id = incident.id
    session.flush()
    audit.record(session, actor, "close_call", call, event_id=event.id, outcome="incident", incident=incident.number)


def close_with_event(session: Session, *, actor: User, event: Event) -> int:
    """The event closes: its live calls are cancelled (their links stop working with the event). Returns how many."""
    calls = list(
        session.scalars(select(JudgeCall).where(JudgeCall.event_id == event.id, JudgeCall.live_table.is_not(None)))
    )
    for call in calls:
        _close(session, actor, call, CallOutcome.CANCELLED, "close")
        audit.record(session, actor, "close_call", call, event_id=event.id, outcome="cancelled", why="event closed")
    session.flush()
    return len(calls)


def incident_call(session: Session, incident: Incident) -> JudgeCall | None:
    """The call an incident was logged from, if any."""
    return session.scalar(
        select(JudgeCall).where(JudgeCall.incident_id == incident.id).options(selectinload(JudgeCall.taken_by))
    )


def check_table(table: int | None) -> int:
    if table is None or not 1 <= table <= MAX_TABLE:
        raise FieldError("first", _("Tables are numbered from 1 to %(max)s.", max=MAX_TABLE))
    return table
