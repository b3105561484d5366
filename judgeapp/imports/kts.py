"""Konami Tournament Software (KTS) files (.Tournament, Yu-Gi-Oh!): players, and every round's matches and byes.

Konami publishes no description of the format. The structure read here is the one KTS itself writes and reads, as
public code shows it (found with the code search of public GitHub repositories):

- leiteszeke/kde-software: a decompiled KonamiTournamentSoftware.exe (2.0.5.2). `TournamentLibrary/Data_Layer/`
  `Tournament.ToFullXml` writes the root `<Tournament>` with `<Name>`, `<ID>`, `<TournamentStyleCode>`,
  `<StructureCode>`, `<EventTypeCode>`, `<ReferenceDateTime>`, `<Date>`, `<CurrentRound>`, `<TableOffset>`,
  `<PlayoffRound>`, `<SoftwareVersion>`, `<Finalized>`, `<Staff>`, `<PenaltyList>`, the location, the players and the
  matches; `TournPlayer` writes `<TournPlayer>` holding `<Player>` (`<ID>`, `<FirstName>`, `<LastName>`) and
  `<DropRound>`, `<Rank>`, `<PlayoffPoints>`, `<Wins>`, `<Points>`, `<OpenDueling>`, `<DropReason>` (Active, Drop, a
  kind of cut…), `<AssignedSeat>`, `<Notes>`; `TournMatch` writes `<TournMatch>` with one `<Player>` per seat (the
  bare numeric ID), `<Round>`, `<Status>`, `<Table>`, `<Winner>`, `<PlayoffMatch>`. The bye is a player with ID 0
  ("*** BYE ***"), sorted last in its match; round 0 holds the seating made before round 1 ("seat all players").
  `Player.ToFullXml` writes the ID zero-padded to ten digits (`MakeDisplayCOSSY`, "{0:0000000000}") but
  `TournMatch.ToFullXml` writes the plain number, so a match may say 12345 for the player listed as 0000012345;
- kirbyUK/challonge2kts (writes .Tournament files for KTS to open): the same `TournamentPlayers/TournPlayer/Player`
  nesting, the same `TournMatch` children, and a bye written as the player's ID with "0";
- a FastAPI tournament companion that imports KTS files (`parse_tournament_file`): `Tournament/TournamentPlayers/`
  `TournPlayer/Player/ID` as the COSSY ID, `Matches/TournMatch` with `Player`, `Round`, `Table`, `Winner`, `Status`,
  rounds below 1 skipped; and web pages that read KTS files in the browser, which pad match IDs before comparing them.

- gallantron/LibKTS (LibKTS.js, a reader written against real KTS 3.0.0.0 files): the first table is
  `<TableOffset>` + 1, and every match's table is its `<Table>` plus `<TableOffset>` (so a venue whose Yu-Gi-Oh!
  tables start at 101 writes `<TableOffset>100</TableOffset>` and tables 1, 2, …); a team event (`<PlayerStructure>`
  2 to 5: tag duel, three-, four-, five-player teams) lists `TournamentPlayers/TournamentTeam` instead of
  `TournPlayer`, each holding `<Team>` with the team's `<ID>` (what the matches' `<Player>` seats name), its name in
  `<FirstName>`, and `<PlayerList>` of `<Player>` (`<ID>`, `<FirstName>`, `<LastName>`, `<TeamPosition>`), and the
  same `<DropRound>`/`<DropReason>` as a player's entry. Its playoffs: `<PlayoffRound>` is the first playoff round
  (0: none), every round when `<StructureCode>` is 2 (single elimination), each playoff match flagged
  `<PlayoffMatch>True</PlayoffMatch>`, and a playoff round named "Top N" after the entrants (players or teams) it
  seats.

So the player ID kept is the KONAMI ID (formerly COSSY ID), as ten digits, and it is also kept as the "konami" platform
ID. KTS carries no country. A player is marked dropped when `<DropReason>` is Drop (a player cut to the top cut is not
dropped, though KTS also sets their DropRound).

A team event's players are the teams' members (each with their KONAMI ID, and the team's name as their team); a
match of two teams seats both teams' members at its table, a team's bye is a bye for each member, and a team that
dropped drops its members. A member listed under two teams is rejected the second time.

The file's one division keeps its top cut from those playoffs (the first playoff round and the entrants it seats, so
"Top 8, quarterfinal"); where `<PlayoffRound>` is missing, the first round of a flagged match. A team event's division
is named as the file names the event (`<Name>`): a team event is often a side event run by the same staff, and
imported at an event of several divisions it becomes the division of that name (added when the event has none),
never the event's first; a file of individual players keeps its one division unnamed, as before.

Guessed or chosen here: a match whose two seats are both the bye (KTS adds one to even out a playoff round) is skipped,
not rejected: no one plays there; the seating of round 0 is skipped the same way, as it is not a round.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from xml.etree.ElementTree import Element

from ..texts import gettext as _
from .model import MAX_NAME, MAX_TABLE, FileMatch, FilePlayer, TournamentFile, UnreadableFile, Where, table_number
from .model import finish as finish_file
from .xmlfile import head, label_rejections, labelled, match_label, parse, player_label, root_name, shown, text_of

MARKS = ("<TournamentPlayers", "<TournamentStyleCode", "<CurrentRound", "<EventTypeCode", "<TournPlayer")
BYE = "bye"  # what _player_id() answers for KTS's bye seat (ID 0)
SINGLE_ELIMINATION = 2  # <StructureCode>: 1 Swiss, 2 single elimination (LibKTS's TournamentStructure)
ID_DIGITS = 10


def looks_like(data: bytes) -> bool:
    """Whether the content is a KTS file: a `<Tournament>` root (capitalised, as KTS writes it) with KTS's elements."""
    text = head(data)
    return root_name(text) == "Tournament" and any(mark in text for mark in MARKS)


