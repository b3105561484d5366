"""The time extension form (also the incident page's "add the owed minutes" form)."""

from wtforms import HiddenField, SelectField, StringField, SubmitField, TimeField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import DataRequired, Length, NumberRange, Optional

from ..forms import NUMERIC, NumericField, OutboxFields, one_time_key


class ExtensionForm(OutboxFields):
    key = HiddenField(default=one_time_key)
    round = SelectField("Round", coerce=int, validators=[DataRequired()])
    table = NumericField(
        "Table", validators=[DataRequired(message="Give the table number."), NumberRange(1, 9999)], render_kw=NUMERIC
    )
    reason = SelectField(
        "Reason",
        choices=[
            SelectChoice("ruling", "Ruling"),
            SelectChoice("deck_check", "Deck check"),
            SelectChoice("other", "Other"),
        ],
        validators=[DataRequired()],
    )
    paused_from = TimeField("Match stopped at", validators=[Optional()])
    paused_to = TimeField("Match resumed at", validators=[Optional()])
    taken_minutes = NumericField(
        "Or: minutes the match was stopped",
        decimal=True,
        validators=[Optional(), NumberRange(0, 240)],
        render_kw={"inputmode": "decimal"},
    )
    minutes = NumericField(
        "Minutes to add",
        validators=[Optional(), NumberRange(0, 240, "0 to 240 minutes.")],
        render_kw=NUMERIC,
        description="Leave empty to give what the policy owes for the pause.",
    )
    adjust_reason = StringField("Reason for a different amount", validators=[Optional(), Length(max=500)])
    extra_turns = NumericField(
        "Extra turns",
        validators=[Optional(), NumberRange(0, 10, "0 to 10 extra turns.")],
        render_kw=NUMERIC,
        description="Turns given as well as, or instead of, minutes; counted from the turn in play when time is up.",
    )
    submit = SubmitField("Add time")
