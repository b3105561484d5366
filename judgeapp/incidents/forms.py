"""The incident forms; the floor's shared form pieces live in judgeapp/forms.py."""

from wtforms import BooleanField, HiddenField, RadioField, SelectField, StringField, SubmitField, TextAreaField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import DataRequired, Length, NumberRange, Optional

from ..forms import NUMERIC, Form, NumericField, OutboxFields, one_time_key, optional_int
from ..models import SubjectKind
from ..texts import lazy_gettext as _l

# who an incident is about, as the form's choice and the incident page's heading name it
SUBJECT_KINDS = {SubjectKind.PLAYER: _l("Player"), SubjectKind.TEAM: _l("Team"), SubjectKind.SPECTATOR: _l("Spectator")}


def game_field(description) -> NumericField:
    """The game of the match (1, 2, 3…), asked where a rule counts the infraction per game: one field, two forms."""
    return NumericField(
        _l("Game of the match"),
        validators=[Optional(), NumberRange(1, 99, _l("The game of the match: 1 to 99."))],
        description=description,
        render_kw=NUMERIC,
    )


def related_to_field(description) -> NumericField:
    """The incident whose penalty stands for this one too (one penalty for related errors): one field, two forms."""
    return NumericField(
        _l("Same cause as incident #"),
        validators=[Optional(), NumberRange(1, 2_000_000_000, _l("Give an incident number."))],
        description=description,
        render_kw=NUMERIC,
    )


class IncidentForm(OutboxFields):
    key = HiddenField(default=one_time_key)
    # what the phone suggested from its own copy of the history, when it could not ask the server
    phone_suggested = HiddenField(validators=[Optional(), Length(max=64)])
    phone_upgraded = HiddenField(validators=[Optional(), Length(max=1)])
    phone_because = HiddenField(validators=[Optional(), Length(max=500)])
    call_started_at = HiddenField()
    call = HiddenField()  # the judge call this incident is logged from (its number): closed with the save
    deck_check_id = HiddenField()
    # the division whose round and table (shown only when the event has several): its seating is the one checked
    division = SelectField(_l("Division"), coerce=optional_int, validators=[Optional()], validate_choice=False)
    round = SelectField(_l("Round"), coerce=int, validators=[DataRequired(message=_l("Choose the round."))])
    table = NumericField(
        _l("Table"), validators=[Optional(), NumberRange(1, 9999, _l("Give a table number."))], render_kw=NUMERIC
    )
    subject_kind = RadioField(
        _l("Who"),
        choices=[SelectChoice(k.value, SUBJECT_KINDS[k]) for k in SubjectKind],
        default=SubjectKind.PLAYER.value,
        validators=[DataRequired()],
    )
    player = StringField(
        _l("Player"),
        validators=[Optional(), Length(max=300)],
        render_kw={"autocomplete": "off", "list": "player-list", "autocapitalize": "words"},
        description=_l("A few letters of the name, or the player ID."),
    )
    player_id = HiddenField()
    new_player = BooleanField(_l("Not registered yet: add this player"))
    new_player_code = StringField(
        _l("Player ID of the new player"), validators=[Optional(), Length(max=64)], render_kw={"autocomplete": "off"}
    )
    new_player_reading = StringField(
        _l("Reading of the new player's name (furigana)"),
        validators=[Optional(), Length(max=200)],
        render_kw={"autocomplete": "off", "lang": "ja"},
    )
    new_player_handle = StringField(
        _l("Handle of the new player"), validators=[Optional(), Length(max=200)], render_kw={"autocomplete": "off"}
    )
    team = SelectField(_l("Team"), validators=[Optional()])
    spectator = StringField(
        _l("Spectator"), validators=[Optional(), Length(max=200)], render_kw={"autocomplete": "off"}
    )
    infraction = SelectField(_l("Infraction"), validators=[DataRequired(message=_l("Choose the infraction."))])
    # the words the judge searched with: the server refuses an infraction they do not find (a choice left over)
    infraction_query = StringField(validators=[Optional(), Length(max=200)])
    minutes_late = NumericField(
        _l("Minutes late"),
        validators=[Optional(), NumberRange(0, 1440, _l("0 to 1440 minutes."))],
        description=_l("The policy's default for this infraction depends on how late the player was."),
        render_kw=NUMERIC,
    )
    game = game_field(_l("The policy counts this infraction per game: game 1, 2, 3… of this round's match."))
    related_to = related_to_field(
        _l(
            "Only when one error of this player caused an earlier infraction of this round: that incident's penalty "
            "stands for both, and this one is recorded without a penalty."
        )
    )
    penalty = SelectField(_l("Penalty"), validators=[Optional()])
    deviation_reason = StringField(
        _l("Reason for this penalty"),
        validators=[Optional(), Length(max=500)],
        description=_l("Needed when the penalty is outside the default or below the upgrade."),
    )
    description = TextAreaField(_l("Description"), validators=[Optional(), Length(max=4000)], render_kw={"rows": 3})
    extension = NumericField(
        _l("Time extension (minutes)"),
        validators=[Optional(), NumberRange(0, 240, _l("0 to 240 minutes."))],
        render_kw=NUMERIC,
    )
    # "1": the call stopwatch filled the minutes in, the judge did not type them: the server counts them again
    extension_proposed = HiddenField(validators=[Optional(), Length(max=1)])
    extension_reason = StringField(
        _l("Why these minutes"),
        validators=[Optional(), Length(max=500)],
        description=_l("Needed when you give other than the minutes the policy owes for the call."),
    )
    submit = SubmitField(_l("Save incident"))


class CorrectIncidentForm(Form):
    round = SelectField(_l("Round"), coerce=int, validators=[DataRequired()])
    table = NumericField(_l("Table"), validators=[Optional(), NumberRange(1, 9999)], render_kw=NUMERIC)
    infraction = SelectField(_l("Infraction"), validators=[DataRequired()])
    penalty = SelectField(_l("Penalty"), validators=[Optional()])
    # asked only where the policy has a rule counting per game, or one penalty for related errors (the view drops them)
    game = game_field(_l("Kept where a rule counts this infraction per game; leave empty if unknown."))
    related_to = related_to_field(
        _l("An earlier incident of this player in this round whose penalty stands for both; empty removes the link.")
    )
    deviation_reason = StringField(_l("Reason for this penalty"), validators=[Optional(), Length(max=500)])
    description = TextAreaField(_l("Description"), validators=[Optional(), Length(max=4000)], render_kw={"rows": 3})
    note = StringField(_l("Why the correction"), validators=[Optional(), Length(max=500)])
    submit = SubmitField(_l("Save correction"))


class VoidForm(Form):
    reason = StringField(
        _l("Reason"), validators=[DataRequired(message=_l("Say why it is withdrawn.")), Length(max=500)]
    )
    submit = SubmitField(_l("Void"))


class NoteForm(Form):
    """A note on an incident; a floor judge may also put it to the head judge as a question."""

    text = TextAreaField(
        _l("Note"), validators=[DataRequired(message=_l("Write the note.")), Length(max=2000)], render_kw={"rows": 3}
    )
    ask_head_judge = BooleanField(_l("Ask the head judge (it appears in their feed)"))
    submit = SubmitField(_l("Add the note"))
