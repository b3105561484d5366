"""Incidents: logging with the engine, the call stopwatch, corrections, a player's history and the head judge's
feed. Thin views. (The round clock and time extensions are in judgeapp/clock, deck checks in judgeapp/deckchecks.)"""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import timedelta

from flask import Blueprint, abort, flash, g, jsonify, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_login import current_user
from sqlalchemy import select
from wtforms.fields.choices import SelectChoice

from .. import history, permissions
from ..appeals import services as appeals
from ..calls import services as calls
from ..choices import infraction_choices, infraction_choices_of, penalty_choices, rank_namer
from ..clock import services as timekeeping
from ..clock.forms import ExtensionForm
from ..errors import FieldError, show_on_form
from ..events.services import by_division, players_of, rounds_of_player
from ..extensions import db, event_policy
from ..floor import int_or_none, parse_utc, player_label, round_choices
from ..i18n import language
from ..infractions import ExtensionReason, extension_owed
from ..infractions import suggest as suggest_penalty
from ..infractions.catalog import text_in
from ..investigations import agreement
from ..investigations import services as investigations
from ..investigations.forms import AcceptForm, decline_form
from ..models import AuditEntry, Player, SubjectKind, TimeExtension, User, utcnow
from ..offline.views import finder_url
from ..permissions import Action, Role, can, event_route, found
from ..records import derived_key
from ..web import answer, button, json_errors, live_list, outbox_post
from . import confirming, services
from .forms import SUBJECT_KINDS, CorrectIncidentForm, IncidentForm, NoteForm, VoidForm

bp = Blueprint("incidents", __name__, template_folder="templates")

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
}


def _phone_view(form) -> services.PhoneView | None:
    """What the phone showed when the judge logged without network; None for a record sent at once."""
    logged_at = services.phone_time(form.logged_at.data, utcnow())
    shown = form.phone_upgraded.data in ("0", "1")  # the phone computed a suggestion itself
    if logged_at is None and not shown:
        return None
    because = tuple(
        int(n) for n in (form.phone_because.data or "").split(",")[:50] if re.fullmatch(r"\s*\d{1,9}\s*", n)
    )
    return services.PhoneView(
        logged_at=logged_at,
        shown=shown,
        suggested=(form.phone_suggested.data or None) if shown else None,
        upgraded=form.phone_upgraded.data == "1",
        because=because,
    )


@bp.app_template_global()
def head_judge_pending(event) -> int:
    """Penalties waiting for the decision of whoever reads the menu (the badge in the event menu)."""
    return confirming.waiting_for(db.session(), event_policy(event), event, getattr(g, "roles", frozenset()))


# ---- incidents ---------------------------------------------------------------------------------------------------


def _for_player(form, event, player_id: int | None) -> None:
    """The form opened for one player (a deck check's "log a problem" for the player checked): their name is filled in.
    Another event's player, or none, leaves the field empty."""
    if player_id is None:
        return
    try:
        player = services.player_of_event(db.session(), event, player_id)
    except FieldError:
        return
    form.player_id.data, form.player.data = str(player.id), player_label(player)


def _from_call(form, event, roles, number: int | None) -> None:
    """The form opened from a judge call the judge holds: its table, its round and the time the match stopped (the
    player's call), so the time extension counts the real call length. A call they may not log from opens a plain
    form, saying why."""
    if number is None:
        return
    try:
        call = calls.call_for_incident(db.session(), actor=current_user, roles=roles, event=event, number=number)
    except FieldError as err:
        flash(err.message, "error")
        return
    if call is None:
        return
    form.call.data = str(call.number)
    form.table.data = call.table_number
    form.call_started_at.data = call.raised_at.replace(microsecond=0).isoformat()
    if call.round is not None:
        form.round.data = call.round.number


@bp.route("/events/<int:event_id>/incidents/call")
@event_route(Action.LOG_INCIDENT)
def start_call(event, roles):
    """The call stopwatch: one tap when called to a table opens the incident form with the call's start time."""
    started = utcnow().replace(microsecond=0).isoformat()
    return redirect(url_for("incidents.new", event_id=event.id, call_started=started, table=request.args.get("table")))


