"""Accounts and server-side sessions."""
from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta
from functools import cache

from flask import current_app, has_app_context

from sqlalchemy import select, update
from sqlalchemy.orm import Session
from werkzeug.security import check_password_hash, generate_password_hash

from .. import audit
from ..errors import FieldError
from ..models import User, UserSession, utcnow

MIN_PASSWORD = 10


def _method() -> str:
    """werkzeug's hash method: its default (scrypt) unless JUDGEAPP_PASSWORD_HASH names a cheaper one (tests only)."""
    method = current_app.config.get("JUDGEAPP_PASSWORD_HASH") if has_app_context() else None
    return method or "scrypt"


def hash_password(password: str) -> str:
    return generate_password_hash(password, method=_method())


@cache
def _dummy_hash(method: str) -> str:
    """Checked against when the email is unknown, so both failures cost the same time."""
    return generate_password_hash("judgeapp-no-such-user", method=method)


def normalise_email(email: str) -> str:
    return email.strip().lower()


def _token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def create_user(session: Session, *, email: str, name: str, password: str, organizer: bool = False,
                actor: User | None = None) -> User:
    """Create an account; the email must be new."""
    email = normalise_email(email)
    if session.scalar(select(User.id).where(User.email == email)) is not None:
        raise FieldError("email", "An account with this email already exists.")
    if len(password) < MIN_PASSWORD:
        raise FieldError("password", f"Use at least {MIN_PASSWORD} characters.")
    user = User(email=email, name=name.strip(), password_hash=hash_password(password), is_organizer=organizer)
    session.add(user)
    audit.record(session, actor, "user.create", user, email=email, organizer=organizer)
    return user


def authenticate(session: Session, email: str, password: str) -> User | None:
    """The user whose email and password match, else None (same cost either way)."""
    user = session.scalar(select(User).where(User.email == normalise_email(email)))
    ok = check_password_hash(user.password_hash if user else _dummy_hash(_method()), password)
    return user if user and ok else None


def start_session(session: Session, user: User, *, days: int, user_agent: str | None = None) -> str:
    """Open a server-side session for `user`; returns the token for the cookie."""
    token = secrets.token_urlsafe(32)
    row = UserSession(token_hash=_token_hash(token), user_id=user.id, expires_at=utcnow() + timedelta(days=days),
                      user_agent=(user_agent or "")[:300])
    session.add(row)
    audit.record(session, user, "session.start", row)
    user.session_token = token
    return token


def load_session_user(session: Session, token: str) -> User | None:
    """The user of a live session token, or None when it was ended, expired or never existed."""
    user = session.scalar(  # one query per request: the session row and its user together
        select(User).join(UserSession, UserSession.user_id == User.id)
        .where(UserSession.token_hash == _token_hash(token), UserSession.ended_at.is_(None),
               UserSession.expires_at > utcnow())
    )
    if user is None:
        return None
    user.session_token = token
    return user


def end_session(session: Session, user: User, token: str, reason: str = "logout") -> None:
    """End one session (logout)."""
    row = session.scalar(select(UserSession).where(UserSession.token_hash == _token_hash(token)))
    if row is not None and row.ended_at is None:
        row.ended_at, row.end_reason = utcnow(), reason
        audit.record(session, user, "session.end", row, reason=reason)


def change_password(session: Session, user: User, *, current: str, new: str, days: int,
                    user_agent: str | None = None) -> str:
    """Set a new password, end every session of the user, and open a fresh one for this browser."""
    if not check_password_hash(user.password_hash, current):
        raise FieldError("current_password", "That is not your current password.")
    if len(new) < MIN_PASSWORD:
        raise FieldError("new_password", f"Use at least {MIN_PASSWORD} characters.")
    user.password_hash = hash_password(new)
    session.execute(
        update(UserSession).where(UserSession.user_id == user.id, UserSession.ended_at.is_(None))
        .values(ended_at=utcnow(), end_reason="password changed")
    )
    audit.record(session, user, "user.password_change", user)
    return start_session(session, user, days=days, user_agent=user_agent)
