"""Reading the incidents: the event's list, one incident's page with its history, a player's incidents, the head
judge's feed (thin views over judgeapp/incidents/list_services.py)."""

from __future__ import annotations

from datetime import timedelta

from flask import abort, render_template, request
from flask_login import current_user
from sqlalchemy import select

from .. import history, permissions
from ..appeals import services as appeals
from ..calls import services as calls
from ..choices import rank_namer
from ..clock import services as timekeeping
from ..clock.forms import ExtensionForm
from ..events import player_services
from ..events.pairing_services import rounds_of_player
from ..events.player_services import by_division
from ..extensions import db, event_policy
from ..infractions import ExtensionReason, extension_owed
from ..investigations import agreement
from ..investigations import services as investigations
from ..investigations.forms import AcceptForm, decline_form
from ..models import AuditEntry, Player, TimeExtension, User
from ..permissions import Action, Role, can, event_route, found
from ..records import derived_key
from ..texts import lazy_gettext as _l
from ..web import live_list
from . import list_services
from .forms import SUBJECT_KINDS, NoteForm, VoidForm
from .views import bp

# the incident's history as its page names the audit entries and the fields a correction changed (stored in English)
HISTORY_ACTIONS = {
    "incident.log": _l("log"),
    "incident.correct": _l("correct"),
    "incident.void": _l("void"),
    "incident.note": _l("note"),
    "incident.question": _l("question"),
    "incident.appeal_decision": _l("appeal_decision"),
    "incident.accept": _l("accept"),
    "incident.decline": _l("decline"),
}
HISTORY_FIELDS = {
    "round": _l("round"),
    "table_number": _l("table number"),
    "infraction_code": _l("infraction code"),
    "rank_id": _l("rank id"),
    "deviation_reason": _l("deviation reason"),
    "description": _l("description"),
    "status": _l("status"),
    "game_number": _l("game of the match"),
    "related_to": _l("same cause as incident #"),
}


@bp.route("/events/<int:event_id>/incidents")
@event_route(Action.VIEW_EVENT)
def index(event, roles):
    return render_template(
        "incidents/index.html",
        event=event,
        roles=roles,
        policy=event_policy(event),
        groups=by_division(
            player_services.divisions_of(db.session, event),
            list_services.incidents_of(db.session, event, limit=500),
            lambda i: i.round.division_id,
        ),
    )


def _audit_trail(obj_type, obj_id):
    rows = db.session.execute(
        select(AuditEntry, User)
        .outerjoin(User, User.id == AuditEntry.actor_id)
        .where(AuditEntry.object_type == obj_type, AuditEntry.object_id == obj_id)
        .order_by(AuditEntry.id)
    )
    return list(rows)


@bp.route("/events/<int:event_id>/incidents/<int:number>")
@event_route(Action.VIEW_EVENT)
def show(event, roles, number):
    return incident_page(event, roles, number)


def incident_page(event, roles, number, *, note_form=None, accept_form=None, status=200):
    policy = event_policy(event)
    incident = found(list_services.incident_by_number(db.session, event, number))
    try:
        infraction = policy.infraction(incident.infraction_code)
    except LookupError:
        infraction = None
    extensions = list(db.session.scalars(select(TimeExtension).where(TimeExtension.incident_id == incident.id)))
    table_end = None
    if incident.table_number is not None:
        table_end = timekeeping.table_ends_at(db.session, incident.round, incident.table_number)
    owed = call_taken = None
    if incident.call_started_at is not None:  # a call logged offline ended when the judge logged it
        call_taken = max((incident.logged_offline_at or incident.created_at) - incident.call_started_at, timedelta(0))
        owed = extension_owed(policy, ExtensionReason.RULING, call_taken)
    given = sum(e.minutes for e in extensions if e.voided_at is None)
    agree_rule = agreement.judges_needed(policy, event, incident) if incident.status.value == "recommended" else None
    return render_template(
        "incidents/show.html",
        event=event,
        roles=roles,
        is_head_judge=Role.HEAD_JUDGE in roles,  # their decision is final; anyone else may ask them
        policy=policy,
        incident=incident,
        infraction=infraction,
        extensions=extensions,
        table_end=table_end,
        owed=owed,
        call_taken=call_taken,
        given=given,
        # the policy's reminder when time was given with the incident (Bushiroad 1.2.2: tell both players, note it)
        time_reminder=timekeeping.announce_reminder(policy, ExtensionReason.RULING) if given else None,
        saved=bool(request.args.get("saved")),
        offer_owed=bool(owed and owed.minutes > given and incident.table_number and can(Action.GIVE_TIME)),
        trail=_audit_trail("Incident", incident.id),
        void_form=VoidForm(),
        note_form=note_form or NoteForm(formdata=None),
        rank_name=rank_namer(policy),
        state=permissions.incident_state_of(db.session, incident),
        state_why=permissions.check(
            db.session, Action.CORRECT_INCIDENT, user=current_user, roles=roles, record=incident, event=event
        ).why,
        owed_form=ExtensionForm(formdata=None, key=derived_key(incident.client_key, "owed")),
        appeals=appeals.appeals_of_incident(db.session, incident),
        appeal_blocked=appeals.why_not_appealable(db.session, event, incident),
        investigation=investigations.investigation_of_incident(db.session, incident),
        judge_call=(judge_call := calls.incident_call(db.session, incident)),
        call_players=calls.seated_at(db.session, judge_call) if judge_call else [],
        accept_form=accept_form or AcceptForm(formdata=None),
        # a disqualification a number of judges decide (Play! Pokémon 4.1): its rule, and who may have agreed
        agree_rule=agree_rule,
        agree_with=agreement.judges_who_may_agree(db.session, event, current_user) if agree_rule else [],
        decline_form=decline_form(policy, formdata=None),
        subject_kinds=SUBJECT_KINDS,
        history_actions=HISTORY_ACTIONS,
        history_fields=HISTORY_FIELDS,
    ), status


@bp.route("/events/<int:event_id>/players/<int:player_id>")
@event_route(Action.VIEW_EVENT)
def player(event, roles, player_id):
    policy = event_policy(event)
    person = db.session.get(Player, player_id)
    if person is None or person.event_id != event.id:
        abort(404)
    groups = history.player_history(db.session, policy, event, person)
    return render_template(
        "incidents/player.html",
        event=event,
        roles=roles,
        policy=policy,
        player=person,
        groups=groups,
        rounds=rounds_of_player(db.session, event, person),
        rank_name=rank_namer(policy),
    )


@bp.route("/events/<int:event_id>/feed")
@event_route(Action.VIEW_FEED)
def feed(event, roles):
    policy = event_policy(event)
    items = list_services.head_judge_feed(db.session, policy, event)
    template = "incidents/_feed_items.html" if request.args.get("partial") else "incidents/feed.html"
    return live_list(
        render_template(
            template,
            event=event,
            roles=roles,
            items=items,
            rank_name=rank_namer(policy),
            questions=list_services.questions_of(db.session, event, items),
        )
    )
