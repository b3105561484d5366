from wtforms import EmailField, PasswordField, StringField, SubmitField
from wtforms.validators import DataRequired, EqualTo, Length, Optional

from ..forms import Form


class LoginForm(Form):
    email = EmailField("Email", validators=[DataRequired(), Length(max=254)], render_kw={"autocomplete": "username"})
    password = PasswordField(
        "Password", validators=[DataRequired(), Length(max=200)], render_kw={"autocomplete": "current-password"}
    )
    submit = SubmitField("Log in")


class ChangePasswordForm(Form):
    current_password = PasswordField(
        "Current password", validators=[DataRequired()], render_kw={"autocomplete": "current-password"}
    )
    new_password = PasswordField(
        "New password",
        validators=[DataRequired(), Length(min=10, max=200)],
        description="At least 10 characters. Signs you out everywhere else.",
        render_kw={"autocomplete": "new-password"},
    )
    confirm = PasswordField(
        "Repeat new password",
        validators=[DataRequired(), EqualTo("new_password", "The passwords differ.")],
        render_kw={"autocomplete": "new-password"},
    )
    submit = SubmitField("Change password")


class ForgotPasswordForm(Form):
    email = EmailField(
        "Email",
        validators=[DataRequired(), Length(max=254)],
        render_kw={"autocomplete": "username"},
        description="The address your account uses. We email it a link to choose a new password.",
    )
    submit = SubmitField("Email me a link")


class SetPasswordForm(Form):
    name = StringField(
        "Your name",
        validators=[Optional(), Length(max=200)],
        description="As other judges and the organizer see it.",
        render_kw={"autocomplete": "name"},
    )
    new_password = PasswordField(
        "New password",
        validators=[DataRequired(), Length(min=10, max=200)],
        description="At least 10 characters. Signs you out everywhere else.",
        render_kw={"autocomplete": "new-password"},
    )
    confirm = PasswordField(
        "Repeat new password",
        validators=[DataRequired(), EqualTo("new_password", "The passwords differ.")],
        render_kw={"autocomplete": "new-password"},
    )
    submit = SubmitField("Set password")


class LogoutForm(Form):
    submit = SubmitField("Log out")
