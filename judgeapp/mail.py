"""Outgoing mail through Flask-Mailman: SMTP when MAIL_SERVER is set, else the server's log (like Django's console
backend: visible to whoever runs the server, never shown in the app)."""

from __future__ import annotations

import logging
import smtplib
import unicodedata
from typing import Any

from flask_mailman import EmailMessage, Mail
from flask_mailman.backends.base import BaseEmailBackend

from . import jobs
from .models import Job
from .texts import gettext as _

mail = Mail()
log = logging.getLogger("judgeapp.mail")
# What sending may raise once the record it tells of is saved: the connection (OSError), the server (SMTPException),
# and a header Flask-Mailman refuses (BadHeaderError, a ValueError). Callers catch these and say "saved, but the mail
# could not be sent" rather than answer 500 after the commit.
SEND_ERRORS: tuple[type[Exception], ...] = (OSError, smtplib.SMTPException, ValueError)


def single_line(text: object) -> str:
    """`text` as one line, for a mail header, a line of a mail body or a log field: every line break and other
    control or format character (CR, LF, NEL, the Unicode line and paragraph separators, tabs, bidi controls) becomes
    one space, and runs of spaces one. The one helper all text that reaches mail headers or logs goes through, so an
    event named "X\nTo: someone\nSubject: …" cannot start a header or a forged mail of its own."""
    visible = "".join(" " if unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp") else c for c in str(text))
    return " ".join(visible.split())


class LogEmailBackend(BaseEmailBackend):
    """Writes each message (recipients, subject, plain body) to the `judgeapp.mail` logger instead of sending it.

    WARNING level, so it shows in gunicorn's and `flask run`'s output without any logging set-up."""

    def send_messages(self, email_messages) -> int:
        for message in email_messages:
            log.warning(
                "No MAIL_SERVER configured; this email was not sent:\nFrom: %s\nTo: %s\nSubject: %s\n\n%s\n%s",
                single_line(message.from_email),
                single_line(", ".join(message.to)),
                single_line(message.subject),
                message.body,
                "-" * 72,
            )
        return len(email_messages)


def send(to: str, subject: str, body: str) -> None:
    """Send one plain-text email to one address (the sender is MAIL_DEFAULT_SENDER); the address and subject go
    through single_line. SEND_ERRORS propagate: callers after a commit catch them."""
    EmailMessage(subject=single_line(subject), body=body, to=[single_line(to)]).send()


# ---- mail later: sent by the job worker, so no request waits on SMTP -------------------------------------------------


def send_later(message: EmailMessage, *, event=None, actor=None) -> Job:
    """Queue a prepared message to be sent by the job worker (a "mail" job, in the caller's transaction: it goes once
    that commits). A failure to send is recorded on the job (failed, with the reason), never raised into the request.
    The message's text is kept on the job only until it is sent (it may hold a one-time link)."""
    from .extensions import db

    payload = {
        "subject": message.subject,
        "body": message.body,
        "from_email": message.from_email,
        "to": list(message.to),
        "cc": list(message.cc),
        "bcc": list(message.bcc),
        "reply_to": list(message.reply_to),
        "headers": dict(message.extra_headers or {}),
        "alternatives": [[content, mimetype] for content, mimetype in getattr(message, "alternatives", [])],
    }
    session: Any = db.session
    return jobs.submit(session, "mail", actor=actor, event=event, payload=payload)


@jobs.task("mail", counting="messages_sent", time_limit=120, memory_mb=256)
def _send_mail_job(job: Job, progress: jobs.Progress) -> dict:
    from flask_mailman import EmailMultiAlternatives

    from .extensions import db

    data = dict(job.payload)
    recipients = len(data["to"]) + len(data["cc"]) + len(data["bcc"])
    job.payload = {"recipients": recipients}  # the text (and any link in it) is not kept once the job has run
    db.session.commit()
    message = EmailMultiAlternatives(
        subject=data["subject"],
        body=data["body"],
        from_email=data["from_email"],
        to=data["to"],
        cc=data["cc"],
        bcc=data["bcc"],
        reply_to=data["reply_to"],
        headers=data["headers"],
        alternatives=[tuple(a) for a in data["alternatives"]],
    )
    try:
        message.send()
    except Exception as err:  # SMTP refused, unreachable, a bad header: the job says so
        raise jobs.JobError(
            _("The message could not be sent: %(error)s", error=f"{type(err).__name__}: {err}")
        ) from err
    progress.update(1, 1, messages_sent=1)
    return {"recipients": recipients}
