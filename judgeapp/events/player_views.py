"""The pages of a player's record: correct it, merge it into another record of the same person (thin views over
judgeapp/events/player_records.py)."""

from __future__ import annotations

import re
from urllib.parse import urlencode

from flask import abort, flash, redirect, render_template, url_for
from flask_login import current_user
from markupsafe import Markup
from wtforms.fields.choices import SelectChoice

from ..errors import FieldError, show_on_form
from ..extensions import db
from ..permissions import Action, event_route
from ..texts import gettext as _
from . import player_records
from .forms import MergePlayerForm, PlayerRecordForm
from .player_services import divisions_of
from .views import bp

_BETWEEN_TAGS = re.compile(r">\s+<")


@bp.app_template_filter("squeeze")
def squeeze(html: Markup | str) -> Markup:
    """A page's markup with each run of white space between two tags made one space (what a browser shows the
    same): the players page of 130,000 players stays under 10 KB as sent. Never for <pre> or <textarea> content."""
    return Markup(_BETWEEN_TAGS.sub("> <", str(html)))


@bp.app_template_filter("urlencode_present")
def urlencode_present(params: dict) -> str:
    """A query string of the parameters that have a value."""
    return urlencode({k: v for k, v in params.items() if v not in (None, "")})


def _record_or_404(event, player_id):
    player = player_records.player_of(db.session, event, player_id)
    if player is None:
        abort(404)
    return player


@bp.route("/events/<int:event_id>/players/<int:player_id>/record", methods=["GET", "POST"])
@event_route(Action.CORRECT_PLAYER)
def correct_player(event, roles, player_id):
    player = _record_or_404(event, player_id)
    if player.merged_into_id is not None:
        return redirect(url_for("events.correct_player", event_id=event.id, player_id=player.merged_into_id))
    form = PlayerRecordForm()
    if not form.is_submitted():
        form = _record_form(player)
    _division_field(form, event)
    if form.validate_on_submit():
        try:
            changes = player_records.correct_player(
                db.session,
                actor=current_user,
                event=event,
                player=player,
                name=form.name.data,
                reading=form.reading.data,
                handle=form.handle.data,
                player_code=form.player_code.data,
                platform_ids=form.platform_ids.data,
                division_id=form.division.data if "division" in form else None,
            )
        except FieldError as err:
            show_on_form(form, err, db.session)
        else:
            db.session.commit()
            flash(_("Record saved.") if changes else _("Nothing changed."), "success" if changes else "info")
            return redirect(url_for("incidents.player", event_id=event.id, player_id=player.id))
    status = 400 if form.errors else 200
    return render_template(
        "events/player_record.html", event=event, roles=roles, player=player, form=form, merge_form=_merge_form()
    ), status


def _merge_form(form=None):
    return form or MergePlayerForm(formdata=None)


@bp.route("/events/<int:event_id>/players/<int:player_id>/merge", methods=["POST"])
@event_route(Action.MERGE_PLAYERS)
def merge_player(event, roles, player_id):
    player = _record_or_404(event, player_id)
    form = MergePlayerForm()
    if form.validate_on_submit():
        try:
            kept = player_records.find_other(db.session, event, form.other.data, besides=player)
            outcome = player_records.merge_players(
                db.session, actor=current_user, event=event, merged=player, kept=kept, reason=form.reason.data
            )
        except FieldError as err:
            show_on_form(form, err, db.session)
        else:
            db.session.commit()
            flash(
                _(
                    "%(merged)s merged into %(kept)s: %(incidents)s incidents and %(pairings)s pairings moved; the "
                    "merged record is kept.",
                    merged=player.name,
                    kept=outcome.kept.name,
                    incidents=outcome.incidents,
                    pairings=outcome.pairings,
                ),
                "success",
            )
            return redirect(url_for("incidents.player", event_id=event.id, player_id=outcome.kept.id))
    record_form = _division_field(_record_form(player), event)
    return render_template(
        "events/player_record.html", event=event, roles=roles, player=player, form=record_form, merge_form=form
    ), 400


def _division_field(form, event):
    """The record form's division choice at an event of several; an event of one division names none (removed)."""
    divisions = divisions_of(db.session, event)
    if len(divisions) > 1:
        form.division.choices = [SelectChoice(d.id, d.name) for d in divisions]
    else:
        del form.division
    return form


def _record_form(player):
    """The record's form filled in from the record as it is."""
    form = PlayerRecordForm(formdata=None, obj=player, platform_ids=player_records.platform_lines(player.platform_ids))
    form.division.data = player.division_id  # the record's `division` is the row; the choice is its id
    return form
