"""Accounts and server-side sessions."""

from __future__ import annotations

import hashlib
import secrets
import unicodedata
from datetime import datetime, timedelta
from functools import cache
from typing import Any

from flask import current_app, has_app_context
from sqlalchemy import bindparam, select, update
from sqlalchemy.orm import Session
from werkzeug.security import check_password_hash, generate_password_hash

from .. import audit
from ..errors import FieldError
from ..models import AccountToken, TokenPurpose, User, UserSession, utcnow
from ..texts import gettext as _

MIN_PASSWORD = 10
UNUSABLE = "!"  # prefix of a password hash no password matches (an invited account before its first password)
MAX_TOKEN = 100


class LinkGone(Exception):
    """A one-time account link that was used or has expired; `why` says which, for the page."""

    def __init__(self, why: str):
        self.why = why
        super().__init__(why)


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
    """The one spelling of an address: control and format characters removed, trimmed, case-folded.

    Logins, rate limits and staff lists all key on this, so "Floor@X.test", " floor@x.test\\t" and
    "floor@x.test\\x00" are one account everywhere."""
    visible = "".join(c for c in email if unicodedata.category(c) not in ("Cc", "Cf"))
    return visible.strip().casefold()


def unusable_password_hash() -> str:
    """A stored hash that no password matches: the account waits for its owner to set one from an emailed link."""
    return UNUSABLE + secrets.token_hex(16)


def has_password(user: User) -> bool:
    return not user.password_hash.startswith(UNUSABLE)


def _token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def create_user(
    session: Session, *, email: str, name: str, password: str | None, organizer: bool = False, actor: User | None = None
) -> User:
    """Create an account; the email must be new. Without a password the account cannot log in until its owner
    sets one from an invite link (see issue_link)."""
    email = normalise_email(email)
    if session.scalar(select(User.id).where(User.email == email)) is not None:
        raise FieldError("email", _("An account with this email already exists."))
    if password is not None and len(password) < MIN_PASSWORD:
        raise FieldError("password", _("Use at least %(min)s characters.", min=MIN_PASSWORD))
    stored = unusable_password_hash() if password is None else hash_password(password)
    user = User(email=email, name=name.strip(), password_hash=stored, is_organizer=organizer)
    session.add(user)
    audit.record(session, actor, "user.create", user, email=email, organizer=organizer)
    return user


def user_by_email(session: Session, email: str) -> User | None:
    return session.scalar(select(User).where(User.email == normalise_email(email)))


def authenticate(session: Session, email: str, password: str) -> User | None:
    """The user whose email and password match, else None (same cost either way)."""
    user = session.scalar(select(User).where(User.email == normalise_email(email)))
    usable = user is not None and has_password(user)  # an invited account costs the same as an unknown email
    ok = check_password_hash(user.password_hash if user is not None and usable else _dummy_hash(_method()), password)
    return user if usable and ok else None


def start_session(session: Session, user: User, *, days: int, user_agent: str | None = None) -> str:
    """Open a server-side session for `user`; returns the token for the cookie."""
    token = secrets.token_urlsafe(32)
    row = UserSession(
        token_hash=_token_hash(token),
        user_id=user.id,
        expires_at=utcnow() + timedelta(days=days),
        user_agent=(user_agent or "")[:300],
    )
    session.add(row)
    audit.record(session, user, "session.start", row)
    user.session_token = token  # type: ignore[misc]  # a ClassVar only to stay unmapped: set per instance
    return token


# One query per request, built once: the session row and its user together.
_SESSION_USER = (
    select(User)
    .join(UserSession, UserSession.user_id == User.id)
    .where(
        UserSession.token_hash == bindparam("token_hash"),
        UserSession.ended_at.is_(None),
        UserSession.expires_at > bindparam("now"),
    )
)


def load_session_user(session: Session, token: str) -> User | None:
    """The user of a live session token, or None when it was ended, expired or never existed."""
    user = session.scalar(_SESSION_USER, {"token_hash": _token_hash(token), "now": utcnow()})
    if user is None:
        return None
    user.session_token = token  # type: ignore[misc]  # a ClassVar only to stay unmapped: set per instance
    return user


def end_session(session: Session, user: User, token: str, reason: str = "logout") -> None:
    """End one session (logout)."""
    row = session.scalar(select(UserSession).where(UserSession.token_hash == _token_hash(token)))
    if row is not None and row.ended_at is None:
        row.ended_at, row.end_reason = utcnow(), reason
        audit.record(session, user, "session.end", row, reason=reason)


