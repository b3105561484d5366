"""Time extensions and the round clock."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta

from sqlalchemy import func, select
from sqlalchemy.orm import Session, selectinload

from .. import audit, permissions
from ..choices import catalog_name, catalog_text
from ..errors import FieldError
from ..events.round_services import started_round
from ..extensions import event_policy
from ..incidents.lookup_services import check_table
from ..incidents.ruling_services import check_minutes
from ..incidents.services import LogResult
from ..infractions import ExtensionOwed, ExtensionReason, Policy, extension_owed, round_end, table_end_time
from ..models import DeckCheck, Event, Incident, Round, TimeExtension, User, utcnow
from ..permissions import Action
from ..records import MAX_REASON, begin_keyed_write, by_key, derived_key
from ..texts import gettext as _
from .forms import reason_name


def record_extension(
    session: Session,
    *,
    actor: User,
    event: Event,
    rnd: Round,
    table: int,
    minutes: int,
    reason: ExtensionReason,
    key: str,
    proposed: int | None = None,
    adjust_reason: str | None = None,
    incident: Incident | None = None,
    deck_check: DeckCheck | None = None,
    paused_from: datetime | None = None,
    paused_to: datetime | None = None,
    extra_turns: int | None = None,
    now: datetime | None = None,
    field_name: str = "minutes",
) -> TimeExtension:
    """Store minutes (and any extra turns) given back to one table (once per key), with an audit entry. Refused at
    `field_name` when it would take the table past the policy's cap for a round (Play! Pokémon 4.4)."""
    existing = by_key(session, TimeExtension, key, scope=event.id)
    if existing is not None:
        return existing
    check_time_cap(session, event, rnd, table, minutes, field_name)
    ext = TimeExtension(
        event_id=event.id,
        client_key=key,
        round_id=rnd.id,
        table_number=table,
        minutes=minutes,
        extra_turns=extra_turns or None,
        proposed_minutes=proposed,
        adjust_reason=adjust_reason,
        reason=reason,
        paused_from=paused_from,
        paused_to=paused_to,
        incident_id=incident.id if incident else None,
        deck_check_id=deck_check.id if deck_check else None,
        judge_id=actor.id,
        created_at=now or utcnow(),
    )
    ext.round = rnd
    session.add(ext)
    audit.record(
        session,
        actor,
        "extension.add",
        ext,
        event_id=event.id,
        round=rnd.number,
        table=table,
        minutes=minutes,
        **({"extra_turns": extra_turns} if extra_turns else {}),
        proposed=proposed,
        reason=reason.value,
        note=adjust_reason,
    )
    return ext


def check_time_cap(session: Session, event: Event, rnd: Round, table: int, minutes: int, field_name: str) -> None:
    """Refuse minutes that would give one table more time back in a round than the event's policy allows in all."""
    cap = event_policy(event).time_cap_at(event.level)
    if cap is None or not minutes:
        return
    already = (
        session.scalar(
            select(func.sum(TimeExtension.minutes)).where(
                TimeExtension.round_id == rnd.id,
                TimeExtension.table_number == table,
                TimeExtension.voided_at.is_(None),
            )
        )
        or 0
    )
    if already + minutes > cap.minutes:
        raise FieldError(
            field_name,
            _(
                "The policy allows no more than %(cap)s minutes in all per table in a round (%(section)s); "
                "%(given)s already given.",
                cap=cap.minutes,
                section=cap.section,
                given=already,
            ),
        )


def give_time_for_incident(session: Session, *, actor: User, event: Event, result: LogResult) -> TimeExtension | None:
    """The minutes a judge gave back on the incident form: their own record, linked to the incident, with what the
    call stopwatch says the match is owed. Called by whoever logs the incident, in the same transaction."""
    incident = result.incident
    if not result.created or not result.minutes:
        return None
    assert incident.table_number is not None  # log_incident refuses time given back without a table
    result.extension = record_extension(
        session,
        actor=actor,
        event=event,
        rnd=incident.round,
        table=incident.table_number,
        minutes=result.minutes,
        reason=ExtensionReason.RULING,
        key=derived_key(incident.client_key, "ext"),
        incident=incident,
        proposed=result.owed.minutes if result.owed and result.owed.rule else None,
        adjust_reason=result.adjust_reason,
        field_name="extension",
        paused_from=incident.call_started_at,
        paused_to=result.call_ended if incident.call_started_at else None,
        now=incident.created_at,
    )
    return result.extension


