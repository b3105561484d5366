"""The base of every form: Flask-WTF (CSRF), plus one rule for all typed text.

Control characters other than tab and line breaks are taken out of every text field before validation: they are
invisible on a page, PostgreSQL cannot store NUL, and they are a classic way to hide text in a record. Everything
printable is kept exactly as typed (markup, quotes, right-to-left marks), and escaped wherever it is shown.
"""
from __future__ import annotations

import re
import uuid

from flask_wtf import FlaskForm
from wtforms import HiddenField, StringField
from wtforms.validators import Length, Optional

CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def strip_control_characters(value):
    return CONTROL.sub("", value) if isinstance(value, str) else value


class Form(FlaskForm):
    class Meta(FlaskForm.Meta):
        def bind_field(self, form, unbound_field, options):
            if issubclass(unbound_field.field_class, StringField):  # also TextAreaField, HiddenField, EmailField…
                options = {**options, "filters": [strip_control_characters, *unbound_field.kwargs.get("filters", ())]}
            return super().bind_field(form, unbound_field, options)


NUMERIC = {"inputmode": "numeric", "autocomplete": "off"}


def one_time_key() -> str:
    """The key a form carries so that a resent form (a double tap, a phone's outbox) is stored once."""
    return uuid.uuid4().hex


class OutboxFields(Form):
    """Set by the phone on a record that waited in its outbox (static/outbox.js)."""

    logged_at = HiddenField(validators=[Optional(), Length(max=64)])  # when logged, by the phone's clock (ISO, UTC)
    outbox_owner = HiddenField(validators=[Optional(), Length(max=20)])  # its writer: another account's is refused
