"""The penalties waiting for confirmation: the head judge decides every recommendation; an assistant head judge those
the event's policy has "the head judge or an assistant head judge" confirm (Play! Pokémon Penalty Guidelines 4.1)."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from ..infractions import Policy
from ..infractions.catalog import UnknownChoice
from ..models import Event, Incident, IncidentStatus
from ..roles import Role


def assistant_may_confirm(policy: Policy, event: Event, incident: Incident) -> bool:
    try:
        infraction = policy.infraction(incident.infraction_code)
    except UnknownChoice:
        return False
    return policy.assistant_may_confirm(infraction, incident.rank_id, event.level)


def waiting_for(session: Session, policy: Policy, event: Event, roles: frozenset[str]) -> int:
    """How many recommended penalties wait for someone holding `roles` (the badge in the event menu)."""
    waiting = list(
        session.scalars(
            select(Incident).where(Incident.event_id == event.id, Incident.status == IncidentStatus.RECOMMENDED)
        )
    )
    if Role.HEAD_JUDGE in roles:
        return len(waiting)
    if Role.ASSISTANT_HEAD_JUDGE in roles:
        return sum(1 for i in waiting if assistant_may_confirm(policy, event, i))
    return 0
