"""The time extension form (also the incident page's "add the owed minutes" form)."""

from wtforms import SelectField, StringField, SubmitField, TimeField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import DataRequired, Length, NumberRange, Optional

from ..forms import NUMERIC, NumericField, TableFields
from ..texts import lazy_gettext as _l

# why time was given back, as the pages write it within a sentence ("5 min ruling (Ann)"); the stored value is the key
REASON_NAMES = {"ruling": _l("ruling"), "deck_check": _l("deck check"), "other": _l("other")}


def reason_name(reason) -> str:
    """A time extension's reason (an ExtensionReason or its value) in the page's language."""
    value = getattr(reason, "value", reason)
    return str(REASON_NAMES.get(value, str(value).replace("_", " ")))


class ExtensionForm(TableFields):
    reason = SelectField(
        _l("Reason"),
        choices=[
            SelectChoice("ruling", _l("Ruling")),
            SelectChoice("deck_check", _l("Deck check")),
            SelectChoice("other", _l("Other")),
        ],
        validators=[DataRequired()],
    )
    paused_from = TimeField(_l("Match stopped at"), validators=[Optional()])
    paused_to = TimeField(_l("Match resumed at"), validators=[Optional()])
    taken_minutes = NumericField(
        _l("Or: minutes the match was stopped"),
        decimal=True,
        validators=[Optional(), NumberRange(0, 240)],
        render_kw={"inputmode": "decimal"},
    )
    minutes = NumericField(
        _l("Minutes to add"),
        validators=[Optional(), NumberRange(0, 240, _l("0 to 240 minutes."))],
        render_kw=NUMERIC,
        description=_l("Leave empty to give what the policy owes for the pause."),
    )
    adjust_reason = StringField(_l("Reason for a different amount"), validators=[Optional(), Length(max=500)])
    extra_turns = NumericField(
        _l("Extra turns"),
        validators=[Optional(), NumberRange(0, 10, _l("0 to 10 extra turns."))],
        render_kw=NUMERIC,
        description=_l(
            "Turns given as well as, or instead of, minutes; counted from the turn in play when time is up."
        ),
    )
    submit = SubmitField(_l("Add time"))
