"""Deck check forms: start one, end one, pick tables to check."""

from wtforms import RadioField, SelectField, StringField, SubmitField, TextAreaField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import DataRequired, Length, NumberRange, Optional

from ..forms import NUMERIC, Form, NumericField, TableFields, optional_int
from ..models import DeckCheckResult
from ..texts import lazy_gettext as _l


class DeckCheckForm(TableFields):
    player_1 = StringField(
        _l("Player checked"),
        validators=[Optional(), Length(max=300)],
        render_kw={"autocomplete": "off", "list": "player-list"},
        description=_l("Leave both empty to check everyone seated at the table (when pairings are known)."),
    )
    player_2 = StringField(
        _l("Second player checked"),
        validators=[Optional(), Length(max=300)],
        render_kw={"autocomplete": "off", "list": "player-list"},
    )
    submit = SubmitField(_l("Start deck check"))


class EndDeckCheckForm(Form):
    result = RadioField(
        _l("Result"),
        choices=[
            SelectChoice(DeckCheckResult.MATCHES.value, _l("Deck matches the registration")),
            SelectChoice(DeckCheckResult.PROBLEMS.value, _l("Problems found")),
        ],
        validators=[DataRequired(message=_l("Choose the result."))],
    )
    notes = TextAreaField(_l("Notes"), validators=[Optional(), Length(max=4000)], render_kw={"rows": 3})
    minutes = NumericField(
        _l("Time extension (minutes)"),
        validators=[Optional(), NumberRange(0, 240)],
        render_kw=NUMERIC,
        description=_l("Leave empty to give what the policy owes for the time the check took."),
    )
    adjust_reason = StringField(_l("Reason for a different amount"), validators=[Optional(), Length(max=500)])
    submit = SubmitField(_l("End deck check"))


class PickTablesForm(Form):
    class Meta:
        csrf = False  # a GET form that only reads

    # the division whose current round to pick in, where the event has several (floor.division_choices)
    division = SelectField(_l("Division"), coerce=optional_int, validate_choice=False, validators=[Optional()])
    count = NumericField(
        _l("Tables to check"), default=2, validators=[Optional(), NumberRange(1, 20)], render_kw=NUMERIC
    )
