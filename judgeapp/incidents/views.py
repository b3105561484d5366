"""Incidents: logging with the engine, the call stopwatch, corrections, a player's history and the head judge's
feed. Thin views. (The round clock and time extensions are in judgeapp/clock, deck checks in judgeapp/deckchecks.)"""

from __future__ import annotations

import re
from dataclasses import replace

from flask import Blueprint, flash, g, jsonify, redirect, render_template, request, url_for
from flask_login import current_user
from wtforms.fields.choices import SelectChoice

from .. import history
from ..calls import services as calls
from ..choices import infraction_choices, infraction_choices_of, penalty_choices
from ..clock import services as timekeeping
from ..errors import FieldError, show_on_form
from ..events import pairing_services, player_services, round_services
from ..events.player_services import players_of
from ..extensions import db, event_policy
from ..floor import parse_utc, player_label, round_choices
from ..i18n import language
from ..infractions import suggest as suggest_penalty
from ..infractions.catalog import text_in
from ..infractions.engine import expected_ranks
from ..models import Player, SubjectKind, utcnow
from ..numbers import int_or_none
from ..offline.views import finder_url
from ..permissions import Action, Role, event_route
from ..texts import gettext as _
from ..web import answer, json_errors, outbox_post
from . import confirming, lookup_services, ruling_services, services
from .forms import IncidentForm

bp = Blueprint("incidents", __name__, template_folder="templates")


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
        player = lookup_services.player_of_event(db.session(), event, player_id)
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
            game_number=form.game.data,
            related_to_number=form.related_to.data,
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
    usage = ruling_services.usage_of(db.session, event)
    infraction_choices(form.infraction, policy, ruling_services.most_used(usage))
    teams = lookup_services.teams_of(db.session, event)
    form.team.choices = [SelectChoice("", _("Choose the team…"))] + [SelectChoice(t, t) for t in teams]
    divisions = player_services.divisions_of(db.session, event)
    if len(divisions) > 1:  # each division's current round and seating: the phone shows the chosen division's
        form.division.choices = [SelectChoice(d.id, d.name) for d in divisions]
        if form.division.data not in {d.id for d in divisions}:
            form.division.data = divisions[0].id
        current_of = {d.id: round_services.current_round(db.session, event, d.id) for d in divisions}
        seating_of_division = {
            d.id: _seating(pairing_services.pairings_of(db.session, current_of[d.id])) for d in divisions
        }
        byes = {d.id: pairing_services.byes_of(db.session, current_of[d.id]) for d in divisions}
        round_of = {d.id: r.number for d, r in ((d, current_of[d.id]) for d in divisions) if r is not None}
        seating: dict = seating_of_division
        current = current_of[form.division.data]
        if current is not None and not form.round.raw_data and not request.args.get("round") and not form.call.data:
            form.round.data = current.number  # the chosen division's current round, not another's
    else:
        current = rounds[-1] if rounds else None
        seating, round_of = _seating(pairing_services.pairings_of(db.session, current)), {}
        byes = pairing_services.byes_of(db.session, current)
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


def _related_of(event, policy, players, this_round, division, args):
    """The earlier incident the form links to as the same cause, checked as the save checks it (None: no link)."""
    number = int_or_none(args.get("related_to"))
    if number is None or not players or this_round is None:
        return None
    rnd = round_services.started_round(db.session, event, this_round, division_id=division)
    return ruling_services.related_record(
        db.session, policy, event, number=number, player_ids=[p.id for p in players], round_id=rnd.id
    )


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
            players = lookup_services.team_members(db.session, event, args.get("team", ""))
            if not players:
                raise FieldError("team", _("Choose a team registered at this event."))
        elif int_or_none(args.get("player_id")) is not None:
            players = [lookup_services.player_of_event(db.session, event, int_or_none(args.get("player_id")))]
        else:
            players = [lookup_services.find_player(db.session, event, args.get("player", ""))]
        infraction = ruling_services.infraction_of(policy, args.get("infraction"))
    except FieldError as err:
        return jsonify(ok=False, field=err.field, message=err.message), 422
    priors = history.priors_of_players(db.session, event, [p.id for p in players])
    this_round = int_or_none(args.get("round"))  # the form's round, for rules that count within a match
    day = round_services.day_of_round(db.session, event, this_round, int_or_none(args.get("division")))
    minutes_late = int_or_none(args.get("minutes_late"))  # for defaults by minutes late
    if minutes_late is not None and minutes_late < 0:
        minutes_late = None
    game = int_or_none(args.get("game"))  # for rules counting per game
    try:
        linked = _related_of(event, policy, players, this_round, int_or_none(args.get("division")), args)
    except FieldError as err:
        return jsonify(ok=False, field=err.field, message=err.message), 422
    suggestion = suggest_penalty(
        policy,
        event.level,
        infraction,
        priors,
        today=day,
        this_round=this_round,
        minutes_late=minutes_late,
        this_game=game if game is not None and game >= 1 else None,
        related_to=history.as_prior(linked) if linked is not None else None,
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
        in_range=[r.id for r in expected_ranks(policy, suggestion, head_judge=Role.HEAD_JUDGE in roles)],
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
