"""A disqualification decided by a number of judges (Play! Pokémon Penalty Guidelines 4.1: at Regional Championships
and above at least three judges, the head judge among them, conclude it is the right penalty): which rule asks it, who
may agree, and the head judge's choice checked against the count."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from ..errors import FieldError
from ..infractions import Policy
from ..infractions.catalog import Confirmation, ConfirmedBy
from ..models import Event, Incident, StaffAssignment, User
from ..roles import JUDGE_ROLES
from ..texts import gettext as _

__all__ = ["agreeing_judges", "judges_needed", "judges_who_may_agree"]


def judges_needed(policy: Policy, event: Event, incident: Incident) -> Confirmation | None:
    """The policy's rule that a number of judges decide this penalty at the event's level, if it has one."""
    try:
        infraction = policy.infraction(incident.infraction_code)
    except LookupError:
        return None
    rule = policy.confirmation_for(infraction, incident.rank_id, event.level)
    return rule if rule is not None and rule.by is ConfirmedBy.JUDGES else None


def judges_who_may_agree(session: Session, event: Event, actor: User) -> list[User]:
    """The event's judges now (head judge, assistant head judges, floor judges) but the one deciding, by name."""
    return list(
        session.scalars(
            select(User)
            .join(StaffAssignment, StaffAssignment.user_id == User.id)
            .where(
                StaffAssignment.event_id == event.id,
                StaffAssignment.ended_at.is_(None),
                StaffAssignment.role.in_(JUDGE_ROLES),
                User.id != actor.id,
            )
            .order_by(User.name, User.id)
            .distinct()
        )
    )


def agreeing_judges(
    session: Session, policy: Policy, event: Event, incident: Incident, actor: User, agreed: list[int] | None
) -> list[User]:
    rule = judges_needed(policy, event, incident)
    if rule is None or rule.judges is None:
        return []
    staff = {u.id: u for u in judges_who_may_agree(session, event, actor)}
    chosen = list(dict.fromkeys(agreed or []))  # distinct, in the order chosen
    if any(uid not in staff for uid in chosen):
        raise FieldError("judges", _("Choose judges of this event's staff."))
    others = rule.judges - 1  # the head judge is one of them
    if len(chosen) < others:
        raise FieldError(
            "judges",
            _(
                "At this level a disqualification is decided by %(count)s judges, the head judge among them "
                "(%(section)s): tick the %(others)s other judges who agreed.",
                count=rule.judges,
                section=rule.section,
                others=others,
            ),
        )
    return [staff[uid] for uid in chosen]
