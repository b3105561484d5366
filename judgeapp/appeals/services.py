"""Appeals of floor rulings: filing, the head judge's queue, proxies and decisions; who may appeal, with which
challenges, is read in eligibility.py and named here too for the views."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, cast

from sqlalchemy import CursorResult, bindparam, func, or_, select, update
from sqlalchemy.orm import Session, selectinload

from .. import audit, permissions
from ..choices import catalog_name, catalog_text
from ..errors import FieldError, one_line
from ..incidents import edit_services, ruling_services
from ..infractions import Outcome, Policy
from ..models import Appeal, AppealStatus, Event, Incident, IncidentStatus, Role, StaffAssignment, User, utcnow
from ..permissions import Action
from ..permissions import Role as Authority
from ..records import MAX_CONTEST, MAX_REASON, begin_keyed_write, insert_once, lock_event
from ..roles import JUDGE_ROLES
from ..texts import gettext as _
from .eligibility import (
    CONTESTS,
    Appellant,
    appellants_of,
    challenge_limit,
    challenges_of,
    challenges_text,
    contest_choices,
    why_not_appealable,
)

# ---- filing ---------------------------------------------------------------------------------------------------------


@dataclass
class AppealInput:
    key: str
    appellant: str
    contest: str
    contests: str = "both"  # penalty | remedy | both


def file_appeal(
    session: Session,
    *,
    actor: User,
    event: Event,
    incident: Incident,
    data: AppealInput,
    policy: Policy | None = None,
    now: datetime | None = None,
) -> tuple[Appeal, bool]:
    """Record a player's appeal of a complete ruling, once per one-time key. Returns (appeal, created). The event's
    policy decides the challenges a player has and what an opponent may contest."""
    now = now or utcnow()
    key, existing = begin_keyed_write(session, Appeal, data.key, event)
    if existing is not None:
        if existing.incident_id != incident.id:
            raise FieldError("key", _("This form's key belongs to another appeal; reload the page."))
        return existing, False
    blocked = why_not_appealable(session, event, incident)
    if blocked:
        raise FieldError("appellant", blocked)
    chosen = next((a for a in appellants_of(session, event, incident, policy) if a.value == data.appellant), None)
    if chosen is None:
        raise FieldError("appellant", _("Choose who appeals: the penalized player or their opponent."))
    if chosen.waiting:
        raise FieldError(
            "appellant", _("%(player)s's appeal of this ruling is already waiting for a decision.", player=chosen.name)
        )
    if chosen.challenges is not None and not chosen.challenges.may_appeal:
        raise FieldError(
            "appellant",
            _(
                "%(player)s has no challenge left (%(challenges)s); the ruling stands.",
                player=chosen.name,
                challenges=challenges_text(chosen.challenges),
            ),
        )
    allowed = contest_choices(policy, chosen.penalized)
    if data.contests not in CONTESTS:
        raise FieldError("contests", _("Choose what is contested: the penalty, the remedy or both."))
    if data.contests not in allowed:
        assert policy is not None
        raise FieldError(
            "contests",
            _(
                "%(player)s is the opponent: under %(section)s an opponent may contest only the remedy (how the game"
                " was put right), never the penalty given to the other player.",
                player=chosen.name,
                section=catalog_text(policy.appeals, "opponent_section"),
            ),
        )
    contest = one_line(data.contest, "contest", limit=MAX_CONTEST, missing=_("Note what the player contests."))
    number = (session.scalar(select(func.max(Appeal.number)).where(Appeal.event_id == event.id)) or 0) + 1
    appeal = Appeal(
        event_id=event.id,
        number=number,
        client_key=key,
        incident=incident,
        appellant_name=chosen.name,
        appellant_player_id=chosen.player.id if chosen.player else None,
        appellant_is_penalized=chosen.penalized,
        contest=contest,
        contests=data.contests,
        ruling=ruling_of(incident),
        ruling_judge_id=incident.judge_id,
        filed_by_id=actor.id,
        filed_at=now,
    )
    appeal, created = insert_once(session, appeal, key, scope=event.id)
    if not created:
        return appeal, False
    audit.record(
        session,
        actor,
        "appeal.file",
        appeal,
        event_id=event.id,
        number=number,
        incident=incident.number,
        appellant=chosen.name,
        contests=data.contests,
        ruling=appeal.ruling,
        note=contest,
    )
    return appeal, True


def ruling_of(incident: Incident) -> dict:
    return {
        "infraction_code": incident.infraction_code,
        "rank_id": incident.rank_id,
        "upgraded": incident.upgraded,
        "description": incident.description,
    }


# ---- the queue ----------------------------------------------------------------------------------------------------


def appeal_by_number(session: Session, event: Event, number: int) -> Appeal | None:
    return session.scalar(
        select(Appeal)
        .where(Appeal.event_id == event.id, Appeal.number == number)
        .options(selectinload(Appeal.incident).selectinload(Incident.round))
    )


def appeals_of_incident(session: Session, incident: Incident) -> list[Appeal]:
    return list(session.scalars(select(Appeal).where(Appeal.incident_id == incident.id).order_by(Appeal.number)))


def appeals_of(session: Session, event: Event, *, open_only: bool = False) -> list[Appeal]:
    """Open appeals oldest first (the order to hear them), then decided ones newest first."""
    query = (
        select(Appeal)
        .where(Appeal.event_id == event.id)
        .options(
            selectinload(Appeal.incident).selectinload(Incident.round),
            selectinload(Appeal.proxy),
            selectinload(Appeal.ruling_judge),
            selectinload(Appeal.decided_by),
        )
    )
    if open_only:
        query = query.where(Appeal.status == AppealStatus.OPEN)
    rows = list(session.scalars(query))
    waiting = sorted((a for a in rows if a.status is AppealStatus.OPEN), key=lambda a: a.number)
    decided = sorted((a for a in rows if a.status is not AppealStatus.OPEN), key=lambda a: -a.number)
    return waiting + decided


def _events_where(*roles: Role):
    """The ids of the events where the user (bound as "user_id") holds one of `roles` now (an ended assignment no
    longer counts)."""
    return select(StaffAssignment.event_id).where(
        StaffAssignment.user_id == bindparam("user_id"),
        StaffAssignment.role.in_(roles),
        StaffAssignment.ended_at.is_(None),
    )


# The header's appeal news on every page (appeals/views.py _appeal_news): built once, not per page (building a
# statement's clauses cost as much as running it), and run with the user's id.
_WAITING = (
    select(func.count())
    .select_from(Appeal)
    .where(
        Appeal.status == AppealStatus.OPEN,
        or_(
            Appeal.event_id.in_(_events_where(Role.HEAD_JUDGE)),
            (Appeal.proxy_id == bindparam("user_id")) & Appeal.event_id.in_(_events_where(Role.FLOOR_JUDGE)),
        ),
    )
)
_HEAD_JUDGE_ANYWHERE = (
    select(StaffAssignment.id)
    .where(
        StaffAssignment.user_id == bindparam("user_id"),
        StaffAssignment.role == Role.HEAD_JUDGE,
        StaffAssignment.ended_at.is_(None),
    )
    .limit(1)
)
_DECISIONS_TO_SEE = (
    select(Appeal)
    .where(
        Appeal.ruling_judge_id == bindparam("user_id"),
        Appeal.status != AppealStatus.OPEN,
        Appeal.seen_by_judge_at.is_(None),
        Appeal.decided_by_id != bindparam("user_id"),
        Appeal.event_id.in_(_events_where(*JUDGE_ROLES)),
    )
    .options(selectinload(Appeal.incident), selectinload(Appeal.decided_by))
    .order_by(Appeal.decided_at)
)


def waiting_for(session: Session, user: User) -> int:
    """Open appeals this person must decide: at events where they are head judge, and those delegated to them while
    they are still a floor judge there (a removed proxy no longer decides, so it no longer waits for them)."""
    return session.scalar(_WAITING, {"user_id": user.id}) or 0


# The header's count in one statement: the appeals waiting, and whether the count is shown at all (to a head judge
# anywhere, or to whoever has appeals waiting), instead of two on every page.
_NEWS_COUNT = select(_WAITING.scalar_subquery(), _HEAD_JUDGE_ANYWHERE.exists())


def appeals_badge(session: Session, user: User) -> int | None:
    """The header's appeals count: `waiting_for`, shown (not None) when there is one or when `user` is a head judge
    anywhere (their 0 says none is waiting); None for everyone else, who sees no count."""
    waiting, head_judge = session.execute(_NEWS_COUNT, {"user_id": user.id}).one()
    return waiting if waiting or head_judge else None


# ---- proxies -------------------------------------------------------------------------------------------------------


def proxy_candidates(session: Session, event: Event, appeal: Appeal) -> list[User]:
    """Floor judges of the event other than the one whose ruling is appealed."""
    return list(
        session.scalars(
            select(User)
            .join(StaffAssignment, StaffAssignment.user_id == User.id)
            .where(
                StaffAssignment.event_id == event.id,
                StaffAssignment.role == Role.FLOOR_JUDGE,
                StaffAssignment.ended_at.is_(None),
                User.id != appeal.ruling_judge_id,
            )
            .order_by(User.name)
            .distinct()
        )
    )


def delegate(
    session: Session,
    *,
    actor: User,
    roles: frozenset[str],
    event: Event,
    appeal: Appeal,
    proxy_id: int | None,
    policy: Policy | None = None,
) -> None:
    """The head judge hands one appeal to another judge, who rules a second time in their place: only where the
    event's policy provides a proxy (Transformers 2.9)."""
    permissions.transition(session, Action.DELEGATE_APPEAL, user=actor, roles=roles, record=appeal, event=event)
    if proxy_id is not None and policy is not None and not policy.appeals.proxy:
        raise FieldError(
            "proxy",
            _(
                "%(policy)s provides no proxy for appeals: the head judge decides this appeal.",
                policy=catalog_name(policy),
            ),
        )
    if proxy_id is None:
        before = appeal.proxy_id
        appeal.proxy_id = None
        audit.record(
            session,
            actor,
            "appeal.take_back",
            appeal,
            event_id=event.id,
            number=appeal.number,
            changed={"proxy": [before, None]},
        )
        return
    if proxy_id not in {u.id for u in proxy_candidates(session, event, appeal)}:
        raise FieldError("proxy", _("Choose a floor judge of this event who did not make the ruling."))
    before, appeal.proxy_id = appeal.proxy_id, proxy_id
    audit.record(
        session,
        actor,
        "appeal.delegate",
        appeal,
        event_id=event.id,
        number=appeal.number,
        changed={"proxy": [before, proxy_id]},
    )


