from flask_wtf.file import FileAllowed, FileField, FileRequired
from wtforms import (
    BooleanField,
    DateField,
    EmailField,
    SelectField,
    SelectMultipleField,
    StringField,
    SubmitField,
    TextAreaField,
)
from wtforms.fields.choices import SelectChoice
from wtforms.validators import DataRequired, Length, NumberRange, Optional

from ..forms import Form, NumericField, optional_int
from ..i18n import LANGUAGES
from ..models import STAFF_ROLES, Role
from ..texts import lazy_gettext as _l

# The staff roles as pages name them (Role.label is the English), and as a sentence names them ("… is now head judge").
ROLE_NAMES = {
    Role.HEAD_JUDGE: _l("Head judge"),
    Role.ASSISTANT_HEAD_JUDGE: _l("Assistant head judge"),
    Role.FLOOR_JUDGE: _l("Floor judge"),
    Role.SCOREKEEPER: _l("Scorekeeper"),
}
ROLE_IN_SENTENCE = {
    Role.HEAD_JUDGE: _l("head judge"),
    Role.ASSISTANT_HEAD_JUDGE: _l("assistant head judge"),
    Role.FLOOR_JUDGE: _l("floor judge"),
    Role.SCOREKEEPER: _l("scorekeeper"),
}
OTHER_ROLES_IN_SENTENCE = {"organizer": _l("organizer"), "proxy": _l("proxy")}  # "Your roles" on the event page


class EventForm(Form):
    name = StringField(_l("Event name"), validators=[DataRequired(), Length(max=200)])
    date = DateField(_l("Date"), validators=[DataRequired(message=_l("Give the date of the event."))])
    venue = StringField(_l("Venue"), validators=[DataRequired(), Length(max=200)])
    policy_id = SelectField(
        _l("Policy"), validators=[DataRequired()], description=_l("The penalty guide this event enforces.")
    )
    level = SelectField(
        _l("Enforcement level"),
        coerce=int,
        validators=[DataRequired()],
        description=_l("The chosen policy's own levels (most shop events run at its lowest)."),
    )
    rounds = NumericField(
        _l("Number of rounds"), validators=[DataRequired(), NumberRange(1, 30)], render_kw={"inputmode": "numeric"}
    )
    round_minutes = NumericField(
        _l("Round length (minutes)"),
        validators=[DataRequired(), NumberRange(5, 240)],
        render_kw={"inputmode": "numeric"},
    )
    challenge_limit = NumericField(
        _l("Appeal challenges per player"),
        validators=[Optional(), NumberRange(0, 20)],
        description=_l("Leave empty for no limit."),
        render_kw={"inputmode": "numeric"},
    )
    statement_days = NumericField(
        _l("Statement deadline (days)"),
        default=7,
        validators=[Optional(), NumberRange(1, 90)],
        description=_l("How long a one-time link for a disqualification statement stays open."),
        render_kw={"inputmode": "numeric"},
    )
    language = SelectField(
        _l("Language"),
        choices=[SelectChoice(code, name) for code, name in LANGUAGES.items()],
        default="en",
        validators=[DataRequired()],
        description=_l("The language of the event's reports and players' pages, and of judges who chose none."),
    )
    tables_across_divisions = BooleanField(
        _l("Tables numbered across divisions"),
        description=_l(
            "Tick when the venue numbers its tables once for every division: a table then seats one match per round "
            "of the whole event."
        ),
    )
    submit = SubmitField(_l("Save event"))


class StaffForm(Form):
    email = EmailField(_l("Email"), validators=[DataRequired(), Length(max=254)])
    name = StringField(
        _l("Name"),
        validators=[Optional(), Length(max=200)],
        description=_l(
            "Optional. We email them an invitation; the role is theirs once they accept it. A new person "
            "chooses their own password (and can correct their name) from the link."
        ),
    )
    role = SelectField(  # no role chosen in advance: the organizer picks one, every time (issue 33, guard 9)
        _l("Role"),
        choices=[SelectChoice("", _l("Choose a role")), *(SelectChoice(r.value, ROLE_NAMES[r]) for r in STAFF_ROLES)],
        validators=[DataRequired(message=_l("Choose the role this person is invited to."))],
    )
    replace_head_judge = BooleanField(_l("Replace the current head judge when this person accepts"))
    submit = SubmitField(_l("Invite"))


class AnswerInvitationForm(Form):
    """Accept or decline a staff invitation: the buttons are the form (CSRF token only)."""


class EndStaffForm(Form):
    reason = StringField(_l("Reason"), validators=[DataRequired(), Length(max=300)])
    submit = SubmitField(_l("Remove"))