def propose(
    policy: Policy,
    reason: ExtensionReason,
    *,
    paused_from: datetime | None = None,
    paused_to: datetime | None = None,
    taken_minutes: float | None = None,
) -> ExtensionOwed | None:
    """What the policy owes for a pause, from its start and end or the minutes it took; None when not timed."""
    if paused_from is not None and paused_to is not None:
        if paused_to < paused_from:
            raise FieldError("paused_to", _("The pause cannot end before it starts."))
        taken = paused_to - paused_from
    elif paused_from is not None or paused_to is not None:
        raise FieldError(
            "paused_to" if paused_from else "paused_from", _("Give both the start and the end of the pause.")
        )
    elif taken_minutes is not None:
        if taken_minutes < 0:
            raise FieldError("taken_minutes", _("Minutes cannot be negative."))
        taken = timedelta(minutes=taken_minutes)
    else:
        return None
    if taken > timedelta(hours=4):
        raise FieldError(
            "taken_minutes" if taken_minutes is not None else "paused_to",
            _("A pause of more than four hours is not plausible; check the times."),
        )
    return extension_owed(policy, reason, taken)


def settle_minutes(
    event: Event,
    owed: ExtensionOwed | None,
    minutes: int | None,
    adjust_reason: str | None,
    field_name: str = "minutes",
) -> tuple[int | None, str | None]:
    """The minutes to give: the policy's figure unless the judge adjusts it, with a reason."""
    adjust_reason = " ".join((adjust_reason or "").split()) or None
    if adjust_reason and len(adjust_reason) > MAX_REASON:
        raise FieldError("adjust_reason", _("At most %(limit)s characters.", limit=MAX_REASON))
    if minutes is None and owed is not None:
        minutes = owed.minutes
    minutes = check_minutes(event, minutes, field_name)
    if owed is not None and owed.rule is not None and (minutes or 0) != owed.minutes and not adjust_reason:
        raise FieldError(
            "adjust_reason",
            _("The policy owes %(owed)s min; say why you give %(given)s.", owed=owed.minutes, given=minutes or 0),
        )
    return minutes, adjust_reason


@dataclass
class ExtensionInput:
    key: str
    reason: str
    round_number: int | None = None
    table_number: int | None = None
    division_id: int | None = None  # the division whose round (None: the event's only one)
    paused_from: datetime | None = None
    paused_to: datetime | None = None
    taken_minutes: float | None = None
    minutes: int | None = None
    adjust_reason: str | None = None
    extra_turns: int | None = None


MAX_EXTRA_TURNS = 10


def check_extra_turns(policy: Policy, reason: ExtensionReason, turns: int | None) -> int | None:
    """Extra turns only where the policy's rule for this reason allows them (Bushiroad Floor Rules 1.2.2, 4.2)."""
    if not turns:
        return None
    rule = policy.time_rule(reason)
    if rule is None or not rule.extra_turns_allowed:
        raise FieldError(
            "extra_turns",
            _(
                "%(policy)s gives no extra turns for a %(reason)s: give minutes.",
                policy=catalog_name(policy),
                reason=reason_name(reason),
            ),
        )
    if turns < 0 or turns > MAX_EXTRA_TURNS:
        raise FieldError("extra_turns", _("0 to %(most)s extra turns.", most=MAX_EXTRA_TURNS))
    return turns


def announce_reminder(policy: Policy, reason: ExtensionReason) -> str | None:
    """What the judge must tell the players, where the policy says the extension must be announced before the
    match result (Bushiroad Floor Rules 1.2.2)."""
    rule = policy.time_rule(reason)
    if rule is None or not rule.announce_before_result:
        return None
    return _(
        "Tell both players how much extra time or how many turns they have and note it on their score sheets: they "
        "must declare it before the result is dealt with, or it is not honoured (%(section)s).",
        section=catalog_text(rule, "section"),
    )


