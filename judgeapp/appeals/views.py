"""Appeals: filed on an incident by a judge, decided by the head judge (or their proxy). Thin views."""

from __future__ import annotations

from flask import Blueprint, flash, jsonify, redirect, render_template, request, url_for
from flask_login import current_user, login_required
from sqlalchemy import select
from wtforms.fields.choices import SelectChoice

from ..choices import infraction_choices_of, infraction_namer, penalty_choices, rank_namer
from ..errors import FieldError, show_on_form
from ..extensions import db, event_policy
from ..incidents import list_services
from ..incidents import services as incidents
from ..infractions import Outcome
from ..models import Event, Player, StaffAssignment
from ..permissions import Action, event_route, found
from ..permissions import Role as Authority
from ..roles import JUDGE_ROLES
from ..texts import gettext as _
from ..web import button, live_list, refuse, refuse_form, safe_next
from . import services
from .forms import AppealForm, DecisionForm, ProxyForm, SeenForm

bp = Blueprint("appeals", __name__, template_folder="templates")


@bp.app_context_processor
def _appeal_news():
    """On every page: the head judge's count of appeals waiting, and decisions on the judge's own rulings."""
    if not current_user or not current_user.is_authenticated:
        return {}
    return {
        "appeals_waiting": services.appeals_badge(db.session, current_user),
        "appeal_decisions": services.decisions_to_see(db.session, current_user),
        "seen_form": SeenForm(formdata=None),
    }  # only shown: never reads the request (a 413's body was not read)


# The challenge count in the request's language (Challenges.explain() is the pure domain's English).
bp.add_app_template_global(services.challenges_text, "challenges_text")


@bp.route("/events/<int:event_id>/incidents/<int:number>/appeal", methods=["GET", "POST"])
@event_route(Action.FILE_APPEAL)
def new(event, roles, number):
    incident = found(list_services.incident_by_number(db.session, event, number), Action.FILE_APPEAL)
    policy = event_policy(event)
    form = AppealForm()  # the service checks who may appeal; the look-ups below are for the rendered form only
    if form.validate_on_submit():
        data = services.AppealInput(
            key=form.key.data, appellant=form.appellant.data, contest=form.contest.data, contests=form.contests.data
        )
        try:
            appeal, _created = services.file_appeal(
                db.session, actor=current_user, event=event, incident=incident, data=data, policy=policy
            )
        except FieldError as err:
            show_on_form(form, err, db.session)
        else:
            db.session.commit()
            flash(
                _(
                    "Appeal #%(number)s sent to the head judge. The ruling applies until they decide.",
                    number=appeal.number,
                ),
                "success",
            )
            return redirect(url_for("appeals.show", event_id=event.id, number=appeal.number))
    appellants = services.appellants_of(db.session, event, incident, policy)
    if not form.is_submitted():
        form.appellant.data = next((a.value for a in appellants if a.may_appeal), None)
    blocked = services.why_not_appealable(db.session, event, incident)
    return render_template(
        "appeals/new.html",
        event=event,
        roles=roles,
        form=form,
        incident=incident,
        appellants=appellants,
        blocked=blocked,
        rank_name=rank_namer(policy),
        policy=policy,
        opponent_only_remedy=policy.appeals.opponent_remedy_only and any(not a.penalized for a in appellants),
        limit=services.challenge_limit(event, policy),
    ), 400 if form.errors else 200


@bp.route("/events/<int:event_id>/appeals")
@event_route(Action.VIEW_APPEALS)
def index(event, roles):
    policy = event_policy(event)
    appeals = services.appeals_of(db.session, event, open_only=bool(request.args.get("partial")))
    template = "appeals/_queue.html" if request.args.get("partial") else "appeals/index.html"
    return live_list(
        render_template(
            template,
            event=event,
            roles=roles,
            appeals=appeals,
            rank_name=rank_namer(policy),
            infraction_name=infraction_namer(policy),
            now=incidents.utcnow(),
        )
    )


