"""Incidents: logging with the penalty engine, corrections, voiding, the head judge's feed. The history the engine
reads is judgeapp/history.py; the time given back on an incident is stored by its caller (judgeapp/clock)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from math import ceil
from typing import Literal, overload

from flask_babel import gettext as _
from sqlalchemy import func, or_, select
from sqlalchemy.orm import Session, selectinload

from .. import audit, names, permissions
from ..choices import catalog_name
from ..errors import FieldError, one_line
from ..events.services import (  # noqa: F401  (shared with the floor tools)
    byes_of,
    current_round,
    day_of_round,
    divisions_of,
    pairings_of,
    started_round,
)
from ..history import priors_of_players
from ..i18n import language
from ..infractions import (
    ExtensionOwed,
    ExtensionReason,
    Infraction,
    Policy,
    Suggestion,
    UnknownChoice,
    extension_owed,
    search,
    suggest,
)
from ..infractions.catalog import ConfirmedBy, text_in
from ..infractions.engine import expected_ranks, head_judge_range, offered_alternative
from ..models import (
    AuditEntry,
    DeckCheck,
    Event,
    Incident,
    IncidentStatus,
    IncidentSubject,
    Pairing,
    Player,
    SubjectKind,
    TimeExtension,
    User,
    utcnow,
)
from ..permissions import Action, Role
from ..records import MAX_REASON, MAX_TEXT, begin_keyed_write, insert_once

# ---- look-ups shared by the floor tools ------------------------------------------------------------------------


def table_count(session: Session, event: Event) -> int:
    """Tables in play: enough for every registered player to sit two to a table, or the pairings' highest table."""
    players = select(func.count()).select_from(Player).where(Player.event_id == event.id).scalar_subquery()
    paired = (
        select(func.coalesce(func.max(Pairing.table_number), 0))
        .where(Pairing.event_id == event.id, Pairing.replaced_at.is_(None))
        .scalar_subquery()
    )
    count, highest = session.execute(select(players, paired)).one()
    return max(ceil(count / 2), highest, 1)


@overload
def check_table(
    session: Session, event: Event, table: int | None, *, required: Literal[True] = True, field_name: str = "table"
) -> int: ...
@overload
def check_table(
    session: Session, event: Event, table: int | None, *, required: bool, field_name: str = "table"
) -> int | None: ...
def check_table(
    session: Session, event: Event, table: int | None, *, required: bool = True, field_name: str = "table"
) -> int | None:
    if table is None:
        if required:
            raise FieldError(field_name, _("Give the table number."))
        return None
    tables = table_count(session, event)
    if not 1 <= table <= tables:
        raise FieldError(
            field_name,
            _("There is no table %(table)s: this event has tables 1 to %(tables)s.", table=table, tables=tables),
        )
    return table


def split_player_text(text: str) -> tuple[str, str | None]:
    """'Name · CODE' as the pick list shows it, or whatever was typed."""
    name, sep, code = text.rpartition(" · ")
    return (name.strip(), code.strip() or None) if sep else (text.strip(), None)


def find_player(session: Session, event: Event, text: str, *, field_name: str = "player") -> Player:
    """The event's player a judge means by a name, a player ID, or 'Name · ID' from the pick list.

    Typed any way (judgeapp/names.py): full-width or half-width, hiragana or katakana, with or without spaces and
    hyphens. An ID (the player ID or another platform's, such as the Bushiroad ID) or a whole name, reading or handle
    names one player; else what was typed may be part of one player's name, reading, handle or ID."""
    name, code = split_player_text(text or "")
    if not name and not code:
        raise FieldError(field_name, _("Type a few letters of the player's name or their player ID."))
    base = select(Player).where(Player.event_id == event.id, Player.merged_into_id.is_(None))
    for probe in filter(None, (code, name)):
        found = session.scalars(base.where(func.lower(Player.player_code) == probe.lower())).all()
        if len(found) == 1:
            return found[0]
    exact = [p for p in session.scalars(base.where(func.lower(Player.name) == name.lower()))]
    if len(exact) == 1:
        return exact[0]
    everyone = session.scalars(base.order_by(Player.id)).all()  # the rest compares names as judges type them
    for probe in filter(None, (code, name)):
        by_id = [p for p in everyone if names.equals(probe, p.player_code, *(p.platform_ids or {}).values())]
        if len(by_id) == 1:
            return by_id[0]
    whole = [p for p in everyone if names.equals(name, p.name, p.reading, p.handle)]
    if len(whole) == 1:
        return whole[0]
    partial = [
        p
        for p in everyone
        if names.matches(name, p.name, p.reading, p.handle, p.player_code, *(p.platform_ids or {}).values())
    ]
    if len(partial) == 1:
        return partial[0]
    if not partial and not exact and not whole:
        raise FieldError(
            field_name,
            _(
                "No player at this event matches “%(text)s”. Pick one from the list, "
                "or tick “Not registered yet” to add them.",
                text=text.strip(),
            ),
        )
    raise FieldError(field_name, _("Several players match “%(text)s”; pick one from the list.", text=text.strip()))


