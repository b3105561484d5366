"""Melee (melee.gg) CSV exports: the matches (pairings) export and the standings export.

Melee publishes no description of these files. The column names below are those that public code reading real
Melee exports relies on (found with the code search of public GitHub repositories):

- matches export: `RoundNumber`, `PhaseId`, `TableNumber`, `Team1Id`, `Team1`, `Player1NameLastFirst`,
  `Team1WinsAndByes`, `Team2Id`, `Team2`, `Player2NameLastFirst`, `Team2WinsAndByes`, `GameDraws`, `ByeReason` —
  a Go reader of Melee match records (`RawMatchV2`, the same field names in its JSON form) and a Next.js admin
  page that tells Melee's two CSV exports apart by `Team1WinsAndByes`/`Team2WinsAndByes` and reads `PhaseId`,
  `Team1Id`, `Team2Id` and `RoundNumber` from the matches file;
- standings export: `Rank`, `TeamId`, `PhaseId`, `RoundNumber`, `TeamPlayers1ID`, `TeamPlayers1Name`,
  `TeamPlayers1FirstName`, `TeamPlayers1LastName`, `TeamPlayers1Username`, `TeamPlayers1DisplayName`,
  `TeamPlayers1AsmoConnectId` (Lorcana events), `Points`, `MatchRecord` — the same admin page (`TeamPlayers1ID`
  with `MatchRecord` marks a standings file; its `TeamId` values are the matches file's `Team1Id`/`Team2Id`), a
  TypeScript standings importer and its tests (`Rank,Points,MatchRecord,TeamPlayers1Name,TeamPlayers1FirstName,
  TeamPlayers1LastName`), and a Python league tool keyed on `TeamPlayers1Name` and `TeamPlayers1AsmoConnectId`.

- the 2023 standings layout: `StandingId`, `PhaseId`, `TeamId`, `PlayerId`, … `Record`, one row per player per phase
  (what organizers' exports of 2023 events carry, as issue 34 quotes them). Its other columns are not documented
  anywhere we found; the name is taken from `PlayerFirstName`/`PlayerLastName`, else `PlayerName`,
  `PlayerDisplayName`, `PlayerUsername` or `Name` (guessed, by analogy with the older layout's `TeamPlayers1…`).
  A TypeScript client of Melee's API (its `MeleePlayer` type, "based on actual data structures from tournament JSON
  files") shows the two IDs side by side: each player has their own `ID` (the Melee user, which the 2023 layout
  calls `PlayerId` and the older one `TeamPlayers1ID`) and the `TeamId` of the registration they play under.

Guessed, not seen in those sources: the order of the columns (they are found by name, so it does not matter),
that a bye leaves `Team2Id` blank (the Go reader only checks `ByeReason`; both are taken to mean a bye here), and
that `RoundNumber` keeps counting across phases (a top cut numbered from 1 again would pair its players twice in
"round 1", and those matches would be rejected, not merged).

Which ID is the person, the same in all three files: Melee's `TeamId` (the registration). It is the only ID every
export carries (the matches export names a side only by `Team1Id`/`Team2Id`, both standings layouts carry `TeamId`),
so a player imported from the standings and later from the matches export is one record, not two. The Melee user ID
(`TeamPlayers1ID` in the older standings layout, `PlayerId` in the 2023 one) and an Asmodee Connect ID are kept as
the player's other platform IDs ("melee", "asmodee"); the user ID stands in for the person only on a row whose
`TeamId` is blank. Both standings layouts list a player once per phase (Swiss, then top cut): the same `TeamId` in a
later phase is the same player, never a duplicate.
"""

from __future__ import annotations

from collections.abc import Callable

from ..texts import gettext  # not `_`: _match_name uses `_` for a value it skips
from .model import FileMatch, FilePlayer, TournamentFile, UnreadableFile, Where, clean_text, finish, table_number
from .table import decode, rows

STANDINGS_MARKS = ("teamplayers1id", "teamplayers1name", "teamplayers1firstname", "teamplayers1username")
STANDINGS_2023_MARKS = ("standingid", "phaseid", "teamid", "playerid")  # all four, with a `record` column
Cell = Callable[[list[str], str], str | None]
MATCHES_MARKS = ("team1id", "team2id")
MATCHES_RESULT_MARKS = ("team1winsandbyes", "team2winsandbyes", "player1namelastfirst")


def _header(data: bytes) -> dict[str, int]:
    """The first row's column names, lower-cased, to their index (first occurrence)."""
    end = data.find(b"\n", 0, 65536)
    head = data if data.startswith((b"\xff\xfe", b"\xfe\xff")) or end < 0 else data[:end]
    table = rows(decode(head))
    out: dict[str, int] = {}
    for i, h in enumerate(table[0][1] if table else []):
        out.setdefault(h.strip().lower(), i)
    return out


def _kind(header: dict[str, int]) -> str | None:
    if any(m in header for m in STANDINGS_MARKS) and ("teamid" in header or "teamplayers1id" in header):
        return "standings"
    if all(m in header for m in STANDINGS_2023_MARKS) and "record" in header:
        return "standings-2023"
    if all(m in header for m in MATCHES_MARKS) and any(m in header for m in MATCHES_RESULT_MARKS):
        return "matches"
    return None


