"""The post-event CSV exports: their headers and rows, read from the same records as the report (report.py), and
the file written with every cell a spreadsheet could run made inert."""

from __future__ import annotations

import io
import unicodedata
from collections.abc import Callable, Sequence
from typing import Any

from defusedcsv import csv
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from ..calls import services as calls
from ..choices import rank_namer
from ..infractions import Policy
from ..models import (
    Division,
    Event,
    IncidentStatus,
    SubjectKind,
)
from ..texts import gettext as _
from ..texts import lazy_gettext as _l
from ..texts import pgettext
from .report import Local, Records, _infraction, _who, call_times

# ---- CSV exports -----------------------------------------------------------------------------------------------------
# The files are the event's, like its reports: their headers and their words (yes/no, statuses, outcomes) are in the
# event's language, whoever downloads them (the view makes them under reports.in_language). The English headers are
# the names the files have always had. Times stay in the ISO form (2026-11-23 14:05) in every language: spreadsheets
# read it as a time and sort by it.

INCIDENT_HEADER = [
    _l("event"),
    _l("incident"),
    _l("round"),
    _l("table"),
    _l("player"),
    _l("player_id"),
    _l("platform_ids"),
    _l("infraction_code"),
    _l("infraction"),
    _l("rank"),
    _l("suggested_rank"),
    _l("upgraded"),
    _l("suggestion_explanation"),
    _l("penalty_reason"),
    _l("judge"),
    _l("time"),
    _l("appeal_outcome"),
    _l("status"),
    _l("void"),
    _l("status_reason"),
    _l("description"),
    _l("minutes_late"),
    _l("offered_escalation"),
    _l("offered_escalation_taken"),
    _l("game"),
    _l("same_cause_as"),
]
EXTENSION_HEADER = [
    _l("event"),
    _l("round"),
    _l("table"),
    _l("minutes"),
    _l("extra_turns"),
    _l("reason"),
    _l("proposed_minutes"),
    _l("adjust_reason"),
    _l("incident"),
    _l("judge"),
    _l("time"),
    _l("void"),
    _l("void_reason"),
]
DECK_CHECK_HEADER = [
    _l("event"),
    _l("round"),
    _l("table"),
    _l("players"),
    _l("player_ids"),
    _l("judge"),
    _l("started"),
    _l("ended"),
    _l("minutes"),
    _l("result"),
    _l("notes"),
    _l("incidents"),
]


def _yes(flag: bool) -> str:
    return _("yes") if flag else _("no")


def _word(value: str) -> str:
    """A stored status (an incident's, an appeal's, a deck check's result) as the CSV files write it: the stored word
    in English, its translation in the event's language."""
    words = {
        "standing": pgettext("CSV status", "standing"),
        "recommended": pgettext("CSV status", "recommended"),
        "void": pgettext("CSV status", "void"),
        "overturned": pgettext("CSV status", "overturned"),
        "open": pgettext("CSV status", "open"),
        "upheld": pgettext("CSV status", "upheld"),
        "changed": pgettext("CSV status", "changed"),
        "in_progress": pgettext("CSV status", "in_progress"),
        "matches": pgettext("CSV status", "matches"),
        "problems": pgettext("CSV status", "problems"),
        "unfinished": pgettext("CSV status", "unfinished"),
    }
    return words.get(value, value)


def incident_rows(policy: Policy, event: Event, rec: Records, local: Local) -> list[list]:
    appeals, rank_name = rec.appeals_by_incident(), rank_namer(policy)
    rows = []
    for i in rec.incidents:
        name, code = _who(i)
        outcome = "; ".join(_word(a.status.value) for a in appeals.get(i.id, []))
        rows.append(
            [
                event.name,
                i.number,
                i.round.number,
                i.table_number if i.table_number is not None else "",
                name,
                code,
                "; ".join(_platform_ids(s.player) for s in i.subjects if s.player.platform_ids),
                i.infraction_code,
                _infraction(policy, i.infraction_code)[len(i.infraction_code) + 1 :],
                rank_name(i.rank_id),
                rank_name(i.suggested_rank_id) if i.suggested_rank_id else "",
                _yes(i.upgraded),
                i.suggestion_explanation or "",
                i.deviation_reason or "",  # why the penalty is not the suggested one
                i.judge.name,
                f"{local(i.created_at):%Y-%m-%d %H:%M}",
                outcome,
                _word(i.status.value),
                _yes(i.status is IncidentStatus.VOID),
                i.status_reason or "",
                i.description or "",
                *_judged(i, rank_name),
            ]
        )
    return rows