def player_of_event(session: Session, event: Event, player_id: int, field_name: str = "player") -> Player:
    player = session.get(Player, player_id)
    if player is None or player.event_id != event.id:
        raise FieldError(field_name, _("That player is not registered at this event."))
    return player


def team_members(session: Session, event: Event, team: str) -> list[Player]:
    return list(
        session.scalars(
            select(Player)
            .where(Player.event_id == event.id, Player.team == team, Player.merged_into_id.is_(None))
            .order_by(Player.name)
        )
    )


def teams_of(session: Session, event: Event) -> list[str]:
    return list(
        session.scalars(
            select(Player.team)
            .where(Player.event_id == event.id, Player.team.is_not(None))
            .distinct()
            .order_by(Player.team)
        )
    )


# ---- the engine's inputs -----------------------------------------------------------------------------------------


def usage_of(session: Session, event: Event) -> dict[str, int]:
    """How often this event has logged each infraction: the finder's tie-break (ties go to the most used)."""
    rows = session.execute(
        select(Incident.infraction_code, func.count())
        .where(Incident.event_id == event.id)
        .group_by(Incident.infraction_code)
    )
    return {code: count for code, count in rows}


def most_used(usage: dict[str, int], limit: int = 6) -> list[str]:
    """The event's most used infractions (`usage_of`), most first, ties by code."""
    return sorted(usage, key=lambda code: (-usage[code], code))[:limit]


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
        from ..events.services import add_player  # one way to register a player

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


def offered_rank(suggestion: Suggestion) -> str | None:
    """The escalation the policy offers as the judge's call (the highest, when several rules offer one), if any."""
    return max(suggestion.offered, key=lambda o: o.rank.order).rank.id if suggestion.offered else None


def check_rank(
    policy: Policy,
    suggestion: Suggestion,
    rank_id: str | None,
    reason: str | None,
    *,
    reason_needed: bool = True,
    head_judge: bool = False,
) -> tuple[str | None, str | None]:
    """The penalty chosen, and the reason kept with it when it departs from the default or the upgrade.
    `reason_needed=False`: the judge chose against another suggestion (the phone's, offline); it is flagged instead."""
    reason = one_line(reason, "deviation_reason", limit=MAX_REASON)
    if not suggestion.infraction.penalized:
        # No penalty by default; the text may allow one when a condition holds (IPG 2.1: a Warning for a missed
        # trigger that is usually detrimental to its controller): those ranks, at this level, and no others.
        allowed = [r for a in suggestion.alternatives for r in policy.ranks if a.penalty.contains(r)]
        if rank_id and rank_id not in {r.id for r in allowed}:
            if not allowed:
                raise FieldError(
                    "penalty",
                    _("%(code)s is not penalised; choose “No penalty”.", code=suggestion.infraction.code),
                )
            names = _(" or ").join(dict.fromkeys(r.name for r in allowed))
            raise FieldError(
                "penalty",
                _(
                    "%(code)s carries no penalty unless its condition holds: then %(penalties)s.",
                    code=suggestion.infraction.code,
                    penalties=names,
                ),
            )
        return (rank_id or None), reason
    if not rank_id:
        if policy.may_leave_rank_unnamed(suggestion.infraction):  # the text names the penalty elsewhere: in words
            return None, reason
        raise FieldError("penalty", _("Choose the penalty."))
    rank = rank_of(policy, rank_id, "penalty")
    alternative = offered_alternative(suggestion, rank)
    if alternative is not None and not reason and rank not in expected_ranks(policy, suggestion):
        # the policy's own alternative: its condition is the reason (issue 33, guard 6); nothing to type
        reason = text_in(alternative, "condition", language())[:MAX_REASON]
    if reason_needed and suggestion.suggested is not None and suggestion.default is not None and not reason:
        if rank.order < suggestion.suggested.order:
            raise FieldError(
                "deviation_reason",
                _(
                    "%(penalty)s is below the suggested %(suggested)s: give a short reason.",
                    penalty=rank.name,
                    suggested=suggestion.suggested.name,
                ),
            )
        if rank not in expected_ranks(policy, suggestion, head_judge=head_judge):
            raise FieldError(
                "deviation_reason",
                _(
                    "%(penalty)s is outside the default %(default)s: give a short reason.",
                    penalty=rank.name,
                    default=suggestion.default.label(),
                ),
            )
    return rank.id, reason