@bp.route("/events/<int:event_id>/appeals/<int:number>", methods=["GET", "POST"])
@event_route(Action.VIEW_APPEALS, post=Action.DECIDE_APPEAL)
def show(event, roles, number):
    policy = event_policy(event)
    appeal = found(services.appeal_by_number(db.session, event, number))
    if request.method == "POST":  # the head judge or this appeal's proxy, while it is open (else 403/409 and why)
        found(appeal, Action.DECIDE_APPEAL)
    form = DecisionForm()
    if appeal.contests == "remedy":  # the penalty is not under appeal: it can be neither overturned nor changed
        form.outcome.choices = [
            SelectChoice("upheld", _("Upheld: the remedy stands")),
            SelectChoice("changed", _("Changed: another remedy (give it as the reason)")),
        ]
    form.infraction.choices = [SelectChoice("", _("Keep the infraction")), *infraction_choices_of(policy)[1:]]
    penalty_choices(form.penalty, policy)
    if form.validate_on_submit():
        data = services.Decision(
            outcome=form.outcome.data,
            reason=form.reason.data or "",
            infraction_code=form.infraction.data or None,
            rank_id=form.penalty.data or None,
            count_challenge=form.count_challenge.data,
        )
        try:
            services.decide(db.session, policy, actor=current_user, roles=roles, event=event, appeal=appeal, data=data)
        except FieldError as err:
            show_on_form(form, err, db.session)
        else:
            db.session.commit()
            flash(
                _(
                    "Appeal #%(number)s: %(status)s. The floor judge sees it on their next page.",
                    number=appeal.number,
                    status=appeal.status.label,
                ),
                "success",
            )
            return redirect(url_for("appeals.index", event_id=event.id))
    if form.outcome.data not in (None, "", Outcome.UPHELD.value):
        form.count_challenge.data = False  # an overturned or changed ruling uses no challenge: the box says so
    proxy_form = ProxyForm()
    proxy_form.proxy.choices = [SelectChoice("", _("Nobody: I decide"))] + [
        SelectChoice(str(u.id), u.name) for u in services.proxy_candidates(db.session, event, appeal)
    ]
    proxy_form.proxy.data = str(appeal.proxy_id or "")
    challenges = None
    if appeal.appellant_player_id is not None:
        challenges = services.challenges_of(
            db.session, event, db.session.get(Player, appeal.appellant_player_id), policy
        )
    return render_template(
        "appeals/show.html",
        event=event,
        roles=roles,
        appeal=appeal,
        form=form,
        proxy_form=proxy_form,
        challenges=challenges,
        limit=services.challenge_limit(event, policy),
        # only the head judge's own decision uses a challenge where the policy says so (Bushiroad 1.2.2)
        may_count_challenge=services.challenge_limit(event, policy) is not None
        and appeal.appellant_player_id is not None
        and (policy.appeals.challenge_spent_by != "head_judge" or Authority.HEAD_JUDGE in roles),
        rank_name=rank_namer(policy),
        policy=policy,
        now=incidents.utcnow(),
    ), 400 if form.errors else 200


@bp.route("/events/<int:event_id>/appeals/<int:number>/proxy", methods=["POST"])
@event_route(Action.DELEGATE_APPEAL)
def delegate(event, roles, number):
    appeal = found(services.appeal_by_number(db.session, event, number), Action.DELEGATE_APPEAL)
    policy = event_policy(event)
    form = ProxyForm()
    if not form.validate_on_submit():
        refuse_form(form)
    try:
        proxy_id = int(form.proxy.data) if form.proxy.data else None
    except ValueError:
        refuse(400, _("Choose the proxy from the list of this event's judges; nothing was changed."))
    button(
        lambda: services.delegate(
            db.session, actor=current_user, roles=roles, event=event, appeal=appeal, proxy_id=proxy_id, policy=policy
        ),
        lambda _result: (
            _("Appeal #%(number)s delegated to %(judge)s.", number=appeal.number, judge=appeal.proxy.name)
            if appeal.proxy
            else _("Appeal #%(number)s is yours to decide again.", number=appeal.number)
        ),
    )
    return redirect(url_for("appeals.show", event_id=event.id, number=appeal.number))


@bp.route("/events/<int:event_id>/appeals/<int:number>/seen", methods=["POST"])
@event_route(Action.ACKNOWLEDGE_DECISION)  # acknowledging a decision changes no record of the event
def seen(event, roles, number):
    appeal = found(services.appeal_by_number(db.session, event, number), Action.ACKNOWLEDGE_DECISION)
    if not (form := SeenForm()).validate_on_submit():
        refuse_form(form)
    services.acknowledge(db.session, actor=current_user, roles=roles, event=event, appeal=appeal)
    db.session.commit()
    back = url_for("appeals.show", event_id=event.id, number=appeal.number)
    return redirect(safe_next(request.form.get("next"), back))


@bp.route("/appeals/waiting")
@login_required
def waiting():
    """The badge's number, for the page to refresh it without a reload; and where the badge leads."""
    count = services.waiting_for(db.session, current_user)
    if request.args.get("format") == "json":
        return jsonify(count=count)
    head_of = list(
        db.session.scalars(
            select(Event)
            .join(StaffAssignment, StaffAssignment.event_id == Event.id)
            .where(
                StaffAssignment.user_id == current_user.id,
                StaffAssignment.ended_at.is_(None),
                StaffAssignment.role.in_(JUDGE_ROLES),
            )
            .order_by(Event.date.desc())
            .distinct()
        )
    )
    if len(head_of) == 1:
        return redirect(url_for("appeals.index", event_id=head_of[0].id))
    return render_template("appeals/waiting.html", events=head_of, count=count)
