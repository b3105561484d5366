from flask import Blueprint, current_app, flash, g, redirect, render_template, request, session, url_for
from flask_babel import refresh
from flask_login import current_user, login_required, login_user, logout_user
from wtforms.fields.choices import SelectChoice

from ..breach import secret_on_page
from ..errors import FieldError, show_on_form
from ..extensions import db, limiter
from ..i18n import LANGUAGES
from ..models import TokenPurpose
from ..texts import gettext as _
from ..texts import lazy_gettext as _l
from ..web import safe_next
from . import devices, emails, services
from .forms import ChangePasswordForm, ForgotPasswordForm, LoginForm, LogoutForm, ProfileForm, SetPasswordForm

bp = Blueprint("auth", __name__, template_folder="templates")

LOGIN_FAILED = _l("Email or password is wrong.")
RESET_SENT = _l(
    "If an account uses this address, we have emailed it a link to choose a new password. "
    "Check your inbox (and spam folder)."
)
ACCOUNT_SCOPE = "login-account"  # wrong passwords at login and at the password-change page count together
NO_STORE = {"Cache-Control": "no-store"}


def _email_key() -> str:
    """The account a login names, by its normalised email (any spelling of one address is one key)."""
    return "login-email:" + services.normalise_email(request.form.get("email", ""))


def _signed_in_account_key() -> str:
    return "login-email:" + services.normalise_email(getattr(current_user, "email", "") or "")


def _failed(response) -> bool:
    return response.status_code == 401


def _wrong_current_password(response) -> bool:
    return bool(g.get("wrong_current_password"))


def _known_device() -> str | None:
    """This browser's known-device id for the account the form names (devices.py), else None."""
    return devices.device_for(services.normalise_email(request.form.get("email", "")))


def _email_and_address_key() -> str:
    """The account and where the attempt comes from: the owner's known device by its id (whatever address it has
    now), any other browser by its address."""
    device = _known_device()
    return f"{_email_key()}|device:{device}" if device else f"{_email_key()}|{request.remote_addr}"


def _from_known_device() -> bool:
    return _known_device() is not None


def _account_and_address_limit() -> str:
    return current_app.config["LOGIN_LIMIT_PER_ACCOUNT_AND_ADDRESS"]


def _account_limit() -> str:
    return current_app.config["LOGIN_LIMIT_PER_ACCOUNT"]


def _address_limit() -> str:
    return current_app.config["LOGIN_LIMIT_PER_ADDRESS"]


@bp.route("/login", methods=["GET", "POST"])
@limiter.limit(_account_and_address_limit, key_func=_email_and_address_key, methods=["POST"], deduct_when=_failed)
@limiter.shared_limit(
    _account_limit,
    ACCOUNT_SCOPE,
    key_func=_email_key,
    methods=["POST"],
    deduct_when=_failed,
    exempt_when=_from_known_device,  # the owner's own device: counted per device above, never locked out by others
)
@limiter.limit(_address_limit, methods=["POST"], deduct_when=_failed)
def login():
    if current_user.is_authenticated:
        return redirect(url_for("events.index"))
    form = LoginForm()
    if form.validate_on_submit():
        user = services.authenticate(db.session, form.email.data, form.password.data)
        if user is not None:
            services.start_session(
                db.session, user, days=current_app.config["JUDGEAPP_SESSION_DAYS"], user_agent=request.user_agent.string
            )
            db.session.commit()
            session.clear()
            login_user(user)
            return devices.remember(redirect(safe_next(request.args.get("next"), url_for("events.index"))), user.email)
        form.password.errors.append(str(LOGIN_FAILED))
        return render_template("auth/login.html", form=form), 401
    return render_template("auth/login.html", form=form)


@bp.route("/logout", methods=["POST"])
@login_required
def logout():
    if LogoutForm().validate_on_submit():
        services.end_session(db.session, current_user, current_user.session_token)
        db.session.commit()
        logout_user()
        session.clear()
        flash(_("You are logged out."), "info")
    return redirect(url_for("auth.login"))


@bp.route("/account/password", methods=["GET", "POST"])
@login_required
@limiter.shared_limit(
    _account_limit,
    ACCOUNT_SCOPE,
    key_func=_signed_in_account_key,
    methods=["POST"],
    deduct_when=_wrong_current_password,
    exempt_when=lambda: not current_user.is_authenticated,
)
def change_password():
    form = ChangePasswordForm()
    if form.validate_on_submit():
        try:
            services.change_password(
                db.session,
                current_user,
                current=form.current_password.data,
                new=form.new_password.data,
                days=current_app.config["JUDGEAPP_SESSION_DAYS"],
                user_agent=request.user_agent.string,
            )
        except FieldError as err:
            g.wrong_current_password = err.field == "current_password"
            show_on_form(form, err, db.session)
        else:
            db.session.commit()
            login_user(current_user._get_current_object())
            flash(_("Password changed. Your other sessions are signed out."), "success")
            return redirect(url_for("events.index"))
    return render_template("auth/password.html", form=form, profile=_profile_form(formdata=None))