def add_extension(
    session: Session, policy: Policy, *, actor: User, event: Event, data: ExtensionInput, now: datetime | None = None
) -> tuple[TimeExtension, bool]:
    """A judge gives a table time back; returns the record and whether it is new (a resent form is stored once)."""
    key, existing = begin_keyed_write(session, TimeExtension, data.key, event)
    if existing is not None:
        return existing, False
    rnd = started_round(session, event, data.round_number, division_id=data.division_id)
    table = check_table(session, event, data.table_number)
    try:
        reason = ExtensionReason(data.reason)
    except ValueError:
        raise FieldError("reason", _("Choose ruling, deck check or other.")) from None
    owed = propose(
        policy, reason, paused_from=data.paused_from, paused_to=data.paused_to, taken_minutes=data.taken_minutes
    )
    minutes, adjust = settle_minutes(event, owed, data.minutes, data.adjust_reason)
    turns = check_extra_turns(policy, reason, data.extra_turns)
    if not minutes and not turns:
        raise FieldError(
            "minutes", _("Give the minutes to add (or the pause's times, for the policy to work them out).")
        )
    ext = record_extension(
        session,
        actor=actor,
        event=event,
        rnd=rnd,
        table=table,
        minutes=minutes or 0,
        reason=reason,
        key=key,
        proposed=owed.minutes if owed and owed.rule else None,
        adjust_reason=adjust,
        paused_from=data.paused_from,
        paused_to=data.paused_to,
        extra_turns=turns,
        now=now,
    )
    return ext, True


def void_extension(
    session: Session, *, actor: User, roles: frozenset[str], event: Event, ext: TimeExtension, reason: str
) -> None:
    permissions.transition(session, Action.WITHDRAW_TIME, user=actor, roles=roles, record=ext, event=event)
    reason = " ".join((reason or "").split())
    if not reason:
        raise FieldError("reason", _("Say why the time is withdrawn."))
    if ext.voided_at is not None:
        raise FieldError("reason", _("Already withdrawn."))
    ext.voided_at, ext.void_reason = utcnow(), reason[:MAX_REASON]
    audit.record(
        session,
        actor,
        "extension.void",
        ext,
        event_id=event.id,
        note=ext.void_reason,
        table=ext.table_number,
        minutes=ext.minutes,
    )


@dataclass
class TableClock:
    table: int
    ends_at: datetime
    minutes: int
    extensions: list[TimeExtension] = field(default_factory=list)

    @property
    def extra_turns(self) -> int:
        return sum(e.extra_turns or 0 for e in self.extensions)


@dataclass
class RoundClock:
    round: Round
    ends_at: datetime
    tables: list[TableClock]


def round_clock(session: Session, rnd: Round) -> RoundClock:
    """The round's end, and each table with time given back and its own end, latest first."""
    extensions = session.scalars(
        select(TimeExtension)
        .where(TimeExtension.round_id == rnd.id, TimeExtension.voided_at.is_(None))
        .options(selectinload(TimeExtension.judge))
        .order_by(TimeExtension.id)
    )
    by_table: dict[int, list[TimeExtension]] = {}
    for ext in extensions:
        by_table.setdefault(ext.table_number, []).append(ext)
    tables = [
        TableClock(
            t,
            table_end_time(rnd.started_at, rnd.length_minutes, [e.minutes for e in exts]),
            sum(e.minutes for e in exts),
            exts,
        )
        for t, exts in by_table.items()
    ]
    tables.sort(key=lambda c: (-c.ends_at.timestamp(), c.table))
    return RoundClock(rnd, round_end(rnd.started_at, rnd.length_minutes), tables)


def table_ends_at(session: Session, rnd: Round, table: int) -> datetime:
    minutes = session.scalars(
        select(TimeExtension.minutes).where(
            TimeExtension.round_id == rnd.id, TimeExtension.table_number == table, TimeExtension.voided_at.is_(None)
        )
    )
    return table_end_time(rnd.started_at, rnd.length_minutes, list(minutes))