def read(data: bytes) -> TournamentFile:
    """A KTS file's players and matches, checked by `finish`; bad entries rejected with Where("row", n)."""
    root = parse(data)
    if root.tag != "Tournament":
        raise UnreadableFile(
            _("The file is XML but not a KTS tournament file: its root element is <%(root)s>.", root=root.tag)
        )
    file = TournamentFile(format="kts", event_name=text_of(root, "Name"), fields=("name", "code"))
    labels: dict[int, Callable[[], str]] = {}
    matches: set[int] = set()  # the id() of each match's Where
    offset_text = text_of(root, "TableOffset") or "0"
    offset = int(offset_text) if offset_text.isascii() and offset_text.isdigit() and len(offset_text) < 6 else 0
    teams = _read_teams(root, file, labels)

    for n, element in enumerate(root.iterfind("TournamentPlayers/TournPlayer"), start=1):
        where = Where("row", n)
        labels[id(where)] = partial(player_label, n)
        person = element.find("Player")
        if person is None:  # KTS also reads the ID and names straight from <TournPlayer>
            person = element
        code = _player_id(text_of(person, "ID"))
        if code == BYE:
            file.reject(where, partial(_bye_as_player, n))
            continue
        name = " ".join(p for p in (text_of(person, "FirstName"), text_of(person, "LastName")) if p)
        file.players.append(
            FilePlayer(
                name=name,
                code=code,
                where=where,
                platform_ids={"konami": code} if code else {},
                dropped=(text_of(element, "DropReason") or "").lower() == "drop",
            )
        )

    per_round: dict[str, int] = {}
    for n, match in enumerate(root.iterfind("Matches/TournMatch"), start=1):
        where = Where("row", n)
        round_text = text_of(match, "Round")
        k = per_round[round_text or ""] = per_round.get(round_text or "", 0) + 1
        label = partial(match_label, k, round_text)
        labels[id(where)] = label
        matches.add(id(where))
        problem = _match(file, match, round_text, where, offset=offset, teams=teams)
        if problem:
            file.reject(where, partial(_labelled, label, problem))

    division = file.divisions[0]
    if teams and file.event_name:  # a team event is named as the file names it (see the docstring)
        division.name = file.event_name[:MAX_NAME]
    division.top_cut_from, division.top_cut_size = _playoff(root)
    since = len(file.rejected)
    return label_rejections(finish_file(file), since, labels, matches)


def _playoff(root: Element) -> tuple[int | None, int | None]:
    """The first playoff round (LibKTS: `<PlayoffRound>`, 0 for none; round 1 when `<StructureCode>` is 2, single
    elimination; else the first round of a `<PlayoffMatch>True` match) and the players, or teams, it seats."""
    first = _small_number(text_of(root, "PlayoffRound"))
    if _small_number(text_of(root, "StructureCode")) == SINGLE_ELIMINATION:
        first = 1
    if not first:
        flagged = [
            _small_number(text_of(m, "Round"))
            for m in root.iterfind("Matches/TournMatch")
            if (text_of(m, "PlayoffMatch") or "").lower() == "true"
        ]
        first = min((n for n in flagged if n), default=None)
    if not first:
        return None, None
    seated = sum(
        1
        for m in root.iterfind("Matches/TournMatch")
        if _small_number(text_of(m, "Round")) == first
        for seat in m.iterfind("Player")
        if _player_id(text_of(seat, "ID") or text_of(seat)) not in (None, BYE)
    )
    return first, (seated if seated >= 2 else None)


