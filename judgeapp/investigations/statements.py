"""A disqualification's statements: typed on the head judge's phone, or written through a one-time link that can be
requested, used once, expire or be withdrawn. Who may do each is the permission table's answer (require)."""

from __future__ import annotations

import hashlib
import secrets
from datetime import datetime
from typing import Any, cast

from sqlalchemy import CursorResult, select, update
from sqlalchemy.orm import Session, selectinload

from .. import audit, permissions
from ..errors import FieldError, one_line
from ..infractions import link_expiry
from ..models import (
    Event,
    Investigation,
    InvestigationStatus,
    Statement,
    StatementRequest,
    StatementRole,
    User,
    utcnow,
)
from ..permissions import Action
from ..records import MAX_STATEMENT, begin_keyed_write, insert_once
from ..texts import gettext as _
from ..texts import lazy_gettext as _l


class LinkGone(Exception):
    """A one-time statement link that was used, withdrawn or has expired."""

    def __init__(self, why: str, event_id: int | None = None):
        self.why = why  # lazily translated: the page says it in the event's language when the browser asks for none
        self.event_id = event_id
        super().__init__(why)


def require(session: Session, action: Action, *, actor: User, roles: frozenset, event: Event, record) -> None:
    """The permission table's answer for this action on this record (its state, the closed event)."""
    permissions.transition(session, action, user=actor, roles=roles, record=record, event=event)


# ---- statements ------------------------------------------------------------------------------------------------------


def _role(value: str | StatementRole) -> StatementRole:
    try:
        return StatementRole(value)
    except ValueError:
        raise FieldError("author_role", _("Choose whose statement this is.")) from None


def _author(name: str) -> str:
    return one_line(name, "author_name", limit=200, missing=_("Give the name of the person making the statement."))


def _text(text: str) -> str:
    text = (text or "").strip()
    if not text:
        raise FieldError("text", _("The statement is empty."))
    if len(text) > MAX_STATEMENT:
        raise FieldError("text", _("At most %(count)s characters.", count=MAX_STATEMENT))
    return text


def add_statement(
    session: Session,
    *,
    actor: User,
    roles: frozenset[str],
    event: Event,
    investigation: Investigation,
    key: str,
    author_name: str,
    author_role: str,
    text: str,
    now: datetime | None = None,
) -> tuple[Statement, bool]:
    """A statement typed on the head judge's phone. After finalizing it is a dated addendum."""
    require(session, Action.TAKE_STATEMENT, actor=actor, roles=roles, event=event, record=investigation)
    key, existing = begin_keyed_write(session, Statement, key, event, scope=investigation.id, lock=False)
    if existing is not None:
        return existing, False
    statement = Statement(
        investigation=investigation,
        author_name=_author(author_name),
        author_role=_role(author_role),
        text=_text(text),
        taken_by_id=actor.id,
        client_key=key,
        taken_at=now or utcnow(),
        addendum=investigation.status is InvestigationStatus.FINALIZED,
    )
    statement, created = insert_once(session, statement, key, scope=investigation.id)
    if not created:
        return statement, False
    audit.record(
        session,
        actor,
        "statement.add",
        statement,
        event_id=event.id,
        investigation=investigation.number,
        author=statement.author_name,
        role=statement.author_role.value,
        addendum=statement.addendum,
    )
    return statement, True


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def request_statement(
    session: Session,
    *,
    actor: User,
    roles: frozenset[str],
    event: Event,
    investigation: Investigation,
    author_name: str,
    author_role: str,
    now: datetime | None = None,
) -> tuple[StatementRequest, str]:
    """A one-time link for one person's statement. The token is returned once and only its hash is stored."""
    require(session, Action.MANAGE_STATEMENT_LINKS, actor=actor, roles=roles, event=event, record=investigation)
    now = now or utcnow()
    token = secrets.token_urlsafe(32)
    request = StatementRequest(
        investigation=investigation,
        token_hash=hash_token(token),
        author_name=_author(author_name),
        author_role=_role(author_role),
        created_by_id=actor.id,
        created_at=now,
        expires_at=link_expiry(now, event.statement_days),
    )
    session.add(request)
    audit.record(
        session,
        actor,
        "statement.request",
        request,
        event_id=event.id,
        investigation=investigation.number,
        author=request.author_name,
        role=request.author_role.value,
        expires=request.expires_at.isoformat(),
    )
    return request, token


def request_by_token(session: Session, token: str, now: datetime | None = None) -> StatementRequest:
    """The statement request a link names; LookupError when there is none, LinkGone when it no longer works."""
    if not token or len(token) > 100:
        raise LookupError(token)
    request = session.scalar(
        select(StatementRequest)
        .where(StatementRequest.token_hash == hash_token(token))
        .options(selectinload(StatementRequest.investigation))
    )
    if request is None:
        raise LookupError(token)
    now = now or utcnow()
    event = request.investigation.event_id
    if request.used_at is not None:
        raise LinkGone(_l("This link has already been used: the statement was received. Each link works once."), event)
    if request.revoked_at is not None:
        raise LinkGone(_l("The head judge has withdrawn this link."), event)
    if request.investigation.status in (InvestigationStatus.DECLINED, InvestigationStatus.WITHDRAWN):
        raise LinkGone(_l("This investigation is closed."), event)
    if request.expires_at <= now:
        raise LinkGone(
            _l("This link has expired. Ask the head judge for a new one if you still want to make a statement."), event
        )
    return request


def submit_by_link(session: Session, *, token: str, text: str, now: datetime | None = None) -> Statement:
    """The person writes their statement on the link; the link is spent in the same transaction."""
    now = now or utcnow()
    request = request_by_token(session, token, now)
    text = _text(text)
    spent = cast(
        CursorResult[Any],
        session.execute(  # an UPDATE's result counts its rows
            update(StatementRequest)
            .where(StatementRequest.id == request.id, StatementRequest.used_at.is_(None))
            .values(used_at=now)
        ),
    )
    if spent.rowcount != 1:  # another submission of the same link won the race
        raise LinkGone(_("This link has already been used: the statement was received. Each link works once."))
    investigation = request.investigation
    statement = Statement(
        investigation=investigation,
        author_name=request.author_name,
        author_role=request.author_role,
        text=text,
        taken_by_id=None,
        client_key=f"link:{request.id}",
        taken_at=now,
        addendum=investigation.status is InvestigationStatus.FINALIZED,
    )
    session.add(statement)
    session.flush()
    request.statement_id, request.used_at = statement.id, now
    audit.record(
        session,
        None,
        "statement.submit_by_link",
        statement,
        event_id=investigation.event_id,
        investigation=investigation.number,
        author=statement.author_name,
        request=request.id,
        addendum=statement.addendum,
    )
    return statement


def revoke_request(
    session: Session, *, actor: User, roles: frozenset[str], event: Event, request: StatementRequest
) -> None:
    require(session, Action.MANAGE_STATEMENT_LINKS, actor=actor, roles=roles, event=event, record=request.investigation)
    if request.used_at is None and request.revoked_at is None:
        request.revoked_at = utcnow()
        audit.record(
            session,
            actor,
            "statement.revoke_link",
            request,
            event_id=event.id,
            investigation=request.investigation.number,
            author=request.author_name,
        )
