from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

from flask import Blueprint, flash, redirect, render_template, url_for
from flask_login import current_user, login_required
from sqlalchemy import or_, select
from wtforms.fields.choices import SelectChoice

from ..choices import catalog_name
from ..errors import FieldError, show_on_form
from ..extensions import current_catalog, db, event_policy, known_event_policy
from ..imports.model import round_label
from ..models import Event, EventPolicy, Role, StaffAssignment
from ..permissions import Action, account_route, event_route
from ..permissions import Role as Authority
from ..texts import gettext as _
from . import player_services, round_services, services, staff_services
from .forms import (
    OTHER_ROLES_IN_SENTENCE,
    ROLE_IN_SENTENCE,
    ROLE_NAMES,
    AnswerInvitationForm,
    EndRoundForm,
    EventForm,
    JoinAsScorekeeperForm,
    PolicyUploadForm,
    RoundDayForm,
    StartRoundForm,
)

bp = Blueprint("events", __name__, template_folder="templates")


@bp.app_template_filter("role_name")
def role_name(role: str) -> str:
    """A staff role as a label ("Head judge"), in the page's language."""
    return str(ROLE_NAMES[Role(role)])


@bp.app_template_filter("role_in_sentence")
def role_in_sentence(role: str) -> str:
    """A role as running text names it ("head judge", "organizer"), in the page's language."""
    value = getattr(role, "value", role)
    if value in OTHER_ROLES_IN_SENTENCE:
        return str(OTHER_ROLES_IN_SENTENCE[value])
    try:
        return str(ROLE_IN_SENTENCE[Role(value)])
    except ValueError:
        return value.replace("_", " ")


def _event_form(event=None, **kwargs) -> EventForm:
    """The event's settings form: every shipped policy (and the event's uploaded one), and each policy's own levels,
    grouped by policy (static/js/policy-levels.js shows the chosen policy's group only)."""
    form = EventForm(obj=event, **kwargs)
    policies = list(current_catalog().policies.values())
    if event is not None and event.policy_sha:
        policies.insert(0, event_policy(event))
    form.policy_id.choices = [
        SelectChoice(
            p.id,
            _("%(policy)s (uploaded for this event)", policy=catalog_name(p))
            if event and p is policies[0] and event.policy_sha
            else catalog_name(p),
        )
        for p in policies
    ]
    form.level.choices = [
        SelectChoice(lv.number, catalog_name(lv), optgroup=catalog_name(p), render_kw={"data-policy": p.id})
        for p in policies
        for lv in p.levels
    ]
    return form


def _event_data(form: EventForm) -> services.EventData:
    return services.EventData(**{k: getattr(form, k).data for k in services.EventData.__dataclass_fields__})


@bp.route("/")
@login_required
def index():
    staffed = select(StaffAssignment.event_id).where(
        StaffAssignment.user_id == current_user.id, StaffAssignment.ended_at.is_(None)
    )
    events = db.session.scalars(
        select(Event)
        .where(or_(Event.organizer_id == current_user.id, Event.id.in_(staffed)))
        .order_by(Event.date.desc(), Event.id.desc())
    ).all()
    return render_template(
        "events/index.html",
        events=events,
        invitations=staff_services.open_invitations(db.session, current_user),
        answer_form=AnswerInvitationForm(),
    )


@bp.route("/events/new", methods=["GET", "POST"])
@account_route(Action.CREATE_EVENT)
def create():
    form = _event_form()
    if form.validate_on_submit():
        try:
            event = services.create_event(db.session, current_catalog(), organizer=current_user, data=_event_data(form))
        except FieldError as err:
            show_on_form(form, err, db.session)
        else:
            db.session.commit()
            flash(_("Event “%(name)s” created. Now add its staff.", name=event.name), "success")
            return redirect(url_for("events.staff", event_id=event.id))
    return render_template(
        "events/form.html", form=form, event=None, policies=list(current_catalog().policies.values())
    )


