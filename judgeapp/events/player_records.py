"""Player records: the players page's pages and search, correcting a record, and merging two records of one person.

- The players page shows PER_PAGE (30) players at a time, in the event's order (by name; a Japanese event's by the
  reading, gojūon order), and finds players by any part of their name, reading, handle or ID typed any way
  (judgeapp/names.py): each record keeps its search text and list order (`Player.search_key`, `Player.list_key`),
  written here whenever a record is, so a page of an event of 130,000 players is an indexed query, not a list of all.
- `correct_player`: the name, reading, handle, player ID and other platforms' IDs, audited field by field
  (`player.correct`, before and after); an ID another record of the event holds is refused at its field.
- `merge_players`: one person imported twice (two IDs, a typo) made one record. The record merged is kept, marked
  merged into the other (PLAYER_RECORD: active → merged), never deleted; its pairings, incident subjects, deck checks
  and appeals move to the record kept, whose history (read live from the subjects, judgeapp/history.py) then counts
  them; blanks of the record kept are filled in from it. One `player.merge` audit entry names every row moved, so
  the merge can be read back. Two records seated in the same round are two people: refused.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any

from sqlalchemy import event as orm_event
from sqlalchemy import func, select, update
from sqlalchemy.orm import Session

from .. import audit, names
from ..errors import FieldError, one_line
from ..lifecycles import PLAYER_RECORD, player_record_state
from ..models import Appeal, DeckCheckPlayer, Division, Event, IncidentSubject, Pairing, Player, User, utcnow
from ..records import MAX_CODE, MAX_NAME, lock_event
from ..texts import gettext as _
from .player_services import DivisionGroup, by_division, divisions_of
from .services import in_reading_order

PER_PAGE = 30  # what keeps a page of the longest lists under 10 KB as sent (bench/players_page.py)
MAX_KEY = 800  # as the columns
FORMS_INLINE_UP_TO = 100  # players: a list this short carries the add and import forms; a longer one links to them
MAX_QUERY = 100
PLATFORM_LINE = re.compile(r"^\s*([A-Za-z][A-Za-z0-9_-]{0,31})\s*[:：=]\s*(\S(?:.*\S)?)\s*$")


def _keep_keys(_mapper: Any, _connection: Any, player: Player) -> None:
    """A record's search text and list order, from its fields as they are being written."""
    player.search_key = names.search_text(player.name, player.reading, player.handle, player.player_code)[:MAX_KEY]
    player.list_key = names.list_key(player.name, player.reading)[:MAX_KEY]


orm_event.listen(Player, "before_insert", _keep_keys)
orm_event.listen(Player, "before_update", _keep_keys)


@dataclass(frozen=True)
class PlayerPage:
    players: list[Player]
    total: int  # the players the search found (the whole event's when there is no search)
    page: int
    pages: int
    query: str
    groups: list[DivisionGroup]  # the page's players by division (one group without a division at most events)

    @property
    def short(self) -> bool:
        """A list short enough to carry the add and import forms on the page itself (a long one links to them)."""
        return not self.query and self.total <= FORMS_INLINE_UP_TO


def page_of_players(session: Session, event: Event, *, query: str = "", page: int = 1) -> PlayerPage:
    """One page of the event's players (not the records merged into another), those the query finds where given."""
    query = " ".join((query or "").split())[:MAX_QUERY]
    base = select(Player).where(Player.event_id == event.id, Player.merged_into_id.is_(None))
    key = names.search_key(query)
    if key:
        base = base.where(Player.search_key.contains(key, autoescape=True))
    divisions = divisions_of(session, event)
    counts: dict[int, int] = {}  # players by division, where the event has several: the page is found from them
    if len(divisions) > 1:
        by = base.with_only_columns(Player.division_id, func.count()).group_by(Player.division_id)
        counts = {division_id: count for division_id, count in session.execute(by)}
        total = sum(counts.values())
    else:
        total = session.scalar(select(func.count()).select_from(base.subquery())) or 0
    pages = max(1, math.ceil(total / PER_PAGE))
    page = min(max(1, page), pages)
    if in_reading_order(event):
        # code point order, as names.list_key is built for (SQLite compares so already; PostgreSQL's is "C")
        postgresql = session.get_bind().dialect.name == "postgresql"
        order = (Player.list_key.collate("C") if postgresql else Player.list_key, Player.id)
    else:
        order = (Player.name, Player.id)
    if len(divisions) > 1:
        players = _page_by_division(session, base, order, divisions, counts, (page - 1) * PER_PAGE)
    else:
        players = list(session.scalars(base.order_by(*order).offset((page - 1) * PER_PAGE).limit(PER_PAGE)))
    return PlayerPage(players, total, page, pages, query, by_division(divisions, players, lambda p: p.division_id))


