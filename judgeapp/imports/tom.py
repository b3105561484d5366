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

Divisions (`<pod category=…>`): each pod is a division of its own, with its own players, rounds numbered from 1,
tables and top cut. The category numbers are named as litian80/tcg-manager's SKILL.md ("Pod Categories") lists them,
0 Juniors, 1 Seniors, 2 Masters, and 8 a combined pod, which issue 34's real Cup files show to be Juniors and Seniors
playing together (it stays one division, "Juniors+Seniors"). Categories 9 and 10 appear in real files but no public
reader names them: they are kept as divisions named "Category 9" and "Category 10", never guessed. The same
description gives `<poddata><startingtable>` (kept as the division's first table; the `<tablenumber>` of each match is
read as written), rounds of `type="3"` (Swiss) and `type="1"` (single elimination, the top cut, numbered on after
the Swiss rounds), outcomes 1 and 2 (a win), 3 (a tie) and 5 (a bye); a match not yet reported has outcome 0 (issue
34's mid-round saves) and is kept like any other: the pairings are what the floor needs, never the results.

A player's division is the pod whose `<subgroups>` list them, else the pod whose matches seat them first; a
registrant seated in no pod (33 registered, 19 seated in issue 34's files) is kept as a player of the first division.
A save made before pairing (no `<starter>`, empty `<pods>`) gives players only, in one division.

Days: the same description gives each `<round>` a `<pairtime>` and a `<starttime>` ("MM/DD/YYYY HH:MM:SS", the time
the round was paired and began; a match's `<timestamp>` is when its result was entered, which may be days later, so it
is not used). A division's rounds are put on the event's days by the date each began (its start time, else its
pairing time): Day 1 for its first round, the next day for a round begun on a later date than the round before. A
round that carries neither time has no day from the file. (The Melee and KTS files read here carry no day: a KTS file
dates the tournament only, `<Date>`/`<Time>`; Melee's exports number their phases, `PhaseId`, without naming them.)

Guessed, not seen in those sources: that every value of `<dropped><status>` means the player left (it is taken as
dropped whenever the element is there).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import date, datetime
from functools import partial
from xml.etree.ElementTree import Element

from ..texts import gettext as _
from .model import (
    MAX_TABLE,
    FileDivision,
    FileMatch,
    FilePlayer,
    TournamentFile,
    UnreadableFile,
    Where,
    clean_text,
    days_of,
    table_number,
)
from .model import finish as finish_file
from .xmlfile import head, label_rejections, labelled, match_label, parse, player_label, root_name, shown, text_of

MARKS = ("<data", "<players", "<pods", "gametype=")  # one of these follows TOM's root element

# TOM's pod categories (see the module's docstring for the source); another number is named "Category n".
CATEGORIES = {"0": "Juniors", "1": "Seniors", "2": "Masters", "8": "Juniors+Seniors"}
TOP_CUT = "1"  # <round type="1">: single elimination


def division_name(category: str | None) -> str:
    """The name of a pod's division from its category number, as the organizers' software shows it."""
    if category in CATEGORIES:
        return CATEGORIES[category]
    return f"Category {category}" if category else "Division"


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

    pods = list(root.iterfind("pods/pod"))
    if len(pods) > 1:
        file.divisions = _divisions(pods)
    home: dict[str, str] = {}  # player key -> the division (pod) they play in
    row = 0
    for division, pod in zip([d.key for d in file.divisions], pods, strict=False):
        if len(pods) == 1:
            division = ""
        for listed in pod.iterfind("subgroups/subgroup/players/player"):
            code = clean_text(listed.get("userid"))
            if code is not None:
                home.setdefault(code, division)
        cut = file.division_of(division)
        began: dict[int, date] = {}
        for round_element in pod.iterfind("rounds/round"):
            number_text = clean_text(round_element.get("number"))
            number = int(number_text) if number_text and number_text.isascii() and number_text.isdigit() else 0
            when = _date_of(text_of(round_element, "starttime")) or _date_of(text_of(round_element, "pairtime"))
            if number > 0 and when is not None and cut.key == division:
                began[number] = min(when, began.get(number, when))
            found = list(round_element.iterfind("matches/match"))
            top_cut = clean_text(round_element.get("type")) == TOP_CUT and number > 0 and cut.key == division
            if top_cut and (cut.top_cut_from is None or number < cut.top_cut_from):
                cut.top_cut_from = number
                cut.top_cut_size = 2 * sum(1 for m in found if m.find("player") is None)
            for k, match in enumerate(found, start=1):
                row += 1
                where = Where("row", row)
                label = partial(match_label, k, number_text)
                labels[id(where)] = label
                matches.add(id(where))
                problem = _match(file, match, number, where, division)
                if problem:
                    file.reject(where, partial(_labelled, label, problem))
                else:
                    for key in file.matches[-1].players:
                        home.setdefault(key, division)
        if began:
            cut.round_days = days_of(began)
    if len(file.divisions) > 1:
        first = file.divisions[0].key
        file.players = [replace(p, division=home.get(p.key, first)) for p in file.players]

    since = len(file.rejected)
    return label_rejections(finish_file(file), since, labels, matches)


def _date_of(text: str | None) -> date | None:
    """The date of a TOM time, "MM/DD/YYYY HH:MM:SS" (litian80/tcg-manager's SKILL.md, "Date Format Reference")."""
    try:
        return datetime.strptime((text or "").strip()[:10], "%m/%d/%Y").date()
    except ValueError:
        return None


def _divisions(pods: list[Element]) -> list[FileDivision]:
    """One division per pod, named by its category (a second pod of one category is told apart by its place)."""
    out: list[FileDivision] = []
    for n, pod in enumerate(pods):
        category = clean_text(pod.get("category"))
        name = division_name(category)
        twice = category is None or any(d.key == category for d in out)
        if any(d.name == name for d in out):
            name = f"{name} ({n + 1})"
        out.append(
            FileDivision(
                key=f"{category or ''}#{n + 1}" if twice else str(category),
                name=name,
                order=n,
                starting_table=table_number(text_of(pod, "poddata/startingtable")),
            )
        )
    return out


def _match(file: TournamentFile, match: Element, number: int, where: Where, division: str = "") -> str | None:
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
        file.matches.append(FileMatch(number, None, players, where, division))
        return None
    table_text = text_of(match, "tablenumber")
    table = table_number(table_text)
    if table is None:
        if table_text and table_text.isascii() and table_text.isdigit():
            return _("table %(table)s is not between 1 and %(max)s", table=table_text, max=MAX_TABLE)
        return _("table %(table)s is not a number", table=shown(table_text))
    file.matches.append(FileMatch(number, table, players, where, division))
    return None


def _labelled(label: Callable[[], str], problem: str) -> str:
    return labelled(label(), problem)
