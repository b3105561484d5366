"""An event's rounds: starting and ending one, the day it is on, finding a division's round by number."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from .. import audit
from ..errors import FieldError
from ..infractions import round_end
from ..lifecycles import DECK_CHECK, ROUND, DeckCheckState, RoundState
from ..models import DeckCheck, DeckCheckResult, Division, Event, Round, User, utcnow
from ..records import lock_event
from ..texts import gettext as _
from ..texts import ngettext
from .player_services import first_division_id


def start_round(
    session: Session, *, actor: User, event: Event, now: datetime | None = None, division_id: int | None = None
) -> Round:
    """Start a division's next round now (None: the event's first division, its only one in most events); it ends
    after the event's round length. The division's round before it ends now if the head judge had not ended it (with
    whatever was still open in it). Each division keeps its own round clock."""
    now = now or utcnow()
    lock_event(session, event)
    division_id = _division_of_event(session, event, division_id)
    previous = current_round(session, event, division_id)
    last = previous.number if previous else 0
    if last >= event.rounds:
        raise FieldError(
            "round",
            ngettext("The event's only round has been started.", "All %(num)d rounds have been started.", event.rounds),
        )
    if previous is not None and previous.ended_at is None:
        end_round(session, actor=actor, event=event, rnd=previous, now=now)
    rnd = Round(
        event_id=event.id,
        division_id=division_id,
        number=last + 1,
        day=previous.day if previous else 1,  # the same day until the head judge says the next has begun
        started_at=now,
        length_minutes=event.round_minutes,
        started_by_id=actor.id,
    )
    session.add(rnd)
    session.flush()
    audit.record(session, actor, "round.start", rnd, event_id=event.id, number=rnd.number, division_id=division_id)
    return rnd


def _division_of_event(session: Session, event: Event, division_id: int | None, field_name: str = "division") -> int:
    """The division asked for, when it is the event's (None: the event's first division)."""
    if division_id is None:
        first = first_division_id(session, event.id)
        if first is None:  # an event made before it had divisions in code: its one division, made now
            division = Division(event_id=event.id, name="", position=0)
            session.add(division)
            session.flush()
            return division.id
        return first
    if session.scalar(select(Division.id).where(Division.id == division_id, Division.event_id == event.id)) is None:
        raise FieldError(field_name, _("Choose one of the event's divisions."))
    return division_id


@dataclass
class RoundEnded:
    round: Round
    deck_checks: list[DeckCheck]  # ended with the round, unfinished


def end_round(session: Session, *, actor: User, event: Event, rnd: Round, now: datetime | None = None) -> RoundEnded:
    """End a round now (early, once every match is reported, or as the next one starts). What is still open in it
    ends with it, and says so: a deck check still running is ended as unfinished, with its real length."""
    now = now or utcnow()
    lock_event(session, event)
    session.refresh(rnd)
    ROUND.move(RoundState.ENDED if rnd.ended_at else RoundState.RUNNING, "end")
    rnd.ended_at, rnd.ended_by_id = max(now, rnd.started_at), actor.id
    open_checks = list(
        session.scalars(
            select(DeckCheck)
            .where(DeckCheck.round_id == rnd.id, DeckCheck.result == DeckCheckResult.IN_PROGRESS)
            .order_by(DeckCheck.id)
        )
    )
    for dc in open_checks:
        DECK_CHECK.move(DeckCheckState(dc.result.value), "end_with_round")
        dc.ended_at, dc.result = rnd.ended_at, DeckCheckResult.UNFINISHED
        audit.record(
            session,
            actor,
            "deck_check.end_with_round",
            dc,
            event_id=event.id,
            round=rnd.number,
            result=dc.result.value,
            seconds=int((dc.ended_at - dc.started_at).total_seconds()),
        )
    audit.record(
        session,
        actor,
        "round.end",
        rnd,
        event_id=event.id,
        number=rnd.number,
        ended_early=rnd.ended_at < round_ends_at(rnd),
        deck_checks_ended=[dc.id for dc in open_checks],
    )
    return RoundEnded(rnd, open_checks)


def days_open_to(session: Session, rnd: Round) -> list[int]:
    """The days a round may be on: its division's round before it's day or the next one (Day 1 for a first round),
    never past the day of the round after it."""
    before = session.scalar(
        select(Round.day).where(Round.division_id == rnd.division_id, Round.number < rnd.number)
        .order_by(Round.number.desc()).limit(1)
    )  # fmt: skip
    after = session.scalar(
        select(Round.day).where(Round.division_id == rnd.division_id, Round.number > rnd.number)
        .order_by(Round.number).limit(1)
    )  # fmt: skip
    days = [before, before + 1] if before is not None else [1]
    return [d for d in days if after is None or d <= after]


def set_round_day(session: Session, *, actor: User, event: Event, rnd: Round, day: int | None) -> bool:
    """Put a round on the event's day `day` (Day 2 begins with it, or it stays on Day 1); audited as round.day.
    False when it was on that day already. FieldError ("day") for a day the round's place does not allow."""
    lock_event(session, event)
    allowed = days_open_to(session, rnd)
    if day not in allowed:
        raise FieldError(
            "day",
            _(
                "Round %(number)s cannot be on day %(day)s: a round is on the day of the round before it, or the "
                "next day.",
                number=rnd.number,
                day=day if day is not None else "—",
            ),
        )
    if day == rnd.day:
        return False
    audit.record(
        session, actor, "round.day", rnd, event_id=event.id, number=rnd.number, changes={"day": [rnd.day, day]}
    )
    rnd.day = day
    return True


