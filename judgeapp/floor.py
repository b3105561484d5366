"""Request-level helpers shared by the floor's views (incidents, the clock, deck checks): round pickers, lenient
query-string numbers, player labels. The phone outbox's JSON answers and the clock's text are in web.py."""

from __future__ import annotations

from datetime import datetime

from wtforms.fields.choices import SelectChoice

from .events.player_services import divisions_of
from .events.round_services import rounds_of
from .extensions import db
from .imports.model import round_label
from .models import Player
from .texts import gettext as _


def round_choices(field, event, default_current=True):
    """Fill a round select with the event's rounds, newest first; the current one is chosen unless the page asked
    for another of them (an incident's "Another incident" keeps its round). Returns the rounds."""
    rounds = rounds_of(db.session, event)
    numbers = sorted({r.number for r in rounds})  # each division has its own round 1: one choice per number
    label = round_labels(rounds, divisions_of(db.session, event))
    field.choices = [SelectChoice(n, label[n]) for n in reversed(numbers)]
    if default_current and rounds and not field.raw_data and field.data not in numbers:
        field.data = rounds[-1].number
    return rounds


def round_labels(rounds, divisions) -> dict[int, str]:
    """Each started round number as a round choice names it: "Round 5", its top cut where it is one ("Round 6 · Top 8,
    quarterfinal"); at an event of several divisions, the divisions playing it, each with its phase ("Round 5 ·
    Juniors: Top 4, semifinal · Masters")."""
    by_id = {d.id: d for d in divisions}
    playing: dict[int, list] = {}
    for rnd in rounds:
        if rnd.division_id in by_id and by_id[rnd.division_id] not in playing.setdefault(rnd.number, []):
            playing[rnd.number].append(by_id[rnd.division_id])
    labels = {}
    for number in {r.number for r in rounds}:
        parts = [_("Round %(number)s", number=number)]
        ordered = sorted(playing.get(number, []), key=lambda d: (d.position, d.id))
        for division in ordered:
            phase = round_label(division, number)
            if len(divisions) < 2:
                parts += [phase] if phase else []
            elif phase:
                parts.append(_("%(division)s: %(phase)s", division=division.name, phase=phase))
            else:
                parts.append(division.name)
        labels[number] = " · ".join(parts)
    return labels


def division_choices(field, event) -> None:
    """Fill a division select with the event's divisions where it has several (the form shows it then; an event of
    one division leaves it empty and hidden); the first is chosen unless the page asked for another."""
    divisions = divisions_of(db.session(), event)
    if len(divisions) < 2:
        field.choices, field.data = [], None
        return
    field.choices = [SelectChoice(d.id, d.name) for d in divisions]
    if field.data not in {d.id for d in divisions}:
        field.data = divisions[0].id


def parse_utc(value: str | None) -> datetime | None:
    try:
        return datetime.fromisoformat(value).replace(tzinfo=None) if value else None
    except ValueError:
        return None


DB_INT = 2**31 - 1  # the database's integer: a number beyond it names no record, and SQLite cannot even bind it


def int_or_none(value) -> int | None:
    """A number from a query string or hidden field (a table, a record's number or id); None when it is none, or
    beyond the database's integer (it would make the driver overflow: a 500 instead of "no such record")."""
    try:
        number = int(value) if value not in (None, "") else None
    except (TypeError, ValueError):
        return None
    return number if number is None or -DB_INT <= number <= DB_INT else None


def player_label(player: Player) -> str:
    return f"{player.name} · {player.player_code}" if player.player_code else player.name
