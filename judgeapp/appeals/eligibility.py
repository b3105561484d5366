"""Who may appeal an incident and with what: the appellants, their challenges under the event's policy, what they
may contest, and why an incident cannot be appealed now."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from .. import permissions
from ..events import pairing_services
from ..infractions import Challenges, Policy
from ..lifecycles import INCIDENT, IllegalTransition
from ..models import Appeal, AppealStatus, Event, Incident, IncidentStatus, Player
from ..permissions import Role as Authority
from ..permissions import roles_at
from ..texts import gettext as _
from ..texts import ngettext

# ---- who may appeal ------------------------------------------------------------------------------------------------


@dataclass
class Appellant:
    value: str  # form value: "player:<id>" or "spectator"
    name: str
    player: Player | None
    penalized: bool
    challenges: Challenges | None = None
    waiting: bool = False  # this person's appeal of this ruling is already waiting for a decision

    @property
    def may_appeal(self) -> bool:
        return not self.waiting and (self.challenges is None or self.challenges.may_appeal)


def appellants_of(session: Session, event: Event, incident: Incident, policy: Policy | None = None) -> list[Appellant]:
    """Who can appeal this ruling: the penalized player(s) and their opponents at the table (from the pairings)."""
    out = []
    subject_ids = {s.player_id for s in incident.subjects}
    for s in incident.subjects:
        out.append(Appellant(f"player:{s.player.id}", s.player.name, s.player, True))
    if not incident.subjects:
        out.append(Appellant("spectator", incident.subject_name, None, True))
    if incident.table_number is not None:
        seated = pairing_services.pairings_of(session, incident.round).get(incident.table_number, [])
        out += [Appellant(f"player:{p.id}", p.name, p, False) for p in seated if p.id not in subject_ids]
    waiting = {
        (a.appellant_player_id, a.appellant_name)
        for a in session.scalars(
            select(Appeal).where(Appeal.incident_id == incident.id, Appeal.status == AppealStatus.OPEN)
        )
    }
    for a in out:
        a.waiting = (a.player.id if a.player else None, a.name) in waiting
        if a.player is not None:
            a.challenges = challenges_of(session, event, a.player, policy)
    return out


def challenge_limit(event: Event, policy: Policy | None) -> int | None:
    """A player's challenges at this event: what the policy fixes, the event's setting where the policy lets the event
    set one (Bushiroad Floor Rules 1.2.2), or none where the policy limits none. Without a policy: the setting."""
    return event.challenge_limit if policy is None else policy.challenge_limit(event.challenge_limit)


def challenges_text(challenges: Challenges) -> str:
    """Challenges.explain() in the request's language: the challenges a player has left, and appeals still waiting."""
    if challenges.limit is None:
        return _("no challenge limit at this event")
    # the noun follows the limit ("0 of 1 challenge left", "1 of 2 challenges left"); the appeals their own count
    left = ngettext(
        "%(left)s of %(num)d challenge left",
        "%(left)s of %(num)d challenges left",
        challenges.limit,
        left=challenges.left,
    )
    if not challenges.waiting:
        return left
    waiting = ngettext(
        "%(num)d appeal waiting for a decision", "%(num)d appeals waiting for a decision", challenges.waiting
    )
    # TRANSLATORS: the challenges a player has left, then the appeals still waiting ("1 of 2 challenges left, …")
    return _("%(challenges)s, %(waiting)s", challenges=left, waiting=waiting)


CONTESTS = {"penalty": "the penalty", "remedy": "the remedy", "both": "the penalty and the remedy"}


def contest_choices(policy: Policy | None, penalized: bool) -> list[str]:
    """What this appellant may contest: an opponent only the remedy where the policy says so (Bushiroad 1.2.1)."""
    if not penalized and policy is not None and policy.appeals.opponent_remedy_only:
        return ["remedy"]
    return ["penalty", "remedy", "both"]


def challenges_of(session: Session, event: Event, player: Player, policy: Policy | None = None) -> Challenges:
    spent, waiting = session.execute(
        select(
            func.count().filter(Appeal.uses_challenge.is_(True)),
            func.count().filter(Appeal.status == AppealStatus.OPEN),
        ).where(Appeal.event_id == event.id, Appeal.appellant_player_id == player.id)
    ).one()
    return Challenges(challenge_limit(event, policy), spent or 0, waiting or 0)


def why_not_appealable(session: Session, event: Event, incident: Incident) -> str | None:
    """None when the ruling can be appealed now; otherwise the reason to show instead of the button."""
    if event.closed_at is not None:
        return _("The event is closed: no new appeal can be filed.")
    if incident.status is IncidentStatus.VOID:
        return _("This incident is void: there is no ruling to appeal.")
    if incident.status is IncidentStatus.OVERTURNED:
        return _("This ruling was already overturned.")
    if incident.status is IncidentStatus.RECOMMENDED:
        return _("The ruling is not complete: the head judge has not decided the recommended penalty yet.")
    earlier = list(session.scalars(select(Appeal).where(Appeal.incident_id == incident.id)))
    if any(not a.decided_as_proxy for a in earlier if a.status is not AppealStatus.OPEN):
        return _("The head judge has decided an appeal of this ruling: their decision is final.")
    if Authority.HEAD_JUDGE in roles_at(session, incident.judge, event):
        return _("The head judge made this ruling: it is final.")
    try:  # the lifecycle's answer, the one filing would get: a recommendation decided, a ruling the head judge changed
        INCIDENT.move(permissions.incident_state_of(session, incident), "appeal")
    except IllegalTransition as refused:
        return refused.why
    return None
