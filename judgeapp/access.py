"""Who may do what: the one place that decides access to event pages."""
from __future__ import annotations

from functools import wraps
from typing import Callable

from flask import abort, request
from flask_login import current_user, login_required
from sqlalchemy import select

from .database import SAFE_METHODS
from .errors import EventClosed
from .extensions import db
from .models import Event, Role, StaffAssignment, User

ORGANIZER = "organizer"  # the event's own organizer, next to the staff roles
ANY_STAFF = frozenset({ORGANIZER, *(r.value for r in Role)})
HEAD_JUDGE = Role.HEAD_JUDGE.value
JUDGES = (Role.FLOOR_JUDGE, Role.HEAD_JUDGE)


def roles_at(user: User, event: Event) -> frozenset[str]:
    """The roles `user` holds at `event` ('organizer' included)."""
    roles = set(
        db.session.scalars(
            select(StaffAssignment.role).where(
                StaffAssignment.event_id == event.id, StaffAssignment.user_id == user.id, StaffAssignment.ended_at.is_(None)
            )
        )
    )
    out = {r.value for r in roles}
    if event.organizer_id == user.id:
        out.add(ORGANIZER)
    return frozenset(out)


def event_access(*allowed: str | Role, when_closed: bool = False, new_record_form: bool = False) -> Callable:
    """Load the event from the URL; 404 when it does not exist, 403 for anyone without an allowed role there
    (people who are not on its staff included: they hold no role at this event).

    Once the organizer has closed the event its records are read-only: a state-changing request gets 409
    (EventClosed) unless the route is marked `when_closed=True` (reopening, the head judge's addenda). A form that
    only makes new records (`new_record_form=True`) says so already when it is opened.

    The view receives `event` and `roles` keyword arguments instead of `event_id`.
    """
    allowed_ids = frozenset(a.value if isinstance(a, Role) else a for a in allowed) or ANY_STAFF

    def decorate(view: Callable) -> Callable:
        @wraps(view)
        @login_required
        def wrapper(event_id: int, **kwargs):
            event = db.session.get(Event, event_id)
            if event is None:
                abort(404)
            roles = roles_at(current_user, event)
            if not roles & allowed_ids:
                abort(403)
            if event.closed_at is not None and not when_closed and (new_record_form
                                                                    or request.method not in SAFE_METHODS):
                raise EventClosed(event)
            return view(event=event, roles=roles, **kwargs)

        return wrapper

    return decorate


def organizer_account_required(view: Callable) -> Callable:
    """Only accounts flagged as organizers may create events."""

    @wraps(view)
    @login_required
    def wrapper(*args, **kwargs):
        if not current_user.is_organizer:
            abort(403)
        return view(*args, **kwargs)

    return wrapper
