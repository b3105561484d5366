"""Appeals: filed on an incident by a judge, decided by the head judge (or their proxy). Thin views."""
from __future__ import annotations

from flask import abort, flash, jsonify, redirect, render_template, request, url_for
from flask_login import current_user, login_required
from sqlalchemy import select
from wtforms.fields.choices import SelectChoice

from ..access import JUDGES, event_access
from ..errors import FieldError, show_on_form
from ..extensions import db, event_policy
from ..incidents import services as incidents
from ..choices import infraction_choices_of, penalty_choices, rank_namer
from ..models import AppealStatus, Event, Player, Role, StaffAssignment
from . import bp, services
from .forms import AppealForm, DecisionForm, ProxyForm, SeenForm



def _appeal_or_404(event, number):
    appeal = services.appeal_by_number(db.session, event, number)
    if appeal is None:
        abort(404)
    return appeal


@bp.app_context_processor
def _appeal_news():
    """On every page: the head judge's count of appeals waiting, and decisions on the judge's own rulings."""
    if not current_user or not current_user.is_authenticated:
        return {}
    waiting = services.waiting_for(db.session, current_user)
    show = bool(waiting) or services.is_head_judge_anywhere(db.session, current_user)
    return {"appeals_waiting": waiting if show else None,
            "appeal_decisions": services.decisions_to_see(db.session, current_user), "seen_form": SeenForm()}


@bp.route("/events/<int:event_id>/incidents/<int:number>/appeal", methods=["GET", "POST"])
@event_access(*JUDGES, new_record_form=True)
def new(event, roles, number):
    incident = incidents.incident_by_number(db.session, event, number)
    if incident is None:
        abort(404)
    form = AppealForm()  # the service checks who may appeal; the look-ups below are for the rendered form only
    if form.validate_on_submit():
        data = services.AppealInput(key=form.key.data, appellant=form.appellant.data, contest=form.contest.data)
        try:
            appeal, _ = services.file_appeal(db.session, actor=current_user, event=event, incident=incident, data=data)
        except FieldError as err:
            show_on_form(form, err, db.session)
        else:
            db.session.commit()
            flash(f"Appeal #{appeal.number} sent to the head judge. The ruling applies until they decide.", "success")
            return redirect(url_for("appeals.show", event_id=event.id, number=appeal.number))
    appellants = services.appellants_of(db.session, event, incident)
    if not form.is_submitted():
        form.appellant.data = next((a.value for a in appellants if a.may_appeal), None)
    policy = event_policy(event)
    blocked = services.why_not_appealable(db.session, event, incident)
    return render_template("appeals/new.html", event=event, roles=roles, form=form, incident=incident,
                           appellants=appellants, blocked=blocked, rank_name=rank_namer(policy),
                           policy=policy), 400 if form.errors else 200


@bp.route("/events/<int:event_id>/appeals")
@event_access(Role.HEAD_JUDGE, Role.FLOOR_JUDGE, "organizer")
def index(event, roles):
    policy = event_policy(event)
    appeals = services.appeals_of(db.session, event, open_only=bool(request.args.get("partial")))
    template = "appeals/_queue.html" if request.args.get("partial") else "appeals/index.html"
    return render_template(template, event=event, roles=roles, appeals=appeals, rank_name=rank_namer(policy),
                           now=incidents.utcnow())