class PlayerForm(Form):
    name = StringField(_l("Name"), validators=[DataRequired(), Length(max=200)], render_kw={"autocomplete": "off"})
    reading = StringField(
        _l("Reading of the name (furigana)"),
        validators=[Optional(), Length(max=200)],
        render_kw={"autocomplete": "off", "lang": "ja"},
        description=_l("Optional. In kana: lists sort by it at a Japanese event, and search finds it."),
    )
    handle = StringField(
        _l("Handle"),
        validators=[Optional(), Length(max=200)],
        render_kw={"autocomplete": "off"},
        description=_l("Optional. The name the player goes by online or at the shop."),
    )
    player_code = StringField(
        _l("Player ID"), validators=[Optional(), Length(max=64)], render_kw={"autocomplete": "off"}
    )
    bushiroad_id = StringField(
        _l("Bushiroad ID"), validators=[Optional(), Length(max=64)], render_kw={"autocomplete": "off"}
    )
    team = StringField(
        _l("Team"),
        validators=[Optional(), Length(max=200)],
        render_kw={"autocomplete": "off"},
        description=_l("Only for team events."),
    )
    submit = SubmitField(_l("Add player"))


class PlayerRecordForm(Form):
    """A player's record corrected (judgeapp/events/player_records.py checks it; messages come back at the field)."""

    name = StringField(_l("Name"), validators=[DataRequired(), Length(max=200)], render_kw={"autocomplete": "off"})
    reading = StringField(
        _l("Reading of the name (furigana)"),
        validators=[Optional(), Length(max=200)],
        render_kw={"autocomplete": "off", "lang": "ja"},
    )
    handle = StringField(_l("Handle"), validators=[Optional(), Length(max=200)], render_kw={"autocomplete": "off"})
    player_code = StringField(
        _l("Player ID"), validators=[Optional(), Length(max=64)], render_kw={"autocomplete": "off"}
    )
    platform_ids = TextAreaField(
        _l("Other IDs"),
        validators=[Optional(), Length(max=2000)],
        render_kw={"autocomplete": "off", "rows": 3},
        description=_l("One a line: the platform, a colon and the ID (konami: 0041200101)."),
    )
    # the division the player plays in: at an event of several only (the view removes it otherwise)
    division = SelectField(_l("Division"), coerce=optional_int, validators=[Optional()], validate_choice=False)
    submit = SubmitField(_l("Save the record"))


class MergePlayerForm(Form):
    """Merge the record shown into another record of the same person."""

    other = StringField(
        _l("The record to keep"),
        validators=[DataRequired(message=_l("Type the other record's player ID or name."))],
        render_kw={"autocomplete": "off"},
        description=_l("Its player ID, or its name if no one else has it."),
    )
    reason = StringField(
        _l("Why they are one person"),
        validators=[DataRequired(message=_l("Say why these two records are one person.")), Length(max=500)],
        render_kw={"autocomplete": "off"},
    )
    submit = SubmitField(_l("Merge into that record"))


class ImportForm(Form):
    file = FileField(
        _l("Tournament file"),
        validators=[FileRequired(message=_l("Choose the file to import."))],
        description=_l(
            "The file your pairing software saves: TOM (.tdf), KTS (.Tournament), a Melee CSV export, or "
            "any spreadsheet saved as CSV or TSV with a header row (name, player ID…; round, table, opponent for "
            "pairings). Importing it again after the next round adds that round."
        ),
    )
    submit = SubmitField(_l("Import"))


class ImportStepForm(Form):
    """The steps after an upload: map a spreadsheet's columns, replace changed rounds, or drop the file."""

    # "N" (an event of one division) or "division id:N" (imports.replace_keys reads them; anything else is ignored)
    replace_rounds = SelectMultipleField(_l("Rounds to replace"), coerce=str, validate_choice=False)
    apply = SubmitField(_l("Import with these columns"))
    replace = SubmitField(_l("Replace the ticked rounds"))
    discard = SubmitField(_l("Do not import the rest"))


class PolicyUploadForm(Form):
    file = FileField(
        _l("Policy file (YAML)"),
        validators=[FileRequired(message=_l("Choose the policy file."))],
        description=_l(
            "One policy in judgeapp's catalog format (README: The catalog file): your house rules, or a "
            "publisher's newer version. It is checked like the shipped catalog, and every problem is named with its "
            "line and field."
        ),
    )
    level = StringField(
        _l("Level"),
        validators=[Optional(), Length(max=64)],
        description=_l("The file's level for this event: its number or name. Empty: the event's level, if it has it."),
    )
    submit = SubmitField(_l("Use this policy for the event"))


class StartRoundForm(Form):
    submit = SubmitField(_l("Start next round"))


class RoundDayForm(Form):
    """The event's day a round is on (Day 1, Day 2…): the policy's "day" window counts these."""

    day = SelectField(_l("Day"), coerce=optional_int, validators=[Optional()], validate_choice=False)
    submit = SubmitField(_l("Set the day"))


class EndRoundForm(Form):
    submit = SubmitField(_l("End this round now"))


class JoinAsScorekeeperForm(Form):
    submit = SubmitField(_l("Add me as scorekeeper"))


class PairingsForm(Form):
    file = FileField(
        _l("Pairings CSV"),
        validators=[FileRequired(), FileAllowed(["csv", "txt"], _l("Upload a .csv file."))],
        description=_l("One row per table: table number, player id, player id."),
    )
    submit = SubmitField(_l("Import pairings"))
