"""An event's staff: who holds which role now, inviting a person to a role, answering an invitation, the organizer
as scorekeeper, ending a role."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from .. import audit, names, permissions
from ..auth.services import create_user, has_password, issue_link, normalise_email
from ..errors import FieldError
from ..lifecycles import InvitationState, invitation_state
from ..models import Event, InvitationStatus, Role, StaffAssignment, StaffInvitation, TokenPurpose, User, utcnow
from ..permissions import Action
from ..records import lock_event
from ..texts import gettext as _
from .forms import ROLE_IN_SENTENCE
from .services import in_reading_order


@dataclass
class StaffResult:
    invitation: StaffInvitation
    invite_token: str | None  # the account has no password yet: this one-time link goes to their inbox, nowhere else


def current_staff(session: Session, event: Event) -> list[StaffAssignment]:
    """The event's staff now, role by role; within a role, in the order they were added, or by the readings of their
    names (gojūon order) at a Japanese event."""
    staff = list(
        session.scalars(
            select(StaffAssignment)
            .where(StaffAssignment.event_id == event.id, StaffAssignment.ended_at.is_(None))
            .order_by(StaffAssignment.role, StaffAssignment.id)
        )
    )
    if not in_reading_order(event):
        return staff
    roles = {a.role: i for i, a in reversed(list(enumerate(staff)))}  # each role where it first comes
    return sorted(staff, key=lambda a: (roles[a.role], names.sort_key(a.user.name, a.user.reading)))


def current_head_judge(session: Session, event: Event) -> StaffAssignment | None:
    return session.scalar(
        select(StaffAssignment).where(
            StaffAssignment.event_id == event.id,
            StaffAssignment.role == Role.HEAD_JUDGE,
            StaffAssignment.ended_at.is_(None),
        )
    )


def add_staff(
    session: Session,
    *,
    actor: User,
    event: Event,
    email: str,
    name: str,
    role: Role | Any,
    invite_lifetime: timedelta = timedelta(days=7),
    replace_head_judge: bool = False,
    now: datetime | None = None,
) -> StaffResult:
    """Invite a person to a role at the event, creating their account (without a password) when they have none.

    The invitation gives no role until its person accepts it (accept_invitation). The organizer's view of it is the
    same whether or not an account existed: the name they typed (else the address) and "invited", never the account
    owner's own name. A new account gets no password (its owner chooses one from an emailed link). Inviting a head
    judge while there is one needs `replace_head_judge`: the organizer is asked first, with the name of who goes."""
    role = Role(role)  # the one Role (judgeapp/roles.py), or its value as a form sends it
    email = normalise_email(email)
    shown = " ".join(name.split()) or email
    current = current_head_judge(session, event) if role is Role.HEAD_JUDGE else None
    if current is not None and not replace_head_judge:
        raise FieldError(
            "replace_head_judge",
            _(
                "%(name)s is the head judge now. Tick the box to replace them once this person accepts.",
                name=current.user.name,
            ),
        )
    user = session.scalar(select(User).where(User.email == email))
    if user is None:  # no name typed: the address stands in until they give theirs with the invite link
        user = create_user(
            session, email=email, name=name.strip() or email.partition("@")[0], password=None, actor=actor
        )
        session.flush()
    already = session.scalar(
        select(StaffAssignment.id).where(
            StaffAssignment.event_id == event.id,
            StaffAssignment.user_id == user.id,
            StaffAssignment.role == role,
            StaffAssignment.ended_at.is_(None),
        )
    )
    waiting = session.scalar(
        select(StaffInvitation.id).where(
            StaffInvitation.event_id == event.id,
            StaffInvitation.user_id == user.id,
            StaffInvitation.role == role,
            StaffInvitation.status == InvitationStatus.INVITED,
            StaffInvitation.expires_at > (now or utcnow()),
        )
    )
    if already is not None:
        raise FieldError(
            "email", _("%(email)s is already %(role)s at this event.", email=email, role=ROLE_IN_SENTENCE[role])
        )
    if waiting is not None:
        raise FieldError(
            "email",
            _("%(email)s is already invited as %(role)s at this event.", email=email, role=ROLE_IN_SENTENCE[role]),
        )
    invitation = StaffInvitation(
        event_id=event.id,
        user_id=user.id,
        invited_by_id=actor.id,
        name=shown[:200],
        role=role,
        status=InvitationStatus.INVITED,
        expires_at=(now or utcnow()) + invite_lifetime,
    )
    session.add(invitation)
    session.flush()
    audit.record(session, actor, "staff.invite", invitation, event_id=event.id, user=email, role=role.value)
    invite = (
        None
        if has_password(user)
        else issue_link(session, user, TokenPurpose.INVITE, lifetime=invite_lifetime, actor=actor)
    )
    return StaffResult(invitation, invite)


def assign_staff(
    session: Session, *, actor: User, event: Event, email: str, name: str, role: Role | Any
) -> StaffAssignment:
    """Give a person a role at the event at once (an accepted invitation; the operator's demo data; tests' set-up),
    creating their account without a password when they have none. A new head judge replaces the current one."""
    role = Role(role)  # the one Role (judgeapp/roles.py), or its value
    email = normalise_email(email)
    user = session.scalar(select(User).where(User.email == email))
    if user is None:
        user = create_user(
            session, email=email, name=name.strip() or email.partition("@")[0], password=None, actor=actor
        )
    return _assign(session, actor, event, user, role)


def _assign(session: Session, actor: User, event: Event, user: User, role: Role) -> StaffAssignment:
    existing = session.scalar(
        select(StaffAssignment).where(
            StaffAssignment.event_id == event.id,
            StaffAssignment.user_id == user.id,
            StaffAssignment.role == role,
            StaffAssignment.ended_at.is_(None),
        )
    )
    if existing is not None:
        raise FieldError(
            "email", _("%(email)s is already %(role)s at this event.", email=user.email, role=ROLE_IN_SENTENCE[role])
        )
    if role == Role.HEAD_JUDGE:
        for old in session.scalars(
            select(StaffAssignment).where(
                StaffAssignment.event_id == event.id,
                StaffAssignment.role == Role.HEAD_JUDGE,
                StaffAssignment.ended_at.is_(None),
            )
        ):
            _end(session, actor, old, f"replaced as head judge by {user.name}")
        session.flush()  # the old head judge's row must be ended before the new one is inserted
    assignment = StaffAssignment(event_id=event.id, user_id=user.id, role=role)
    session.add(assignment)
    session.flush()
    audit.record(session, actor, "staff.add", assignment, event_id=event.id, user=user.email, role=role.value)
    return assignment


# ---- invitations, as the invited person sees and answers them --------------------------------------------------------


def invitation_state_of(invitation: StaffInvitation, now: datetime | None = None) -> InvitationState:
    return invitation_state(invitation.status.value, expired=invitation.expires_at <= (now or utcnow()))


def open_invitations(session: Session, user: User, now: datetime | None = None) -> list[StaffInvitation]:
    """The invitations waiting for `user`'s answer (not answered, not expired), oldest first."""
    return list(
        session.scalars(
            select(StaffInvitation)
            .where(
                StaffInvitation.user_id == user.id,
                StaffInvitation.status == InvitationStatus.INVITED,
                StaffInvitation.expires_at > (now or utcnow()),
            )
            .order_by(StaffInvitation.id)
        )
    )