@bp.route("/events/<int:event_id>/appeals/<int:number>", methods=["GET", "POST"])
@event_access(Role.HEAD_JUDGE, Role.FLOOR_JUDGE, "organizer")
def show(event, roles, number):
    policy = event_policy(event)
    appeal = _appeal_or_404(event, number)
    may_decide = services.may_decide(appeal, current_user, roles)
    if request.method == "POST" and not may_decide:
        abort(403)
    if request.method == "POST" and appeal.status is not AppealStatus.OPEN:
        flash(f"Appeal #{appeal.number} is already decided: {appeal.status.label}.", "error")
        return redirect(url_for("appeals.show", event_id=event.id, number=appeal.number))
    form = DecisionForm()
    form.infraction.choices = [SelectChoice("", "Keep the infraction")] + infraction_choices_of(policy)[1:]
    penalty_choices(form.penalty, policy)
    if form.validate_on_submit():
        data = services.Decision(outcome=form.outcome.data, reason=form.reason.data or "",
                                 infraction_code=form.infraction.data or None, rank_id=form.penalty.data or None,
                                 count_challenge=form.count_challenge.data)
        try:
            services.decide(db.session, policy, actor=current_user, roles=roles, event=event, appeal=appeal, data=data)
        except FieldError as err:
            show_on_form(form, err, db.session)
        else:
            db.session.commit()
            flash(f"Appeal #{appeal.number}: {appeal.status.label}. The floor judge sees it on their next page.",
                  "success")
            return redirect(url_for("appeals.index", event_id=event.id))
    proxy_form = ProxyForm()
    proxy_form.proxy.choices = [SelectChoice("", "Nobody: I decide")] + [
        SelectChoice(str(u.id), u.name) for u in services.proxy_candidates(db.session, event, appeal)]
    proxy_form.proxy.data = str(appeal.proxy_id or "")
    challenges = None
    if appeal.appellant_player_id is not None:
        challenges = services.challenges_of(db.session, event, db.session.get(Player, appeal.appellant_player_id))
    return render_template("appeals/show.html", event=event, roles=roles, appeal=appeal, form=form,
                           proxy_form=proxy_form, may_decide=may_decide and appeal.status is AppealStatus.OPEN,
                           challenges=challenges, rank_name=rank_namer(policy), policy=policy,
                           now=incidents.utcnow()), 400 if form.errors else 200


@bp.route("/events/<int:event_id>/appeals/<int:number>/proxy", methods=["POST"])
@event_access(Role.HEAD_JUDGE)
def delegate(event, roles, number):
    appeal = _appeal_or_404(event, number)
    form = ProxyForm()
    if not form.validate_on_submit():
        abort(400)
    try:
        proxy_id = int(form.proxy.data) if form.proxy.data else None
    except ValueError:
        abort(400)
    try:
        services.delegate(db.session, actor=current_user, roles=roles, event=event, appeal=appeal, proxy_id=proxy_id)
    except FieldError as err:
        db.session.rollback()
        flash(err.message, "error")
    else:
        db.session.commit()
        flash(f"Appeal #{appeal.number} delegated to {appeal.proxy.name}." if appeal.proxy
              else f"Appeal #{appeal.number} is yours to decide again.", "success")
    return redirect(url_for("appeals.show", event_id=event.id, number=appeal.number))


@bp.route("/events/<int:event_id>/appeals/<int:number>/seen", methods=["POST"])
@event_access(*JUDGES, when_closed=True)  # acknowledging a decision changes no record of the event
def seen(event, roles, number):
    appeal = _appeal_or_404(event, number)
    if appeal.ruling_judge_id != current_user.id:
        abort(403)
    if not SeenForm().validate_on_submit():
        abort(400)
    services.acknowledge(db.session, actor=current_user, event=event, appeal=appeal)
    db.session.commit()
    return redirect(_safe_next() or url_for("appeals.show", event_id=event.id, number=appeal.number))


def _safe_next() -> str | None:
    target = request.form.get("next") or ""
    return target if target.startswith("/") and not target.startswith("//") else None


@bp.route("/appeals/waiting")
@login_required
def waiting():
    """The badge's number, for the page to refresh it without a reload; and where the badge leads."""
    count = services.waiting_for(db.session, current_user)
    if request.args.get("format") == "json":
        return jsonify(count=count)
    head_of = list(db.session.scalars(
        select(Event).join(StaffAssignment, StaffAssignment.event_id == Event.id)
        .where(StaffAssignment.user_id == current_user.id, StaffAssignment.ended_at.is_(None),
               StaffAssignment.role.in_([Role.HEAD_JUDGE, Role.FLOOR_JUDGE]))
        .order_by(Event.date.desc()).distinct()))
    if len(head_of) == 1:
        return redirect(url_for("appeals.index", event_id=head_of[0].id))
    return render_template("appeals/waiting.html", events=head_of, count=count)
