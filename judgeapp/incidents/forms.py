"""The incident forms; the floor's shared form pieces live in judgeapp/forms.py."""

from flask_babel import lazy_gettext as _l
from wtforms import BooleanField, HiddenField, RadioField, SelectField, StringField, SubmitField, TextAreaField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import DataRequired, Length, NumberRange, Optional

from ..forms import NUMERIC, Form, NumericField, OutboxFields, one_time_key
from ..models import SubjectKind


class IncidentForm(OutboxFields):
    key = HiddenField(default=one_time_key)
    # what the phone suggested from its own copy of the history, when it could not ask the server
    phone_suggested = HiddenField(validators=[Optional(), Length(max=64)])
    phone_upgraded = HiddenField(validators=[Optional(), Length(max=1)])
    phone_because = HiddenField(validators=[Optional(), Length(max=500)])
    call_started_at = HiddenField()
    call = HiddenField()  # the judge call this incident is logged from (its number): closed with the save
    deck_check_id = HiddenField()
    round = SelectField("Round", coerce=int, validators=[DataRequired(message="Choose the round.")])
    table = NumericField(
        "Table", validators=[Optional(), NumberRange(1, 9999, "Give a table number.")], render_kw=NUMERIC
    )
    subject_kind = RadioField(
        "Who",
        choices=[SelectChoice(k.value, k.value.capitalize()) for k in SubjectKind],
        default=SubjectKind.PLAYER.value,
        validators=[DataRequired()],
    )
    player = StringField(
        "Player",
        validators=[Optional(), Length(max=300)],
        render_kw={"autocomplete": "off", "list": "player-list", "autocapitalize": "words"},
        description="A few letters of the name, or the player ID.",
    )
    player_id = HiddenField()
    new_player = BooleanField("Not registered yet: add this player")
    new_player_code = StringField(
        "Player ID of the new player", validators=[Optional(), Length(max=64)], render_kw={"autocomplete": "off"}
    )
    new_player_reading = StringField(
        _l("Reading of the new player's name (furigana)"),
        validators=[Optional(), Length(max=200)],
        render_kw={"autocomplete": "off", "lang": "ja"},
    )
    new_player_handle = StringField(
        _l("Handle of the new player"), validators=[Optional(), Length(max=200)], render_kw={"autocomplete": "off"}
    )
    team = SelectField("Team", validators=[Optional()])
    spectator = StringField("Spectator", validators=[Optional(), Length(max=200)], render_kw={"autocomplete": "off"})
    infraction = SelectField("Infraction", validators=[DataRequired(message="Choose the infraction.")])
    penalty = SelectField("Penalty", validators=[Optional()])
    deviation_reason = StringField(
        "Reason for this penalty",
        validators=[Optional(), Length(max=500)],
        description="Needed when the penalty is outside the default or below the upgrade.",
    )
    description = TextAreaField("Description", validators=[Optional(), Length(max=4000)], render_kw={"rows": 3})
    extension = NumericField(
        "Time extension (minutes)", validators=[Optional(), NumberRange(0, 240, "0 to 240 minutes.")], render_kw=NUMERIC
    )
    # "1": the call stopwatch filled the minutes in, the judge did not type them: the server counts them again
    extension_proposed = HiddenField(validators=[Optional(), Length(max=1)])
    extension_reason = StringField(
        "Why these minutes",
        validators=[Optional(), Length(max=500)],
        description="Needed when you give other than the minutes the policy owes for the call.",
    )
    submit = SubmitField("Save incident")


class CorrectIncidentForm(Form):
    round = SelectField("Round", coerce=int, validators=[DataRequired()])
    table = NumericField("Table", validators=[Optional(), NumberRange(1, 9999)], render_kw=NUMERIC)
    infraction = SelectField("Infraction", validators=[DataRequired()])
    penalty = SelectField("Penalty", validators=[Optional()])
    deviation_reason = StringField("Reason for this penalty", validators=[Optional(), Length(max=500)])
    description = TextAreaField("Description", validators=[Optional(), Length(max=4000)], render_kw={"rows": 3})
    note = StringField("Why the correction", validators=[Optional(), Length(max=500)])
    submit = SubmitField("Save correction")


class VoidForm(Form):
    reason = StringField("Reason", validators=[DataRequired(message="Say why it is withdrawn."), Length(max=500)])
    submit = SubmitField("Void")


class NoteForm(Form):
    """A note on an incident; a floor judge may also put it to the head judge as a question."""

    text = TextAreaField(
        "Note", validators=[DataRequired(message="Write the note."), Length(max=2000)], render_kw={"rows": 3}
    )
    ask_head_judge = BooleanField("Ask the head judge (it appears in their feed)")
    submit = SubmitField("Add the note")