def change_password(
    session: Session, user: User, *, current: str, new: str, days: int, user_agent: str | None = None
) -> str:
    """Set a new password, end every session of the user, and open a fresh one for this browser."""
    if not has_password(user) or not check_password_hash(user.password_hash, current):
        raise FieldError("current_password", _("That is not your current password."))
    if len(new) < MIN_PASSWORD:
        raise FieldError("new_password", _("Use at least %(min)s characters.", min=MIN_PASSWORD))
    _set_password(session, user, new)
    audit.record(session, user, "user.password_change", user)
    return start_session(session, user, days=days, user_agent=user_agent)


def update_profile(session: Session, user: User, *, name: str, reading: str | None, locale: str | None) -> None:
    """The account's name, the reading of it and its language (None: the browser's), audited before → after."""
    before = {"name": user.name, "reading": user.reading, "locale": user.locale}
    user.name, user.reading, user.locale = name.strip(), (reading or "").strip() or None, locale or None
    after = {"name": user.name, "reading": user.reading, "locale": user.locale}
    changed = {k: [before[k], after[k]] for k in before if before[k] != after[k]}
    if changed:
        audit.record(session, user, "user.profile", user, changes=changed)


def _set_password(session: Session, user: User, new: str, when: datetime | None = None) -> None:
    """Store the new password's hash, spend every open one-time link of the account (an earlier reset link stops
    working) and end every open session of it (a copied cookie stops working)."""
    user.password_hash = hash_password(new)
    session.execute(
        update(AccountToken)
        .where(AccountToken.user_id == user.id, AccountToken.used_at.is_(None))
        .values(used_at=when or utcnow())
    )
    session.execute(
        update(UserSession)
        .where(UserSession.user_id == user.id, UserSession.ended_at.is_(None))
        .values(ended_at=utcnow(), end_reason="password changed")
    )


# ---- one-time account links (invite, reset) -------------------------------------------------------------------------


def issue_link(
    session: Session, user: User, purpose: TokenPurpose, *, lifetime: timedelta, actor: User | None = None
) -> str:
    """A one-time link token for `user`; returned once, only its SHA-256 is stored."""
    token = secrets.token_urlsafe(32)
    row = AccountToken(user_id=user.id, purpose=purpose, token_hash=_token_hash(token), expires_at=utcnow() + lifetime)
    session.add(row)
    session.flush()
    audit.record(
        session,
        actor,
        f"account_link.{purpose.value}",
        row,
        user=user.email,
        expires_at=row.expires_at.isoformat(timespec="seconds"),
    )
    return token


def link_by_token(session: Session, token: str, now: datetime | None = None) -> AccountToken:
    """The live link of `token`. LookupError when no such link was ever sent; LinkGone when used or expired."""
    if not token or len(token) > MAX_TOKEN:
        raise LookupError(token)
    row = session.scalar(select(AccountToken).where(AccountToken.token_hash == _token_hash(token)))
    if row is None:
        raise LookupError(token)
    if row.used_at is not None:
        raise LinkGone(
            _("This link has already been used. To set a new password, use “Forgot password?” on the login page.")
        )
    if row.expires_at <= (now or utcnow()):
        raise LinkGone(
            _(
                "This link has expired. Use “Forgot password?” on the login page for a new one, or ask "
                "the organizer to add you again."
            )
        )
    return row


def set_password_by_link(
    session: Session,
    token: str,
    *,
    new: str,
    days: int,
    name: str | None = None,
    user_agent: str | None = None,
    now: datetime | None = None,
) -> tuple[User, str]:
    """Use a one-time link: set the password, spend every open link of the account, end its other sessions, and
    open a session for this browser. Returns the user and the new session's token."""
    row = session.scalar(  # under the row lock on PostgreSQL, so two tabs cannot both use one link
        select(AccountToken)
        .where(AccountToken.id == link_by_token(session, token, now).id)
        .with_for_update()
        .execution_options(populate_existing=True)
    )
    assert row is not None  # link_by_token found it; it is read again under the lock
    if row.used_at is not None:
        raise LinkGone(_("This link has already been used."))
    if len(new) < MIN_PASSWORD:
        raise FieldError("new_password", _("Use at least %(min)s characters.", min=MIN_PASSWORD))
    user = row.user
    _set_password(session, user, new, when=now)
    new_name = (name or "").strip()
    renamed = row.purpose is TokenPurpose.INVITE and new_name and new_name != user.name
    if renamed:
        user.name = new_name
    extra: dict[str, Any] = {"name": user.name} if renamed else {}
    audit.record(session, user, "user.password_set_by_link", user, purpose=row.purpose.value, link=row.id, **extra)
    return user, start_session(session, user, days=days, user_agent=user_agent)