def _profile_form(**kwargs) -> ProfileForm:
    user = current_user
    form = ProfileForm(**kwargs, data={"name": user.name, "reading": user.reading, "locale": user.locale or ""})
    form.locale.choices = [
        SelectChoice("", _("Browser's language")),
        *(SelectChoice(c, n) for c, n in LANGUAGES.items()),
    ]
    return form


@bp.route("/account/profile", methods=["POST"])
@login_required
def profile():
    form = _profile_form()
    if form.validate_on_submit():
        services.update_profile(
            db.session, current_user, name=form.name.data, reading=form.reading.data, locale=form.locale.data
        )
        db.session.commit()
        refresh()  # the notice in the language just chosen, not the one this request began in
        flash(_("Saved."), "success")
        return redirect(url_for("auth.change_password"))
    return render_template("auth/password.html", form=ChangePasswordForm(formdata=None), profile=form), 400


def _forgot_email_key() -> str:
    return "forgot-email:" + services.normalise_email(request.form.get("email", ""))


def _forgot_device_key() -> str:
    return f"{_forgot_email_key()}|device:{_known_device()}"


@bp.route("/account/forgot", methods=["GET", "POST"])
@limiter.limit(
    lambda: current_app.config["FORGOT_LIMIT_PER_ACCOUNT"],
    key_func=_forgot_email_key,
    methods=["POST"],
    exempt_when=_from_known_device,  # a stranger's requests for the address cannot block its owner's own device…
)
@limiter.limit(  # …which has a count of its own
    lambda: current_app.config["FORGOT_LIMIT_PER_ACCOUNT"],
    key_func=_forgot_device_key,
    methods=["POST"],
    exempt_when=lambda: not _from_known_device(),
)
@limiter.limit(lambda: current_app.config["FORGOT_LIMIT_PER_ADDRESS"], methods=["POST"])
def forgot():
    """Email a reset link; the answer is the same whether or not an account uses the address."""
    form = ForgotPasswordForm()
    if form.validate_on_submit():
        emails.request_reset(db.session, form.email.data)  # the same for every address: the worker mails
        db.session.commit()
        flash(str(RESET_SENT), "info")
        return redirect(url_for("auth.login"))
    return render_template("auth/forgot.html", form=form), 400 if form.errors else 200, NO_STORE


def _gone(text: str, code: int = 410):
    title = _("This link no longer works")
    return render_template("errors/error.html", code=code, title=title, text=text), code, NO_STORE


@bp.route("/account/set-password/<token>", methods=["GET", "POST"])
@limiter.limit("30 per minute")
def set_password(token):
    """An emailed one-time link (invite or reset): the person chooses their password and is signed in."""
    secret_on_page()  # the link's token is in this page's own address, which a page may repeat
    try:
        link = services.link_by_token(db.session, token)
    except LookupError:
        return _gone(
            _(
                "This is not a link we sent, or it was not copied whole. Use “Forgot password?” on the login "
                "page for a new one."
            ),
            404,
        )
    except services.LinkGone as gone:
        return _gone(gone.why)
    invite = link.purpose is TokenPurpose.INVITE
    form = SetPasswordForm(name=link.user.name)
    if not invite:
        del form.name
    if form.validate_on_submit():
        try:
            if current_user.is_authenticated:  # someone else's session in this browser ends here
                services.end_session(db.session, current_user, current_user.session_token, "another account signed in")
            user, _session_token = services.set_password_by_link(
                db.session,
                token,
                new=form.new_password.data,
                name=form.name.data if invite else None,
                days=current_app.config["JUDGEAPP_SESSION_DAYS"],
                user_agent=request.user_agent.string,
            )
        except services.LinkGone as gone:
            db.session.rollback()
            return _gone(gone.why)
        except FieldError as err:
            show_on_form(form, err, db.session)
        else:
            db.session.commit()
            session.clear()
            login_user(user)
            flash(
                _("Your password is set, and you are signed in. Any other sessions of your account are signed out."),
                "success",
            )
            return redirect(url_for("events.index"))
    return (
        render_template("auth/set_password.html", form=form, link=link, invite=invite),
        400 if form.errors else 200,
        NO_STORE,
    )
