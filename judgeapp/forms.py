"""The base of every form: Flask-WTF (CSRF), plus one rule for all typed text.

Control characters other than tab and line breaks are taken out of every text field before validation: they are
invisible on a page, PostgreSQL cannot store NUL, and they are a classic way to hide text in a record. Everything
printable is kept exactly as typed (markup, quotes, right-to-left marks), and escaped wherever it is shown.
"""

from __future__ import annotations

import re
import uuid
from decimal import Decimal

import wtforms.widgets.core
from flask_wtf import FlaskForm
from markupsafe import Markup, escape
from wtforms import Field, HiddenField, SelectField, StringField
from wtforms.validators import DataRequired, Length, NumberRange, Optional, StopValidation
from wtforms.widgets import NumberInput

from .breach import MaskedCSRF
from .texts import gettext as _
from .texts import lazy_gettext as _l

CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def html_params(**kwargs) -> Markup:
    """WTForms' html_params, byte for byte (tests/unit/test_forms_html.py), without its Markup.format per attribute:
    that runs string.Formatter, and a form page's ~130 attributes (a select's every option) spent a third of the
    page's time there. WTForms' widgets call it by their module's name, Input and Button by their own: set below."""
    params = []
    for key, value in sorted(kwargs.items()):
        key = str(escape(wtforms.widgets.core.clean_key(key)))
        if value is True:
            params.append(key)
        elif value is not False:
            text = str(escape(value))  # a Markup value is kept as it is, quotes and all: WTForms writes " as &quot;
            params.append(f'{key}="{text.replace(chr(34), "&quot;")}"')
    return Markup(" ".join(params))


WTFORMS_HTML_PARAMS = wtforms.widgets.core.html_params  # the original, kept for the test that compares the two
wtforms.widgets.core.html_params = html_params
wtforms.widgets.core.Input.html_params = staticmethod(html_params)  # these two hold their own reference
wtforms.widgets.core.Button.html_params = staticmethod(html_params)


def strip_control_characters(value):
    return CONTROL.sub("", value) if isinstance(value, str) else value


class Form(FlaskForm):
    class Meta(FlaskForm.Meta):
        csrf_class = MaskedCSRF  # the token written masked afresh, unmasked before it is checked (BREACH)

        def bind_field(self, form, unbound_field, options):
            if issubclass(unbound_field.field_class, StringField):  # also TextAreaField, HiddenField, EmailField…
                options = {**options, "filters": [strip_control_characters, *unbound_field.kwargs.get("filters", ())]}
            return super().bind_field(form, unbound_field, options)


NUMERIC = {"inputmode": "numeric", "autocomplete": "off"}


def one_time_key() -> str:
    """The key a form carries so that a resent form (a double tap, a phone's outbox) is stored once."""
    return uuid.uuid4().hex


class OutboxFields(Form):
    """Set by the phone on a record that waited in its outbox (static/js/sync.js)."""

    logged_at = HiddenField(validators=[Optional(), Length(max=64)])  # when logged, by the phone's clock (ISO, UTC)
    outbox_owner = HiddenField(validators=[Optional(), Length(max=20)])  # its writer: another account's is refused


WHOLE_NUMBER = re.compile(r"[+-]?[0-9]{1,9}")  # ASCII digits only: no exponent, NaN, Infinity, ² or other scripts
DECIMAL_NUMBER = re.compile(r"[+-]?[0-9]{1,9}(?:[.,][0-9]{0,6})?|[+-]?[.,][0-9]{1,6}")  # a phone may type a comma


class NumericField(Field):
    """The one number field of every form: plain digits as a phone types them (an optional sign; with
    `decimal=True` a decimal point or comma), at most nine digits before it. NaN, Infinity, exponents, digits of
    other scripts and huge numbers get a field error here, so no validator, service or database sees them."""

    widget = NumberInput()

    def __init__(self, label=None, validators=None, *, decimal: bool = False, **kwargs):
        super().__init__(label, validators, **kwargs)
        self.decimal = decimal
        if decimal:
            self.widget = NumberInput(step="any")

    def _value(self) -> str:
        if self.raw_data:
            return self.raw_data[0]
        return "" if self.data is None else str(self.data)

    def process_formdata(self, valuelist):
        if not valuelist:
            return
        text = valuelist[0].strip() if isinstance(valuelist[0], str) else ""
        self.data = None
        if not text:
            return  # empty: the field's Optional or DataRequired decides
        if self.decimal:
            if not DECIMAL_NUMBER.fullmatch(text):
                raise ValueError(_("Give a number in digits, such as 2.5."))
            self.data = Decimal(text.replace(",", "."))
        else:
            if not WHOLE_NUMBER.fullmatch(text):
                raise ValueError(_("Give a whole number in digits, such as 12."))
            self.data = int(text)

    def pre_validate(self, form):
        if self.process_errors:  # not a number: say so, instead of "required" or a range about a number never read
            raise StopValidation()


def optional_int(value) -> int | None:
    """A select's value as a number, None when empty or not a number (the service then says what is wrong)."""
    text = str(value or "").strip()
    return int(text) if text.isascii() and text.isdigit() and len(text) < 10 else None


class TableFields(OutboxFields):
    """Where a record of the floor is, on a form the phone may also send from its outbox (a time extension, a deck
    check): its one-time key, then the division, round and table."""

    key = HiddenField(default=one_time_key)
    # the division whose round and table, where the event has several (floor.division_choices)
    division = SelectField(_l("Division"), coerce=optional_int, validate_choice=False, validators=[Optional()])
    round = SelectField(_l("Round"), coerce=int, validators=[DataRequired()])
    table = NumericField(
        _l("Table"),
        validators=[DataRequired(message=_l("Give the table number.")), NumberRange(1, 9999)],
        render_kw=NUMERIC,
    )