@bp.route("/events/<int:event_id>/incidents/new", methods=["GET", "POST"])
@event_route(Action.LOG_INCIDENT)
def new(event, roles):
    policy = event_policy(event)
    form = IncidentForm()
    # What validation needs only; the service checks round and team itself (a clearer message than "Not a valid
    # choice"), so a successful save does not pay for the look-ups only the rendered form needs.
    form.round.validate_choice = form.team.validate_choice = False
    form.infraction.choices = infraction_choices_of(policy)
    penalty_choices(form.penalty, policy)
    if not form.is_submitted():
        form.call_started_at.data = request.args.get("call_started") or ""
        form.deck_check_id.data = request.args.get("deck_check") or ""
        form.table.data = int_or_none(request.args.get("table"))
        if request.args.get("round"):
            form.round.data = int_or_none(request.args.get("round"))
        form.division.data = int_or_none(request.args.get("division"))
        _from_call(form, event, roles, int_or_none(request.args.get("call")))
        _for_player(form, event, int_or_none(request.args.get("player_id")))
    as_json = outbox_post(form)
    if form.validate_on_submit():
        data = services.IncidentInput(
            key=form.key.data,
            infraction_code=form.infraction.data,
            infraction_query=form.infraction_query.data or "",
            round_number=form.round.data,
            table_number=form.table.data,
            division_id=form.division.data,
            subject_kind=SubjectKind(form.subject_kind.data),
            player_text=form.player.data or "",
            player_id=int_or_none(form.player_id.data),
            new_player=form.new_player.data,
            new_player_code=form.new_player_code.data,
            new_player_reading=form.new_player_reading.data,
            new_player_handle=form.new_player_handle.data,
            team=form.team.data,
            spectator_name=form.spectator.data,
            rank_id=form.penalty.data or None,
            deviation_reason=form.deviation_reason.data or "",
            description=form.description.data or "",
            extension_minutes=form.extension.data,
            minutes_late=form.minutes_late.data,
            extension_proposed=form.extension_proposed.data == "1",
            extension_reason=form.extension_reason.data or "",
            call_started_at=parse_utc(form.call_started_at.data),
            deck_check_id=int_or_none(form.deck_check_id.data),
            phone=_phone_view(form),
        )
        try:
            call = calls.call_for_incident(
                db.session,
                actor=current_user,
                roles=roles,
                event=event,
                number=int_or_none(form.call.data),
                strict=False,
            )
            if call is not None:  # the call's stored start, not the one the form sent back
                data = replace(data, call_started_at=call.raised_at.replace(microsecond=0))
            result = services.log_incident(db.session, policy, actor=current_user, roles=roles, event=event, data=data)
            timekeeping.give_time_for_incident(db.session, actor=current_user, event=event, result=result)
            if call is not None:
                calls.close_with_incident(
                    db.session, actor=current_user, event=event, call=call, incident=result.incident
                )
        except FieldError as err:
            show_on_form(form, err, db.session)
        else:
            incident = result.incident  # read before the commit, which expires it: no second transaction to answer
            url = url_for("incidents.show", event_id=event.id, number=incident.number, saved=1)
            fields = dict(
                created=result.created,
                kind="incident",
                number=incident.number,
                suggested=incident.suggested_rank_id,
                upgraded=incident.upgraded,
                changed=incident.suggestion_changed,
            )
            db.session.commit()
            return answer(as_json, url, **fields)
    if as_json and form.is_submitted():
        return json_errors(form)
    rounds = round_choices(form.round, event)
    usage = services.usage_of(db.session, event)
    infraction_choices(form.infraction, policy, services.most_used(usage))
    teams = services.teams_of(db.session, event)
    form.team.choices = [SelectChoice("", _("Choose the team…"))] + [SelectChoice(t, t) for t in teams]
    divisions = services.divisions_of(db.session, event)
    if len(divisions) > 1:  # each division's current round and seating: the phone shows the chosen division's
        form.division.choices = [SelectChoice(d.id, d.name) for d in divisions]
        if form.division.data not in {d.id for d in divisions}:
            form.division.data = divisions[0].id
        current_of = {d.id: services.current_round(db.session, event, d.id) for d in divisions}
        seating_of_division = {d.id: _seating(services.pairings_of(db.session, current_of[d.id])) for d in divisions}
        byes = {d.id: services.byes_of(db.session, current_of[d.id]) for d in divisions}
        round_of = {d.id: r.number for d, r in ((d, current_of[d.id]) for d in divisions) if r is not None}
        seating: dict = seating_of_division
        current = current_of[form.division.data]
        if current is not None and not form.round.raw_data and not request.args.get("round") and not form.call.data:
            form.round.data = current.number  # the chosen division's current round, not another's
    else:
        current = rounds[-1] if rounds else None
        seating, round_of = _seating(services.pairings_of(db.session, current)), {}
        byes = services.byes_of(db.session, current)
    status = 400 if form.errors else 200
    return render_template(
        "incidents/new.html",
        event=event,
        roles=roles,
        form=form,
        policy=policy,
        players=players_of(db.session, event),
        label=player_label,
        seating=seating,
        byes=byes,
        seating_round=current.number if current else None,
        divisions=divisions if len(divisions) > 1 else [],
        division_rounds=round_of,
        teams=teams,
        has_rounds=bool(rounds),
        now=utcnow(),  # the call stopwatch counts by the server's clock
        finder_url=finder_url(event),
        usage=usage,
    ), status