# ---- decisions ------------------------------------------------------------------------------------------------------


@dataclass
class Decision:
    outcome: str
    reason: str = ""
    infraction_code: str | None = None  # for "changed"
    rank_id: str | None = None
    count_challenge: bool = True  # the head judge may decide an upheld appeal does not spend a challenge


def decide(
    session: Session,
    policy: Policy,
    *,
    actor: User,
    roles: frozenset[str],
    event: Event,
    appeal: Appeal,
    data: Decision,
    now: datetime | None = None,
) -> None:
    """Uphold, overturn or change the ruling. A changed penalty replaces the old one for upgrades; the old ruling
    stays in the appeal and in the incident's history."""
    now = now or utcnow()
    permissions.transition(session, Action.DECIDE_APPEAL, user=actor, roles=roles, record=appeal, event=event)
    lock_event(session, event)
    # A no-op write that only matches while the appeal is open: it takes the row's write lock, so of two decisions
    # sent at once the second finds it decided.
    claimed = cast(
        CursorResult[Any],
        session.execute(  # an UPDATE's result counts its rows
            update(Appeal)
            .where(Appeal.id == appeal.id, Appeal.status == AppealStatus.OPEN)
            .values(status=AppealStatus.OPEN)
        ),
    )
    if claimed.rowcount != 1:
        raise FieldError("outcome", _("This appeal is already decided."))
    try:
        outcome = Outcome(data.outcome)
    except ValueError:
        raise FieldError("outcome", _("Choose upheld, overturned or changed.")) from None
    reason = one_line(
        data.reason,
        "reason",
        limit=MAX_REASON,
        missing=(
            _("Give the reason for the decision; the players and the floor judge will read it.")
            if outcome.needs_reason
            else None
        ),
    )
    incident = appeal.incident
    before = edit_services.snapshot(incident)
    as_proxy = Authority.HEAD_JUDGE not in roles
    remedy_only = appeal.contests == "remedy"
    if remedy_only and outcome is Outcome.OVERTURNED:
        raise FieldError(
            "outcome",
            _(
                "This appeal contests only the remedy: the penalty is not under appeal. Uphold the remedy, or choose"
                " “Changed” and give the new remedy as the reason."
            ),
        )
    if remedy_only and outcome is Outcome.CHANGED:
        if (data.infraction_code or incident.infraction_code) != incident.infraction_code or (
            data.rank_id and data.rank_id != incident.rank_id
        ):
            raise FieldError(
                "penalty", _("This appeal contests only the remedy: the infraction and the penalty stay as ruled.")
            )
    elif outcome is Outcome.OVERTURNED:
        incident.status, incident.status_reason = IncidentStatus.OVERTURNED, reason
    elif outcome is Outcome.CHANGED:
        appeal.new_ruling = _change(session, policy, event, incident, data, as_proxy)
    if remedy_only and outcome is Outcome.CHANGED:
        appeal.new_ruling = {"remedy": reason}
    if outcome is not Outcome.UPHELD:
        ruling_services.investigate_if_disqualification(
            session,
            policy,
            actor=actor,
            event=event,
            incident=incident,
            why=f"Appeal #{appeal.number} was decided: {outcome.value}.",
        )
    appeal.status = AppealStatus(outcome.value)
    appeal.decided_by_id, appeal.decided_at, appeal.decided_as_proxy = actor.id, now, as_proxy
    appeal.decision_reason = reason
    # Bushiroad Floor Rules 1.2.2: a challenge is used up when the head judge's decision matches the first ruling;
    # a proxy's second ruling is not the head judge's decision, so where the policy says so it never uses one.
    appeal.uses_challenge = (
        outcome.spends_challenge
        and data.count_challenge
        and appeal.appellant_player_id is not None
        and challenge_limit(event, policy) is not None
        and not (as_proxy and policy.appeals.challenge_spent_by == "head_judge")
    )
    changed = audit.changes(before, edit_services.snapshot(incident))
    if changed:
        incident.updated_at = now
        audit.record(
            session,
            actor,
            "incident.appeal_decision",
            incident,
            event_id=event.id,
            number=incident.number,
            appeal=appeal.number,
            changed=changed,
            note=reason,
        )
    audit.record(
        session,
        actor,
        "appeal.decide",
        appeal,
        event_id=event.id,
        number=appeal.number,
        outcome=outcome.value,
        as_proxy=as_proxy,
        uses_challenge=appeal.uses_challenge,
        note=reason,
    )


