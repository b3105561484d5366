"""An event's players and divisions: registering a player by hand, the players in the event's order, the
divisions and a list grouped by them."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from .. import audit, names
from ..errors import FieldError
from ..models import Division, Event, Player, User
from ..records import MAX_CODE, MAX_NAME
from .services import in_reading_order


def _clean_player(name: str, code: str | None) -> tuple[str, str | None]:
    name = " ".join((name or "").split())
    code = (code or "").strip() or None
    if not name:
        raise FieldError("name", "Give the player's name.")
    if len(name) > MAX_NAME:
        raise FieldError("name", f"At most {MAX_NAME} characters.")
    if code is not None and len(code) > MAX_CODE:
        raise FieldError("player_code", f"At most {MAX_CODE} characters.")
    return name, code


def _clean_optional(value: str | None, field_name: str, limit: int, *, nfkc: bool = False) -> str | None:
    """One line of text or None; NFKC for a reading (half-width ｶﾅ as カナ, as imports store it) and an ID."""
    value = " ".join((value or "").split()) or None
    if value is not None and nfkc:
        value = unicodedata.normalize("NFKC", value)
    if value is not None and len(value) > limit:
        raise FieldError(field_name, f"At most {limit} characters.")
    return value


def players_of(session: Session, event: Event) -> list[Player]:
    """The event's players by name, or by the readings of their names (gojūon order) at a Japanese event; not the
    records merged into another (judgeapp/events/player_records.py)."""
    players = list(
        session.scalars(
            select(Player).where(Player.event_id == event.id, Player.merged_into_id.is_(None)).order_by(Player.name)
        )
    )
    return in_name_order(event, players)


def in_name_order(event: Event, players: list[Player]) -> list[Player]:
    """Players (listed by name) as the event lists them: a Japanese event by reading, those without one last."""
    if not in_reading_order(event):
        return players
    return sorted(players, key=lambda p: names.sort_key(p.name, p.reading))


def _code_taken(session: Session, event: Event, code: str | None) -> bool:
    return (
        code is not None
        and session.scalar(select(Player.id).where(Player.event_id == event.id, Player.player_code == code)) is not None
    )


def _clean_team(team: str | None) -> str | None:
    team = " ".join((team or "").split()) or None
    if team is not None and len(team) > MAX_NAME:
        raise FieldError("team", f"At most {MAX_NAME} characters.")
    return team


def add_player(
    session: Session,
    *,
    actor: User,
    event: Event,
    name: str,
    player_code: str | None,
    team: str | None = None,
    reading: str | None = None,
    handle: str | None = None,
    bushiroad_id: str | None = None,
) -> Player:
    """Register one player at the event: a name, and where given their ID, team, the reading of the name (フリガナ),
    the handle they go by and their Bushiroad ID (kept in platform_ids, as imports keep it)."""
    name, code = _clean_player(name, player_code)
    team = _clean_team(team)
    reading = _clean_optional(reading, "reading", MAX_NAME, nfkc=True)
    handle = _clean_optional(handle, "handle", MAX_NAME)
    bushiroad = _clean_optional(bushiroad_id, "bushiroad_id", MAX_CODE, nfkc=True)
    if _code_taken(session, event, code):
        raise FieldError("player_code", f"Player ID {code} is already registered at this event.")
    extra = {"bushiroad": bushiroad} if bushiroad else {}
    player = Player(
        event_id=event.id, name=name, player_code=code, team=team, reading=reading, handle=handle, platform_ids=extra
    )
    session.add(player)
    details: dict[str, Any] = {
        k: v for k, v in (("reading", reading), ("handle", handle), ("platform_ids", extra or None)) if v is not None
    }
    audit.record(
        session, actor, "player.add", player, event_id=event.id, name=name, player_code=code, team=team, **details
    )
    return player


def divisions_of(session: Session, event: Event | int) -> list[Division]:
    """The event's divisions in their order (one for most events)."""
    event_id = event if isinstance(event, int) else event.id
    return list(
        session.scalars(select(Division).where(Division.event_id == event_id).order_by(Division.position, Division.id))
    )


@dataclass
class DivisionGroup:
    """A list's records of one division (`division` None: the event has only one, and the list shows no heading)."""

    division: Division | None
    items: list


def by_division(divisions: list[Division], items: Iterable[Any], division_id_of: Callable[[Any], int]) -> list:
    """A list grouped by division in the event's order, each group in the list's own order; at an event of one
    division, one group without a division, the list as it was."""
    items = list(items)
    if len(divisions) < 2:
        return [DivisionGroup(None, items)]
    groups = {d.id: DivisionGroup(d, []) for d in divisions}
    for item in items:
        groups[division_id_of(item)].items.append(item)
    return [g for g in groups.values() if g.items] or [DivisionGroup(None, [])]  # none: the list's empty line


def first_division_id(session: Session, event_id: int) -> int | None:
    return session.scalar(
        select(Division.id).where(Division.event_id == event_id).order_by(Division.position, Division.id).limit(1)
    )