def _seating(at: dict[int, list[Player]]) -> dict[int, list[dict]]:
    """Table → its players as the phone's seat check and table chips read them."""
    return {t: [{"id": p.id, "label": player_label(p), "reading": p.reading or ""} for p in ps] for t, ps in at.items()}


@bp.route("/events/<int:event_id>/incidents/suggest")
@event_route(Action.LOG_INCIDENT)
def suggest(event, roles):
    """The engine's suggestion for a player (or team) and an infraction, for the form to show without a reload."""
    policy = event_policy(event)
    args = request.args
    try:
        kind = SubjectKind(args.get("kind", "player"))
        if kind is SubjectKind.SPECTATOR:
            players = []
        elif kind is SubjectKind.TEAM:
            players = services.team_members(db.session, event, args.get("team", ""))
            if not players:
                raise FieldError("team", _("Choose a team registered at this event."))
        elif int_or_none(args.get("player_id")) is not None:
            players = [services.player_of_event(db.session, event, int_or_none(args.get("player_id")))]
        else:
            players = [services.find_player(db.session, event, args.get("player", ""))]
        infraction = services.infraction_of(policy, args.get("infraction"))
    except FieldError as err:
        return jsonify(ok=False, field=err.field, message=err.message), 422
    priors = history.priors_of_players(db.session, event, [p.id for p in players])
    this_round = int_or_none(args.get("round"))  # the form's round, for rules that count within a match
    day = services.day_of_round(db.session, event, this_round, int_or_none(args.get("division")))
    minutes_late = int_or_none(args.get("minutes_late"))  # for defaults by minutes late
    if minutes_late is not None and minutes_late < 0:
        minutes_late = None
    suggestion = suggest_penalty(
        policy, event.level, infraction, priors, today=day, this_round=this_round, minutes_late=minutes_late
    )
    lang = language()  # names and the explanation in the judge's language
    body = suggestion.as_dict(lang)
    body.update(
        ok=True,
        subject=", ".join(p.name for p in players) if kind is not SubjectKind.SPECTATOR else "spectator",
        default_label=suggestion.default.label(lang) if suggestion.default else None,
        suggested_name=suggestion.suggested.name_in(lang) if suggestion.suggested else None,
        because=[
            {
                "number": p.ref,
                "round": p.round,
                "infraction": p.infraction_code,
                "rank": p.rank_id,
                "url": url_for("incidents.show", event_id=event.id, number=p.ref),
            }
            for p in suggestion.because
        ],
        in_range=[r.id for r in services.expected_ranks(policy, suggestion, head_judge=Role.HEAD_JUDGE in roles)],
        head_judge_only=sorted(policy.head_judge_only),
        head_judge_infraction=infraction.head_judge_only,
        # the ranks the policy has the head judge confirm for this infraction at this level (confirm:)
        confirm_ranks=[r.id for r in policy.ranks if policy.confirmation_for(infraction, r.id, event.level)],
        unnamed_allowed=policy.may_leave_rank_unnamed(infraction),
        # of those, the ranks an assistant head judge may confirm (the phone names who decides)
        assistant_ranks=[r.id for r in policy.ranks if policy.assistant_may_confirm(infraction, r.id, event.level)],
        pending_if_chosen=Role.HEAD_JUDGE not in roles,
        is_assistant=Role.ASSISTANT_HEAD_JUDGE in roles,
        alternatives=[
            {"condition": text_in(a, "condition", lang), "penalty": a.penalty.label(lang), "rank": a.penalty.min.id}
            for a in suggestion.alternatives
        ],
        penalized=infraction.penalized,
    )
    return jsonify(body)


