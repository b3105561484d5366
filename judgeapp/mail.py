"""Outgoing mail through Flask-Mailman: SMTP when MAIL_SERVER is set, else the server's log (like Django's console
backend: visible to whoever runs the server, never shown in the app)."""

from __future__ import annotations

import logging

from flask_mailman import EmailMessage, Mail
from flask_mailman.backends.base import BaseEmailBackend

mail = Mail()
log = logging.getLogger("judgeapp.mail")
LOG_BACKEND = "judgeapp.mail.LogEmailBackend"


class LogEmailBackend(BaseEmailBackend):
    """Writes each message (recipients, subject, plain body) to the `judgeapp.mail` logger instead of sending it.

    WARNING level, so it shows in gunicorn's and `flask run`'s output without any logging set-up."""

    def send_messages(self, email_messages) -> int:
        for message in email_messages:
            log.warning(
                "No MAIL_SERVER configured; this email was not sent:\nFrom: %s\nTo: %s\nSubject: %s\n\n%s\n%s",
                message.from_email,
                ", ".join(message.to),
                message.subject,
                message.body,
                "-" * 72,
            )
        return len(email_messages)


def send(to: str, subject: str, body: str) -> None:
    """Send one plain-text email to one address (the sender is MAIL_DEFAULT_SENDER). SMTP errors propagate."""
    EmailMessage(subject=subject, body=body, to=[to]).send()
