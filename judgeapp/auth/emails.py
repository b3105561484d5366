"""The account emails (invite, staff notice, password reset) and the links in them.

Links start with JUDGEAPP_BASE_URL, never with the Host header of the request that caused the email: a forged
Host must not turn a reset email into a link to someone else's site."""

from __future__ import annotations

import smtplib
from datetime import timedelta

from flask import current_app, url_for
from flask_babel import force_locale, ngettext
from flask_babel import gettext as _

from .. import mail
from ..i18n import DEFAULT_LANGUAGE, LANGUAGES
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


def language_of(user: User, event=None) -> str:
    """The language of an email to `user`: their account's, else the event's (an invitation to it), else English."""
    if user.locale in LANGUAGES:
        return user.locale
    if event is not None and getattr(event, "language", None) in LANGUAGES:
        return event.language
    return DEFAULT_LANGUAGE


def tell_staff(event, assignment, invite_token: str | None, *, organizer: User) -> str:
    """Email the person their new role (with an invite link when their account has no password yet) and return
    what the organizer is told, in the organizer's language: the same words either way. The email is in the
    person's language (language_of). A failed send is logged for the operator."""
    user = assignment.user
    try:
        if invite_token:
            send_invite(
                user,
                external_url("auth.set_password", token=invite_token),
                event_name=event.name,
                role=assignment.role,
                organizer=organizer.name,
                event=event,
            )
        else:
            send_staff_notice(user, event_name=event.name, role=assignment.role, organizer=organizer.name, event=event)
    except (OSError, smtplib.SMTPException):
        current_app.logger.exception("Could not send the staff email to %s", user.email)
        return _(
            "%(email)s is now %(role)s, but the email to them could not be sent. They can use “Forgot "
            "password?” on the login page with this address, or the server's operator can check its mail settings.",
            email=user.email,
            role=_role(assignment.role),
        )
    return _("%(email)s is now %(role)s; we emailed them.", email=user.email, role=_role(assignment.role))


def _role(role) -> str:
    """A staff role as a sentence names it ("head judge"), in the current language; a plain string as given."""
    from ..events.forms import ROLE_IN_SENTENCE

    return str(ROLE_IN_SENTENCE[role]) if role in ROLE_IN_SENTENCE else str(role)


def _expires(purpose: TokenPurpose) -> str:
    minutes = max(1, int(lifetime(purpose).total_seconds() // 60))
    if minutes % (24 * 60) == 0:
        return ngettext("%(num)d day", "%(num)d days", minutes // (24 * 60))
    if minutes % 60 == 0:
        return ngettext("%(num)d hour", "%(num)d hours", minutes // 60)
    return ngettext("%(num)d minute", "%(num)d minutes", minutes)


def send_invite(user: User, url: str, *, event_name: str, role, organizer: str, event=None) -> None:
    """The invitation to set a password and join an event, in the person's language (language_of)."""
    login = external_url("auth.login")
    with force_locale(language_of(user, event)):
        subject = _("You are %(role)s at %(event)s on judgeapp", role=_role(role), event=event_name)
        body = "\n\n".join(
            [
                _("Hello %(name)s,", name=user.name),
                _("%(organizer)s added you as %(role)s at %(event)s.", organizer=organizer, role=_role(role),
                  event=event_name),
                _("Choose your password here (the link works once, for %(expires)s):",
                  expires=_expires(TokenPurpose.INVITE)) + "\n" + url,
                _("Then log in at %(url)s with this email address.", url=login) + "\n"
                + _("If you did not expect this, ignore this email: nothing happens until the link is used.") + "\n",
            ]
        )  # fmt: skip
    mail.send(user.email, subject, body)


def send_staff_notice(user: User, *, event_name: str, role, organizer: str, event=None) -> None:
    """A role at an event for an account that already has a password, in the person's language."""
    login = external_url("auth.login")
    with force_locale(language_of(user, event)):
        subject = _("You are %(role)s at %(event)s on judgeapp", role=_role(role), event=event_name)
        body = "\n\n".join(
            [
                _("Hello %(name)s,", name=user.name),
                _("%(organizer)s added you as %(role)s at %(event)s.", organizer=organizer, role=_role(role),
                  event=event_name) + "\n"
                + _("You will find the event in your list when you log in: %(url)s", url=login) + "\n",
            ]
        )  # fmt: skip
    mail.send(user.email, subject, body)


def send_reset(user: User, url: str) -> None:
    """The password reset link, in the account's language (English when it chose none)."""
    with force_locale(language_of(user)):
        subject = _("Choose a new judgeapp password")
        body = "\n\n".join(
            [
                _("Hello %(name)s,", name=user.name),
                _("Someone (we hope you) asked for a new password for this address."),
                _("Choose it here (the link works once, for %(expires)s):", expires=_expires(TokenPurpose.RESET))
                + "\n"
                + url,
                _("If it was not you, ignore this email: your password stays as it is.") + "\n",
            ]
        )
    mail.send(user.email, subject, body)