def _judged(incident, rank_name) -> list:
    """How late the player was (tardiness by minutes), the escalation the policy offered as the judge's call with
    whether the judge took it, the game of the match (where a rule counts per game) and the earlier incident of the
    same cause whose penalty stands for this one (one penalty for related errors): empty where none applies."""
    offered = incident.offered_rank_id
    related = incident.related_to
    return [
        incident.minutes_late if incident.minutes_late is not None else "",
        rank_name(offered) if offered else "",
        _yes(incident.rank_id == offered) if offered else "",
        incident.game_number if incident.game_number is not None else "",
        related.number if related is not None else "",
    ]


PLAYER_PENALTY_HEADER = [
    _l("player_id"),
    _l("player"),
    _l("reading"),
    _l("platform_ids"),
    _l("incident"),
    _l("round"),
    _l("table"),
    _l("infraction_code"),
    _l("infraction"),
    _l("rank"),
    _l("upgraded"),
    _l("team_penalty"),
    _l("status"),
    _l("appeal_outcome"),
    _l("minutes_late"),
    _l("offered_escalation"),
    _l("offered_escalation_taken"),
    _l("game"),
    _l("same_cause_as"),
]


def _platform_ids(player) -> str:
    """A player's IDs on other platforms as imported, `platform:ID` joined by "; " (e.g. `pokemon:1234567`)."""
    return "; ".join(f"{k}:{v}" for k, v in sorted((player.platform_ids or {}).items()))


def player_penalty_rows(policy: Policy, event: Event, rec: Records) -> list[list]:
    """Each player's penalties at the event, one row per player and penalty, players by ID (then name), penalties
    in incident order: for matching penalties back into the pairing software. A team penalty has a row for each
    member; void and overturned penalties stay, with their status; players without a penalty have no row."""
    appeals, rank_name = rec.appeals_by_incident(), rank_namer(policy)
    rows = []
    for i in rec.incidents:
        if i.rank_id is None:
            continue
        outcome = "; ".join(_word(a.status.value) for a in appeals.get(i.id, []))
        for subject in i.subjects:
            p = subject.player
            rows.append(
                [
                    p.player_code or "",
                    p.name,
                    p.reading or "",
                    _platform_ids(p),
                    i.number,
                    i.round.number,
                    i.table_number if i.table_number is not None else "",
                    i.infraction_code,
                    _infraction(policy, i.infraction_code)[len(i.infraction_code) + 1 :],
                    rank_name(i.rank_id),
                    _yes(i.upgraded),
                    _yes(i.subject_kind is SubjectKind.TEAM),
                    _word(i.status.value),
                    outcome,
                    *_judged(i, rank_name),
                ]
            )
    rows.sort(key=lambda r: (r[0] == "", r[0], r[1], r[4]))
    return rows


def extension_rows(event: Event, rec: Records, local: Local) -> list[list]:
    return [
        [
            event.name,
            e.round.number,
            e.table_number,
            e.minutes,
            e.extra_turns or "",
            e.reason.label,
            e.proposed_minutes if e.proposed_minutes is not None else "",
            e.adjust_reason or "",
            rec.numbers.get(e.incident_id, "") if e.incident_id else "",
            e.judge.name,
            f"{local(e.created_at):%Y-%m-%d %H:%M}",
            _yes(e.voided_at is not None),
            e.void_reason or "",
        ]
        for e in rec.extensions
    ]


CALL_HEADER = [
    _l("event"),
    _l("call"),
    _l("round"),
    _l("table"),
    _l("reason"),
    _l("player's note"),
    _l("called"),
    _l("taken"),
    _l("taken by"),
    _l("handed to the head judge"),
    _l("head judge took it"),
    _l("head judge"),
    _l("closed"),
    _l("outcome"),
    _l("incident"),
    _l("waiting seconds"),
    _l("at the table seconds"),
]


