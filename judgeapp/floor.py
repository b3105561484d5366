"""Request-level helpers shared by the floor's views (incidents, the clock, deck checks): round pickers, lenient
query-string numbers, player labels. The phone outbox's JSON answers and the clock's text are in web.py."""

from __future__ import annotations

import json
from datetime import datetime

from flask import request
from wtforms.fields.choices import SelectChoice

from .events.player_services import divisions_of
from .events.round_services import rounds_of
from .extensions import db
from .imports.model import round_label
from .models import Player
from .numbers import int_or_none
from .texts import gettext as _

LONG_ROUND_LABEL = 14  # characters: a longer round choice takes the whole width (clipped in half of 390 px)


def round_choices(field, event, default_current=True, division_id=None):
    """Fill a round select with the event's rounds, newest first; the current one is chosen unless the page asked
    for another of them (an incident's "Another incident" keeps its round). Returns the rounds.

    At an event of several divisions each choice names the chosen division's phase (`division_id`, else the first
    division; see `round_labels`) and carries every division's label in `data-labels`, which page.js shows when the
    form's division changes: the label of every division at once ran to 50 characters, clipped on a phone."""
    rounds = rounds_of(db.session, event)
    divisions = divisions_of(db.session, event)
    numbers = sorted({r.number for r in rounds})  # each division has its own round 1: one choice per number
    by_division = {d.id: round_labels(rounds, divisions, chosen=d.id) for d in divisions} if len(divisions) > 1 else {}
    chosen = division_id if division_id in by_division else next(iter(by_division), None)
    label = by_division[chosen] if chosen is not None else round_labels(rounds, divisions)
    field.choices = [
        SelectChoice(
            n,
            label[n],
            render_kw={"data-labels": json.dumps({str(d): labels[n] for d, labels in by_division.items()})}
            if by_division
            else {},
        )
        for n in reversed(numbers)
    ]
    if any(len(text) > LONG_ROUND_LABEL for labels in [label, *by_division.values()] for text in labels.values()):
        field.render_kw = {**(field.render_kw or {}), "data-long": "1"}  # app.css: the form's whole width
    if default_current and rounds and not field.raw_data and field.data not in numbers:
        field.data = rounds[-1].number
    return rounds


def round_labels(rounds, divisions, chosen=None) -> dict[int, str]:
    """Each started round number as a round choice names it: "Round 5", its top cut where it is one ("Round 6 · Top 8,
    quarterfinal"). At an event of several divisions, with a `chosen` division (the form's): that division's phase
    for a round it plays ("Round 5 · Top 4, semifinal"), and for a round it does not play, the divisions that do
    ("Round 6 · Masters: Top 8, quarterfinal"); with none, the divisions playing it, each with its phase ("Round 5 ·
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
        if chosen in by_id and by_id[chosen] in ordered:
            phase = round_label(by_id[chosen], number)
            labels[number] = " · ".join([*parts, phase] if phase else parts)
            continue
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


def table_form_choices(form, event, *, link_names_round: bool = False):
    """Ready a form with TableFields (a time extension, a deck check): its division and round choices (the rounds of
    the chosen division) and, on the first visit, the table the link named (?table=), and its round and division
    where the link names them (a picked deck-check table). Returns the event's rounds."""
    if not form.is_submitted():
        form.table.data = int_or_none(request.args.get("table"))
        if link_names_round:
            form.round.data = int_or_none(request.args.get("round"))
            form.division.data = int_or_none(request.args.get("division"))
    division_choices(form.division, event)
    return round_choices(form.round, event, division_id=form.division.data)


def parse_utc(value: str | None) -> datetime | None:
    try:
        return datetime.fromisoformat(value).replace(tzinfo=None) if value else None
    except ValueError:
        return None


def player_label(player: Player) -> str:
    return f"{player.name} · {player.player_code}" if player.player_code else player.name
