"""What makes a ruling: the infraction chosen, the penalty checked against the engine's suggestion, the minutes,
whether it waits for the head judge, and the investigation of a disqualification."""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from ..choices import catalog_name
from ..errors import FieldError, one_line
from ..history import as_prior, priors_of_players
from ..i18n import language
from ..infractions import Infraction, Policy, Suggestion, UnknownChoice, search, suggest
from ..infractions.catalog import ConfirmedBy, text_in
from ..infractions.engine import asks_game, expected_ranks, head_judge_range, offered_alternative
from ..models import Event, Incident, IncidentStatus, User
from ..permissions import Role
from ..records import MAX_REASON
from ..texts import gettext as _


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
    if suggestion.related is not None:  # one penalty for related errors: the earlier record's stands for both
        if rank_id:
            raise FieldError(
                "penalty",
                _(
                    "Linked to incident #%(number)s as the same cause: this record carries no penalty of its own "
                    "(%(section)s). Leave the penalty empty, or correct incident #%(number)s.",
                    number=suggestion.related.ref,
                    section=suggestion.policy.related_errors.section if suggestion.policy.related_errors else "",
                ),
            )
        return None, reason
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
    linked = incident.related_to
    # the earlier record of the same cause, while its penalty still stands for both (voided or overturned, this record
    # is suggested its own penalty again)
    related = None
    if linked is not None and linked.status in (IncidentStatus.STANDING, IncidentStatus.RECOMMENDED):
        related = as_prior(linked) if linked.rank_id and policy.related_errors else None
    suggestion = suggest(
        policy,
        event.level,
        infraction,
        priors,
        today=incident.round.day,  # the event's day (Day 1, Day 2…), not the calendar's
        this_round=incident.round.number,
        minutes_late=incident.minutes_late,
        this_game=incident.game_number,
        related_to=related,
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


def status_for(
    policy: Policy,
    infraction: Infraction,
    rank_id: str | None,
    roles: frozenset[str],
    level: int,
    suggestion: Suggestion | None = None,
) -> IncidentStatus:
    """A penalty only the head judge may give, an infraction only the head judge decides (Transformers 5.1:
    cheating), a penalty the policy has confirmed at this level (`confirm:`, a Double Prize Card and above), or one
    above a rule's rank that only the head judge reaches (`range_to_by`, Riftbound 704.1.b), is a recommendation when
    anyone else rules it: it waits in the head judge's queue (and the assistant head judges', who give it themselves
    where the policy has them confirm it). One a number of judges decide (Play! Pokémon 4.1) is recommended even from
    the head judge: they issue it with the judges who agreed."""
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
MAX_GAME = 99  # the game of a round's match: 1, 2, 3… (a best of 99 is more than any text knows)


def check_game(policy: Policy, infraction: Infraction, level: int, game: int | None) -> int | None:
    """The game of the round's match, kept only for an infraction a rule counts per game (FaB PPG 3.3)."""
    if game is None or not asks_game(policy, infraction, level):
        return None
    if not 1 <= game <= MAX_GAME:
        raise FieldError("game", _("The game of the match: 1 to %(limit)s.", limit=MAX_GAME))
    return game


def related_record(
    session: Session,
    policy: Policy,
    event: Event,
    *,
    number: int | None,
    player_ids: list[int],
    round_id: int,
    before: int | None = None,
) -> Incident | None:
    """The earlier incident a judge links a new one to as the same cause (one penalty for related errors, Magic IPG
    1.2): of this event, of the same player (or team member) and round, standing or pending, with a penalty, and not
    itself linked to another (link to that one instead)."""
    if number is None:
        return None
    if policy.related_errors is None:
        raise FieldError(
            "related_to",
            _(
                "%(policy)s has no rule of one penalty for related errors: each record carries its own.",
                policy=catalog_name(policy),
            ),
        )
    found = session.scalar(select(Incident).where(Incident.event_id == event.id, Incident.number == number))
    if found is None or (before is not None and found.number >= before):
        raise FieldError("related_to", _("No earlier incident #%(number)s at this event.", number=number))
    if found.status not in (IncidentStatus.STANDING, IncidentStatus.RECOMMENDED):
        raise FieldError(
            "related_to", _("Incident #%(number)s is void or overturned: it gives no penalty.", number=number)
        )
    if not player_ids or not {s.player_id for s in found.subjects} & set(player_ids) or found.round_id != round_id:
        raise FieldError("related_to", _("Incident #%(number)s is not this player's in this round.", number=number))
    if found.related_to_id is not None:
        root = found.related_to
        raise FieldError(
            "related_to",
            _(
                "Incident #%(number)s is itself linked to incident #%(root)s: link to #%(root)s.",
                number=number,
                root=root.number if root else "?",
            ),
        )
    if found.rank_id is None:
        raise FieldError("related_to", _("Incident #%(number)s gave no penalty to share.", number=number))
    return found


def check_minutes_late(infraction: Infraction, minutes: int | None) -> int | None:
    """How late the player was, kept only for an infraction whose defaults go by minutes late."""
    if not infraction.late_rows or minutes is None:
        return None
    if minutes < 0:
        raise FieldError("minutes_late", _("Minutes cannot be negative."))
    if minutes > MAX_MINUTES_LATE:
        raise FieldError("minutes_late", _("At most %(limit)s minutes.", limit=MAX_MINUTES_LATE))
    return minutes