def invitations_of(session: Session, event: Event) -> list[StaffInvitation]:
    """Every invitation to the event not (yet) accepted, newest first: what the organizer sees of them."""
    return list(
        session.scalars(
            select(StaffInvitation)
            .where(StaffInvitation.event_id == event.id, StaffInvitation.status != InvitationStatus.ACCEPTED)
            .order_by(StaffInvitation.id.desc())
        )
    )


def answer_invitation(
    session: Session, *, user: User, invitation_id: int, accept: bool, now: datetime | None = None
) -> StaffInvitation:
    """The invited person accepts (the role becomes theirs; a head judge replaces the current one) or declines.
    LookupError for an invitation that is not theirs (never shown to anyone else); Refused when it is answered or
    expired. The invitation is kept either way."""
    invitation = session.scalar(select(StaffInvitation).where(StaffInvitation.id == invitation_id).with_for_update())
    if invitation is None or invitation.user_id != user.id:
        raise LookupError(invitation_id)
    transition = "accept" if accept else "decline"
    decision = permissions.answer_invitation(user, invitation, transition, now=now)
    if not decision:
        raise permissions.Refused(decision)
    lock_event(session, invitation.event)
    when = now or utcnow()
    invitation.answered_at = when
    if accept:
        assignment = _assign(session, invitation.invited_by, invitation.event, user, invitation.role)
        invitation.status, invitation.assignment_id = InvitationStatus.ACCEPTED, assignment.id
    else:
        invitation.status = InvitationStatus.DECLINED
    audit.record(
        session,
        user,
        f"staff.invitation_{invitation.status.value}",
        invitation,
        event_id=invitation.event_id,
        role=invitation.role.value,
    )
    return invitation


def join_as_scorekeeper(session: Session, *, actor: User, roles: frozenset[str], event: Event) -> StaffAssignment:
    """The organizer makes themselves the event's scorekeeper (to start and end rounds); their own account, so no
    invitation. Holding the role already changes nothing (a repeated tap)."""
    permissions.transition(session, Action.JOIN_AS_SCOREKEEPER, user=actor, roles=roles, event=event)
    held = session.scalar(
        select(StaffAssignment).where(
            StaffAssignment.event_id == event.id,
            StaffAssignment.user_id == actor.id,
            StaffAssignment.role == Role.SCOREKEEPER,
            StaffAssignment.ended_at.is_(None),
        )
    )
    if held is not None:
        return held
    assignment = StaffAssignment(event_id=event.id, user_id=actor.id, role=Role.SCOREKEEPER)
    session.add(assignment)
    audit.record(
        session,
        actor,
        "staff.add",
        assignment,
        event_id=event.id,
        user=actor.email,
        role=Role.SCOREKEEPER.value,
        own=True,
    )
    return assignment


def current_assignment(session: Session, event: Event, assignment_id: int) -> StaffAssignment | None:
    """A role someone holds now at this event; None for an ended one or another event's."""
    assignment = session.get(StaffAssignment, assignment_id)
    if assignment is None or assignment.event_id != event.id or assignment.ended_at is not None:
        return None
    return assignment


def end_staff(session: Session, *, actor: User, event: Event, assignment_id: int, reason: str) -> StaffAssignment:
    """Take a role away from a person; the assignment is kept, ended, with the reason."""
    assignment = current_assignment(session, event, assignment_id)
    if assignment is None:
        raise LookupError("no such current staff assignment at this event")
    if not reason.strip():
        raise FieldError("reason", _("Say why this person leaves the role."))
    _end(session, actor, assignment, reason.strip())
    return assignment


def _end(session: Session, actor: User, assignment: StaffAssignment, reason: str) -> None:
    assignment.ended_at, assignment.end_reason = utcnow(), reason
    audit.record(
        session,
        actor,
        "staff.end",
        assignment,
        event_id=assignment.event_id,
        note=reason,
        role=assignment.role.value,
        user_id=assignment.user_id,
    )
