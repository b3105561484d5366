from wtforms import EmailField, PasswordField, SelectField, StringField, SubmitField
from wtforms.validators import DataRequired, EqualTo, Length, Optional

from ..forms import Form
from ..texts import lazy_gettext as _l


def new_password_fields() -> tuple[PasswordField, PasswordField]:
    """A new password and the same typed again: the one rule for a password (10 to 200 characters), wherever one is
    chosen (changing it, or setting it from an invitation's or a reset's link). Made in the form's class body, so the
    two fields stand where they are named."""
    new_password = PasswordField(
        _l("New password"),
        validators=[DataRequired(), Length(min=10, max=200)],
        description=_l("At least 10 characters. Signs you out everywhere else."),
        render_kw={"autocomplete": "new-password"},
    )
    confirm = PasswordField(
        _l("Repeat new password"),
        validators=[DataRequired(), EqualTo("new_password", _l("The passwords differ."))],
        render_kw={"autocomplete": "new-password"},
    )
    return new_password, confirm


class LoginForm(Form):
    email = EmailField(
        _l("Email"), validators=[DataRequired(), Length(max=254)], render_kw={"autocomplete": "username"}
    )
    password = PasswordField(
        _l("Password"), validators=[DataRequired(), Length(max=200)], render_kw={"autocomplete": "current-password"}
    )
    submit = SubmitField(_l("Log in"))


class ChangePasswordForm(Form):
    current_password = PasswordField(
        _l("Current password"), validators=[DataRequired()], render_kw={"autocomplete": "current-password"}
    )
    new_password, confirm = new_password_fields()
    submit = SubmitField(_l("Change password"))


class ForgotPasswordForm(Form):
    email = EmailField(
        _l("Email"),
        validators=[DataRequired(), Length(max=254)],
        render_kw={"autocomplete": "username"},
        description=_l("The address your account uses. We email it a link to choose a new password."),
    )
    submit = SubmitField(_l("Email me a link"))


class SetPasswordForm(Form):
    name = StringField(
        _l("Your name"),
        validators=[Optional(), Length(max=200)],
        description=_l("As other judges and the organizer see it."),
        render_kw={"autocomplete": "name"},
    )
    new_password, confirm = new_password_fields()
    submit = SubmitField(_l("Set password"))


class LogoutForm(Form):
    submit = SubmitField(_l("Log out"))


class ProfileForm(Form):
    """How the account appears to others, and the language its pages are in."""

    name = StringField(
        _l("Your name"),
        validators=[DataRequired(), Length(max=200)],
        description=_l("As other judges and the organizer see it."),
        render_kw={"autocomplete": "name"},
    )
    reading = StringField(
        _l("Reading of your name (furigana)"),
        validators=[Optional(), Length(max=200)],
        description=_l("Optional. In kana, for names written in kanji: lists of judges sort by it."),
    )
    locale = SelectField(
        _l("Language"),
        choices=[],  # filled from judgeapp.i18n.LANGUAGES by the view
        validators=[Optional()],
        description=_l("The language of your pages. Browser's language: as your phone or browser asks."),
    )
    submit = SubmitField(_l("Save"))
