"""Request-level helpers shared by the floor's views (incidents, the clock, deck checks): round pickers, lenient
query-string numbers, and the phone outbox's JSON answers."""
from __future__ import annotations

from datetime import datetime

from flask import abort, current_app, jsonify, request
from flask_login import current_user
from wtforms.fields.choices import SelectChoice

from .events.services import rounds_of
from .extensions import db
from .models import Player



def round_choices(field, event, default_current=True):
    """Fill a round select with the event's rounds, newest first (the current one chosen); returns the rounds."""
    rounds = rounds_of(db.session, event)
    field.choices = [SelectChoice(r.number, f"Round {r.number}") for r in reversed(rounds)]
    if default_current and rounds and not field.raw_data:
        field.data = rounds[-1].number
    return rounds


def parse_utc(value: str | None) -> datetime | None:
    try:
        return datetime.fromisoformat(value).replace(tzinfo=None) if value else None
    except ValueError:
        return None


def int_or_none(value) -> int | None:
    try:
        return int(value) if value not in (None, "") else None
    except (TypeError, ValueError):
        return None


def outbox_post(form) -> bool:
    """A record sent from a phone's outbox (static/outbox.js) asks for a JSON answer. It carries its writer's account,
    and another account's record is refused even with a valid session and token."""
    if form.is_submitted() and form.outbox_owner.data and form.outbox_owner.data != str(current_user.id):
        abort(403)
    return request.accept_mimetypes.best == "application/json"


def json_errors(form):
    return jsonify(ok=False, errors=form.errors), 422


def player_label(player: Player) -> str:
    return f"{player.name} · {player.player_code}" if player.player_code else player.name


def clock_text(value) -> str:
    """A time as the pages show it (the `clock` template filter), for flash messages and JSON answers."""
    return current_app.jinja_env.filters["clock"](value)
