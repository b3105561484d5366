from ..forms import Form
from wtforms import EmailField, PasswordField, SubmitField
from wtforms.validators import DataRequired, EqualTo, Length


class LoginForm(Form):
    email = EmailField("Email", validators=[DataRequired(), Length(max=254)], render_kw={"autocomplete": "username"})
    password = PasswordField("Password", validators=[DataRequired(), Length(max=200)],
                             render_kw={"autocomplete": "current-password"})
    submit = SubmitField("Log in")


class ChangePasswordForm(Form):
    current_password = PasswordField("Current password", validators=[DataRequired()],
                                     render_kw={"autocomplete": "current-password"})
    new_password = PasswordField("New password", validators=[DataRequired(), Length(min=10, max=200)],
                                 description="At least 10 characters. Signs you out everywhere else.",
                                 render_kw={"autocomplete": "new-password"})
    confirm = PasswordField("Repeat new password", validators=[DataRequired(), EqualTo("new_password", "The passwords differ.")],
                            render_kw={"autocomplete": "new-password"})
    submit = SubmitField("Change password")


class LogoutForm(Form):
    submit = SubmitField("Log out")
