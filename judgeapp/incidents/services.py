"""Incidents: logging with the penalty engine, corrections, voiding, the head judge's feed. The history the engine
reads is judgeapp/history.py; the time given back on an incident is stored by its caller (judgeapp/clock)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from .. import audit
from ..choices import catalog_name
from ..errors import FieldError, one_line
from ..events.round_services import started_round
from ..history import as_prior, priors_of_players
from ..i18n import language
from ..infractions import ExtensionOwed, ExtensionReason, Policy, extension_owed, suggest
from ..models import DeckCheck, Event, Incident, IncidentSubject, Player, SubjectKind, TimeExtension, User, utcnow
from ..permissions import Role
from ..records import MAX_TEXT, begin_keyed_write, insert_once
from ..texts import gettext as _
from .lookup_services import check_table, find_player, player_of_event, split_player_text, team_members
from .ruling_services import (
    check_game,
    check_minutes,
    check_minutes_late,
    check_rank,
    chosen_infraction,
    investigate_if_disqualification,
    offered_rank,
    related_record,
    status_for,
)

# ---- logging ------------------------------------------------------------------------------------------------------


@dataclass
class IncidentInput:
    key: str
    infraction_code: str
    round_number: int | None = None
    table_number: int | None = None
    division_id: int | None = None  # the division whose round and table (None: the event's only one)
    subject_kind: SubjectKind = SubjectKind.PLAYER
    player_text: str = ""
    player_id: int | None = None
    new_player: bool = False
    new_player_code: str | None = None
    new_player_reading: str | None = None
    new_player_handle: str | None = None
    team: str | None = None
    spectator_name: str | None = None
    rank_id: str | None = None
    deviation_reason: str = ""
    description: str = ""
    extension_minutes: int | None = None
    extension_proposed: bool = False  # the call stopwatch filled the minutes in: counted again here
    extension_reason: str = ""  # why the judge gives other than the minutes the policy owes for the call
    call_started_at: datetime | None = None
    deck_check_id: int | None = None
    minutes_late: int | None = None  # for an infraction with defaults by minutes late: how late the player was
    game_number: int | None = None  # for an infraction a rule counts per game: the game of the round's match
    related_to_number: int | None = None  # the earlier incident of the same cause (one penalty for related errors)
    phone: PhoneView | None = None  # logged offline: what the phone showed
    infraction_query: str = ""  # the words the judge searched with when choosing the infraction


@dataclass(frozen=True)
class PhoneView:
    """An incident the judge logged on a phone without network, and the suggestion the phone computed then."""

    logged_at: datetime | None = None  # by the phone's clock, already checked by `phone_time`
    shown: bool = False  # the phone computed a suggestion itself (with no server to ask)
    suggested: str | None = None
    upgraded: bool = False
    because: tuple[int, ...] = ()

    def as_json(self) -> dict:
        return {"suggested": self.suggested, "upgraded": self.upgraded, "because": list(self.because)}


PHONE_CLOCK_WINDOW = timedelta(hours=12)


def phone_time(value: str | None, now: datetime) -> datetime | None:
    """When a record waited in a phone's outbox, the time the judge logged it, by the phone's clock (naive UTC).
    Never later than now; a clock more than 12 hours behind is not believed (the record keeps the server's time)."""
    try:
        at = datetime.fromisoformat((value or "").strip()[:40].replace("Z", "+00:00"))
        if at.tzinfo is not None:
            at = at.astimezone(UTC).replace(tzinfo=None)
    except (ValueError, OverflowError):
        return None
    if at > now:
        return now
    return at if now - at <= PHONE_CLOCK_WINDOW else None


@dataclass
class LogResult:
    incident: Incident
    created: bool
    extension: TimeExtension | None = None  # set by the caller that gives the time back (clock.services)
    minutes: int | None = None  # the time the judge gave back on the form, checked, not yet stored
    adjust_reason: str | None = None  # why other than the minutes the policy owes for the call
    call_ended: datetime | None = None
    owed: ExtensionOwed | None = None  # what the call stopwatch says the match is owed


@dataclass
class Subjects:
    kind: SubjectKind
    name: str
    players: list[Player] = field(default_factory=list)


def resolve_subjects(session: Session, *, actor: User, event: Event, data: IncidentInput) -> Subjects:
    if data.subject_kind is SubjectKind.SPECTATOR:
        name = one_line(
            data.spectator_name,
            "spectator",
            limit=200,
            missing=_("Give the spectator's name (or a description if they will not say)."),
        )
        return Subjects(SubjectKind.SPECTATOR, name)
    if data.subject_kind is SubjectKind.TEAM:
        team = (data.team or "").strip()
        members = team_members(session, event, team) if team else []
        if not members:
            raise FieldError("team", _("Choose a team registered at this event."))
        return Subjects(SubjectKind.TEAM, team, members)
    if data.new_player:
        from ..events.player_services import add_player  # one way to register a player

        name, code = split_player_text(data.player_text)
        player = add_player(
            session,
            actor=actor,
            event=event,
            name=name,
            player_code=data.new_player_code or code,
            reading=data.new_player_reading,
            handle=data.new_player_handle,
        )
        session.flush()
        return Subjects(SubjectKind.PLAYER, player.name, [player])
    if data.player_id is not None:
        player = player_of_event(session, event, data.player_id)
    else:
        player = find_player(session, event, data.player_text)
    return Subjects(SubjectKind.PLAYER, player.name, [player])


def checked_description(text: str | None) -> str:
    description = (text or "").strip()
    if len(description) > MAX_TEXT:
        raise FieldError("description", _("At most %(limit)s characters.", limit=MAX_TEXT))
    return description


def log_incident(
    session: Session,
    policy: Policy,
    *,
    actor: User,
    roles: frozenset[str],
    event: Event,
    data: IncidentInput,
    now: datetime | None = None,
) -> LogResult:
    """Store an incident once per one-time key, with the engine's suggestion and any time given back."""
    now = now or utcnow()
    key, existing = begin_keyed_write(session, Incident, data.key, event)
    if existing is not None:
        return LogResult(existing, created=False)
    rnd = started_round(session, event, data.round_number, division_id=data.division_id)
    subjects = resolve_subjects(session, actor=actor, event=event, data=data)
    table = check_table(session, event, data.table_number, required=subjects.kind is not SubjectKind.SPECTATOR)
    infraction = chosen_infraction(policy, data.infraction_code, data.infraction_query)
    priors = priors_of_players(session, event, [p.id for p in subjects.players])
    phone = data.phone
    logged_at = phone.logged_at if phone else None
    minutes_late = check_minutes_late(infraction, data.minutes_late)
    game = check_game(policy, infraction, event.level, data.game_number)
    linked = related_record(
        session,
        policy,
        event,
        number=data.related_to_number,
        player_ids=[p.id for p in subjects.players],
        round_id=rnd.id,
    )
    suggestion = suggest(
        policy,
        event.level,
        infraction,
        priors,
        today=rnd.day,  # the event's day of the incident's round (Day 1, Day 2…), not the calendar's
        this_round=rnd.number,
        minutes_late=minutes_late,
        this_game=game,
        related_to=as_prior(linked) if linked is not None else None,
    )
    changed = bool(
        phone
        and phone.shown
        and (phone.suggested, phone.upgraded)
        != (suggestion.suggested.id if suggestion.suggested else None, suggestion.upgraded)
    )
    rank_id, reason = check_rank(
        policy,
        suggestion,
        data.rank_id,
        data.deviation_reason,
        reason_needed=not changed,
        head_judge=Role.HEAD_JUDGE in roles,
    )
    call_ended = logged_at or now  # a call logged offline ended when the judge logged it, not when it was sent
    call_started = data.call_started_at if data.call_started_at and data.call_started_at <= call_ended else None
    owed = extension_owed(policy, ExtensionReason.RULING, call_ended - call_started) if call_started else None
    minutes, adjust_reason = _call_minutes(event, owed, data)
    if minutes and table is None:
        raise FieldError("table", _("Time is given back to a table: give the table number."))
    description = checked_description(data.description)
    if infraction.penalized and rank_id is None and linked is None and not description:
        raise FieldError(
            "description",
            _(
                "Describe the penalty given: %(policy)s does not name it (%(section)s).",
                policy=catalog_name(policy),
                section=policy.unnamed_penalties.section if policy.unnamed_penalties else _("no rank"),
            ),
        )
    deck_check = _linked_deck_check(session, event, data.deck_check_id)
    status = status_for(policy, infraction, rank_id, roles, event.level, suggestion)
    number = (session.scalar(select(func.max(Incident.number)).where(Incident.event_id == event.id)) or 0) + 1
    incident = Incident(
        event_id=event.id,
        number=number,
        client_key=key,
        round_id=rnd.id,
        table_number=table,
        subject_kind=subjects.kind,
        subject_name=subjects.name,
        infraction_code=infraction.code,
        subsection=infraction.subsection,
        rank_id=rank_id,
        suggested_rank_id=suggestion.suggested.id if suggestion.suggested else None,
        offered_rank_id=offered_rank(suggestion),
        suggestion_explanation=suggestion.explanation(language()),  # in the judge's language at the time
        upgraded=suggestion.upgraded,
        upgrade_refs=[p.ref for p in suggestion.because],
        deviation_reason=reason,
        description=description,
        minutes_late=minutes_late,
        game_number=game,
        related_to_id=linked.id if linked is not None else None,
        status=status,
        deck_check_id=deck_check.id if deck_check else None,
        call_started_at=call_started,
        judge_id=actor.id,
        created_at=now,
        logged_offline_at=logged_at,
        head_judge_decided_at=now if Role.HEAD_JUDGE in roles else None,  # the head judge's own ruling is final
        phone_suggestion=phone.as_json() if phone and phone.shown else None,
        suggestion_changed=changed,
    )
    incident.round = rnd
    session.add(incident)
    for player in subjects.players:
        session.add(IncidentSubject(incident=incident, player_id=player.id))
    incident, created = insert_once(session, incident, key, scope=event.id)
    if not created:
        return LogResult(incident, created=False)
    audit.record(
        session,
        actor,
        "incident.log",
        incident,
        event_id=event.id,
        number=number,
        infraction=infraction.code,
        rank=rank_id,
        suggested=incident.suggested_rank_id,
        upgraded=incident.upgraded,
        status=status.value,
        subject=subjects.name,
        players=[p.id for p in subjects.players],
        note=reason,
        **({"game": game} if game is not None else {}),
        **({"related_to": linked.number} if linked is not None else {}),
        **({"logged_offline_at": logged_at.isoformat()} if logged_at else {}),
        **(
            {"phone_suggested": phone.suggested, "phone_upgraded": phone.upgraded, "suggestion_changed": changed}
            if phone and phone.shown
            else {}
        ),
    )
    if rank_id in policy.head_judge_only:  # a new incident has no investigation to withdraw: no look-up for others
        investigate_if_disqualification(session, policy, actor=actor, event=event, incident=incident)
    result = LogResult(incident, created=True, owed=owed, adjust_reason=adjust_reason)
    result.minutes, result.call_ended = minutes, call_ended  # the caller gives the time (judgeapp/clock)
    return result


MAX_EXTENSION_REASON = 500


def _call_minutes(event: Event, owed: ExtensionOwed | None, data: IncidentInput) -> tuple[int | None, str | None]:
    """The minutes given back with the incident, checked. For a timed call (the policy has a rule): the minutes the
    call stopwatch filled in (the judge did not type them) are counted again here, from the call's start to the save
    by the server's clock, since the phone's clock may be off; minutes the judge typed other than what the policy
    owes need a reason, as on the time extension form."""
    reason = " ".join((data.extension_reason or "").split()) or None
    if reason and len(reason) > MAX_EXTENSION_REASON:
        raise FieldError("extension_reason", _("At most %(limit)s characters.", limit=MAX_EXTENSION_REASON))
    given = data.extension_minutes
    if owed is not None and owed.rule is not None:
        if data.extension_proposed:
            given = owed.minutes
        elif given is not None and given != owed.minutes and not reason:
            raise FieldError(
                "extension_reason",
                _("The policy owes %(owed)s min; say why you give %(given)s.", owed=owed.minutes, given=given),
            )
    return check_minutes(event, given, "extension"), reason


def deck_check_of(session: Session, event: Event, deck_check_id: int) -> DeckCheck | None:
    dc = session.get(DeckCheck, deck_check_id)
    return dc if dc is not None and dc.event_id == event.id else None


def _linked_deck_check(session: Session, event: Event, deck_check_id: int | None) -> DeckCheck | None:
    if deck_check_id is None:
        return None
    dc = deck_check_of(session, event, deck_check_id)
    if dc is None:
        raise FieldError("deck_check", _("That deck check is not part of this event."))
    return dc
