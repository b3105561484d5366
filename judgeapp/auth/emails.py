"""The account emails (invite, staff notice, password reset) and the links in them.

Links start with JUDGEAPP_BASE_URL, never with the Host header of the request that caused the email: a forged
Host must not turn a reset email into a link to someone else's site."""

from __future__ import annotations

import smtplib
from datetime import timedelta

from flask import current_app, url_for

from .. import mail
from ..models import TokenPurpose, User
from . import services


def external_url(endpoint: str, **values) -> str:
    """An absolute URL on the configured base address (works in a request, a CLI command or a test alike)."""
    base = current_app.config["JUDGEAPP_BASE_URL"].rstrip("/")
    with current_app.test_request_context("/", base_url=base):
        return url_for(endpoint, _external=True, **values)


def lifetime(purpose: TokenPurpose) -> timedelta:
    """How long a link of this kind works (ACCOUNT_INVITE_HOURS, ACCOUNT_RESET_MINUTES)."""
    if purpose is TokenPurpose.INVITE:
        return timedelta(hours=current_app.config["ACCOUNT_INVITE_HOURS"])
    return timedelta(minutes=current_app.config["ACCOUNT_RESET_MINUTES"])


def invite_lifetime() -> timedelta:
    return lifetime(TokenPurpose.INVITE)


def new_link(session, user: User, purpose: TokenPurpose, actor: User | None = None) -> str:
    """Issue a one-time link for `user` and return its absolute URL (to email or print, never to show in a page)."""
    token = services.issue_link(session, user, purpose, lifetime=lifetime(purpose), actor=actor)
    return external_url("auth.set_password", token=token)


def tell_staff(event, assignment, invite_token: str | None, *, organizer: User) -> str:
    """Email the person their new role (with an invite link when their account has no password yet) and return
    what the organizer is told: the same words either way. A failed send is logged for the operator."""
    user, role = assignment.user, assignment.role.label.lower()
    try:
        if invite_token:
            send_invite(
                user,
                external_url("auth.set_password", token=invite_token),
                event_name=event.name,
                role=role,
                organizer=organizer.name,
            )
        else:
            send_staff_notice(user, event_name=event.name, role=role, organizer=organizer.name)
    except (OSError, smtplib.SMTPException):
        current_app.logger.exception("Could not send the staff email to %s", user.email)
        return (
            f"{user.email} is now {role}, but the email to them could not be sent. They can use “Forgot "
            "password?” on the login page with this address, or the server's operator can check its mail settings."
        )
    return f"{user.email} is now {role}; we emailed them."


def _expires(purpose: TokenPurpose) -> str:
    minutes = max(1, int(lifetime(purpose).total_seconds() // 60))
    if minutes % (24 * 60) == 0:
        return f"{minutes // (24 * 60)} day(s)"
    if minutes % 60 == 0:
        return f"{minutes // 60} hour(s)"
    return f"{minutes} minutes"


def send_invite(user: User, url: str, *, event_name: str, role: str, organizer: str) -> None:
    mail.send(
        user.email,
        f"You are {role} at {event_name} on judgeapp",
        (
            f"Hello {user.name},\n\n{organizer} added you as {role} at {event_name}.\n\n"
            f"Choose your password here (the link works once, for {_expires(TokenPurpose.INVITE)}):\n{url}\n\n"
            f"Then log in at {external_url('auth.login')} with this email address.\n"
            "If you did not expect this, ignore this email: nothing happens until the link is used.\n"
        ),
    )


def send_staff_notice(user: User, *, event_name: str, role: str, organizer: str) -> None:
    mail.send(
        user.email,
        f"You are {role} at {event_name} on judgeapp",
        (
            f"Hello {user.name},\n\n{organizer} added you as {role} at {event_name}.\n"
            f"You will find the event in your list when you log in: {external_url('auth.login')}\n"
        ),
    )


def send_reset(user: User, url: str) -> None:
    mail.send(
        user.email,
        "Choose a new judgeapp password",
        (
            f"Hello {user.name},\n\nSomeone (we hope you) asked for a new password for this address.\n\n"
            f"Choose it here (the link works once, for {_expires(TokenPurpose.RESET)}):\n{url}\n\n"
            "If it was not you, ignore this email: your password stays as it is.\n"
        ),
    )
