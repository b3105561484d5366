"""Deck check forms: start one, end one, pick tables to check."""

from wtforms import HiddenField, RadioField, SelectField, StringField, SubmitField, TextAreaField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import DataRequired, Length, NumberRange, Optional

from ..forms import NUMERIC, Form, NumericField, OutboxFields, one_time_key
from ..models import DeckCheckResult


class DeckCheckForm(OutboxFields):
    key = HiddenField(default=one_time_key)
    round = SelectField("Round", coerce=int, validators=[DataRequired()])
    table = NumericField(
        "Table", validators=[DataRequired(message="Give the table number."), NumberRange(1, 9999)], render_kw=NUMERIC
    )
    player_1 = StringField(
        "Player checked",
        validators=[Optional(), Length(max=300)],
        render_kw={"autocomplete": "off", "list": "player-list"},
        description="Leave both empty to check everyone seated at the table (when pairings are known).",
    )
    player_2 = StringField(
        "Second player checked",
        validators=[Optional(), Length(max=300)],
        render_kw={"autocomplete": "off", "list": "player-list"},
    )
    submit = SubmitField("Start deck check")


class EndDeckCheckForm(Form):
    result = RadioField(
        "Result",
        choices=[
            SelectChoice(DeckCheckResult.MATCHES.value, "Deck matches the registration"),
            SelectChoice(DeckCheckResult.PROBLEMS.value, "Problems found"),
        ],
        validators=[DataRequired(message="Choose the result.")],
    )
    notes = TextAreaField("Notes", validators=[Optional(), Length(max=4000)], render_kw={"rows": 3})
    minutes = NumericField(
        "Time extension (minutes)",
        validators=[Optional(), NumberRange(0, 240)],
        render_kw=NUMERIC,
        description="Leave empty to give what the policy owes for the time the check took.",
    )
    adjust_reason = StringField("Reason for a different amount", validators=[Optional(), Length(max=500)])
    submit = SubmitField("End deck check")


class PickTablesForm(Form):
    class Meta:
        csrf = False  # a GET form that only reads

    count = NumericField("Tables to check", default=2, validators=[Optional(), NumberRange(1, 20)], render_kw=NUMERIC)
