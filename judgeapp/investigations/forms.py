from wtforms import BooleanField, HiddenField, SelectField, StringField, SubmitField, TextAreaField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import DataRequired, Length, Optional

from ..forms import Form
from ..incidents.forms import one_time_key
from ..models import StatementRole

ROLES = [SelectChoice(r.value, r.label.capitalize()) for r in StatementRole if r is not StatementRole.HEAD_JUDGE]


class AcceptForm(Form):
    submit = SubmitField("Accept: disqualify")


class DeclineForm(Form):
    reason = StringField("Reason", validators=[DataRequired(message="Say why you decline."), Length(max=500)])
    rank = SelectField("Penalty instead", validators=[Optional()], validate_choice=False)
    submit = SubmitField("Decline the recommendation")


def decline_form(policy, **kwargs) -> DeclineForm:
    """The penalties a head judge may give instead of a recommended one (never another head-judge-only one)."""
    form = DeclineForm(**kwargs)
    form.rank.choices = [SelectChoice("", "No penalty")] + [
        SelectChoice(r.id, r.name) for r in policy.ranks if r.id not in policy.head_judge_only
    ]
    return form


class StatementForm(Form):
    key = HiddenField(default=one_time_key)
    author_name = StringField(
        "Name",
        validators=[DataRequired(message="Give the person's name."), Length(max=200)],
        render_kw={"autocomplete": "off"},
    )
    author_role = SelectField("Role", choices=ROLES, validators=[DataRequired()], validate_choice=False)
    text = TextAreaField(
        "Statement",
        validators=[DataRequired(message="The statement is empty."), Length(max=20000)],
        render_kw={"rows": 6},
        description="Their account in their own words. It cannot be edited later.",
    )
    submit = SubmitField("Save the statement")


class LinkForm(Form):
    author_name = StringField(
        "Name",
        validators=[DataRequired(message="Give the person's name."), Length(max=200)],
        render_kw={"autocomplete": "off"},
    )
    author_role = SelectField("Role", choices=ROLES, validators=[DataRequired()], validate_choice=False)
    submit = SubmitField("Make a one-time link")


class RevokeForm(Form):
    submit = SubmitField("Withdraw the link")


class WriteUpForm(Form):
    hj_infraction = TextAreaField(
        "The infraction",
        validators=[Optional(), Length(max=10000)],
        render_kw={"rows": 2},
        description="What the player did, and which infraction of the policy that is.",
    )
    hj_facts = TextAreaField(
        "Facts you consider established, and why", validators=[Optional(), Length(max=10000)], render_kw={"rows": 5}
    )
    hj_assumptions = TextAreaField(
        "What you assumed",
        validators=[Optional(), Length(max=10000)],
        render_kw={"rows": 3},
        description="Anything you could not establish and took as likely.",
    )
    hj_reasoning = TextAreaField("Your reasoning", validators=[Optional(), Length(max=10000)], render_kw={"rows": 5})
    decision_infraction_code = SelectField("Disqualified for", validators=[Optional()], validate_choice=False)
    revoke_prizes = BooleanField("Prizes revoked")
    revoke_standing = BooleanField("Standing revoked (removed from the final standings)")
    ejected = BooleanField("Ejected from the venue (with the organizer's permission)")
    summary = TextAreaField(
        "Summary of the decision",
        validators=[Optional(), Length(max=10000)],
        render_kw={"rows": 4},
        description="What you told the player and what happens next.",
    )
    save = SubmitField("Save draft")
    finalize = SubmitField("Finalize and lock")


class PublicStatementForm(Form):
    text = TextAreaField(
        "Your statement",
        validators=[DataRequired(message="Your statement is empty."), Length(max=20000)],
        render_kw={"rows": 10},
    )
    submit = SubmitField("Send my statement")
