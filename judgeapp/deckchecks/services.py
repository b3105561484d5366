"""Deck checks: who was checked where and when, what was found, and the time the match is owed back."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session, selectinload

from .. import audit
from ..clock.services import propose, record_extension, settle_minutes
from ..errors import FieldError
from ..events.pairing_services import pairings_of
from ..events.round_services import started_round
from ..incidents.lookup_services import check_table, find_player, table_count
from ..infractions import ExtensionOwed, ExtensionReason, Policy
from ..lifecycles import DECK_CHECK, DeckCheckState
from ..models import (
    DeckCheck,
    DeckCheckPlayer,
    DeckCheckResult,
    Event,
    Player,
    Round,
    TimeExtension,
    User,
    utcnow,
)
from ..records import MAX_TEXT, begin_keyed_write, derived_key, lock_event
from ..texts import gettext as _


@dataclass
class DeckCheckInput:
    key: str
    round_number: int | None = None
    table_number: int | None = None
    division_id: int | None = None  # the division whose round and table (None: the event's only one)
    player_texts: list[str] = field(default_factory=list)


def start_deck_check(
    session: Session, *, actor: User, event: Event, data: DeckCheckInput, now: datetime | None = None
) -> tuple[DeckCheck, bool]:
    """Start the clock on a deck check at a table; players default to the table's pairing."""
    key, existing = begin_keyed_write(session, DeckCheck, data.key, event)
    if existing is not None:
        return existing, False
    rnd = started_round(session, event, data.round_number, division_id=data.division_id)
    table = check_table(session, event, data.table_number)
    texts = [t for t in data.player_texts if t and t.strip()]
    if texts:
        players = []
        for n, text in enumerate(texts):
            field_name = "player_1" if n == 0 else "player_2"
            player = find_player(session, event, text, field_name=field_name)
            _in_division_of(player, rnd, field_name)
            if player not in players:
                players.append(player)
    else:
        players = pairings_of(session, rnd).get(table, [])
        if not players:
            raise FieldError("player_1", _("No pairings known for this table: name the player or players checked."))
    dc = DeckCheck(
        event_id=event.id,
        client_key=key,
        round_id=rnd.id,
        table_number=table,
        judge_id=actor.id,
        started_at=now or utcnow(),
    )
    dc.round = rnd
    session.add(dc)
    session.flush()
    for player in players:
        session.add(DeckCheckPlayer(deck_check_id=dc.id, player_id=player.id))
    audit.record(
        session,
        actor,
        "deck_check.start",
        dc,
        event_id=event.id,
        round=rnd.number,
        table=table,
        players=[p.id for p in players],
    )
    return dc, True


def _in_division_of(player: Player, rnd: Round, field_name: str) -> None:
    """A player named for a check plays in the division of the check's round (a player is in one division)."""
    if player.division_id == rnd.division_id:
        return
    raise FieldError(
        field_name,
        _(
            "%(name)s plays in %(division)s, not in the division of this round and table.",
            name=player.name,
            division=player.division.name,
        ),
    )


@dataclass
class EndResult:
    owed: ExtensionOwed | None  # None: the check ran longer than a round, or its round had ended: nothing proposed
    extension: TimeExtension | None


