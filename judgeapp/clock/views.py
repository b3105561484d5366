"""The round clock and time extensions: minutes given back to a table. Thin views."""

from __future__ import annotations

from decimal import Decimal

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_login import current_user

from .. import permissions
from ..choices import time_rules_of
from ..errors import FieldError, show_on_form
from ..events.round_services import rounds_of
from ..extensions import db, event_policy
from ..floor import table_form_choices
from ..incidents.forms import VoidForm
from ..localtime import local_time_to_utc
from ..models import TimeExtension, utcnow
from ..numbers import int_or_none
from ..permissions import Action, event_route, found
from ..texts import gettext as _
from ..texts import ngettext
from ..web import answer, button, json_errors, outbox_post
from ..web import clock as clock_text
from . import services
from .forms import ExtensionForm, reason_name

bp = Blueprint("clock", __name__, template_folder="templates")


@bp.app_template_filter("reason_name")
def reason_name_filter(reason) -> str:
    """A time extension's reason within a sentence, in the page's language: `{{ e.reason|reason_name }}`."""
    return reason_name(reason)


@bp.route("/events/<int:event_id>/extensions/new", methods=["GET", "POST"])
@event_route(Action.GIVE_TIME)
def new_extension(event, roles):
    policy = event_policy(event)
    form = ExtensionForm()
    turns_allowed = any(rule.extra_turns_allowed for rule in policy.time_rules)
    rounds = table_form_choices(form, event)
    as_json = outbox_post(form)
    if form.validate_on_submit():
        rnd = next((r for r in rounds if r.number == form.round.data), None)
        near = rnd.started_at if rnd else utcnow()
        data = services.ExtensionInput(
            key=form.key.data,
            reason=form.reason.data,
            round_number=form.round.data,
            table_number=form.table.data,
            division_id=form.division.data,
            paused_from=local_time_to_utc(form.paused_from.data, near) if form.paused_from.data else None,
            paused_to=local_time_to_utc(form.paused_to.data, near) if form.paused_to.data else None,
            taken_minutes=float(form.taken_minutes.data) if isinstance(form.taken_minutes.data, Decimal) else None,
            minutes=form.minutes.data,
            adjust_reason=form.adjust_reason.data,
            extra_turns=form.extra_turns.data if turns_allowed else None,
        )
        try:
            ext, created = services.add_extension(db.session, policy, actor=current_user, event=event, data=data)
        except FieldError as err:
            show_on_form(form, err, db.session)
        else:
            db.session.commit()
            ends = services.table_ends_at(db.session, ext.round, ext.table_number)
            back = request.args.get("next_incident")
            return answer(
                as_json,
                url_for("clock.clock", event_id=event.id, round=ext.round.number),
                created=created,
                message=confirmation(policy, ext, ends) if created else _("This time extension was already saved."),
                redirect_to=url_for("incidents.show", event_id=event.id, number=int(back))
                if back and back.isdigit()
                else None,
                kind="extension",
                id=ext.id,
                minutes=ext.minutes,
                table=ext.table_number,
                ends_at=clock_text(ends),
            )
    if as_json and form.is_submitted():
        return json_errors(form)
    return render_template(
        "clock/extension.html",
        event=event,
        roles=roles,
        form=form,
        has_rounds=bool(rounds),
        time_rules=time_rules_of(policy),
        turns_allowed=turns_allowed,
        reminders=[
            (reason_name(rule.reason), services.announce_reminder(policy, rule.reason))
            for rule in policy.time_rules
            if rule.announce_before_result
        ],
    ), 400 if form.errors else 200


def confirmation(policy, ext, ends) -> str:
    end, table = clock_text(ends), ext.table_number
    if ext.minutes and ext.extra_turns:
        text = ngettext(
            "Table %(table)s: %(minutes)s min and %(num)d extra turn added; "
            "it now ends at %(end)s (then the extra turns).",
            "Table %(table)s: %(minutes)s min and %(num)d extra turns added; "
            "it now ends at %(end)s (then the extra turns).",
            ext.extra_turns,
            table=table,
            minutes=ext.minutes,
            end=end,
        )
    elif ext.extra_turns:
        text = ngettext(
            "Table %(table)s: %(num)d extra turn added; it now ends at %(end)s (then the extra turns).",
            "Table %(table)s: %(num)d extra turns added; it now ends at %(end)s (then the extra turns).",
            ext.extra_turns,
            table=table,
            end=end,
        )
    else:  # a time extension gives minutes, turns or both (services.add_extension)
        text = _(
            "Table %(table)s: %(minutes)s min added; it now ends at %(end)s.", table=table, minutes=ext.minutes, end=end
        )
    reminder = services.announce_reminder(policy, ext.reason)
    return f"{text} {reminder}" if reminder else text


@bp.route("/events/<int:event_id>/extensions/<int:extension_id>/void", methods=["POST"])
@event_route(Action.WITHDRAW_TIME)
def void_extension(event, roles, extension_id):
    ext = found(db.session.get(TimeExtension, extension_id), Action.WITHDRAW_TIME)
    form = VoidForm()
    if not form.validate_on_submit():
        flash(_("Say why the time is withdrawn."), "error")
    else:
        button(
            lambda: services.void_extension(
                db.session, actor=current_user, roles=roles, event=event, ext=ext, reason=form.reason.data
            ),
            _("Time extension for table %(table)s withdrawn.", table=ext.table_number),
        )
    return redirect(url_for("clock.clock", event_id=event.id, round=ext.round.number))


@bp.route("/events/<int:event_id>/clock")
@event_route(Action.VIEW_EVENT)
def clock(event, roles):
    rounds = rounds_of(db.session, event)
    number = int_or_none(request.args.get("round"))
    rnd = next((r for r in rounds if r.number == number), rounds[-1] if rounds else None)
    if number is not None and (rnd is None or rnd.number != number):
        abort(404)
    view = services.round_clock(db.session, rnd) if rnd else None
    withdrawable = {
        e.id for t in (view.tables if view else []) for e in t.extensions if permissions.can(Action.WITHDRAW_TIME, e)
    }  # the judge who gave it, or the head judge, while the event is open
    return render_template(
        "clock/clock.html",
        event=event,
        roles=roles,
        rounds=rounds,
        view=view,
        now=utcnow(),
        void_form=VoidForm(),
        withdrawable=withdrawable,
    )
