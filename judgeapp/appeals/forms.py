from wtforms import BooleanField, HiddenField, RadioField, SelectField, SubmitField, TextAreaField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import DataRequired, Length, Optional

from ..forms import Form
from ..incidents.forms import one_time_key
from ..infractions import Outcome


class AppealForm(Form):
    key = HiddenField(default=one_time_key)
    appellant = RadioField(
        "Who appeals", validators=[DataRequired(message="Choose who appeals.")], validate_choice=False
    )
    contests = RadioField(
        "What is contested",
        choices=[
            SelectChoice("penalty", "The penalty"),
            SelectChoice("remedy", "The remedy (how the game was put right)"),
            SelectChoice("both", "Both"),
        ],
        default="both",
        validators=[DataRequired(message="Choose what is contested.")],
        validate_choice=False,
    )
    contest = TextAreaField(
        "What they contest",
        validators=[DataRequired(message="Note what the player contests."), Length(max=2000)],
        render_kw={"rows": 3},
        description="In the player's words, briefly.",
    )
    submit = SubmitField("Send the appeal to the head judge")


OUTCOMES = [
    SelectChoice(Outcome.UPHELD.value, "Upheld: the ruling stands"),
    SelectChoice(Outcome.OVERTURNED.value, "Overturned: the penalty is taken back"),
    SelectChoice(Outcome.CHANGED.value, "Changed: another infraction or penalty"),
]


class DecisionForm(Form):
    outcome = RadioField("Decision", choices=OUTCOMES, validators=[DataRequired(message="Choose the decision.")])
    reason = TextAreaField(
        "Reason",
        validators=[Optional(), Length(max=500)],
        render_kw={"rows": 2},
        description="Needed when you overturn or change the ruling.",
    )
    infraction = SelectField("New infraction", validators=[Optional()], validate_choice=False)
    penalty = SelectField("New penalty", validators=[Optional()], validate_choice=False)
    count_challenge = BooleanField(
        "Counts as one of the player's challenges",
        default=True,
        description="Upheld appeals use one challenge unless you decide otherwise.",
    )
    submit = SubmitField("Record the decision")


class ProxyForm(Form):
    proxy = SelectField(
        "Proxy",
        validators=[Optional()],
        validate_choice=False,
        description="A floor judge rules a second time in your place; the player may still appeal to you afterwards.",
    )
    submit = SubmitField("Delegate")


class SeenForm(Form):
    submit = SubmitField("Got it")