def round_by_number(session: Session, event: Event, number: int, division_id: int | None = None) -> Round | None:
    """Round `number` of a division (None: of the event's first division)."""
    division_id = division_id or first_division_id(session, event.id)
    return session.scalar(
        select(Round).where(Round.event_id == event.id, Round.division_id == division_id, Round.number == number)
    )


def current_round(session: Session, event: Event, division_id: int | None = None) -> Round | None:
    """A division's latest round (None: the event's first division's)."""
    division_id = division_id or first_division_id(session, event.id)
    return session.scalar(
        select(Round)
        .where(Round.event_id == event.id, Round.division_id == division_id)
        .order_by(Round.number.desc())
        .limit(1)
    )


def day_of_round(session: Session, event: Event, number: int | None, division_id: int | None = None) -> int:
    """The event's day (1, 2…) of a division's round `number` (None: its current round; no division: the event's
    first division), which the policy's "day" window counts; Day 1 where there is no such round yet."""
    division_id = division_id or first_division_id(session, event.id)
    query = select(Round.day).where(Round.event_id == event.id, Round.division_id == division_id)
    if number is not None:
        query = query.where(Round.number == number)
    return session.scalar(query.order_by(Round.number.desc()).limit(1)) or 1


def started_round(
    session: Session, event: Event, number: int | None, field_name: str = "round", division_id: int | None = None
) -> Round:
    """The round `number` of a division (default: its current one); it must have started. Without a division, the
    event's only round of that number: where two divisions have one, the division must be chosen."""
    if division_id is None and number is not None:
        found = list(session.scalars(select(Round).where(Round.event_id == event.id, Round.number == number).limit(2)))
        if len(found) > 1:
            raise FieldError(
                "division", _("Choose the division: round %(number)s is running in several.", number=number)
            )
        if found:
            return found[0]
        raise FieldError(field_name, _("Round %(number)s has not started.", number=number))
    if division_id is not None:
        _division_of_event(session, event, division_id)
    if number is None:
        rnd = current_round(session, event, division_id)
        if rnd is None:
            raise FieldError(field_name, _("No round has started yet; the head judge or scorekeeper starts round 1."))
        return rnd
    rnd = round_by_number(session, event, number, division_id)
    if rnd is None:
        raise FieldError(field_name, _("Round %(number)s has not started.", number=number))
    return rnd


def rounds_of(session: Session, event: Event) -> list[Round]:
    return list(session.scalars(select(Round).where(Round.event_id == event.id).order_by(Round.number)))


def round_ends_at(rnd: Round) -> datetime:
    return round_end(rnd.started_at, rnd.length_minutes)
