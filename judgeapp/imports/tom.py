"""Pokémon's Tournament Operations Manager (TOM) files (.tdf): players, and every round's matches and byes.

TOM's file format is not published. The structure read here is the one public code and notes built from real TOM
files agree on (found with the code search of public GitHub repositories):

- litian80/tcg-manager, `.agent/skills/tdf-parsing/SKILL.md`: a field-by-field description of .tdf files taken from
  real TOM files — root `<tournament type stage version gametype mode>`, `<data>` (`<name>`, `<id>` the sanction ID,
  `<city>`, `<country>`, `<startdate>`…), `<players><player userid=…>` with `<firstname>`, `<lastname>`,
  `<birthdate>`, `<starter>`, and a `<dropped>` element (`<status>`, `<round>`, `<timestamp>`) only on a player who
  dropped; `<pods><pod category=…>` (one pod per age division) with `<rounds><round number type stage>` and
  `<matches><match outcome=…>` holding `<player1 userid>`, `<player2 userid>`, `<timestamp>`, `<tablenumber>`; a bye
  is a match with one `<player userid>`, outcome 5 and table 0; `<standings>` at the end names players again by id;
- a Python ingester of .tdf files (`TdfIngest`, found by the same search) that walks exactly these paths:
  `players/player[@userid]` with `firstname`/`lastname`, `pods/pod/rounds/round[@number]`, `matches/match` with
  `player` (bye) or `player1`/`player2`, and `tablenumber`;
- TypeScript exporters that write .tdf files for TOM to open (`generateTdfXml`, `TDFGenerator`), with the same root
  attributes (`gametype="TRADING_CARD_GAME"`, `mode="LEAGUECHALLENGE"`).

So the player ID kept is the `userid` (the Play! Pokémon ID), and it is also kept as the "pokemon" platform ID. The
birth date is never read. Only `<round>` elements under `<pods>` are rounds of the event: the `<round>` inside a
dropped player's `<dropped>` is the round they left in, not a round that was played.

Guessed, not seen in those sources: that every value of `<dropped><status>` means the player left (it is taken as
dropped whenever the element is there); that two pods' rounds with the same number are the same round of the event
(Juniors' and Masters' round 1 both become round 1, at their own tables); and that top-cut rounds keep counting after
the Swiss rounds (a top cut numbered from 1 again would seat its players twice in "round 1", and those matches would
be rejected, not merged).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from xml.etree.ElementTree import Element

from flask_babel import gettext as _

from .model import MAX_TABLE, FileMatch, FilePlayer, TournamentFile, UnreadableFile, Where, clean_text, table_number
from .model import finish as finish_file
from .xmlfile import head, label_rejections, labelled, match_label, parse, player_label, root_name, shown, text_of

MARKS = ("<data", "<players", "<pods", "gametype=")  # one of these follows TOM's root element


def looks_like(data: bytes) -> bool:
    """Whether the content is a TOM file: a `<tournament>` root (lower case, as TOM writes it) with TOM's sections."""
    text = head(data)
    return root_name(text) == "tournament" and any(mark in text for mark in MARKS)


def read(data: bytes) -> TournamentFile:
    """A TOM file's players and matches, checked by `finish`; bad entries rejected with Where("row", n)."""
    root = parse(data)
    if root.tag != "tournament":
        raise UnreadableFile(
            _("The file is XML but not a TOM tournament file: its root element is <%(root)s>.", root=root.tag)
        )
    file = TournamentFile(format="tom", event_name=text_of(root, "data/name"), fields=("name", "code"))
    labels: dict[int, Callable[[], str]] = {}
    matches: set[int] = set()  # the id() of each match's Where

    for n, element in enumerate(root.iterfind("players/player"), start=1):
        where = Where("row", n)
        labels[id(where)] = partial(player_label, n)
        code = clean_text(element.get("userid"))
        name = " ".join(p for p in (text_of(element, "firstname"), text_of(element, "lastname")) if p)
        file.players.append(
            FilePlayer(
                name=name,
                code=code,
                where=where,
                platform_ids={"pokemon": code} if code else {},
                dropped=element.find("dropped") is not None,
            )
        )

    row = 0
    for pod in root.iterfind("pods/pod"):
        for round_element in pod.iterfind("rounds/round"):
            number_text = clean_text(round_element.get("number"))
            number = int(number_text) if number_text and number_text.isascii() and number_text.isdigit() else 0
            for k, match in enumerate(round_element.iterfind("matches/match"), start=1):
                row += 1
                where = Where("row", row)
                label = partial(match_label, k, number_text)
                labels[id(where)] = label
                matches.add(id(where))
                problem = _match(file, match, number, where)
                if problem:
                    file.reject(where, partial(_labelled, label, problem))

    since = len(file.rejected)
    return label_rejections(finish_file(file), since, labels, matches)


def _match(file: TournamentFile, match: Element, number: int, where: Where) -> str | None:
    """Add one <match> to the file, or say what is wrong with it."""
    if number < 1:
        return _("the round number is not a number")
    bye = match.find("player")
    sides = [bye] if bye is not None else [match.find("player1"), match.find("player2")]
    present = [side for side in sides if side is not None]
    if not present:
        return _("the match names no player")
    codes = [clean_text(side.get("userid")) for side in present]
    if any(code is None for code in codes):
        return _("a player of the match has no userid")
    players = tuple(code for code in codes if code is not None)
    if len(players) == 1:  # TOM writes a bye as one <player>, outcome 5, at table 0
        file.matches.append(FileMatch(number, None, players, where))
        return None
    table_text = text_of(match, "tablenumber")
    table = table_number(table_text)
    if table is None:
        if table_text and table_text.isascii() and table_text.isdigit():
            return _("table %(table)s is not between 1 and %(max)s", table=table_text, max=MAX_TABLE)
        return _("table %(table)s is not a number", table=shown(table_text))
    file.matches.append(FileMatch(number, table, players, where))
    return None


def _labelled(label: Callable[[], str], problem: str) -> str:
    return labelled(label(), problem)