@bp.route("/events/<int:event_id>/incidents")
@event_route(Action.VIEW_EVENT)
def index(event, roles):
    return render_template(
        "incidents/index.html",
        event=event,
        roles=roles,
        policy=event_policy(event),
        groups=by_division(
            services.divisions_of(db.session, event),
            services.incidents_of(db.session, event, limit=500),
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
    return _show(event, roles, number)


def _show(event, roles, number, *, note_form=None, accept_form=None, status=200):
    policy = event_policy(event)
    incident = found(services.incident_by_number(db.session, event, number))
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


@bp.route("/events/<int:event_id>/incidents/<int:number>/note", methods=["POST"])
@event_route(Action.NOTE_INCIDENT)
def note(event, roles, number):
    """A note on the incident in any state, or a question to the head judge (their feed lists it)."""
    incident = found(services.incident_by_number(db.session, event, number), Action.NOTE_INCIDENT)
    form = NoteForm()
    if form.validate_on_submit():
        try:
            services.add_note(
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
    return _show(event, roles, number, note_form=form, status=400)


@bp.route("/events/<int:event_id>/incidents/<int:number>/edit", methods=["GET", "POST"])
@event_route(Action.CORRECT_INCIDENT)
def edit(event, roles, number):
    policy = event_policy(event)
    incident = found(services.incident_by_number(db.session, event, number), Action.CORRECT_INCIDENT)
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
        }
    )
    round_choices(form.round, event, default_current=False)
    infraction_choices(form.infraction, policy)
    penalty_choices(form.penalty, policy)
    if form.validate_on_submit():
        data = services.IncidentEdit(
            round_number=form.round.data,
            table_number=form.table.data,
            infraction_code=form.infraction.data,
            rank_id=form.penalty.data or None,
            deviation_reason=form.deviation_reason.data or "",
            description=form.description.data or "",
            note=form.note.data or "",
        )
        try:
            changed = services.correct_incident(
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


@bp.route("/events/<int:event_id>/incidents/<int:number>/void", methods=["POST"])
@event_route(Action.VOID_INCIDENT)
def void(event, roles, number):
    incident = found(services.incident_by_number(db.session, event, number), Action.VOID_INCIDENT)
    form = VoidForm()
    if form.validate_on_submit():
        button(
            lambda: services.void_incident(
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
    items = services.head_judge_feed(db.session, policy, event)
    template = "incidents/_feed_items.html" if request.args.get("partial") else "incidents/feed.html"
    return live_list(
        render_template(
            template,
            event=event,
            roles=roles,
            items=items,
            rank_name=rank_namer(policy),
            questions=services.questions_of(db.session, event, items),
        )
    )


incident_page = _show  # the incident's page, for a view of another blueprint answering a form of it (accept)
