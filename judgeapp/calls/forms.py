from wtforms import HiddenField, RadioField, SelectField, StringField, SubmitField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import DataRequired, Length, NumberRange, Optional

from ..forms import NUMERIC, Form, NumericField, OutboxFields, one_time_key, optional_int
from ..imports.model import MAX_TABLE
from ..models import CallReason
from ..texts import lazy_gettext as _l


class CallForm(Form):
    """The player's one button, with an optional reason. Works without script (a plain form post)."""

    reason = RadioField(
        _l("What is it about? (optional)"),
        choices=[SelectChoice(r.value, r.label) for r in CallReason],
        validators=[Optional()],
        validate_choice=False,  # the service says "Choose one of the reasons" for anything else
    )
    note = StringField(
        _l("In a few words (optional)"), validators=[Optional(), Length(max=120)], render_kw={"maxlength": 120}
    )
    submit = SubmitField(_l("Call a judge"))


class TakeForm(OutboxFields):
    """ "I'll take it": a keyed form, so a judge's phone without network keeps the tap in its outbox and sends it
    when the network is back (the server's first taker wins)."""

    key = HiddenField(default=one_time_key)
    submit = SubmitField(_l("I'll take it"))


class CallButtonForm(Form):
    submit = SubmitField()


class SheetForm(Form):
    """Which tables' QR codes to print (of which division, where the event has several), on which paper."""

    division = SelectField(_l("Division"), coerce=optional_int, validate_choice=False, validators=[Optional()])

    first = NumericField(_l("From table"), validators=[DataRequired(), NumberRange(1, MAX_TABLE)], render_kw=NUMERIC)
    last = NumericField(_l("To table"), validators=[DataRequired(), NumberRange(1, MAX_TABLE)], render_kw=NUMERIC)
    paper = SelectField(
        _l("Paper"), choices=[SelectChoice("a4", "A4"), SelectChoice("letter", _l("US Letter"))], default="a4"
    )