def rank_of(policy: Policy, rank_id: str, field_name: str):
    """The policy's rank for a rank id a form sent."""
    try:
        return policy.rank(rank_id)
    except UnknownChoice:
        raise FieldError(field_name, _("Choose a penalty from the list.")) from None


def resuggest(session: Session, policy: Policy, event: Event, incident: Incident, infraction: Infraction) -> Suggestion:
    """Put `infraction` on the incident with the engine's suggestion against the history before it (and the minutes
    late it was logged with, for defaults by minutes late)."""
    priors = priors_of_players(session, event, [s.player_id for s in incident.subjects], before_number=incident.number)
    incident.minutes_late = incident.minutes_late if infraction.late_rows else None
    suggestion = suggest(
        policy,
        event.level,
        infraction,
        priors,
        today=incident.round.day,  # the event's day (Day 1, Day 2…), not the calendar's
        this_round=incident.round.number,
        minutes_late=incident.minutes_late,
    )
    incident.infraction_code, incident.subsection = infraction.code, infraction.subsection
    incident.suggested_rank_id = suggestion.suggested.id if suggestion.suggested else None
    incident.offered_rank_id = offered_rank(suggestion)
    incident.suggestion_explanation = suggestion.explanation(language())  # in the judge's language at the time
    # the history's priors are the incidents before this one: their refs are incident numbers
    incident.upgraded = suggestion.upgraded
    incident.upgrade_refs = [p.ref for p in suggestion.because if isinstance(p.ref, int)]
    return suggestion


# Every disqualification, given or recommended, has an investigation, and one that stops being a disqualification
# (corrected down, voided, overturned) has its investigation withdrawn. Investigations build on incidents, so incidents
# do not call them: the investigations module registers what to do here when it loads (judgeapp/investigations).
DISQUALIFICATION_HOOKS: list[Callable[..., object]] = []


def investigate_if_disqualification(
    session: Session, policy: Policy, *, actor: User, event: Event, incident: Incident, why: str | None = None
) -> None:
    """After an incident's penalty or status changed: open its investigation when it is a disqualification, withdraw
    it when it no longer is (by the registered hook)."""
    if not DISQUALIFICATION_HOOKS:
        raise RuntimeError("no investigation hook registered: import judgeapp.investigations.services")
    is_dq = incident.rank_id in policy.head_judge_only and incident.status in (
        IncidentStatus.STANDING,
        IncidentStatus.RECOMMENDED,
    )
    for hook in DISQUALIFICATION_HOOKS:
        hook(session, actor=actor, event=event, incident=incident, is_disqualification=is_dq, why=why)


def infraction_of(policy: Policy, code: str | None) -> Infraction:
    try:
        return policy.infraction((code or "").strip())
    except UnknownChoice:
        raise FieldError("infraction", _("Choose an infraction of %(policy)s.", policy=catalog_name(policy))) from None


