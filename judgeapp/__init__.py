"""judgeapp: tournament judges' incident and penalty tool."""
from __future__ import annotations

from datetime import datetime, timezone
from zoneinfo import ZoneInfo

from flask import Flask, render_template, request
from flask.sessions import SecureCookieSessionInterface
from flask_wtf.csrf import CSRFError

from .errors import EventClosed
from .config import DEFAULTS, ROOT, from_environment
from .extensions import CATALOG_KEY, csrf, db, limiter, login_manager, migrate

CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; object-src 'none'; "
       "base-uri 'self'; form-action 'self'; frame-ancestors 'none'")


class SessionInterface(SecureCookieSessionInterface):
    """The session cookie is `Secure` whenever the request came over HTTPS (or SESSION_COOKIE_SECURE says so), so a
    deployment behind TLS cannot forget it; plain-HTTP development keeps working."""

    def get_cookie_secure(self, app: Flask) -> bool:
        return bool(app.config["SESSION_COOKIE_SECURE"]) or request.is_secure


def create_app(test_config: dict | None = None) -> Flask:
    """Build the app: configuration, catalog, extensions, blueprints, error pages, CLI."""
    app = Flask(__name__, instance_relative_config=True)
    app.config.update(DEFAULTS)
    if test_config is None:
        app.config.update(from_environment(app.instance_path))
    else:
        app.config.update(test_config)
    app.session_interface = SessionInterface()
    if app.config.get("JUDGEAPP_PROXY_HOPS"):
        from werkzeug.middleware.proxy_fix import ProxyFix

        hops = int(app.config["JUDGEAPP_PROXY_HOPS"])  # trust X-Forwarded-For/-Proto from this many proxies
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops, x_host=hops)
    load_catalog(app)
    register_extensions(app)
    register_blueprints(app)
    register_errorhandlers(app)
    register_template_helpers(app)
    register_commands(app)
    return app


def load_catalog(app: Flask) -> None:
    """Load the catalog once; a bad file stops the app with every problem named."""
    from .infractions import load_catalog as load

    app.extensions[CATALOG_KEY] = load(app.config["JUDGEAPP_CATALOG"])


def register_extensions(app: Flask) -> None:
    from . import models  # noqa: F401  (tables known to the metadata before migrations look)
    from .database import configure_engine

    db.init_app(app)
    with app.app_context():
        configure_engine(db.engine, app.config["JUDGEAPP_SQLITE_BUSY_MS"])
    migrate.init_app(app, db, directory=str(ROOT / "migrations"), render_as_batch=True)
    csrf.init_app(app)
    limiter.init_app(app)
    from .mail import mail

    mail.init_app(app)
    login_manager.init_app(app)
    login_manager.login_view = "auth.login"
    login_manager.login_message = "Log in to continue."
    login_manager.session_protection = None  # the server-side session row is the protection

    @login_manager.user_loader
    def _load(token: str):
        from .auth.services import load_session_user

        return load_session_user(db.session, token)

    @app.after_request
    def _headers(response):
        response.headers.setdefault("Content-Security-Policy", CSP)
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("Referrer-Policy", "same-origin")
        response.headers.setdefault("X-Frame-Options", "DENY")
        return response


def register_blueprints(app: Flask) -> None:
    from .appeals import bp as appeals_bp
    from .auth import bp as auth_bp
    from .clock import bp as clock_bp
    from .deckchecks import bp as deckchecks_bp
    from .events import bp as events_bp
    from .incidents import bp as incidents_bp
    from .investigations import bp as investigations_bp
    from .offline import bp as offline_bp
    from .postevent import bp as postevent_bp
    from .reference import bp as reference_bp

    app.register_blueprint(auth_bp)
    app.register_blueprint(events_bp)
    app.register_blueprint(incidents_bp)
    app.register_blueprint(clock_bp)
    app.register_blueprint(deckchecks_bp)
    app.register_blueprint(appeals_bp)
    app.register_blueprint(investigations_bp)
    app.register_blueprint(postevent_bp)
    app.register_blueprint(reference_bp)
    app.register_blueprint(offline_bp)


def register_errorhandlers(app: Flask) -> None:
    messages = {
        400: ("Bad request", "The request could not be understood. Go back and try again."),
        403: ("Not allowed", "Your role at this event does not allow this. Ask the organizer or the head judge."),
        404: ("Not found", "There is nothing here, or it is not yours to see."),
        405: ("Not allowed", "This address does not accept that kind of request."),
        409: ("Event closed", "This event is closed; nothing was changed."),
        410: ("Link no longer works", "This link has been used or has expired."),
        413: ("Too large", "The upload is larger than 2 MB."),
        429: ("Too many attempts", "Too many attempts in a short time. Wait a few minutes and try again."),
        500: ("Something went wrong", "Nothing was saved from this request. Try again; if it keeps failing, tell the head judge."),
    }

    def render(code: int, detail: str | None = None):
        title, text = messages[code]
        return render_template("errors/error.html", code=code, title=title, text=detail or text), code

    for code in messages:
        if code == 500:
            continue
        app.register_error_handler(code, lambda e, code=code: render(code))

    @app.errorhandler(CSRFError)
    def _csrf(e):
        return render(400, "This form has expired or was not sent by judgeapp (missing or wrong security token). "
                           "Reload the page and send it again; what you typed was not saved.")

    @app.errorhandler(EventClosed)
    def _closed(e):
        db.session.rollback()
        return render(409, str(e))

    @app.errorhandler(500)
    def _server_error(e):
        db.session.rollback()
        return render(500)


def register_template_helpers(app: Flask) -> None:
    tz = ZoneInfo(app.config.get("JUDGEAPP_TIMEZONE") or "UTC")

    @app.template_filter("clock")
    def clock(value: datetime | None, fmt: str = "%H:%M") -> str:
        """Stored UTC time shown in the venue's time zone."""
        if value is None:
            return ""
        return value.replace(tzinfo=timezone.utc).astimezone(tz).strftime(fmt)

    @app.template_filter("iso_utc")
    def iso_utc(value: datetime | None) -> str:
        """A stored UTC time for scripts (countdowns, stopwatches)."""
        return "" if value is None else value.replace(tzinfo=timezone.utc).isoformat().replace("+00:00", "Z")

    @app.context_processor
    def _forms():
        from .auth.forms import LogoutForm

        return {"logout_form": LogoutForm(), "catalog": app.extensions[CATALOG_KEY]}


def register_commands(app: Flask) -> None:
    from .cli import register

    register(app)