def end_deck_check(
    session: Session,
    policy: Policy,
    *,
    actor: User,
    event: Event,
    dc: DeckCheck,
    result: str,
    notes: str,
    minutes: int | None,
    adjust_reason: str | None,
    now: datetime | None = None,
) -> EndResult:
    """Finish a deck check: the result, notes, and the time the policy owes the match for it. A check can always be
    ended while it runs, however long it has been open: its real length is recorded; when it ran longer than a round
    (left open by mistake) no time is proposed, and the judge gives what the match is really owed, if anything."""
    now = now or utcnow()
    lock_event(session, event)
    session.refresh(dc)
    DECK_CHECK.move(DeckCheckState(dc.result.value), "end")  # 409 when it already ended, and why
    try:
        outcome = DeckCheckResult(result)
    except ValueError:
        outcome = None
    if outcome not in (DeckCheckResult.MATCHES, DeckCheckResult.PROBLEMS):
        raise FieldError("result", _("Say whether the deck matches the registration or problems were found."))
    notes = (notes or "").strip()
    if len(notes) > MAX_TEXT:
        raise FieldError("notes", _("At most %(limit)s characters.", limit=MAX_TEXT))
    taken = max(now, dc.started_at) - dc.started_at
    plausible = taken <= timedelta(minutes=event.round_minutes) and dc.round.ended_at is None
    owed = (
        propose(policy, ExtensionReason.DECK_CHECK, paused_from=dc.started_at, paused_to=dc.started_at + taken)
        if plausible
        else None
    )
    given, adjust = settle_minutes(event, owed, minutes, adjust_reason, field_name="minutes")
    dc.ended_at, dc.result, dc.notes = now, outcome, notes
    audit.record(
        session,
        actor,
        "deck_check.end",
        dc,
        event_id=event.id,
        result=outcome.value,
        seconds=int((now - dc.started_at).total_seconds()),
    )
    ext = None
    if given:
        ext = record_extension(
            session,
            actor=actor,
            event=event,
            rnd=dc.round,
            table=dc.table_number,
            minutes=given,
            reason=ExtensionReason.DECK_CHECK,
            key=derived_key(dc.client_key, "ext"),
            proposed=owed.minutes if owed and owed.rule else None,
            adjust_reason=adjust,
            deck_check=dc,
            paused_from=dc.started_at,
            paused_to=now,
            now=now,
        )
    return EndResult(owed, ext)


def deck_checks_by_round(session: Session, event: Event) -> list[tuple[Round, list[DeckCheck]]]:
    checks = session.scalars(
        select(DeckCheck)
        .where(DeckCheck.event_id == event.id)
        .options(selectinload(DeckCheck.players), selectinload(DeckCheck.judge), selectinload(DeckCheck.round))
        .order_by(DeckCheck.started_at)
    )
    out: dict[int, tuple[Round, list[DeckCheck]]] = {}
    for dc in checks:
        out.setdefault(dc.round_id, (dc.round, []))[1].append(dc)
    return sorted(out.values(), key=lambda item: -item[0].number)


@dataclass
class TablePick:
    tables: list[int]
    skipped_tables: list[int]  # already checked this round
    skipped_players: int  # tables left out because a player there was checked earlier in the event
    pairings_known: bool
    round_number: int | None = None  # the round picked in, and its division: what the form's links choose
    division_id: int | None = None


def pick_tables(
    session: Session,
    event: Event,
    *,
    count: int = 2,
    division_id: int | None = None,
    rng: random.Random | None = None,
) -> TablePick:
    """Random tables for the current round of a division (None: the event's first) for deck checks, away from tables
    already checked in that round and from players checked earlier in the event."""
    rng = rng or random.SystemRandom()
    rnd = started_round(session, event, None, field_name="count", division_id=division_id)
    checked_tables = set(session.scalars(select(DeckCheck.table_number).where(DeckCheck.round_id == rnd.id)))
    checked_players = set(
        session.scalars(select(DeckCheckPlayer.player_id).join(DeckCheck).where(DeckCheck.event_id == event.id))
    )
    seating = pairings_of(session, rnd)
    tables = sorted(seating) if seating else list(range(1, table_count(session, event) + 1))
    free = [t for t in tables if t not in checked_tables]
    fresh = [t for t in free if not any(p.id in checked_players for p in seating.get(t, []))]
    chosen = rng.sample(fresh, min(count, len(fresh)))
    return TablePick(
        sorted(chosen), sorted(checked_tables), len(free) - len(fresh), bool(seating), rnd.number, rnd.division_id
    )