def _page_by_division(
    session: Session, base: Any, order: tuple, divisions: list[Division], counts: dict[int, int], skip: int
) -> list[Player]:
    """A page of an event of several divisions: grouped by division in the event's order, then in the list's own
    order. Each division is asked for on its own (from the count of each, only the divisions the page reaches), so the
    database walks its name (or reading) index within a division: one query ordered by the division's place then by
    name sorted every player of the event for each page (1.5 s for the last page at 130,000 players, bench/
    players_page.py)."""
    players: list[Player] = []
    for division in divisions:
        here = counts.get(division.id, 0)
        if skip >= here:
            skip -= here
            continue
        wanted = PER_PAGE - len(players)
        query = base.where(Player.division_id == division.id).order_by(*order).offset(skip).limit(wanted)
        players += session.scalars(query)
        skip = 0
        if len(players) >= PER_PAGE:
            break
    return players


def player_of(session: Session, event: Event, player_id: int) -> Player | None:
    player = session.get(Player, player_id)
    return player if player is not None and player.event_id == event.id else None


def holder_of(session: Session, event: Event, code: str, *, besides: int | None = None) -> Player | None:
    """The event's record holding this player ID, other than `besides`."""
    query = select(Player).where(Player.event_id == event.id, Player.player_code == code)
    if besides is not None:
        query = query.where(Player.id != besides)
    return session.scalars(query.limit(1)).first()


def find_other(session: Session, event: Event, text: str | None, *, besides: Player) -> Player:
    """The record a merge keeps, as typed: its player ID (a record merged away stands for the one it went into), else
    the one record whose name, reading or handle is what was typed, else the one record the search finds."""
    text = " ".join((text or "").split())
    if not text:
        raise FieldError("other", _("Type the other record's player ID or name."))
    holder = holder_of(session, event, text) or holder_of(session, event, _nfkc(text) or text)
    seen: set[int] = set()
    while holder is not None and holder.merged_into_id is not None and holder.id not in seen:
        seen.add(holder.id)
        holder = session.get(Player, holder.merged_into_id)
    if holder is not None:
        return holder
    found = page_of_players(session, event, query=text)
    candidates = [p for p in found.players if p.id != besides.id]
    exact = [p for p in candidates if names.equals(text, p.name, p.reading, p.handle)]
    if len(exact) == 1:
        return exact[0]
    if len(candidates) == 1 and found.total <= PER_PAGE:
        return candidates[0]
    if not candidates:
        raise FieldError("other", _("No other player at this event matches “%(text)s”.", text=text))
    raise FieldError("other", _("Several players match “%(text)s”; type the player ID of the one to keep.", text=text))


def platform_lines(platform_ids: dict[str, str] | None) -> str:
    """A record's other IDs as the form shows them: "platform: ID", one a line."""
    return "\n".join(f"{k}: {v}" for k, v in sorted((platform_ids or {}).items()))


