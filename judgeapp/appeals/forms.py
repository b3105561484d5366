from wtforms import BooleanField, HiddenField, RadioField, SelectField, SubmitField, TextAreaField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import DataRequired, Length, Optional

from ..forms import Form
from ..incidents.forms import one_time_key
from ..infractions import Outcome
from ..texts import lazy_gettext as _l


class AppealForm(Form):
    key = HiddenField(default=one_time_key)
    appellant = RadioField(
        _l("Who appeals"), validators=[DataRequired(message=_l("Choose who appeals."))], validate_choice=False
    )
    contests = RadioField(
        _l("What is contested"),
        choices=[
            SelectChoice("penalty", _l("The penalty")),
            SelectChoice("remedy", _l("The remedy (how the game was put right)")),
            SelectChoice("both", _l("Both")),
        ],
        default="both",
        validators=[DataRequired(message=_l("Choose what is contested."))],
        validate_choice=False,
    )
    contest = TextAreaField(
        _l("What they contest"),
        validators=[DataRequired(message=_l("Note what the player contests.")), Length(max=2000)],
        render_kw={"rows": 3},
        description=_l("In the player's words, briefly."),
    )
    submit = SubmitField(_l("Send the appeal to the head judge"))


OUTCOMES = [
    SelectChoice(Outcome.UPHELD.value, _l("Upheld: the ruling stands")),
    SelectChoice(Outcome.OVERTURNED.value, _l("Overturned: the penalty is taken back")),
    SelectChoice(Outcome.CHANGED.value, _l("Changed: another infraction or penalty")),
]


class DecisionForm(Form):
    outcome = RadioField(
        _l("Decision"), choices=OUTCOMES, validators=[DataRequired(message=_l("Choose the decision."))]
    )
    reason = TextAreaField(
        _l("Reason"),
        validators=[Optional(), Length(max=500)],
        render_kw={"rows": 2},
        description=_l("Needed when you overturn or change the ruling."),
    )
    infraction = SelectField(_l("New infraction"), validators=[Optional()], validate_choice=False)
    penalty = SelectField(_l("New penalty"), validators=[Optional()], validate_choice=False)
    count_challenge = BooleanField(
        _l("Counts as one of the player's challenges"),
        default=True,
        description=_l("Upheld appeals use one challenge unless you decide otherwise."),
    )
    submit = SubmitField(_l("Record the decision"))


class ProxyForm(Form):
    proxy = SelectField(
        _l("Proxy"),
        validators=[Optional()],
        validate_choice=False,
        description=_l(
            "A floor judge rules a second time in your place; the player may still appeal to you afterwards."
        ),
    )
    submit = SubmitField(_l("Delegate"))


class SeenForm(Form):
    submit = SubmitField(_l("Got it"))
