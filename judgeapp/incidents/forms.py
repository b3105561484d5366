import uuid

from ..forms import Form
from wtforms import (BooleanField, DecimalField, HiddenField, IntegerField, RadioField, SelectField, StringField,
                     SubmitField, TextAreaField, TimeField)
from wtforms.fields.choices import SelectChoice
from wtforms.validators import DataRequired, Length, NumberRange, Optional

from ..models import DeckCheckResult, SubjectKind

NUMERIC = {"inputmode": "numeric", "autocomplete": "off"}


def one_time_key() -> str:
    return uuid.uuid4().hex


class OutboxFields(Form):
    """Set by the phone on a record that waited in its outbox (static/outbox.js)."""

    logged_at = HiddenField(validators=[Optional(), Length(max=64)])  # when logged, by the phone's clock (ISO, UTC)
    outbox_owner = HiddenField(validators=[Optional(), Length(max=20)])  # its writer: another account's is refused


class IncidentForm(OutboxFields):
    key = HiddenField(default=one_time_key)
    # what the phone suggested from its own copy of the history, when it could not ask the server
    phone_suggested = HiddenField(validators=[Optional(), Length(max=64)])
    phone_upgraded = HiddenField(validators=[Optional(), Length(max=1)])
    phone_because = HiddenField(validators=[Optional(), Length(max=500)])
    call_started_at = HiddenField()
    deck_check_id = HiddenField()
    round = SelectField("Round", coerce=int, validators=[DataRequired(message="Choose the round.")])
    table = IntegerField("Table", validators=[Optional(), NumberRange(1, 9999, "Give a table number.")],
                         render_kw=NUMERIC)
    subject_kind = RadioField("Who", choices=[SelectChoice(k.value, k.value.capitalize()) for k in SubjectKind],
                              default=SubjectKind.PLAYER.value, validators=[DataRequired()])
    player = StringField("Player", validators=[Optional(), Length(max=300)],
                         render_kw={"autocomplete": "off", "list": "player-list", "autocapitalize": "words"},
                         description="A few letters of the name, or the player ID.")
    player_id = HiddenField()
    new_player = BooleanField("Not registered yet: add this player")
    new_player_code = StringField("Player ID of the new player", validators=[Optional(), Length(max=64)],
                                  render_kw={"autocomplete": "off"})
    team = SelectField("Team", validators=[Optional()])
    spectator = StringField("Spectator", validators=[Optional(), Length(max=200)], render_kw={"autocomplete": "off"})
    infraction = SelectField("Infraction", validators=[DataRequired(message="Choose the infraction.")])
    penalty = SelectField("Penalty", validators=[Optional()])
    deviation_reason = StringField("Reason for this penalty", validators=[Optional(), Length(max=500)],
                                   description="Needed when the penalty is outside the default or below the upgrade.")
    description = TextAreaField("Description", validators=[Optional(), Length(max=4000)], render_kw={"rows": 3})
    extension = IntegerField("Time extension (minutes)", validators=[Optional(), NumberRange(0, 240, "0 to 240 minutes.")],
                             render_kw=NUMERIC)
    submit = SubmitField("Save incident")


class CorrectIncidentForm(Form):
    round = SelectField("Round", coerce=int, validators=[DataRequired()])
    table = IntegerField("Table", validators=[Optional(), NumberRange(1, 9999)], render_kw=NUMERIC)
    infraction = SelectField("Infraction", validators=[DataRequired()])
    penalty = SelectField("Penalty", validators=[Optional()])
    deviation_reason = StringField("Reason for this penalty", validators=[Optional(), Length(max=500)])
    description = TextAreaField("Description", validators=[Optional(), Length(max=4000)], render_kw={"rows": 3})
    note = StringField("Why the correction", validators=[Optional(), Length(max=500)])
    submit = SubmitField("Save correction")


class VoidForm(Form):
    reason = StringField("Reason", validators=[DataRequired(message="Say why it is withdrawn."), Length(max=500)])
    submit = SubmitField("Void")


class ExtensionForm(OutboxFields):
    key = HiddenField(default=one_time_key)
    round = SelectField("Round", coerce=int, validators=[DataRequired()])
    table = IntegerField("Table", validators=[DataRequired(message="Give the table number."), NumberRange(1, 9999)],
                         render_kw=NUMERIC)
    reason = SelectField("Reason", choices=[SelectChoice("ruling", "Ruling"), SelectChoice("deck_check", "Deck check"),
                                            SelectChoice("other", "Other")], validators=[DataRequired()])
    paused_from = TimeField("Match stopped at", validators=[Optional()])
    paused_to = TimeField("Match resumed at", validators=[Optional()])
    taken_minutes = DecimalField("Or: minutes the match was stopped", places=None,
                                 validators=[Optional(), NumberRange(0, 240)], render_kw={"inputmode": "decimal"})
    minutes = IntegerField("Minutes to add", validators=[Optional(), NumberRange(0, 240, "0 to 240 minutes.")],
                           render_kw=NUMERIC, description="Leave empty to give what the policy owes for the pause.")
    adjust_reason = StringField("Reason for a different amount", validators=[Optional(), Length(max=500)])
    submit = SubmitField("Add time")


class DeckCheckForm(OutboxFields):
    key = HiddenField(default=one_time_key)
    round = SelectField("Round", coerce=int, validators=[DataRequired()])
    table = IntegerField("Table", validators=[DataRequired(message="Give the table number."), NumberRange(1, 9999)],
                         render_kw=NUMERIC)
    player_1 = StringField("Player checked", validators=[Optional(), Length(max=300)],
                           render_kw={"autocomplete": "off", "list": "player-list"},
                           description="Leave both empty to check everyone seated at the table (when pairings are known).")
    player_2 = StringField("Second player checked", validators=[Optional(), Length(max=300)],
                           render_kw={"autocomplete": "off", "list": "player-list"})
    submit = SubmitField("Start deck check")


class EndDeckCheckForm(Form):
    result = RadioField("Result", choices=[SelectChoice(DeckCheckResult.MATCHES.value, "Deck matches the registration"),
                                           SelectChoice(DeckCheckResult.PROBLEMS.value, "Problems found")],
                        validators=[DataRequired(message="Choose the result.")])
    notes = TextAreaField("Notes", validators=[Optional(), Length(max=4000)], render_kw={"rows": 3})
    minutes = IntegerField("Time extension (minutes)", validators=[Optional(), NumberRange(0, 240)], render_kw=NUMERIC,
                           description="Leave empty to give what the policy owes for the time the check took.")
    adjust_reason = StringField("Reason for a different amount", validators=[Optional(), Length(max=500)])
    submit = SubmitField("End deck check")


class PickTablesForm(Form):
    class Meta:
        csrf = False  # a GET form that only reads

    count = IntegerField("Tables to check", default=2, validators=[Optional(), NumberRange(1, 20)], render_kw=NUMERIC)
