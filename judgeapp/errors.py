"""Errors raised by services for the views to show next to a form field."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, overload

from .texts import gettext as _

# Text-direction controls (embeddings, overrides, isolates, marks): in a call's one-line note or an uploaded policy's
# texts they only reorder what judges read ("\u202egnp.exe" shows as "exe.png"), so the text keeps its letters and
# loses these.
DIRECTION_CONTROLS = re.compile("[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")

if TYPE_CHECKING:
    from .models import Event


class FieldError(ValueError):
    """Input that is well-formed but wrong in meaning; `field` names the form field to blame."""

    def __init__(self, field: str, message: str):
        self.field, self.message = field, message
        super().__init__(f"{field}: {message}")


@overload
def one_line(text: str | None, field: str, *, limit: int, missing: str) -> str: ...
@overload
def one_line(text: str | None, field: str, *, limit: int, missing: None = None) -> str | None: ...
def one_line(text: str | None, field: str, *, limit: int, missing: str | None = None) -> str | None:
    """Typed text on one line, white space collapsed. FieldError when it is too long, or empty and `missing`
    gives the message; None when empty and optional."""
    value = " ".join((text or "").split())
    if not value:
        if missing:
            raise FieldError(field, missing)
        return None
    if len(value) > limit:
        raise FieldError(field, _("At most %(limit)s characters.", limit=limit))
    return value


def show_on_form(form, err: FieldError, session) -> None:
    """Undo the request's writes and put the service's message next to the field it blames."""
    session.rollback()
    field = getattr(form, err.field, None) or getattr(form, "submit", None)
    if field is None:
        form.form_errors.append(err.message)
    else:
        field.errors.append(err.message)


class EventClosed(Exception):
    """A change asked of an event the organizer has closed: its records are read-only until it is reopened."""

    def __init__(self, event: Event):
        self.event_id = event.id
        super().__init__(
            _(
                "This event is closed: its incidents, appeals and investigations are read-only. "
                "The organizer can reopen it, with a reason, if something must still change."
            )
        )