def chosen_infraction(policy: Policy, code: str | None, query: str = "") -> Infraction:
    """The infraction the judge chose, provided the words they searched with still find it: a choice left over from an
    earlier search ("phone" chose 3.17, then the judge typed "slow play") is not recorded as if they had picked it."""
    infraction = infraction_of(policy, code)
    typed = (query or "").strip()
    if typed and infraction.code not in {hit.code for hit in search.rank(policy, typed)}:
        raise FieldError(
            "infraction",
            _(
                "Your search “%(typed)s” does not find %(code)s %(name)s: choose the infraction again.",
                typed=" ".join(typed.split())[:80],
                code=infraction.code,
                name=catalog_name(infraction),
            ),
        )
    return infraction


def _description(text: str | None) -> str:
    description = (text or "").strip()
    if len(description) > MAX_TEXT:
        raise FieldError("description", _("At most %(limit)s characters.", limit=MAX_TEXT))
    return description


def _status_for(
    policy: Policy,
    infraction: Infraction,
    rank_id: str | None,
    roles: frozenset[str],
    level: int,
    suggestion: Suggestion | None = None,
) -> IncidentStatus:
    """A penalty only the head judge may give, an infraction only the head judge decides (Transformers 5.1:
    cheating), or a penalty the policy has confirmed at this level (`confirm:`, a Double Prize Card and above), is a
    recommendation when anyone else rules it: it waits in the head judge's queue (and the assistant head judges',
    who give it themselves where the policy has them confirm it). One a number of judges decide (Play! Pokémon 4.1) is
    recommended even from the head judge: they issue it with the judges who agreed."""
    needs_head_judge = (
        infraction.head_judge_only
        or (suggestion is not None and rank_id in {r.id for r in head_judge_range(policy, suggestion)})
        or rank_id in policy.head_judge_only
        or policy.confirmation_for(infraction, rank_id, level) is not None
    )
    by_assistant = Role.ASSISTANT_HEAD_JUDGE in roles and policy.assistant_may_confirm(infraction, rank_id, level)
    rule = policy.confirmation_for(infraction, rank_id, level)
    by_judges = rule is not None and rule.by is ConfirmedBy.JUDGES  # the head judge too waits for the judges' count
    pending = by_judges or (needs_head_judge and Role.HEAD_JUDGE not in roles and not by_assistant)
    return IncidentStatus.RECOMMENDED if pending else IncidentStatus.STANDING


def check_minutes(event: Event, minutes: int | None, field_name: str) -> int | None:
    if minutes is None or minutes == 0:
        return None
    if minutes < 0:
        raise FieldError(field_name, _("Minutes cannot be negative."))
    if minutes > event.round_minutes:
        raise FieldError(
            field_name,
            _(
                "%(minutes)s minutes is longer than a whole round (%(round)s min).",
                minutes=minutes,
                round=event.round_minutes,
            ),
        )
    return minutes


MAX_MINUTES_LATE = 24 * 60


