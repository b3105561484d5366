"""The look-ups the floor tools share (incidents, deck checks, time extensions, calls): a table of the event, a
player found by what the judge typed, a team and its members."""

from __future__ import annotations

from math import ceil
from typing import Literal, overload

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from .. import names
from ..errors import FieldError
from ..models import Event, Pairing, Player
from ..texts import gettext as _


def table_count(session: Session, event: Event) -> int:
    """Tables in play: enough for every registered player to sit two to a table, or the pairings' highest table."""
    players = select(func.count()).select_from(Player).where(Player.event_id == event.id).scalar_subquery()
    paired = (
        select(func.coalesce(func.max(Pairing.table_number), 0))
        .where(Pairing.event_id == event.id, Pairing.replaced_at.is_(None))
        .scalar_subquery()
    )
    count, highest = session.execute(select(players, paired)).one()
    return max(ceil(count / 2), highest, 1)


@overload
def check_table(
    session: Session, event: Event, table: int | None, *, required: Literal[True] = True, field_name: str = "table"
) -> int: ...
@overload
def check_table(
    session: Session, event: Event, table: int | None, *, required: bool, field_name: str = "table"
) -> int | None: ...
def check_table(
    session: Session, event: Event, table: int | None, *, required: bool = True, field_name: str = "table"
) -> int | None:
    if table is None:
        if required:
            raise FieldError(field_name, _("Give the table number."))
        return None
    tables = table_count(session, event)
    if not 1 <= table <= tables:
        raise FieldError(
            field_name,
            _("There is no table %(table)s: this event has tables 1 to %(tables)s.", table=table, tables=tables),
        )
    return table


def split_player_text(text: str) -> tuple[str, str | None]:
    """'Name · CODE' as the pick list shows it, or whatever was typed."""
    name, sep, code = text.rpartition(" · ")
    return (name.strip(), code.strip() or None) if sep else (text.strip(), None)


def find_player(session: Session, event: Event, text: str, *, field_name: str = "player") -> Player:
    """The event's player a judge means by a name, a player ID, or 'Name · ID' from the pick list.

    Typed any way (judgeapp/names.py): full-width or half-width, hiragana or katakana, with or without spaces and
    hyphens. An ID (the player ID or another platform's, such as the Bushiroad ID) or a whole name, reading or handle
    names one player; else what was typed may be part of one player's name, reading, handle or ID."""
    name, code = split_player_text(text or "")
    if not name and not code:
        raise FieldError(field_name, _("Type a few letters of the player's name or their player ID."))
    base = select(Player).where(Player.event_id == event.id, Player.merged_into_id.is_(None))
    for probe in filter(None, (code, name)):
        found = session.scalars(base.where(func.lower(Player.player_code) == probe.lower())).all()
        if len(found) == 1:
            return found[0]
    exact = [p for p in session.scalars(base.where(func.lower(Player.name) == name.lower()))]
    if len(exact) == 1:
        return exact[0]
    everyone = session.scalars(base.order_by(Player.id)).all()  # the rest compares names as judges type them
    for probe in filter(None, (code, name)):
        by_id = [p for p in everyone if names.equals(probe, p.player_code, *(p.platform_ids or {}).values())]
        if len(by_id) == 1:
            return by_id[0]
    whole = [p for p in everyone if names.equals(name, p.name, p.reading, p.handle)]
    if len(whole) == 1:
        return whole[0]
    partial = [
        p
        for p in everyone
        if names.matches(name, p.name, p.reading, p.handle, p.player_code, *(p.platform_ids or {}).values())
    ]
    if len(partial) == 1:
        return partial[0]
    if not partial and not exact and not whole:
        raise FieldError(
            field_name,
            _(
                "No player at this event matches “%(text)s”. Pick one from the list, "
                "or tick “Not registered yet” to add them.",
                text=text.strip(),
            ),
        )
    raise FieldError(field_name, _("Several players match “%(text)s”; pick one from the list.", text=text.strip()))


def player_of_event(session: Session, event: Event, player_id: int, field_name: str = "player") -> Player:
    player = session.get(Player, player_id)
    if player is None or player.event_id != event.id:
        raise FieldError(field_name, _("That player is not registered at this event."))
    return player


def team_members(session: Session, event: Event, team: str) -> list[Player]:
    return list(
        session.scalars(
            select(Player)
            .where(Player.event_id == event.id, Player.team == team, Player.merged_into_id.is_(None))
            .order_by(Player.name)
        )
    )


def teams_of(session: Session, event: Event) -> list[str]:
    return list(
        session.scalars(
            select(Player.team)
            .where(Player.event_id == event.id, Player.team.is_not(None))
            .distinct()
            .order_by(Player.team)
        )
    )