def parse_platform_ids(text: str | None) -> dict[str, str]:
    """ "platform: ID" lines (blank lines skipped) as a dict; FieldError naming the line that is not one."""
    found: dict[str, str] = {}
    for number, line in enumerate((text or "").splitlines(), start=1):
        if not line.strip():
            continue
        matched = PLATFORM_LINE.match(line)
        if matched is None:
            raise FieldError(
                "platform_ids",
                _("Line %(line)s: write the platform, a colon and the ID, as in “konami: 0041200101”.", line=number),
            )
        platform, value = matched.group(1).lower(), matched.group(2)
        if len(value) > MAX_CODE:
            raise FieldError(
                "platform_ids", _("Line %(line)s: an ID has at most %(max)s characters.", line=number, max=MAX_CODE)
            )
        if platform in found:
            raise FieldError(
                "platform_ids", _("Line %(line)s: %(platform)s is given twice.", line=number, platform=platform)
            )
        found[platform] = value
    return found


def correct_player(
    session: Session,
    *,
    actor: User,
    event: Event,
    player: Player,
    name: str | None,
    reading: str | None,
    handle: str | None,
    player_code: str | None,
    platform_ids: str | None,
    division_id: int | None = None,
) -> dict[str, Any]:
    """Correct a player's record; the fields changed, as {field: [before, after]} (empty: nothing changed, nothing
    written; a division by its name). FieldError at the field for a blank name, an over-long field, an ID another
    record holds, a division not the event's, or a move out of a division whose pairings seat the player.
    `division_id` None: the division stays."""
    lock_event(session, event)
    PLAYER_RECORD.move(player_record_state(player.merged_into_id), "correct")
    wanted: dict[str, Any] = {
        "name": one_line(name, "name", limit=MAX_NAME, missing=_("Give the player's name.")),
        "reading": _nfkc(one_line(reading, "reading", limit=MAX_NAME)),
        "handle": one_line(handle, "handle", limit=MAX_NAME),
        "player_code": _nfkc(one_line(player_code, "player_code", limit=MAX_CODE)),
        "platform_ids": parse_platform_ids(platform_ids),
    }
    code = wanted["player_code"]
    if code is not None and code != player.player_code:
        holder = holder_of(session, event, code, besides=player.id)
        if holder is not None:
            raise FieldError(
                "player_code",
                _("Player ID %(id)s is already held by %(name)s at this event.", id=code, name=holder.name),
            )
    changes = {
        field: [getattr(player, field) or ({} if field == "platform_ids" else None), value]
        for field, value in wanted.items()
        if (getattr(player, field) or ({} if field == "platform_ids" else None)) != value
    }
    division = _moved_to(session, event, player, division_id)
    if division is not None:
        changes["division"] = [player.division.name, division.name]
    if not changes:
        return {}
    if division is not None:
        player.division = division
    for field, (_before, after) in changes.items():
        if field != "division":
            setattr(player, field, after)
    audit.record(session, actor, "player.correct", player, event_id=event.id, changes=changes)
    return changes


def _moved_to(session: Session, event: Event, player: Player, division_id: int | None) -> Division | None:
    """The division the player moves to (None: they stay). A player is in one division, and the pairings of their
    division seat them: a player seated in their division's pairings stays (a re-import of the file moves them)."""
    if division_id is None or division_id == player.division_id:
        return None
    division = session.get(Division, division_id)
    if division is None or division.event_id != event.id:
        raise FieldError("division", _("Choose one of this event's divisions."))
    seated = session.scalar(
        select(func.count())
        .select_from(Pairing)
        .where(Pairing.player_id == player.id, Pairing.division_id == player.division_id, Pairing.replaced_at.is_(None))
    )
    if seated:
        raise FieldError(
            "division",
            _(
                "%(name)s is seated in the pairings of %(division)s: they stay in it (a corrected file, re-imported, "
                "moves them).",
                name=player.name,
                division=player.division.name,
            ),
        )
    return division


def _nfkc(value: str | None) -> str | None:
    import unicodedata

    return unicodedata.normalize("NFKC", value) if value is not None else None


@dataclass(frozen=True)
class MergeOutcome:
    kept: Player
    pairings: int
    incidents: int
    deck_checks: int
    appeals: int