def check_minutes_late(infraction: Infraction, minutes: int | None) -> int | None:
    """How late the player was, kept only for an infraction whose defaults go by minutes late."""
    if not infraction.late_rows or minutes is None:
        return None
    if minutes < 0:
        raise FieldError("minutes_late", _("Minutes cannot be negative."))
    if minutes > MAX_MINUTES_LATE:
        raise FieldError("minutes_late", _("At most %(limit)s minutes.", limit=MAX_MINUTES_LATE))
    return minutes


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
    suggestion = suggest(
        policy,
        event.level,
        infraction,
        priors,
        today=rnd.day,  # the event's day of the incident's round (Day 1, Day 2…), not the calendar's
        this_round=rnd.number,
        minutes_late=minutes_late,
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
    description = _description(data.description)
    if infraction.penalized and rank_id is None and not description:
        raise FieldError(
            "description",
            _(
                "Describe the penalty given: %(policy)s does not name it (%(section)s).",
                policy=catalog_name(policy),
                section=policy.unnamed_penalties.section if policy.unnamed_penalties else _("no rank"),
            ),
        )
    deck_check = _linked_deck_check(session, event, data.deck_check_id)
    status = _status_for(policy, infraction, rank_id, roles, event.level, suggestion)
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


# ---- corrections and voiding ----------------------------------------------------------------------------------------


def incident_by_number(session: Session, event: Event, number: int) -> Incident | None:
    return session.scalar(
        select(Incident)
        .where(Incident.event_id == event.id, Incident.number == number)
        .options(selectinload(Incident.subjects).selectinload(IncidentSubject.player))
    )


@dataclass
class IncidentEdit:
    round_number: int
    table_number: int | None
    infraction_code: str
    rank_id: str | None
    deviation_reason: str
    description: str
    note: str = ""  # why the correction


# what makes a ruling: a head judge's correction of one of these is their own decision (issue 33, guard 14)
RULING_FIELDS = frozenset({"infraction_code", "rank_id", "status"})


def snapshot(incident: Incident) -> dict:
    return {
        "round": incident.round.number,
        "table_number": incident.table_number,
        "infraction_code": incident.infraction_code,
        "rank_id": incident.rank_id,
        "deviation_reason": incident.deviation_reason,
        "description": incident.description,
        "status": incident.status.value,
    }


def correct_incident(
    session: Session,
    policy: Policy,
    *,
    actor: User,
    roles: frozenset[str],
    event: Event,
    incident: Incident,
    data: IncidentEdit,
) -> dict:
    """Change an incident's facts; the engine re-checks the penalty against the history before it. Returns the diff."""
    # the judge who logged it while it stands as they ruled; the head judge always (a dated, audited change)
    permissions.transition(session, Action.CORRECT_INCIDENT, user=actor, roles=roles, record=incident, event=event)
    before = snapshot(incident)
    rnd = started_round(session, event, data.round_number, division_id=incident.round.division_id)
    table = check_table(session, event, data.table_number, required=incident.subject_kind is not SubjectKind.SPECTATOR)
    infraction = infraction_of(policy, data.infraction_code)
    suggestion = resuggest(session, policy, event, incident, infraction)
    rank_id, reason = check_rank(
        policy, suggestion, data.rank_id, data.deviation_reason, head_judge=Role.HEAD_JUDGE in roles
    )
    description = _description(data.description)
    incident.round, incident.round_id, incident.table_number = rnd, rnd.id, table
    incident.rank_id, incident.deviation_reason, incident.description = rank_id, reason, description
    if incident.status in (IncidentStatus.STANDING, IncidentStatus.RECOMMENDED):
        incident.status = _status_for(policy, infraction, rank_id, roles, event.level, suggestion)
    changed = audit.changes(before, snapshot(incident))
    investigate_if_disqualification(
        session,
        policy,
        actor=actor,
        event=event,
        incident=incident,
        why=f"Incident #{incident.number} was corrected to {rank_id or 'no penalty'}.",
    )
    if changed:
        incident.updated_at = utcnow()
        if Role.HEAD_JUDGE in roles and RULING_FIELDS & changed.keys():
            # a new infraction or penalty is their decision, final; a clerical fix (a table number, the account)
            # leaves the ruling the floor judge's, and the player may still appeal it to the head judge
            incident.head_judge_decided_at = incident.updated_at
        note = " ".join((data.note or "").split())[:MAX_REASON] or None
        audit.record(
            session,
            actor,
            "incident.correct",
            incident,
            event_id=event.id,
            number=incident.number,
            changed=changed,
            note=note,
        )
    return changed


def void_incident(
    session: Session,
    policy: Policy,
    *,
    actor: User,
    roles: frozenset[str],
    event: Event,
    incident: Incident,
    reason: str,
) -> None:
    """Withdraw an incident: kept, marked void with the reason, no longer counted for upgrades."""
    permissions.transition(session, Action.VOID_INCIDENT, user=actor, roles=roles, record=incident, event=event)
    reason = one_line(reason, "reason", limit=MAX_REASON, missing=_("Say why the incident is withdrawn."))
    before = incident.status.value
    incident.status, incident.status_reason, incident.updated_at = IncidentStatus.VOID, reason, utcnow()
    if Role.HEAD_JUDGE in roles:
        incident.head_judge_decided_at = incident.updated_at
    audit.record(
        session,
        actor,
        "incident.void",
        incident,
        event_id=event.id,
        number=incident.number,
        changed={"status": [before, "void"]},
        note=reason,
    )
    investigate_if_disqualification(
        session,
        policy,
        actor=actor,
        event=event,
        incident=incident,
        why=f"Incident #{incident.number} was voided: {reason}",
    )


def add_note(
    session: Session,
    *,
    actor: User,
    roles: frozenset,
    event: Event,
    incident: Incident,
    text: str,
    ask_head_judge: bool = False,
) -> None:
    """A note on the record in any state (the way a floor judge speaks to a decided incident), or a question that
    appears in the head judge's feed. Kept as an entry of the incident's history."""
    permissions.transition(session, Action.NOTE_INCIDENT, user=actor, roles=roles, record=incident, event=event)
    text = (text or "").strip()
    if not text:
        raise FieldError("text", _("Write the note."))
    if len(text) > MAX_NOTE:
        raise FieldError("text", _("At most %(limit)s characters.", limit=MAX_NOTE))
    action = "incident.question" if ask_head_judge and Role.HEAD_JUDGE not in roles else "incident.note"
    audit.record(session, actor, action, incident, event_id=event.id, number=incident.number, note=text)


MAX_NOTE = 2000


# ---- reading ---------------------------------------------------------------------------------------------------------


def incidents_of(session: Session, event: Event, *, limit: int | None = None) -> list[Incident]:
    query = (
        select(Incident)
        .where(Incident.event_id == event.id)
        .order_by(Incident.number.desc())
        .options(selectinload(Incident.round), selectinload(Incident.judge))
    )
    if limit:
        query = query.limit(limit)
    return list(session.scalars(query))


def head_judge_feed(session: Session, policy: Policy, event: Event, limit: int = 100) -> list[Incident]:
    """What the policy makes the floor report to the head judge, the penalties waiting for them, and incidents sent
    from a phone's outbox whose suggestion changed on the way (to be checked), newest first."""
    reported = sorted(policy.report_to_head_judge | policy.head_judge_only)
    return list(
        session.scalars(
            select(Incident)
            .where(
                Incident.event_id == event.id,
                or_(
                    Incident.rank_id.in_(reported),
                    Incident.status == IncidentStatus.RECOMMENDED,
                    Incident.suggestion_changed.is_(True),
                    Incident.id.in_(_questions(event)),
                ),
            )
            .order_by(Incident.number.desc())
            .limit(limit)
            .options(selectinload(Incident.round), selectinload(Incident.judge))
        )
    )


def questions_of(session: Session, event: Event, incidents: list[Incident]) -> dict[int, list[tuple[str, str]]]:
    """What floor judges asked the head judge about these incidents: incident id -> [(who, question)], oldest first."""
    if not incidents:
        return {}
    rows = session.execute(
        select(AuditEntry.object_id, User.name, AuditEntry.note)
        .join(User, User.id == AuditEntry.actor_id)
        .where(
            AuditEntry.event_id == event.id,
            AuditEntry.object_type == "Incident",
            AuditEntry.action == "incident.question",
            AuditEntry.object_id.in_([i.id for i in incidents]),
        )
        .order_by(AuditEntry.id)
    )
    out: dict[int, list[tuple[str, str]]] = {}
    for incident_id, who, note in rows:
        if incident_id is None:  # never: the query asks for these incidents' ids
            continue
        out.setdefault(incident_id, []).append((who, note or ""))
    return out


def _questions(event: Event):
    """Incidents a floor judge asked the head judge about."""
    return select(AuditEntry.object_id).where(
        AuditEntry.event_id == event.id, AuditEntry.object_type == "Incident", AuditEntry.action == "incident.question"
    )


def pending_count(session: Session, event: Event) -> int:
    return (
        session.scalar(
            select(func.count())
            .select_from(Incident)
            .where(Incident.event_id == event.id, Incident.status == IncidentStatus.RECOMMENDED)
        )
        or 0
    )
