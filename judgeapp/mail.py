"""Outgoing mail through Flask-Mailman: SMTP when MAIL_SERVER is set, else the server's log (like Django's console
backend: visible to whoever runs the server, never shown in the app)."""

from __future__ import annotations

import logging
import smtplib
import unicodedata

from flask_mailman import EmailMessage, Mail
from flask_mailman.backends.base import BaseEmailBackend

mail = Mail()
log = logging.getLogger("judgeapp.mail")
LOG_BACKEND = "judgeapp.mail.LogEmailBackend"
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
