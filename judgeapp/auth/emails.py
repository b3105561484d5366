"""The account emails (invite, staff notice, password reset) and the links in them.

Links start with JUDGEAPP_BASE_URL, never with the Host header of the request that caused the email: a forged
Host must not turn a reset email into a link to someone else's site."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from flask import current_app, url_for
from flask_babel import force_locale

from .. import jobs, mail
from ..i18n import language_of
from ..models import Job, TokenPurpose, User
from ..texts import gettext as _
from ..texts import ngettext
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


def tell_staff(event, invitation, invite_token: str | None, *, organizer: User) -> tuple[str, str]:
    """Email the person their invitation (with a link to choose a password when their account has none yet) and
    return what the organizer is told, with its flash category, in the organizer's language: the same words whether
    or not the account existed. The invitation is already saved: a mail that cannot be sent (mail.SEND_ERRORS) is
    logged for the operator and the organizer told "saved, but the mail could not be sent"."""
    user = invitation.user
    who = mail.single_line(invitation.name)
    try:
        if invite_token:
            send_invite(
                user,
                external_url("auth.set_password", token=invite_token),
                event_name=event.name,
                role=invitation.role,
                organizer=organizer.name,
                event=event,
            )
        else:
            send_staff_notice(user, event_name=event.name, role=invitation.role, organizer=organizer.name, event=event)
    except mail.SEND_ERRORS:
        current_app.logger.exception("Could not send the staff invitation email to %r", mail.single_line(user.email))
        return (
            _(
                "%(name)s is invited as %(role)s: saved, but the mail could not be sent. They can use “Forgot "
                "password?” on the login page with this address, or the server's operator can check its mail "
                "settings.",
                name=who,
                role=_role(invitation.role),
            ),
            "error",
        )
    return (
        _("%(name)s is invited as %(role)s; we emailed them. The role is theirs once they accept.", name=who,
          role=_role(invitation.role)),
        "success",
    )  # fmt: skip


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
    """The invitation to set a password and join an event, in the person's language (language_of). Names go through
    mail.single_line: an event's name cannot add lines (headers, a forged second mail in the log) to the email."""
    login = external_url("auth.login")
    event_name, organizer = mail.single_line(event_name), mail.single_line(organizer)
    with force_locale(language_of(user, event)):
        subject = _("Invitation: %(role)s at %(event)s on judgeapp", role=_role(role), event=event_name)
        body = "\n\n".join(
            [
                _("Hello %(name)s,", name=mail.single_line(user.name)),
                _("%(organizer)s invites you as %(role)s at %(event)s.", organizer=organizer, role=_role(role),
                  event=event_name),
                _("Choose your password here (the link works once, for %(expires)s):",
                  expires=_expires(TokenPurpose.INVITE)) + "\n" + url,
                _("Then log in at %(url)s with this email address, and accept or decline the invitation on your "
                  "events page.", url=login) + "\n"
                + _("If you did not expect this, ignore this email: nothing happens until the link is used.") + "\n",
            ]
        )  # fmt: skip
    mail.send(user.email, subject, body)


def send_staff_notice(user: User, *, event_name: str, role, organizer: str, event=None) -> None:
    """An invitation to a role at an event for an account that already has a password, in the person's language."""
    login = external_url("auth.login")
    event_name, organizer = mail.single_line(event_name), mail.single_line(organizer)
    with force_locale(language_of(user, event)):
        subject = _("Invitation: %(role)s at %(event)s on judgeapp", role=_role(role), event=event_name)
        body = "\n\n".join(
            [
                _("Hello %(name)s,", name=mail.single_line(user.name)),
                _("%(organizer)s invites you as %(role)s at %(event)s.", organizer=organizer, role=_role(role),
                  event=event_name) + "\n"
                + _("Accept or decline the invitation on your events page when you log in: %(url)s", url=login)
                + "\n"
                + _("Until you accept, the event is not in your list.") + "\n",
            ]
        )  # fmt: skip
    mail.send(user.email, subject, body)


def send_reset(user: User, url: str) -> None:
    """The password reset link, in the account's language (English when it chose none)."""
    with force_locale(language_of(user)):
        subject = _("Choose a new judgeapp password")
        body = "\n\n".join(
            [
                _("Hello %(name)s,", name=mail.single_line(user.name)),
                _("Someone (we hope you) asked for a new password for this address."),
                _("Choose it here (the link works once, for %(expires)s):", expires=_expires(TokenPurpose.RESET))
                + "\n"
                + url,
                _("If it was not you, ignore this email: your password stays as it is.") + "\n",
            ]
        )
    mail.send(user.email, subject, body)


# ---- "Forgot password?": the same work for every address, the mail sent off the request ------------------------------

RESET_JOB = "account.reset"


def request_reset(session, email: str) -> Job:
    """The forgot-password form's one path, whatever the address: a job for the worker, queued when the request
    commits. The request neither looks the address up nor hashes a token nor talks to the mail server, so its answer
    (and how long it takes) is the same for an account's address and for one nobody uses; the worker does the rest."""
    return jobs.submit(session, RESET_JOB, actor=None, event=None, payload={"email": services.normalise_email(email)})


@jobs.task(RESET_JOB, counting="messages_sent", time_limit=120, memory_mb=256)
def _send_reset_job(job: Job, progress: jobs.Progress) -> dict:
    """In the worker: when an account uses the address, a one-time reset link and the mail that carries it."""
    from ..extensions import db

    session: Any = db.session
    email = str(job.payload.get("email", ""))
    job.payload = {}  # the address someone typed is not kept once the job has run
    user = services.user_by_email(session, email)
    if user is None:
        session.commit()
        return {}
    url = new_link(session, user, TokenPurpose.RESET)
    session.commit()
    try:
        send_reset(user, url)
    except mail.SEND_ERRORS as err:
        raise jobs.JobError(_("The message could not be sent: %(error)s", error=type(err).__name__)) from err
    progress.update(1, 1, messages_sent=1)
    return {}