def merge_players(
    session: Session, *, actor: User, event: Event, merged: Player, kept: Player, reason: str | None
) -> MergeOutcome:
    """Merge `merged` into `kept` (the same person): see the module's docstring. FieldError ("other") when the two
    are one record, of another event, or seated in the same round; IllegalTransition when either was merged."""
    lock_event(session, event)
    why = one_line(reason, "reason", limit=500, missing=_("Say why these two records are one person."))
    if merged.id == kept.id:
        raise FieldError("other", _("Choose another record: a record is not merged into itself."))
    if merged.event_id != event.id or kept.event_id != event.id:
        raise FieldError("other", _("That player is not registered at this event."))
    PLAYER_RECORD.move(player_record_state(merged.merged_into_id), "merge")
    PLAYER_RECORD.move(player_record_state(kept.merged_into_id), "keep")
    live = (Pairing.event_id == event.id, Pairing.replaced_at.is_(None))
    merged_rounds = dict(
        session.execute(select(Pairing.round_number, Pairing.id).where(*live, Pairing.player_id == merged.id)).all()
    )
    both = sorted(
        set(merged_rounds)
        & set(session.scalars(select(Pairing.round_number).where(*live, Pairing.player_id == kept.id)))
    )
    if both:
        raise FieldError(
            "other",
            _(
                "Both records are seated in round %(round)s: they are two people, not one.",
                round=both[0],
            ),
        )
    pairing_ids = sorted(merged_rounds.values())
    if pairing_ids:
        session.execute(update(Pairing).where(Pairing.id.in_(pairing_ids)).values(player_id=kept.id))
    kept_incidents = set(
        session.scalars(select(IncidentSubject.incident_id).where(IncidentSubject.player_id == kept.id))
    )
    subjects = [
        s
        for s in session.scalars(select(IncidentSubject).where(IncidentSubject.player_id == merged.id))
        if s.incident_id not in kept_incidents  # an incident naming both already counts once for the record kept
    ]
    for subject in subjects:
        subject.player_id = kept.id
    kept_checks = set(
        session.scalars(select(DeckCheckPlayer.deck_check_id).where(DeckCheckPlayer.player_id == kept.id))
    )
    check_ids = [
        c
        for c in session.scalars(select(DeckCheckPlayer.deck_check_id).where(DeckCheckPlayer.player_id == merged.id))
        if c not in kept_checks
    ]
    if check_ids:
        session.execute(
            update(DeckCheckPlayer)
            .where(DeckCheckPlayer.player_id == merged.id, DeckCheckPlayer.deck_check_id.in_(check_ids))
            .values(player_id=kept.id)
        )
    appeal_ids = list(session.scalars(select(Appeal.id).where(Appeal.appellant_player_id == merged.id)))
    if appeal_ids:
        session.execute(update(Appeal).where(Appeal.id.in_(appeal_ids)).values(appellant_player_id=kept.id))
    filled: dict[str, Any] = {}
    for field in ("reading", "handle", "country", "team"):
        if getattr(kept, field) is None and getattr(merged, field) is not None:
            filled[field] = getattr(merged, field)
    others = {**(merged.platform_ids or {}), **(kept.platform_ids or {})}
    if merged.player_code and merged.player_code != kept.player_code:
        others.setdefault("merged", merged.player_code)  # a judge typing the old ID still finds the person
    if others != (kept.platform_ids or {}):
        filled["platform_ids"] = others
    for field, value in filled.items():
        setattr(kept, field, value)
    merged.merged_into_id, merged.merged_at = kept.id, utcnow()
    session.flush()
    audit.record(
        session,
        actor,
        "player.merge",
        merged,
        event_id=event.id,
        note=why,
        into=kept.id,
        pairings=pairing_ids,
        incident_subjects=sorted(s.id for s in subjects),
        deck_checks=sorted(check_ids),
        appeals=sorted(appeal_ids),
        filled_in=filled,
    )
    return MergeOutcome(kept, len(pairing_ids), len(subjects), len(check_ids), len(appeal_ids))
