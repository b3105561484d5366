from flask_babel import lazy_gettext as _l
from flask_wtf.file import FileAllowed, FileField, FileRequired
from wtforms import DateField, EmailField, SelectField, SelectMultipleField, StringField, SubmitField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import DataRequired, Length, NumberRange, Optional

from ..forms import Form, NumericField
from ..i18n import LANGUAGES
from ..models import Role


class EventForm(Form):
    name = StringField("Event name", validators=[DataRequired(), Length(max=200)])
    date = DateField("Date", validators=[DataRequired(message="Give the date of the event.")])
    venue = StringField("Venue", validators=[DataRequired(), Length(max=200)])
    policy_id = SelectField("Policy", validators=[DataRequired()], description="The penalty guide this event enforces.")
    level = SelectField(
        "Enforcement level",
        coerce=int,
        validators=[DataRequired()],
        description="The chosen policy's own levels (most shop events run at its lowest).",
    )
    rounds = NumericField(
        "Number of rounds", validators=[DataRequired(), NumberRange(1, 30)], render_kw={"inputmode": "numeric"}
    )
    round_minutes = NumericField(
        "Round length (minutes)", validators=[DataRequired(), NumberRange(5, 240)], render_kw={"inputmode": "numeric"}
    )
    challenge_limit = NumericField(
        "Appeal challenges per player",
        validators=[Optional(), NumberRange(0, 20)],
        description="Leave empty for no limit.",
        render_kw={"inputmode": "numeric"},
    )
    statement_days = NumericField(
        "Statement deadline (days)",
        default=7,
        validators=[Optional(), NumberRange(1, 90)],
        description="How long a one-time link for a disqualification statement stays open.",
        render_kw={"inputmode": "numeric"},
    )
    language = SelectField(
        "Language",
        choices=[SelectChoice(code, name) for code, name in LANGUAGES.items()],
        default="en",
        validators=[DataRequired()],
        description="The language of the event's reports and players' pages, and of judges who chose none.",
    )
    submit = SubmitField("Save event")


class StaffForm(Form):
    email = EmailField("Email", validators=[DataRequired(), Length(max=254)])
    name = StringField(
        "Name",
        validators=[Optional(), Length(max=200)],
        description="Optional. We email them; a new person chooses their own password (and can "
        "correct their name) from the link.",
    )
    role = SelectField("Role", choices=[SelectChoice(r.value, r.label) for r in Role], validators=[DataRequired()])
    submit = SubmitField("Add to staff")


class EndStaffForm(Form):
    reason = StringField("Reason", validators=[DataRequired(), Length(max=300)])
    submit = SubmitField("Remove")


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


class ImportForm(Form):
    file = FileField(
        "Tournament file",
        validators=[FileRequired(message="Choose the file to import.")],
        description="The file your pairing software saves: TOM (.tdf), KTS (.Tournament), a Melee CSV export, or "
        "any spreadsheet saved as CSV or TSV with a header row (name, player ID…; round, table, opponent for "
        "pairings). Importing it again after the next round adds that round.",
    )
    submit = SubmitField("Import")


class ImportStepForm(Form):
    """The steps after an upload: map a spreadsheet's columns, replace changed rounds, or drop the file."""

    replace_rounds = SelectMultipleField("Rounds to replace", coerce=int, validate_choice=False)
    apply = SubmitField("Import with these columns")
    replace = SubmitField("Replace the ticked rounds")
    discard = SubmitField("Do not import the rest")


class PolicyUploadForm(Form):
    file = FileField(
        "Policy file (YAML)",
        validators=[FileRequired(message="Choose the policy file.")],
        description="One policy in judgeapp's catalog format (README: The catalog file): your house rules, or a "
        "publisher's newer version. It is checked like the shipped catalog, and every problem is named with its "
        "line and field.",
    )
    level = StringField(
        "Level",
        validators=[Optional(), Length(max=64)],
        description="The file's level for this event: its number or name. Empty: the event's level, if it has it.",
    )
    submit = SubmitField("Use this policy for the event")


class StartRoundForm(Form):
    submit = SubmitField("Start next round")


class EndRoundForm(Form):
    submit = SubmitField("End this round now")


class PairingsForm(Form):
    file = FileField(
        "Pairings CSV",
        validators=[FileRequired(), FileAllowed(["csv", "txt"], "Upload a .csv file.")],
        description="One row per table: table number, player id, player id.",
    )
    submit = SubmitField("Import pairings")
