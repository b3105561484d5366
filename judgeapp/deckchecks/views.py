"""Deck checks: pick tables, start a check, end it with the time owed back. Thin views."""

from __future__ import annotations

from datetime import timedelta

from flask import Blueprint, flash, redirect, render_template, request, url_for
from flask_login import current_user
from sqlalchemy import select

from .. import permissions
from ..choices import time_rules_of
from ..clock import services as timekeeping
from ..errors import FieldError, show_on_form
from ..events.player_services import by_division, divisions_of, players_of
from ..extensions import db, event_policy
from ..floor import division_choices, player_label, table_form_choices
from ..incidents import services as incident_services
from ..infractions import ExtensionReason, extension_owed
from ..models import Incident, TimeExtension, utcnow
from ..permissions import Action, event_route, found
from ..texts import gettext as _
from ..web import answer, json_errors, outbox_post
from ..web import clock as clock_text
from . import services
from .forms import DeckCheckForm, EndDeckCheckForm, PickTablesForm

bp = Blueprint("deckchecks", __name__, template_folder="templates")


@bp.route("/events/<int:event_id>/deck-checks")
@event_route(Action.VIEW_EVENT)
def index(event, roles):
    pick_form = PickTablesForm(request.args)
    division_choices(pick_form.division, event)
    pick = None
    if "count" in request.args:
        permissions.require(Action.PICK_TABLES, roles)  # picking is for the judges who will do the checks
        if pick_form.validate():
            try:
                pick = services.pick_tables(
                    db.session, event, count=pick_form.count.data or 2, division_id=pick_form.division.data
                )
            except FieldError as err:
                pick_form.count.errors.append(err.message)
    return render_template(
        "deckchecks/index.html",
        event=event,
        roles=roles,
        pick_form=pick_form,
        pick=pick,
        groups=by_division(
            divisions_of(db.session, event),
            services.deck_checks_by_round(db.session, event),
            lambda checks: checks[0].division_id,
        ),
    )


@bp.route("/events/<int:event_id>/deck-checks/new", methods=["GET", "POST"])
@event_route(Action.START_DECK_CHECK)
def new(event, roles):
    form = DeckCheckForm()
    rounds = table_form_choices(form, event, link_names_round=True)
    as_json = outbox_post(form)
    if form.validate_on_submit():
        data = services.DeckCheckInput(
            key=form.key.data,
            round_number=form.round.data,
            table_number=form.table.data,
            division_id=form.division.data,
            player_texts=[form.player_1.data or "", form.player_2.data or ""],
        )
        try:
            dc, created = services.start_deck_check(
                db.session,
                actor=current_user,
                event=event,
                data=data,
                now=incident_services.phone_time(form.logged_at.data, utcnow()),
            )
        except FieldError as err:
            show_on_form(form, err, db.session)
        else:
            db.session.commit()
            return answer(
                as_json,
                url_for("deckchecks.show", event_id=event.id, deck_check_id=dc.id),
                created=created,
                kind="deck_check",
                id=dc.id,
                table=dc.table_number,
            )
    if as_json and form.is_submitted():
        return json_errors(form)
    return render_template(
        "deckchecks/new.html",
        event=event,
        roles=roles,
        form=form,
        players=players_of(db.session, event),
        label=player_label,
        has_rounds=bool(rounds),
    ), 400 if form.errors else 200


@bp.route("/events/<int:event_id>/deck-checks/<int:deck_check_id>", methods=["GET", "POST"])
@event_route(Action.VIEW_EVENT, post=Action.END_DECK_CHECK)
def show(event, roles, deck_check_id):
    policy = event_policy(event)
    dc = found(incident_services.deck_check_of(db.session, event, deck_check_id))
    form = EndDeckCheckForm()
    if form.is_submitted():  # a judge, while the check runs (else 403/409, and why)
        found(dc, Action.END_DECK_CHECK)
    if form.validate_on_submit():
        try:
            ended = services.end_deck_check(
                db.session,
                policy,
                actor=current_user,
                event=event,
                dc=dc,
                result=form.result.data,
                notes=form.notes.data,
                minutes=form.minutes.data,
                adjust_reason=form.adjust_reason.data,
            )
        except FieldError as err:
            show_on_form(form, err, db.session)
        else:
            db.session.commit()
            if ended.extension:
                ends = timekeeping.table_ends_at(db.session, dc.round, dc.table_number)
                flash(
                    _(
                        "Deck check ended. Table %(table)s: %(minutes)s min added; it now ends at %(end)s.",
                        table=dc.table_number,
                        minutes=ended.extension.minutes,
                        end=clock_text(ends),
                    ),
                    "success",
                )
            else:
                flash(_("Deck check ended; no time added."), "success")
            return redirect(url_for("deckchecks.show", event_id=event.id, deck_check_id=dc.id))
    incidents = list(
        db.session.scalars(select(Incident).where(Incident.deck_check_id == dc.id).order_by(Incident.number))
    )
    extensions = list(db.session.scalars(select(TimeExtension).where(TimeExtension.deck_check_id == dc.id)))
    running = None
    if dc.ended_at is None:
        running = extension_owed(policy, ExtensionReason.DECK_CHECK, max(utcnow() - dc.started_at, timedelta(0)))
    return render_template(
        "deckchecks/show.html",
        event=event,
        roles=roles,
        dc=dc,
        form=form,
        incidents=incidents,
        extensions=extensions,
        running=running,
        policy=policy,
        time_rules=time_rules_of(policy),
        now=utcnow(),
    ), 400 if form.errors else 200