@dataclass
class RoundPanel:
    """The event page's round controls of one division (None: the event's only one); `phase(n)` names a top-cut
    round ("Top 8, semifinal"), None for a Swiss round."""

    division: Any
    rounds: list
    phase: Callable[[int], str | None]


@bp.route("/events/<int:event_id>")
@event_route(Action.VIEW_EVENT)
def show(event, roles):
    rounds = round_services.rounds_of(db.session, event)
    policy = known_event_policy(event)
    divisions = player_services.divisions_of(db.session, event)
    if len(divisions) > 1:  # each division its own rounds, clock and top cut
        panels = [
            RoundPanel(d, [r for r in rounds if r.division_id == d.id], partial(round_label, d)) for d in divisions
        ]
    else:
        panels = [RoundPanel(None, rounds, partial(round_label, divisions[0]) if divisions else lambda n: None)]
    return render_template(
        "events/show.html",
        event=event,
        roles=roles,
        rounds=rounds,
        round_panels=panels,
        policy=policy,
        staff=staff_services.current_staff(db.session, event),
        start_form=StartRoundForm(),
        end_form=EndRoundForm(),
        day_form=RoundDayForm(),
        days_open_to=partial(round_services.days_open_to, db.session),
        several_days=any(r.day > 1 for r in rounds),
        join_form=JoinAsScorekeeperForm(),
        ends_at=round_services.round_ends_at,
        keeps_open=_what_keeps_it_open(event, roles),
    )


def _what_keeps_it_open(event, roles):
    """For the head judge of an open event: what must be finished before the organizer can close it (the close
    page's own list), so they can end it early once every match is reported. None for everyone else."""
    if Authority.HEAD_JUDGE not in roles or event.closed_at is not None:
        return None
    from ..localtime import to_local
    from ..postevent.services import blockers

    return blockers(db.session, event, local=to_local)


@bp.route("/events/<int:event_id>/settings", methods=["GET", "POST"])
@event_route(Action.EDIT_SETTINGS)
def settings(event, roles):
    form = _event_form(event)
    if form.validate_on_submit():
        try:
            services.update_event(
                db.session,
                current_catalog(),
                actor=current_user,
                event=event,
                data=_event_data(form),
                uploaded=event_policy(event) if event.policy_sha else None,
            )
        except FieldError as err:
            show_on_form(form, err, db.session)
        else:
            db.session.commit()
            flash(_("Event settings saved."), "success")
            return redirect(url_for("events.show", event_id=event.id))
    policies = list(current_catalog().policies.values())
    return render_template("events/form.html", form=form, event=event, policies=policies), 400 if form.errors else 200


@bp.route("/events/<int:event_id>/policy", methods=["GET", "POST"])
@event_route(Action.EDIT_SETTINGS)
def upload_policy(event, roles):
    """The organizer's own policy file for this event (house rules, a publisher's newer version)."""
    form = PolicyUploadForm()
    if form.validate_on_submit():
        upload = form.file.data
        try:
            content = upload.read(services.MAX_POLICY_BYTES + 1)
        finally:
            upload.close()  # a file over 500 KB is spooled to a temporary file: closed now, not at garbage collection
        try:
            policy = services.upload_policy(
                db.session,
                actor=current_user,
                event=event,
                filename=upload.filename or "",
                content=content,
                level=form.level.data or "",
                reserved=current_catalog().policies,
            )
        except FieldError as err:
            show_on_form(form, err, db.session)
        else:
            db.session.commit()
            flash(
                _(
                    "The event now enforces %(policy)s %(version)s, uploaded.",
                    policy=catalog_name(policy),
                    version=policy.version,
                ),
                "success",
            )
            return redirect(url_for("events.settings", event_id=event.id))
    uploads = db.session.scalars(
        select(EventPolicy).where(EventPolicy.event_id == event.id).order_by(EventPolicy.id.desc())
    ).all()
    return render_template(
        "events/policy.html", form=form, event=event, policy=event_policy(event), uploads=uploads
    ), 400 if form.errors else 200
