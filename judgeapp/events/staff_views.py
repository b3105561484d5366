"""The event's staff pages: inviting a person to a role, answering an invitation, ending a role, the organizer as
scorekeeper (thin views over judgeapp/events/staff_services.py)."""

from flask import abort, current_app, flash, redirect, render_template, url_for
from flask_login import current_user, login_required

from ..auth import emails as staff_email
from ..errors import FieldError, show_on_form
from ..extensions import db, limiter
from ..models import Role
from ..permissions import Action, event_route
from ..texts import gettext as _
from ..web import button
from . import staff_services
from .forms import AnswerInvitationForm, EndStaffForm, JoinAsScorekeeperForm, StaffForm
from .views import bp, role_in_sentence


def _invitations_key() -> str:
    """Invitations count per organizer account, in the shared limiter store (every worker counts together)."""
    return f"invite-organizer:{getattr(current_user, 'id', None)}"


def _invited(response) -> bool:
    return response.status_code == 302  # an invitation was made (a form error invites nobody and costs nothing)


@bp.route("/events/<int:event_id>/staff", methods=["GET", "POST"])
@event_route(Action.MANAGE_STAFF)
@limiter.limit(
    lambda: current_app.config["INVITE_LIMIT_PER_ORGANIZER"],
    key_func=_invitations_key,
    methods=["POST"],
    deduct_when=_invited,
)
def staff(event, roles):
    form = StaffForm()
    head = staff_services.current_head_judge(db.session, event)
    if head is None:
        del form.replace_head_judge  # asked only when someone would be replaced
    if form.validate_on_submit():
        try:
            result = staff_services.add_staff(
                db.session,
                actor=current_user,
                event=event,
                email=form.email.data,
                name=form.name.data or "",
                role=Role(form.role.data),
                invite_lifetime=staff_email.invite_lifetime(),
                replace_head_judge=bool(head is not None and form.replace_head_judge.data),
            )
        except FieldError as err:
            show_on_form(form, err, db.session)
        else:
            db.session.commit()
            # One message whether or not the account existed: the organizer learns nothing about it, and never
            # sees a password or a link (the invite goes to the person's own inbox).
            flash(*staff_email.tell_staff(event, result.invitation, result.invite_token, organizer=current_user))
            return redirect(url_for("events.staff", event_id=event.id))
    return render_template(
        "events/staff.html",
        event=event,
        roles=roles,
        form=form,
        end_form=EndStaffForm(),
        staff=staff_services.current_staff(db.session, event),
        invitations=staff_services.invitations_of(db.session, event),
        invitation_state=staff_services.invitation_state_of,
    ), 400 if form.errors else 200


@bp.route("/invitations/<int:invitation_id>/<any(accept, decline):answer>", methods=["POST"])
@login_required
def answer_invitation(invitation_id, answer):
    """The invited person accepts or declines (permissions.answer_invitation: only they, only while it waits)."""
    if not AnswerInvitationForm().validate_on_submit():
        abort(400)
    try:
        invitation = staff_services.answer_invitation(
            db.session, user=current_user, invitation_id=invitation_id, accept=answer == "accept"
        )
    except LookupError:
        abort(404)
    db.session.commit()
    if answer == "accept":
        flash(
            _(
                "You are now %(role)s at %(event)s.",
                role=role_in_sentence(invitation.role),
                event=invitation.event.name,
            ),
            "success",
        )
        return redirect(url_for("events.index", accepted=invitation.event_id))  # the list, with the event now in it
    flash(_("You declined the invitation to %(event)s.", event=invitation.event.name), "info")
    return redirect(url_for("events.index"))


@bp.route("/events/<int:event_id>/staff/<int:assignment_id>/end", methods=["POST"])
@event_route(Action.MANAGE_STAFF)
def end_staff(event, roles, assignment_id):
    if staff_services.current_assignment(db.session, event, assignment_id) is None:
        abort(404)  # before the form: another event's assignment id is unknown here, whatever was sent
    form = EndStaffForm()
    if not form.validate_on_submit():
        flash(_("Say why this person leaves the role."), "error")
        return redirect(url_for("events.staff", event_id=event.id))
    try:
        staff_services.end_staff(
            db.session, actor=current_user, event=event, assignment_id=assignment_id, reason=form.reason.data
        )
    except LookupError:
        abort(404)
    db.session.commit()
    flash(_("Removed from the staff; the record is kept."), "success")
    return redirect(url_for("events.staff", event_id=event.id))


@bp.route("/events/<int:event_id>/staff/me-as-scorekeeper", methods=["POST"])
@event_route(Action.JOIN_AS_SCOREKEEPER)
def join_as_scorekeeper(event, roles):
    """The organizer, who may not start rounds, becomes the scorekeeper in one tap (events/show.html offers it)."""
    if JoinAsScorekeeperForm().validate_on_submit():
        button(
            lambda: staff_services.join_as_scorekeeper(db.session, actor=current_user, roles=roles, event=event),
            _("You are now this event's scorekeeper: you can start and end its rounds."),
        )
    else:
        flash(_("The form had expired; nothing was changed. Try again."), "error")
    return redirect(url_for("events.show", event_id=event.id, _anchor="rounds"))
