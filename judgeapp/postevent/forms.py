from wtforms import RadioField, StringField, SubmitField, TextAreaField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import DataRequired, Length

from ..forms import Form
from ..texts import lazy_gettext as _l


class CloseForm(Form):
    submit = SubmitField(_l("Close the event"))


class ReopenForm(Form):
    reason = TextAreaField(
        _l("Why reopen it"),
        validators=[DataRequired(message=_l("Say why the event is reopened.")), Length(max=500)],
        render_kw={"rows": 2},
        description=_l("Kept in the event's record, with your name and the time."),
    )
    submit = SubmitField(_l("Reopen the event"))


class LookupForm(Form):
    class Meta:
        csrf = False  # a GET search: it changes nothing

    code = StringField(
        _l("Player ID"),
        validators=[DataRequired(message=_l("Type a player ID.")), Length(max=64)],
        render_kw={"autocomplete": "off", "autocapitalize": "characters"},
    )


class ReportPdfForm(Form):
    """Prepare the report's PDF on A4 or US Letter (a job: see judgeapp/renders.py)."""

    paper = RadioField(
        _l("Paper"),
        choices=[SelectChoice("a4", "A4"), SelectChoice("letter", _l("US Letter"))],
        default="a4",
        validators=[DataRequired()],
    )