def _change(session: Session, policy: Policy, event: Event, incident: Incident, data: Decision, as_proxy: bool) -> dict:
    infraction = ruling_services.infraction_of(policy, data.infraction_code or incident.infraction_code)
    rank_id = data.rank_id or None
    if infraction.penalized and rank_id is None:
        raise FieldError("penalty", _("Choose the penalty that replaces the ruling."))
    if rank_id is not None:
        rank_id = ruling_services.rank_of(policy, rank_id, "penalty").id
        if not infraction.penalized:
            raise FieldError(
                "penalty", _("%(infraction)s is not penalised; choose “No penalty”.", infraction=infraction.code)
            )
    if infraction.code == incident.infraction_code and rank_id == incident.rank_id:
        raise FieldError(
            "outcome",
            _("That is the ruling as it stands: choose “Upheld”, or change the infraction or the penalty."),
        )
    ruling_services.resuggest(session, policy, event, incident, infraction)
    incident.rank_id = rank_id
    pending = as_proxy and rank_id in policy.head_judge_only  # a proxy recommends a disqualification, never gives it
    incident.status = IncidentStatus.RECOMMENDED if pending else IncidentStatus.STANDING
    return {"infraction_code": infraction.code, "rank_id": rank_id}


# ---- the ruling judge hears back -------------------------------------------------------------------------------------


def decisions_to_see(session: Session, user: User) -> list[Appeal]:
    """Decided appeals of this judge's rulings they have not acknowledged yet (shown on every page until they do), at
    events where they judge now: a judge removed from an event no longer hears of it (nor could say "Got it")."""
    return list(session.scalars(_DECISIONS_TO_SEE, {"user_id": user.id}))


def acknowledge(session: Session, *, actor: User, roles: frozenset, event: Event, appeal: Appeal) -> None:
    permissions.transition(session, Action.ACKNOWLEDGE_DECISION, user=actor, roles=roles, record=appeal, event=event)
    if appeal.seen_by_judge_at is None:  # the table let through only a decided appeal
        appeal.seen_by_judge_at = utcnow()
        audit.record(session, actor, "appeal.seen", appeal, event_id=event.id, number=appeal.number)


__all__ = [  # what eligibility.py answers, named here too (the views and tests read appeals through this module)
    "CONTESTS",
    "Appellant",
    "appellants_of",
    "challenge_limit",
    "challenges_of",
    "challenges_text",
    "contest_choices",
    "why_not_appealable",
]
