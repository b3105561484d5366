"""What a tournament file says, whatever software wrote it: players, and each round's matches and byes.

Pure Python: the readers (tom.py, kts.py, melee.py, table.py) turn bytes into a `TournamentFile`; `finish()` then
checks what no single row can check on its own (a duplicate player ID, a match naming an unknown player, a player
paired twice in one round) and `summary()` counts what the organizer is shown. Nothing here touches the database.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from functools import partial
from typing import Any, Literal

from ..texts import gettext as _
from ..texts import lazy_gettext as _l

Format = Literal["tom", "kts", "melee", "csv"]
FORMATS: tuple[Format, ...] = ("tom", "kts", "melee", "csv")
FORMAT_NAMES: dict[str, Any] = {  # lazy: each shown in the page's language
    "tom": _l("Tournament Operations Manager file (.tdf)"),
    "kts": _l("KTS tournament file (.Tournament)"),
    "melee": _l("Melee export (CSV)"),
    "csv": _l("spreadsheet (CSV or TSV)"),
}

MAX_TABLE = 9999  # as the floor forms' table fields
MAX_ROUND = 30  # as the event form's number of rounds
MAX_NAME = 200
MAX_CODE = 64
MAX_COUNTRY = 64
MAX_REJECTED = 200  # rejected entries kept with their place and reason; the rest are counted (`rejected_more`)


class UnreadableFile(ValueError):
    """The file as a whole could not be understood (not a tournament file, broken XML, a refused entity…).

    The message is one sentence an organizer can act on; it never carries a traceback."""


@dataclass(frozen=True)
class Where:
    """Where a rejected entry sits in the file: a text line (CSV) or the nth element of its kind (XML)."""

    kind: Literal["line", "row"]
    number: int

    def as_dict(self) -> dict[str, int]:
        return {self.kind: self.number}


@dataclass(frozen=True)
class FilePlayer:
    """One player as the file names them. `code` is the player ID the pairing software uses (Pokémon Play! ID,
    KONAMI ID, Melee ID, a column of a spreadsheet); None when the file has none."""

    name: str
    code: str | None
    where: Where
    reading: str | None = None  # the reading of the name (フリガナ) where the file has one
    handle: str | None = None  # the name the player goes by (ハンドルネーム), where the file has one
    country: str | None = None
    platform_ids: dict[str, str] = field(default_factory=dict)  # other IDs the file carries, by platform
    team: str | None = None
    dropped: bool = False
    division: str = ""  # the FileDivision.key of the division the player plays in ("": the file has one)

    @property
    def key(self) -> str:
        """How matches refer to this player: the ID, or the exact name where the file has no IDs."""
        return self.code if self.code is not None else "name:" + self.name


@dataclass(frozen=True)
class FileMatch:
    """One table of one round: two players, or one player with a bye (`table` None for a bye). In a team event (KTS
    `TournamentTeam`) the match seats every member of both teams at its table, and a team's bye is its members'."""

    round: int
    table: int | None
    players: tuple[str, ...]  # FilePlayer.key of each, as the file names them
    where: Where
    division: str = ""  # the FileDivision.key of the division whose round this is ("": the file has one)

    @property
    def is_bye(self) -> bool:
        return self.table is None


@dataclass
class FileDivision:
    """One division of the event as the file has it (a TOM pod: an age division): its own players, rounds, tables and
    top cut. A file without divisions has one, keyed "" and unnamed.

    `top_cut_from`: the division's first single-elimination round (None: Swiss only, as far as the file goes);
    `top_cut_size`: the players that round seats (8 for a top 8)."""

    key: str
    name: str
    order: int = 0
    starting_table: int | None = None
    top_cut_from: int | None = None
    top_cut_size: int | None = None
    # The event's day (1, 2…) of each round the file dates (TOM's `<starttime>`): empty where the file dates none.
    round_days: dict[int, int] = field(default_factory=dict)


def days_of(dates: dict[int, date]) -> dict[int, int]:
    """Round number -> the event's day, from the calendar date each round began: Day 1 for the first round, the next
    day for a round begun on a later date than the round before it (a date earlier than the round before, a clock
    set wrong, stays on that round's day), so a division's days run 1, 2… in its rounds' order."""
    out: dict[int, int] = {}
    day, last = 1, None
    for number in sorted(dates):
        if last is not None and dates[number] > last:
            day += 1
        last = dates[number] if last is None or dates[number] > last else last
        out[number] = day
    return out


def top_cut_label(size: int, players: int) -> str:
    """A top-cut round named as players say it: "Top 8, quarterfinal" (`size` the cut, `players` this round's)."""
    stages = {2: _("final"), 4: _("semifinal"), 8: _("quarterfinal")}
    stage = stages.get(players) or _("round of %(players)s", players=players)
    return _("Top %(size)s, %(stage)s", size=size, stage=stage)


def round_label(division: FileDivision | Any, number: int) -> str | None:
    """The top-cut name of a division's round `number` ("Top 4, final"), None for a Swiss round (`division`: a file's
    or the event's, anything with `top_cut_from` and `top_cut_size`)."""
    if division.top_cut_from is None or not division.top_cut_size or number < division.top_cut_from:
        return None
    return top_cut_label(division.top_cut_size, max(2, division.top_cut_size >> (number - division.top_cut_from)))


@dataclass(frozen=True)
class Rejected:
    where: Where
    reason: str

    def as_dict(self) -> dict[str, Any]:
        return {**self.where.as_dict(), "reason": self.reason}


@dataclass
class TournamentFile:
    format: Format
    players: list[FilePlayer] = field(default_factory=list)
    matches: list[FileMatch] = field(default_factory=list)
    rejected: list[Rejected] = field(default_factory=list)
    event_name: str | None = None  # as the file names the event, where it does
    fields: tuple[str, ...] = ()  # what the file carried per player: "name", "code", "reading", "country", …
    rejected_more: int = 0  # rejected entries past the first MAX_REJECTED: counted, never formatted nor kept
    divisions: list[FileDivision] = field(default_factory=lambda: [FileDivision("", "")])
    # The venue numbers its tables across divisions: a table is used once per round whatever the division.
    tables_across_divisions: bool = False

    def reject(self, where: Where, reason: str | Callable[[], str]) -> None:
        """Reject an entry; `reason` may be a function giving it, called only for the first MAX_REJECTED (a file of
        400,000 bad rows costs a count, not 400,000 sentences)."""
        if len(self.rejected) >= MAX_REJECTED:
            self.rejected_more += 1
            return
        self.rejected.append(Rejected(where, reason() if callable(reason) else reason))

    def rounds(self, division: str | None = None) -> list[int]:
        """The round numbers the matches use (of one division's matches when `division` is given)."""
        return sorted({m.round for m in self.matches if division is None or m.division == division})

    def division_of(self, key: str) -> FileDivision:
        return next((d for d in self.divisions if d.key == key), None) or FileDivision(key, "")

    def summary(self) -> dict[str, Any]:
        """The counts the CLI prints and the page shows (after `finish()`): the totals, then each division's."""
        return {
            "format": self.format,
            "players": len(self.players),
            "rounds": len(self.rounds()),
            "pairings": sum(1 for m in self.matches if not m.is_bye),
            "byes": sum(1 for m in self.matches if m.is_bye),
            "divisions": [
                {
                    "id": d.key,
                    "name": d.name,
                    "players": sum(1 for p in self.players if p.division == d.key),
                    "rounds": len(self.rounds(d.key)),
                    "pairings": sum(1 for m in self.matches if m.division == d.key and not m.is_bye),
                    "byes": sum(1 for m in self.matches if m.division == d.key and m.is_bye),
                }
                for d in sorted(self.divisions, key=lambda d: d.order)
            ],
            "rejected": [r.as_dict() for r in sorted(self.rejected, key=_where_order)],
            "rejected_more": self.rejected_more,
        }


def _where_order(rejected: Rejected) -> tuple[str, int]:
    return (rejected.where.kind, rejected.where.number)


def table_number(text: str | int | None) -> int | None:
    """A table number as a file writes it, 1 to MAX_TABLE in ASCII digits, else None ("²".isdigit() and int("٣") == 3
    would let other scripts' digits through)."""
    if isinstance(text, int):
        return text if 1 <= text <= MAX_TABLE else None
    text = (text or "").strip()
    if not (text.isascii() and text.isdigit() and len(text) <= len(str(MAX_TABLE))):
        return None
    return int(text) if 1 <= int(text) <= MAX_TABLE else None


_CONTROLS = {c: None for c in range(32) if chr(c) not in "\t\n"}  # what clean_text drops


def clean_text(text: str | None) -> str | None:
    """Inner white space collapsed, ends stripped, control characters dropped; None when nothing is left."""
    if text is None:
        return None
    return " ".join(str(text).translate(_CONTROLS).split()) or None


def player_problem(player: FilePlayer) -> str | None:
    """What is wrong with a player on their own (a missing name, an over-long field), or None."""
    problem = _problem_of(player)
    return problem() if problem else None


def _problem_of(player: FilePlayer) -> Callable[[], str] | None:
    """player_problem() as a function that says it, or None: a file of 400,000 bad players costs a check each, and
    only the rejections kept are put in words."""
    if not player.name:
        return lambda: _("the player has no name")
    if len(player.name) > MAX_NAME:
        return lambda: _("the name is longer than %(max)s characters", max=MAX_NAME)
    if player.code is not None and len(player.code) > MAX_CODE:
        return lambda: _("the player ID is longer than %(max)s characters", max=MAX_CODE)
    if player.reading is not None and len(player.reading) > MAX_NAME:
        return lambda: _("the reading of the name is longer than %(max)s characters", max=MAX_NAME)
    if player.handle is not None and len(player.handle) > MAX_NAME:
        return lambda: _("the handle is longer than %(max)s characters", max=MAX_NAME)
    if any(len(v) > MAX_CODE for v in player.platform_ids.values()):
        return lambda: _("a platform ID is longer than %(max)s characters", max=MAX_CODE)
    if player.team is not None and len(player.team) > MAX_NAME:
        return lambda: _("the team is longer than %(max)s characters", max=MAX_NAME)
    if player.country is not None and len(player.country) > MAX_COUNTRY:
        return lambda: _("the country is longer than %(max)s characters", max=MAX_COUNTRY)
    return None


def finish(file: TournamentFile, *, same_player_again: bool = False) -> TournamentFile:
    """Check the file as a whole: keep the good players and matches, reject the rest with their place and why.

    - a player without a name, or with an over-long field, is rejected;
    - a player ID already given to an earlier player rejects the later entry, unless `same_player_again` (Melee's
      standings list a player once per phase: the same ID there is the same player, and is kept once);
    - a match naming an unknown player, naming one player twice, seating a player already seated in that round, or
      of a round outside 1 to MAX_ROUND is rejected whole; a match whose table is not a number was rejected by its
      reader;
    - a player is in one division: a match of another division's round naming them is rejected;
    - a table is used by one match per round of a division (of every division, where the venue numbers its tables
      across divisions): a second match at that table is rejected, naming the first.
    """
    players: list[FilePlayer] = []
    first: dict[str, FilePlayer] = {}
    for player in file.players:
        problem = _problem_of(player)
        if problem:
            file.reject(player.where, problem)
            continue
        earlier = first.get(player.key)
        if earlier is not None:
            if not same_player_again:
                file.reject(player.where, partial(_given_twice, player, earlier))
            continue
        first[player.key] = player
        players.append(player)
    matches: list[FileMatch] = []
    seated: dict[tuple[str, int, str], FileMatch] = {}
    division_of: dict[str, str] = {p.key: p.division for p in players}
    for match in file.matches:
        if not 1 <= match.round <= MAX_ROUND:
            file.reject(
                match.where, _("round %(round)s: an event has rounds 1 to %(max)s", round=match.round, max=MAX_ROUND)
            )
            continue
        unknown = [p for p in match.players if p not in first]
        if unknown:
            file.reject(
                match.where,
                _(
                    "round %(round)s: unknown player %(players)s",
                    round=match.round,
                    players=", ".join(_shown(p) for p in unknown),
                ),
            )
            continue
        if len(set(match.players)) != len(match.players):
            file.reject(
                match.where, _("round %(round)s: the same player is named twice in one match", round=match.round)
            )
            continue
        elsewhere = [p for p in match.players if division_of[p] != match.division]
        if elsewhere:
            file.reject(
                match.where,
                _(
                    "round %(round)s: %(player)s plays in another division (%(division)s)",
                    round=match.round,
                    player=_shown(elsewhere[0]),
                    division=file.division_of(division_of[elsewhere[0]]).name or "-",
                ),
            )
            continue
        twice = [p for p in match.players if (match.division, match.round, p) in seated]
        if twice:
            other = seated[(match.division, match.round, twice[0])]
            file.reject(
                match.where,
                _(
                    "round %(round)s: %(player)s is already paired in this round (%(place)s)",
                    round=match.round,
                    player=_shown(twice[0]),
                    place=_place(other.where),
                ),
            )
            continue
        for p in match.players:
            seated[(match.division, match.round, p)] = match
        matches.append(match)
    file.players, file.matches = players, matches
    return check_tables(file, across=file.tables_across_divisions)


def check_tables(file: TournamentFile, *, across: bool) -> TournamentFile:
    """A table seats one match per round of a division (`across`: per round of the whole event, where the venue numbers
    its tables across divisions); a later match at a table already used is rejected, naming the first."""
    tables: dict[tuple[str, int, int], FileMatch] = {}
    kept: list[FileMatch] = []
    for match in file.matches:
        if match.table is not None:
            key = ("" if across else match.division, match.round, match.table)
            used = tables.get(key)
            if used is not None:
                file.reject(
                    match.where,
                    _(
                        "round %(round)s: table %(table)s is already used by another match (%(place)s)",
                        round=match.round,
                        table=match.table,
                        place=_place(used.where),
                    ),
                )
                continue
            tables[key] = match
        kept.append(match)
    file.matches = kept
    return file


def _given_twice(player: FilePlayer, earlier: FilePlayer) -> str:
    if player.code is not None:
        return _(
            "player ID %(id)s is already given to an earlier player (%(place)s)",
            id=player.code,
            place=_place(earlier.where),
        )
    return _(
        "the name %(name)s is already given to an earlier player (%(place)s)",
        name=player.name,
        place=_place(earlier.where),
    )


def _shown(key: str) -> str:
    return key.removeprefix("name:")


def _place(where: Where) -> str:
    return (
        _("line %(number)s", number=where.number) if where.kind == "line" else _("row %(number)s", number=where.number)
    )


# The columns a spreadsheet's headers are mapped to (table.py knows their English and Japanese synonyms). A row with
# a round and a table and one player is a seat (two seats at one table make a match; a seat with no table is a bye);
# a row with a second player (name_2/code_2) is a whole match.
COLUMN_ROLES: dict[str, Any] = {  # role -> its label (lazy: shown in the page's language)
    "name": _l("Player name"),
    "first_name": _l("First name (given name)"),
    "last_name": _l("Last name (family name)"),
    "code": _l("Player ID"),
    "reading": _l("Reading of the name (フリガナ)"),
    "handle": _l("Handle (nickname)"),
    "bushiroad": _l("Bushiroad ID"),
    "country": _l("Country"),
    "team": _l("Team"),
    "round": _l("Round"),
    "table": _l("Table"),
    "name_2": _l("Opponent's name"),
    "code_2": _l("Opponent's player ID"),
}


class NeedsMapping(UnreadableFile):
    """A spreadsheet whose headers were not all recognised: the page shows a preview and asks which column is which.

    `mapping` is the guess (column index → role, for the headers that were recognised), to preselect."""

    def __init__(self, message: str, *, headers: list[str], sample: list[list[str]], mapping: dict[int, str]):
        super().__init__(message)
        self.headers, self.sample, self.mapping = headers, sample, mapping

    def __reduce__(self):  # raised in the limited reading process (judgeapp.sandbox), raised again in the parent
        return (_needs_mapping, (str(self), self.headers, self.sample, self.mapping))


def _needs_mapping(message: str, headers: list[str], sample: list[list[str]], mapping: dict[int, str]) -> NeedsMapping:
    return NeedsMapping(message, headers=headers, sample=sample, mapping=mapping)