def call_rows(event: Event, rec: Records, local: Local) -> list[list]:
    """One row per judge call, oldest first; times in the event's clock, durations in whole seconds."""
    stamp = lambda at: f"{local(at):%Y-%m-%d %H:%M:%S}" if at else ""  # noqa: E731
    rows = []
    for c in rec.calls:
        times = call_times(c)
        rows.append(
            [
                event.name,
                c.number,
                c.round.number if c.round else "",
                c.table_number,
                c.reason.label,
                calls.without_direction_controls(c.note),  # also a note stored before they were taken out
                stamp(c.raised_at),
                stamp(c.taken_at),
                c.taken_by.name if c.taken_by else "",
                stamp(c.escalated_at),
                stamp(c.head_taken_at),
                c.head_taken_by.name if c.head_taken_by else "",
                stamp(c.closed_at),
                c.outcome.label if c.outcome else c.state.label,
                c.incident.number if c.incident else "",
                int(times.waited.total_seconds()) if times.waited is not None else "",
                int(times.at_table.total_seconds()) if times.at_table is not None else "",
            ]
        )
    return rows


def deck_check_rows(event: Event, rec: Records, local: Local) -> list[list]:
    linked = rec.incidents_by_deck_check()
    rows = []
    for dc in rec.deck_checks:
        minutes = round((dc.ended_at - dc.started_at).total_seconds() / 60) if dc.ended_at else ""
        rows.append(
            [
                event.name,
                dc.round.number,
                dc.table_number,
                "; ".join(p.name for p in dc.players),
                "; ".join(p.player_code or "" for p in dc.players),
                dc.judge.name,
                f"{local(dc.started_at):%Y-%m-%d %H:%M}",
                f"{local(dc.ended_at):%Y-%m-%d %H:%M}" if dc.ended_at else "",
                minutes,
                _word(dc.result.value),
                dc.notes,
                "; ".join(map(str, linked.get(dc.id, []))),
            ]
        )
    return rows


DANGEROUS = ("=", "+", "-", "@", "|", "%")
PADDING = " \t\r\n\x00\xa0\u3000"  # the last: the ideographic space a Japanese keyboard types


def _defuse_padded(value):
    """defusedcsv neutralises a cell that starts with a formula character; spreadsheets also skip leading white
    space and control characters, so a cell padded before its formula character gets the same apostrophe. So does
    one starting with a full-width formula character (＝ ＋ － ＠ ｜ ％, as a Japanese keyboard's IME types them,
    which Japanese Excel reads as the half-width ones): NFKC makes each its half-width twin."""
    if (
        isinstance(value, str)
        and value
        and value[0] not in DANGEROUS  # those are defusedcsv's own
        and unicodedata.normalize("NFKC", value.lstrip(PADDING)[:1]) in DANGEROUS
    ):
        return "'" + value
    return value


# The exports that gain a last "division" column at an event of several divisions: the column of the incident's
# number in each row (an event of one division exports exactly as before).
DIVISION_OF_ROW = {"incidents": 1, "player-penalties": 4}


def several_divisions(session: Session, event: Event) -> bool:
    return (session.scalar(select(func.count()).select_from(Division).where(Division.event_id == event.id)) or 0) > 1


def with_division(header: Sequence[Any], rows: list[list], rec: Records, number_at: int) -> tuple[list, list[list]]:
    """The export with a last column naming the division of each row's incident (its round's division)."""
    division_of = {i.number: i.round.division.name for i in rec.incidents}
    return [*header, _l("division")], [[*row, division_of.get(row[number_at], "")] for row in rows]


# The division of each row of the exports with one row per record, in the records' order.
DIVISIONS_OF_RECORDS: dict[str, Callable[[Records], list[str]]] = {
    "deck-checks": lambda rec: [dc.round.division.name for dc in rec.deck_checks],
    "time-extensions": lambda rec: [e.round.division.name for e in rec.extensions],
    "calls": lambda rec: [c.division.name for c in rec.calls],
}


def with_divisions(kind: str, header: Sequence[Any], rows: list[list], rec: Records) -> tuple[list, list[list]]:
    """An export of an event of several divisions with a last column naming each row's division: a round and a
    table name a match only within a division."""
    if kind in DIVISION_OF_ROW:
        return with_division(header, rows, rec, DIVISION_OF_ROW[kind])
    if kind in DIVISIONS_OF_RECORDS:
        names = DIVISIONS_OF_RECORDS[kind](rec)
        return [*header, _l("division")], [[*row, name] for row, name in zip(rows, names, strict=True)]
    return list(header), rows


def to_csv(header: Sequence[str], rows: list[list]) -> bytes:
    """UTF-8 with a byte-order mark (so spreadsheets read accented and Japanese names right), a header row, and
    every cell that a spreadsheet would run as a formula neutralised."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow([str(name) for name in header])  # the names are translated when the file is made
    for row in rows:
        writer.writerow([_defuse_padded(v) for v in row])
    return out.getvalue().encode("utf-8-sig")