def _small_number(text: str | None) -> int | None:
    """A number KTS writes ("02" as 2), None when it is none or implausibly long."""
    raw = (text or "").strip()
    return int(raw) if raw.isascii() and raw.isdigit() and len(raw) < 6 else None


def _read_teams(
    root: Element, file: TournamentFile, labels: dict[int, Callable[[], str]]
) -> dict[str, tuple[str, ...]]:
    """A team event's `TournamentTeam` entries: their members added to the file's players; the answer maps each
    team's ID (as the matches name it) to its members' keys."""
    teams: dict[str, tuple[str, ...]] = {}
    n = 0
    for entry in root.iterfind("TournamentPlayers/TournamentTeam"):
        team = entry.find("Team")
        if team is None:
            team = entry
        team_id = _player_id(text_of(team, "ID"))
        team_name = text_of(team, "FirstName") or text_of(team, "Name")
        dropped = (text_of(entry, "DropReason") or "").lower() == "drop"
        members: list[str] = []
        for person in team.iterfind("PlayerList/Player"):
            n += 1
            where = Where("row", n)
            labels[id(where)] = partial(player_label, n)
            code = _player_id(text_of(person, "ID"))
            if code == BYE:
                file.reject(where, partial(_bye_as_player, n))
                continue
            name = " ".join(p for p in (text_of(person, "FirstName"), text_of(person, "LastName")) if p)
            member = FilePlayer(
                name=name,
                code=code,
                where=where,
                team=team_name,
                platform_ids={"konami": code} if code else {},
                dropped=dropped,
            )
            file.players.append(member)
            members.append(member.key)
        if team_id is not None and team_id != BYE and members:
            teams[team_id] = tuple(members)
    return teams


def _match(
    file: TournamentFile,
    match: Element,
    round_text: str | None,
    where: Where,
    *,
    offset: int = 0,
    teams: dict[str, tuple[str, ...]] | None = None,
) -> str | None:
    """Add one <TournMatch> to the file, or say what is wrong with it: its table is `<Table>` plus the file's
    `<TableOffset>`, and in a team event each seat names a team, whose members all sit at the table."""
    if not (round_text and round_text.isascii() and round_text.isdigit()):
        return _("the round %(round)s is not a number", round=shown(round_text))
    number = int(round_text)
    if number == 0:  # the seating before round 1, not a round
        return None
    seats = [_player_id(text_of(seat, "ID") or text_of(seat)) for seat in match.iterfind("Player")]
    if any(seat is None for seat in seats):
        return _("a seat of the match has no player ID")
    players = tuple(seat for seat in seats if seat is not None and seat != BYE)
    if not players:
        return None if seats else _("the match names no player")
    if len(players) > 2:
        return _("the match seats %(count)s players", count=len(players))
    one_side = len(players) == 1
    if teams:  # a team event: each seat is a team, and all its members sit at the table
        players = tuple(member for seat in players for member in teams.get(seat, (seat,)))
    if one_side:
        file.matches.append(FileMatch(number, None, players, where))
        return None
    table_text = text_of(match, "Table")
    raw = table_text.strip() if table_text else ""
    if raw.isascii() and raw.isdigit() and len(raw) < 6:
        table_text = str(int(raw) + offset)
    table = table_number(table_text)
    if table is None:
        if table_text and table_text.isascii() and table_text.isdigit():
            return _("table %(table)s is not between 1 and %(max)s", table=table_text, max=MAX_TABLE)
        return _("table %(table)s is not a number", table=shown(table_text))
    file.matches.append(FileMatch(number, table, players, where))
    return None


def _player_id(text: str | None) -> str | None:
    """A KONAMI ID as ten digits (matches write 12345 for the player listed as 0000012345); BYE for the bye's 0."""
    if text is None:
        return None
    if text.isascii() and text.isdigit():
        return BYE if int(text) == 0 else text.zfill(ID_DIGITS)
    if text.replace(" ", "").casefold() == "***bye***":
        return BYE
    return text


def _labelled(label: Callable[[], str], problem: str) -> str:
    return labelled(label(), problem)


def _bye_as_player(n: int) -> str:
    return labelled(player_label(n), _("the ID 0 is KTS's bye, not a player"))
