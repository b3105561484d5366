"""Changing an incident already logged: a note, a correction, a void (thin views over
judgeapp/incidents/edit_services.py)."""

from __future__ import annotations

from flask import flash, redirect, render_template, request, url_for
from flask_login import current_user

from ..choices import infraction_choices, penalty_choices
from ..errors import FieldError, show_on_form
from ..extensions import db, event_policy
from ..floor import round_choices
from ..infractions.engine import asks_game
from ..permissions import Action, Role, event_route, found
from ..texts import gettext as _
from ..web import button
from . import edit_services, list_services
from .forms import CorrectIncidentForm, NoteForm, VoidForm
from .list_views import incident_page
from .views import bp


@bp.route("/events/<int:event_id>/incidents/<int:number>/note", methods=["POST"])
@event_route(Action.NOTE_INCIDENT)
def note(event, roles, number):
    """A note on the incident in any state, or a question to the head judge (their feed lists it)."""
    incident = found(list_services.incident_by_number(db.session, event, number), Action.NOTE_INCIDENT)
    form = NoteForm()
    if form.validate_on_submit():
        try:
            edit_services.add_note(
                db.session,
                actor=current_user,
                roles=roles,
                event=event,
                incident=incident,
                text=form.text.data,
                ask_head_judge=form.ask_head_judge.data,
            )
        except FieldError as err:
            show_on_form(form, err, db.session)
        else:
            db.session.commit()
            flash(
                _("Question sent to the head judge's feed.")
                if form.ask_head_judge.data and Role.HEAD_JUDGE not in roles
                else _("Note added to the incident's history."),
                "success",
            )
            return redirect(url_for("incidents.show", event_id=event.id, number=number) + "#note")
    return incident_page(event, roles, number, note_form=form, status=400)


@bp.route("/events/<int:event_id>/incidents/<int:number>/edit", methods=["GET", "POST"])
@event_route(Action.CORRECT_INCIDENT)
def edit(event, roles, number):
    policy = event_policy(event)
    incident = found(list_services.incident_by_number(db.session, event, number), Action.CORRECT_INCIDENT)
    form = CorrectIncidentForm(
        data={}
        if request.method == "POST"
        else {
            "round": incident.round.number,
            "table": incident.table_number,
            "infraction": incident.infraction_code,
            "penalty": incident.rank_id or "",
            "deviation_reason": incident.deviation_reason,
            "description": incident.description,
            "game": incident.game_number,
            "related_to": incident.related_to.number if incident.related_to is not None else None,
        }
    )
    # the game and the link only where the policy has the rules (or the record already holds one)
    if incident.game_number is None and not any(asks_game(policy, i, event.level) for i in policy.infractions):
        del form.game
    if incident.related_to_id is None and policy.related_errors is None:
        del form.related_to
    round_choices(form.round, event, default_current=False)
    infraction_choices(form.infraction, policy)
    penalty_choices(form.penalty, policy)
    if form.validate_on_submit():
        data = edit_services.IncidentEdit(
            round_number=form.round.data,
            table_number=form.table.data,
            infraction_code=form.infraction.data,
            rank_id=form.penalty.data or None,
            deviation_reason=form.deviation_reason.data or "",
            description=form.description.data or "",
            note=form.note.data or "",
            game_number=form.game.data if "game" in form else None,
            related_to_number=form.related_to.data if "related_to" in form else None,
            game_sent=_sent(form, "game"),
            related_sent=_sent(form, "related_to"),
        )
        try:
            changed = edit_services.correct_incident(
                db.session, policy, actor=current_user, roles=roles, event=event, incident=incident, data=data
            )
        except FieldError as err:
            show_on_form(form, err, db.session)
        else:
            db.session.commit()
            flash(
                _("Correction saved; the earlier version stays in the history.") if changed else _("Nothing changed."),
                "success",
            )
            return redirect(url_for("incidents.show", event_id=event.id, number=incident.number))
    return render_template(
        "incidents/edit.html", event=event, roles=roles, form=form, incident=incident
    ), 400 if form.errors else 200


def _sent(form, name: str) -> bool:
    """Whether the form asked the field and the request carried it (a page without it keeps the record's value)."""
    return name in form and bool(form[name].raw_data)


@bp.route("/events/<int:event_id>/incidents/<int:number>/void", methods=["POST"])
@event_route(Action.VOID_INCIDENT)
def void(event, roles, number):
    incident = found(list_services.incident_by_number(db.session, event, number), Action.VOID_INCIDENT)
    form = VoidForm()
    if form.validate_on_submit():
        button(
            lambda: edit_services.void_incident(
                db.session,
                event_policy(event),
                actor=current_user,
                roles=roles,
                event=event,
                incident=incident,
                reason=form.reason.data,
            ),
            _("Incident #%(number)s is void; it no longer counts for upgrades.", number=incident.number),
        )
    else:
        flash(_("Say why the incident is withdrawn."), "error")
    return redirect(url_for("incidents.show", event_id=event.id, number=number))
