from flask import current_app, flash, redirect, render_template, request, session, url_for
from flask_login import current_user, login_required, login_user, logout_user

from ..extensions import db, limiter
from ..errors import FieldError, show_on_form
from . import bp, services
from .forms import ChangePasswordForm, LoginForm, LogoutForm

LOGIN_FAILED = "Email or password is wrong."


def _email_key() -> str:
    return "login-email:" + services.normalise_email(request.form.get("email", ""))


def _failed(response) -> bool:
    return response.status_code == 401


def _email_and_address_key() -> str:
    return f"{_email_key()}|{request.remote_addr}"


def _account_and_address_limit() -> str:
    return current_app.config["LOGIN_LIMIT_PER_ACCOUNT_AND_ADDRESS"]


def _account_limit() -> str:
    return current_app.config["LOGIN_LIMIT_PER_ACCOUNT"]


def _address_limit() -> str:
    return current_app.config["LOGIN_LIMIT_PER_ADDRESS"]


@bp.route("/login", methods=["GET", "POST"])
@limiter.limit(_account_and_address_limit, key_func=_email_and_address_key, methods=["POST"], deduct_when=_failed)
@limiter.limit(_account_limit, key_func=_email_key, methods=["POST"], deduct_when=_failed)
@limiter.limit(_address_limit, methods=["POST"], deduct_when=_failed)
def login():
    if current_user.is_authenticated:
        return redirect(url_for("events.index"))
    form = LoginForm()
    if form.validate_on_submit():
        user = services.authenticate(db.session, form.email.data, form.password.data)
        if user is not None:
            services.start_session(db.session, user, days=current_app.config["JUDGEAPP_SESSION_DAYS"],
                                   user_agent=request.user_agent.string)
            db.session.commit()
            session.clear()
            login_user(user)
            return redirect(_safe_next(request.args.get("next")))
        form.password.errors.append(LOGIN_FAILED)
        return render_template("auth/login.html", form=form), 401
    return render_template("auth/login.html", form=form)


def _safe_next(target: str | None) -> str:
    """Only same-site relative paths; anything else goes to the event list."""
    if target and target.startswith("/") and not target.startswith("//") and "\\" not in target:
        return target
    return url_for("events.index")


@bp.route("/logout", methods=["POST"])
@login_required
def logout():
    if LogoutForm().validate_on_submit():
        services.end_session(db.session, current_user, current_user.session_token)
        db.session.commit()
        logout_user()
        session.clear()
        flash("You are logged out.", "info")
    return redirect(url_for("auth.login"))


@bp.route("/account/password", methods=["GET", "POST"])
@login_required
def change_password():
    form = ChangePasswordForm()
    if form.validate_on_submit():
        try:
            services.change_password(db.session, current_user, current=form.current_password.data,
                                     new=form.new_password.data, days=current_app.config["JUDGEAPP_SESSION_DAYS"],
                                     user_agent=request.user_agent.string)
        except FieldError as err:
            show_on_form(form, err, db.session)
        else:
            db.session.commit()
            login_user(current_user._get_current_object())
            flash("Password changed. Your other sessions are signed out.", "success")
            return redirect(url_for("events.index"))
    return render_template("auth/password.html", form=form)
