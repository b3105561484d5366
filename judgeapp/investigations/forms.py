from wtforms import (
    BooleanField,
    HiddenField,
    SelectField,
    SelectMultipleField,
    StringField,
    SubmitField,
    TextAreaField,
)
from wtforms.fields.choices import SelectChoice
from wtforms.validators import DataRequired, Length, Optional

from ..choices import catalog_name
from ..forms import Form
from ..incidents.forms import one_time_key
from ..models import StatementRole
from ..texts import lazy_gettext as _l

ROLE_CHOICES = {
    StatementRole.PLAYER: _l("Player"),
    StatementRole.OPPONENT: _l("Opponent"),
    StatementRole.WITNESS: _l("Witness"),
    StatementRole.JUDGE: _l("Judge"),
}
ROLES = [SelectChoice(r.value, ROLE_CHOICES[r]) for r in StatementRole if r is not StatementRole.HEAD_JUDGE]


class AcceptForm(Form):
    # where a number of judges decide it (Play! Pokémon 4.1): the other judges who agreed, ticked by the head judge
    judges = SelectMultipleField(_l("Judges who agreed"), coerce=int, validate_choice=False)
    submit = SubmitField(_l("Accept: disqualify"))


class DeclineForm(Form):
    reason = StringField(_l("Reason"), validators=[DataRequired(message=_l("Say why you decline.")), Length(max=500)])
    rank = SelectField(_l("Penalty instead"), validators=[Optional()], validate_choice=False)
    submit = SubmitField(_l("Decline the recommendation"))


def decline_form(policy, **kwargs) -> DeclineForm:
    """The penalties a head judge may give instead of a recommended one (never another head-judge-only one)."""
    form = DeclineForm(**kwargs)
    form.rank.choices = [SelectChoice("", _l("No penalty"))] + [
        SelectChoice(r.id, catalog_name(r)) for r in policy.ranks if r.id not in policy.head_judge_only
    ]
    return form


class StatementForm(Form):
    key = HiddenField(default=one_time_key)
    author_name = StringField(
        _l("Name"),
        validators=[DataRequired(message=_l("Give the person's name.")), Length(max=200)],
        render_kw={"autocomplete": "off"},
    )
    author_role = SelectField(_l("Role"), choices=ROLES, validators=[DataRequired()], validate_choice=False)
    text = TextAreaField(
        _l("Statement"),
        validators=[DataRequired(message=_l("The statement is empty.")), Length(max=20000)],
        render_kw={"rows": 6},
        description=_l("Their account in their own words. It cannot be edited later."),
    )
    submit = SubmitField(_l("Save the statement"))


class LinkForm(Form):
    author_name = StringField(
        _l("Name"),
        validators=[DataRequired(message=_l("Give the person's name.")), Length(max=200)],
        render_kw={"autocomplete": "off"},
    )
    author_role = SelectField(_l("Role"), choices=ROLES, validators=[DataRequired()], validate_choice=False)
    submit = SubmitField(_l("Make a one-time link"))


class RevokeForm(Form):
    submit = SubmitField(_l("Withdraw the link"))


class WriteUpForm(Form):
    hj_infraction = TextAreaField(
        _l("The infraction"),
        validators=[Optional(), Length(max=10000)],
        render_kw={"rows": 2},
        description=_l("What the player did, and which infraction of the policy that is."),
    )
    hj_facts = TextAreaField(
        _l("Facts you consider established, and why"), validators=[Optional(), Length(max=10000)], render_kw={"rows": 5}
    )
    hj_assumptions = TextAreaField(
        _l("What you assumed"),
        validators=[Optional(), Length(max=10000)],
        render_kw={"rows": 3},
        description=_l("Anything you could not establish and took as likely."),
    )
    hj_reasoning = TextAreaField(
        _l("Your reasoning"), validators=[Optional(), Length(max=10000)], render_kw={"rows": 5}
    )
    decision_infraction_code = SelectField(_l("Disqualified for"), validators=[Optional()], validate_choice=False)
    revoke_prizes = BooleanField(_l("Prizes revoked"))
    revoke_standing = BooleanField(_l("Standing revoked (removed from the final standings)"))
    ejected = BooleanField(_l("Ejected from the venue (with the organizer's permission)"))
    summary = TextAreaField(
        _l("Summary of the decision"),
        validators=[Optional(), Length(max=10000)],
        render_kw={"rows": 4},
        description=_l("What you told the player and what happens next."),
    )
    without_statement = BooleanField(_l("Finalize without any statement"))  # asked only when none is on file
    save = SubmitField(_l("Save draft"))
    finalize = SubmitField(_l("Finalize and lock"))


class PublicStatementForm(Form):
    text = TextAreaField(
        _l("Your statement"),
        validators=[DataRequired(message=_l("Your statement is empty.")), Length(max=20000)],
        render_kw={"rows": 10},
    )
    submit = SubmitField(_l("Send my statement"))
