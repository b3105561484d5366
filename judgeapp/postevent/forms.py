from wtforms import StringField, SubmitField, TextAreaField
from wtforms.validators import DataRequired, Length

from ..forms import Form


class CloseForm(Form):
    submit = SubmitField("Close the event")


class ReopenForm(Form):
    reason = TextAreaField(
        "Why reopen it",
        validators=[DataRequired(message="Say why the event is reopened."), Length(max=500)],
        render_kw={"rows": 2},
        description="Kept in the event's record, with your name and the time.",
    )
    submit = SubmitField("Reopen the event")


class LookupForm(Form):
    class Meta:
        csrf = False  # a GET search: it changes nothing

    code = StringField(
        "Player ID",
        validators=[DataRequired(message="Type a player ID."), Length(max=64)],
        render_kw={"autocomplete": "off", "autocapitalize": "characters"},
    )