def looks_like(data: bytes) -> bool:
    """Whether the header row is one of Melee's exports (matches or standings)."""
    try:
        return _kind(_header(data)) is not None
    except UnreadableFile:
        return False


def read(data: bytes) -> TournamentFile:
    """A Melee export's players (standings) or players and matches (matches export), checked by `finish`."""
    table = rows(decode(data))
    if not table:
        raise UnreadableFile(gettext("The file has no rows."))
    header: dict[str, int] = {}
    for i, h in enumerate(table[0][1]):
        header.setdefault(h.strip().lower(), i)
    kind = _kind(header)
    if kind is None:
        raise UnreadableFile(gettext("The file's first row is not the header of a Melee matches or standings export."))

    def cell(cells: list[str], column: str) -> str | None:
        i = header.get(column.lower())
        return clean_text(cells[i]) if i is not None and i < len(cells) else None

    file = TournamentFile(format="melee")
    if kind in ("standings", "standings-2023"):  # one row per player (per phase in 2023): the same reading
        older = kind == "standings"
        name_of = _standings_name if older else _standings_2023_name
        file.fields = ("name", "code")
        for line, cells in table[1:]:
            where = Where("line", line)
            user_id = cell(cells, "TeamPlayers1ID" if older else "PlayerId")
            code = cell(cells, "TeamId") or user_id
            if code is None:
                file.reject(where, gettext("the player ID (TeamId) is blank"))
                continue
            platform = {"melee": user_id} if user_id and user_id != code else {}
            if older and (asmo := cell(cells, "TeamPlayers1AsmoConnectId")):
                platform["asmodee"] = asmo
            file.players.append(
                FilePlayer(name=name_of(cell, cells) or "", code=code, where=where, platform_ids=platform)
            )
        return finish(file, same_player_again=True)

    file.fields = ("name", "code")
    seen: dict[str, FilePlayer] = {}
    for line, cells in table[1:]:
        where = Where("line", line)
        round_text = cell(cells, "RoundNumber")
        if not (round_text and round_text.isascii() and round_text.isdigit() and int(round_text) > 0):
            file.reject(where, gettext("the round %(round)s is not a number", round=_shown(round_text)))
            continue
        number = int(round_text)
        first = _side(file, seen, where, cell(cells, "Team1Id"), _match_name(cell, cells, 1))
        if first is None:
            file.reject(where, gettext("round %(round)s: the first player's ID (Team1Id) is blank", round=number))
            continue
        second_id = cell(cells, "Team2Id")
        if second_id is None or cell(cells, "ByeReason"):
            file.matches.append(FileMatch(number, None, (first,), where))
            continue
        table_text = cell(cells, "TableNumber")
        tbl = table_number(table_text)
        if tbl is None:
            file.reject(
                where,
                gettext("round %(round)s: the table %(table)s is not a number", round=number, table=_shown(table_text)),
            )
            continue
        second = _side(file, seen, where, second_id, _match_name(cell, cells, 2))
        file.matches.append(FileMatch(number, tbl, (first, second or ""), where))
    return finish(file)


def _side(
    file: TournamentFile, seen: dict[str, FilePlayer], where: Where, code: str | None, name: str | None
) -> str | None:
    """The key of one side of a match, adding the player to the file the first time the ID appears."""
    if code is None:
        return None
    known = seen.get(code)
    if known is None:
        seen[code] = FilePlayer(name=name or "", code=code, where=where)
        file.players.append(seen[code])
    return code


def _standings_name(cell: Cell, cells: list[str]) -> str | None:
    first, last = cell(cells, "TeamPlayers1FirstName"), cell(cells, "TeamPlayers1LastName")
    if first or last:
        return " ".join(p for p in (first, last) if p)
    return (
        cell(cells, "TeamPlayers1Name") or cell(cells, "TeamPlayers1DisplayName") or cell(cells, "TeamPlayers1Username")
    )


def _standings_2023_name(cell: Cell, cells: list[str]) -> str | None:
    first, last = cell(cells, "PlayerFirstName"), cell(cells, "PlayerLastName")
    if first or last:
        return " ".join(p for p in (first, last) if p)
    for column in ("PlayerName", "PlayerDisplayName", "PlayerUsername", "Name"):
        if name := cell(cells, column):
            last_name, comma, first_name = name.partition(",")
            return " ".join(p for p in (first_name.strip(), last_name.strip()) if p) if comma else name
    return None


def _match_name(cell: Cell, cells: list[str], side: int) -> str | None:
    """`PlayerNNameLastFirst` ("Last, First") turned round, else the team's name as Melee shows it."""
    last_first = cell(cells, f"Player{side}NameLastFirst")
    if last_first and "," in last_first:
        last, _, first = last_first.partition(",")
        return " ".join(p for p in (first.strip(), last.strip()) if p)
    return last_first or cell(cells, f"Team{side}")


def _shown(text: str | None) -> str:
    return gettext("'%(text)s'", text=text) if text else gettext("(blank)")
