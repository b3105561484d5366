"""The rounds: starting and ending one, its day, its pairings (thin views over judgeapp/events/round_services.py
and judgeapp/events/pairing_services.py)."""

from flask import flash, redirect, render_template, request, url_for
from flask_login import current_user

from ..extensions import db
from ..forms import strip_control_characters
from ..numbers import int_or_none
from ..permissions import Action, event_route, found
from ..texts import gettext as _
from ..web import button, clock
from . import pairing_services, player_services, round_services
from .forms import EndRoundForm, PairingsForm, RoundDayForm, StartRoundForm
from .views import bp


@bp.route("/events/<int:event_id>/rounds", methods=["POST"])
@event_route(Action.START_ROUND)
def start_round(event, roles):
    if StartRoundForm().validate_on_submit():
        division_id = int_or_none(request.form.get("division"))
        button(
            lambda: round_services.start_round(db.session, actor=current_user, event=event, division_id=division_id),
            lambda rnd: _(
                "Round %(number)s started; it ends at %(time)s.",
                number=rnd.number,
                time=clock(round_services.round_ends_at(rnd)),
            ),
        )
    return redirect(url_for("events.show", event_id=event.id))


@bp.route("/events/<int:event_id>/rounds/<int:number>/day", methods=["POST"])
@event_route(Action.START_ROUND)
def round_day(event, roles, number):
    """Say which of the event's days a round is on: Day 2 begins with it (or it stays on Day 1)."""
    division_id = int_or_none(request.args.get("division"))
    rnd = found(round_services.round_by_number(db.session, event, number, division_id))
    form = RoundDayForm()
    if form.validate_on_submit():
        button(
            lambda: round_services.set_round_day(
                db.session, actor=current_user, event=event, rnd=rnd, day=form.day.data
            ),
            lambda changed: _("Round %(number)s is on day %(day)s.", number=number, day=form.day.data),
        )
    else:
        flash(_("The form had expired; nothing was changed. Try again."), "error")
    return redirect(url_for("events.show", event_id=event.id, _anchor="rounds"))


@bp.route("/events/<int:event_id>/rounds/<int:number>/end", methods=["POST"])
@event_route(Action.END_ROUND)
def end_round(event, roles, number):
    """End a round early (every match reported) or on time; what is still open in it ends with it."""
    division_id = int_or_none(request.args.get("division"))
    rnd = found(round_services.round_by_number(db.session, event, number, division_id), Action.END_ROUND)
    if not EndRoundForm().validate_on_submit():
        flash(_("The form had expired; nothing was changed. Try again."), "error")
        return redirect(url_for("events.show", event_id=event.id))
    ended = round_services.end_round(db.session, actor=current_user, event=event, rnd=rnd)
    db.session.commit()
    flash(
        " ".join(
            [
                _("Round %(number)s ended.", number=rnd.number),
                *(
                    _(
                        "The deck check at table %(table)s was still running: it ended with the round, without a "
                        "result.",
                        table=dc.table_number,
                    )
                    for dc in ended.deck_checks
                ),
            ]
        ),
        "success",
    )
    return redirect(url_for("events.show", event_id=event.id))


@bp.route("/events/<int:event_id>/pairings", methods=["GET", "POST"])
@event_route(Action.IMPORT_PAIRINGS)
def pairings(event, roles):
    """The scorekeeper seats the current round's players, so judges can pick players by table."""
    form, report = PairingsForm(), None
    divisions = player_services.divisions_of(db.session, event)
    division_id = int_or_none(request.args.get("division"))
    if division_id not in {d.id for d in divisions}:
        division_id = divisions[0].id if divisions else None
    rnd = round_services.current_round(db.session, event, division_id)  # the chosen division's (?division=)
    if form.validate_on_submit():
        if rnd is None:
            form.file.errors.append(_("Start round 1 before importing its pairings."))
        else:
            try:
                text = strip_control_characters(form.file.data.read().decode("utf-8"))
            except UnicodeDecodeError:
                form.file.errors.append(_("The file is not UTF-8 text; save it as “CSV UTF-8”."))
            else:
                report = pairing_services.import_pairings(
                    db.session, actor=current_user, event=event, round_number=rnd.number, text=text,
                    division_id=rnd.division_id,
                )  # fmt: skip
                db.session.commit()
    status = 400 if form.errors else 200
    return render_template(
        "events/pairings.html",
        event=event,
        roles=roles,
        form=form,
        report=report,
        round=rnd,
        seating=pairing_services.pairings_of(db.session, rnd),
        divisions=divisions if len(divisions) > 1 else [],
        division_id=division_id,
    ), status
