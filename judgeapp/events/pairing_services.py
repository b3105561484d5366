"""A round's pairings: importing them from CSV and reading who sits where, a player's tables and the byes."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field

from sqlalchemy import select
from sqlalchemy.orm import Session, aliased

from .. import audit
from ..imports.model import MAX_TABLE, table_number
from ..models import Event, Pairing, Player, Round, User
from ..texts import gettext as _
from .player_services import first_division_id, players_of
from .round_services import rounds_of, started_round


def csv_rows(text: str):
    """The rows of an uploaded CSV, whatever its line endings (old Mac files end lines with a lone CR)."""
    return csv.reader(io.StringIO(text.lstrip("\ufeff"), newline=None))


def pairings_of(session: Session, rnd: Round | None) -> dict[int, list[Player]]:
    """Table number → the players seated there in `rnd` (empty when no pairings were imported); byes have no table."""
    if rnd is None:
        return {}
    return seating_of(session, rnd.event_id, rnd.number, rnd.division_id)


@dataclass
class PlayerRound:
    """Where the pairings put a player in one round: a table and the opponents there, or a bye (table None)."""

    number: int
    table: int | None
    opponents: list[Player]
    started: bool


def rounds_of_player(session: Session, event: Event, player: Player) -> list[PlayerRound]:
    """The player's round-by-round tables and opponents as imported, rounds not started yet included."""
    mine, theirs = aliased(Pairing), aliased(Pairing)
    rows = session.execute(
        select(mine.round_number, mine.table_number, Player)
        .outerjoin(
            theirs,
            (theirs.event_id == mine.event_id)
            & (theirs.division_id == mine.division_id)
            & (theirs.round_number == mine.round_number)
            & (theirs.table_number == mine.table_number)
            & (theirs.player_id != mine.player_id)
            & theirs.replaced_at.is_(None),
        )
        .outerjoin(Player, Player.id == theirs.player_id)
        .where(mine.event_id == event.id, mine.player_id == player.id, mine.replaced_at.is_(None))
        .order_by(mine.round_number, Player.name)
    )
    started = {r.number for r in rounds_of(session, event) if r.division_id == player.division_id}
    out: dict[int, PlayerRound] = {}
    for number, table, opponent in rows:
        entry = out.setdefault(number, PlayerRound(number, table, [], number in started))
        if opponent is not None:
            entry.opponents.append(opponent)
    return list(out.values())


def byes_of(session: Session, rnd: Round | None) -> list[int]:
    """The ids of the players the pairings give a bye in `rnd` (no table)."""
    if rnd is None:
        return []
    return list(
        session.scalars(
            select(Pairing.player_id).where(
                Pairing.event_id == rnd.event_id,
                Pairing.division_id == rnd.division_id,
                Pairing.round_number == rnd.number,
                Pairing.replaced_at.is_(None),
                Pairing.table_number.is_(None),
            )
        )
    )


def seating_of(
    session: Session, event_id: int, round_number: int, division_id: int | None = None
) -> dict[int, list[Player]]:
    """Table number → the players the pairings seat there in round `round_number` (started or not) of one division
    (None: of the event's first division, the only one of most events)."""
    if division_id is None:
        division_id = first_division_id(session, event_id)
    out: dict[int, list[Player]] = {}
    rows = session.execute(
        select(Pairing.table_number, Player)
        .join(Player, Player.id == Pairing.player_id)
        .where(
            Pairing.event_id == event_id,
            Pairing.division_id == division_id,
            Pairing.round_number == round_number,
            Pairing.replaced_at.is_(None),
            Pairing.table_number.is_not(None),
        )
        .order_by(Pairing.table_number, Pairing.seat, Player.name)
    )
    for table, player in rows:
        if table is not None:  # byes are filtered above; this tells the type checker
            out.setdefault(table, []).append(player)
    return out


@dataclass
class PairingReport:
    round: Round
    added: int = 0
    rejected: list[tuple[int, str, str]] = field(default_factory=list)


def _pairing_row(
    cells: list[str],
    codes: dict[str, Player],
    seated: set[int],
    in_file: dict[str, tuple[int, int]],
    tables: dict[int, int | None],
) -> tuple[str | None, int, list[str]]:
    """(what is wrong with a pairings row or None, its table, its player IDs)."""
    table, wanted = table_number(cells[0]), [c for c in cells[1:] if c]
    if not wanted:
        return _("expected: table number, player id, player id"), 0, wanted
    if table is None:
        return _("the table must be a number from 1 to %(max)s", max=MAX_TABLE), 0, wanted
    unknown = [c for c in wanted if c not in codes]
    if unknown:
        return _("unknown player ID %(ids)s", ids=", ".join(unknown)), table, wanted
    repeated = sorted({c for c in wanted if wanted.count(c) > 1})
    if repeated:
        return _("player ID %(ids)s is named twice in this row", ids=", ".join(repeated)), table, wanted
    earlier = [c for c in wanted if c in in_file]
    if earlier:
        where = in_file[earlier[0]]
        return (
            _(
                "already seated this round: %(id)s (table %(table)s, line %(line)s of this file)",
                id=earlier[0],
                table=where[0],
                line=where[1],
            ),
            table,
            wanted,
        )
    twice = [c for c in wanted if codes[c].id in seated]
    if twice:
        return _("already seated this round: %(ids)s", ids=", ".join(twice)), table, wanted
    if table in tables:
        line = tables[table]
        if line is None:
            return _("table %(table)s already seats a match this round", table=table), table, wanted
        return (
            _("table %(table)s already seats a match this round (line %(line)s of this file)", table=table, line=line),
            table,
            wanted,
        )
    return None, table, wanted


def import_pairings(
    session: Session, *, actor: User, event: Event, round_number: int, text: str, division_id: int | None = None
) -> PairingReport:
    """Seat players for a started round (of a division: None, the event's only one) from CSV rows `table, player
    id[, player id …]`; bad rows are reported."""
    rnd = started_round(session, event, round_number, division_id=division_id)
    report = PairingReport(rnd)
    codes = {p.player_code: p for p in players_of(session, event) if p.player_code}
    live = select(Pairing.player_id, Pairing.table_number).where(
        Pairing.event_id == event.id,
        Pairing.division_id == rnd.division_id,
        Pairing.round_number == rnd.number,
        Pairing.replaced_at.is_(None),
    )
    stored = session.execute(live).all()
    seated = {pid for pid, _table in stored}
    tables: dict[int, int | None] = {t: None for _pid, t in stored if t is not None}  # table -> line of this file
    in_file: dict[str, tuple[int, int]] = {}  # player ID -> (table, line) where this file seats them
    for line, row in enumerate(csv_rows(text), start=1):
        raw = ",".join(row)
        cells = [c.strip() for c in row]
        if not any(cells):
            continue
        if line == 1 and table_number(cells[0]) is None and not any(c in codes for c in cells[1:]):
            continue  # a header row
        problem, table, wanted = _pairing_row(cells, codes, seated, in_file, tables)
        if problem:
            report.rejected.append((line, raw, problem))
            continue
        tables[table] = line
        for seat, code in enumerate(wanted, start=1):
            session.add(
                Pairing(
                    event_id=event.id,
                    division_id=rnd.division_id,
                    round_number=rnd.number,
                    table_number=table,
                    seat=seat,
                    player_id=codes[code].id,
                )
            )
            in_file[code] = (table, line)
            report.added += 1
    if report.added:
        audit.record(
            session,
            actor,
            "pairings.import",
            rnd,
            event_id=event.id,
            round=rnd.number,
            seated=report.added,
            rejected=len(report.rejected),
        )
    return report
