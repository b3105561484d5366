"""judgeapp: tournament judges' incident and penalty tool."""

from __future__ import annotations

import re
import time
from datetime import UTC, datetime
from typing import Any

from flask import Flask, g, make_response, request
from flask.sessions import SecureCookieSessionInterface
from flask_login import current_user
from flask_wtf.csrf import CSRFError
from markupsafe import Markup, escape
from sqlalchemy import inspect as sa_inspect
from sqlalchemy.exc import OperationalError
from werkzeug.routing import IntegerConverter

from .config import DEFAULTS, ROOT, from_environment
from .database import READ_ONLY_FROM_NOW, is_busy
from .errors import EventClosed
from .extensions import CATALOG_KEY, compress, csrf, db, limiter, login_manager, migrate
from .lifecycles import IllegalTransition
from .permissions import Refused
from .texts import gettext as _
from .texts import lazy_gettext as _l

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; object-src 'none'; "
    "base-uri 'self'; form-action 'self'; frame-ancestors 'none'"
)
# Responses a browser or proxy may keep: static files and the installable app's own files (sw.js sets no-cache).
# Everything else may carry credentials or personal data (pages, reports, CSV, one-time links): never stored.
CACHEABLE_ENDPOINTS = frozenset(
    {"static", "offline.service_worker", "offline.manifest", "offline.page", "offline.finder", "offline.event_finder"}
)


class SessionInterface(SecureCookieSessionInterface):
    """The session cookie is `Secure` whenever the request came over HTTPS (or SESSION_COOKIE_SECURE says so), so a
    deployment behind TLS cannot forget it; plain-HTTP development keeps working."""

    def get_cookie_secure(self, app: Flask) -> bool:
        return bool(app.config["SESSION_COOKIE_SECURE"]) or request.is_secure

    def save_session(self, app: Flask, session, response) -> None:
        """A static file is the same for everyone: it never sets the cookie nor varies by it (`Vary: Cookie` would
        make a browser or the phone's worker treat one script as many)."""
        if request.endpoint == "static":
            return
        super().save_session(app, session, response)


def account_header(user) -> str:
    """The X-Judgeapp-Account value: the signed-in account's id, or "none". Read from the record's identity, so a
    request that has committed (and so expired the account's row) does not open a second transaction to answer."""
    if not user.is_authenticated:
        return "none"
    state = sa_inspect(user._get_current_object() if hasattr(user, "_get_current_object") else user, raiseerr=False)
    if state is not None and state.identity:
        return str(state.identity[0])
    return str(user.id)


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
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops, x_host=hops)  # type: ignore[method-assign]
    load_catalog(app)
    register_extensions(app)
    app.url_map.converters["int"] = RecordNumber
    register_blueprints(app)
    register_errorhandlers(app)
    register_template_helpers(app)
    register_commands(app)
    return app


class RecordNumber(IntegerConverter):
    """`<int:…>` in every route, bounded to the database's integer: a larger number names no record (404), where it
    made the database driver overflow (a 500)."""

    def __init__(self, map: Any, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("max", 2**31 - 1)
        super().__init__(map, *args, **kwargs)


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
    compress.init_app(app)  # COMPRESS_REGISTER is off: a page with a raw secret on it is sent as it is
    from . import breach

    app.after_request(lambda response: breach.compress(compress, response))
    from . import i18n

    i18n.init_app(app)
    from .offline.bundles import write_bundles
    from .static_files import init_static_versions

    write_bundles()  # the phone's scripts as two files (static/js/bundle/), made from static/js/ when they changed
    init_static_versions(app)
    from .mail import mail

    mail.init_app(app)
    from . import jobs

    jobs.init_app(app)
    login_manager.init_app(app)
    login_manager.login_view = "auth.login"
    login_manager.login_message = _l("Log in to continue.")
    login_manager.localize_callback = str  # flashed as text in the request's language (the session keeps text)
    login_manager.session_protection = None  # the server-side session row is the protection

    @login_manager.user_loader
    def _load(token: str):
        from .auth.services import load_session_user

        return load_session_user(db.session(), token)

    from .offline.scripts import with_script_hashes

    @app.after_request
    def _headers(response):
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        # a page's (and the worker's) headers; a static script, style, icon or JSON file has no use for them, and a
        # first visit fetches some 30 such files (an SVG file is a document: it keeps them)
        if request.endpoint != "static" or response.mimetype == "image/svg+xml":
            response.headers.setdefault("Content-Security-Policy", with_script_hashes(CSP))  # + the import map's hash
            response.headers.setdefault("Referrer-Policy", "same-origin")
            response.headers.setdefault("X-Frame-Options", "DENY")
        if request.endpoint not in CACHEABLE_ENDPOINTS:
            response.headers["Cache-Control"] = "no-store"  # also over send_file's no-cache (PDF reports)
            # the phone's service worker keeps a page only for the account it names, and shows it only to that one
            response.headers["X-Judgeapp-Account"] = account_header(current_user)
            if response.mimetype == "text/html":  # when it was made (ms, UTC): a kept copy is checked against it
                response.headers["X-Judgeapp-Rendered"] = str(int(time.time() * 1000))
        if request.is_secure and app.config.get("JUDGEAPP_HSTS_SECONDS"):
            response.headers.setdefault(
                "Strict-Transport-Security", f"max-age={int(app.config['JUDGEAPP_HSTS_SECONDS'])}"
            )
        return response


def register_blueprints(app: Flask) -> None:
    from .appeals import bp as appeals_bp
    from .auth import bp as auth_bp
    from .calls import bp as calls_bp
    from .clock import bp as clock_bp
    from .deckchecks import bp as deckchecks_bp
    from .events import bp as events_bp
    from .help import bp as help_bp
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
    app.register_blueprint(calls_bp)
    app.register_blueprint(help_bp)


def register_errorhandlers(app: Flask) -> None:
    from .web import ERROR_PAGES, too_large_text
    from .web import error_page as render

    for code in ERROR_PAGES:
        if code in (413, 500):
            continue
        app.register_error_handler(code, lambda e, code=code: render(code))

    @app.errorhandler(413)
    def _too_large(e):
        """The body was never read; the page's own forms (log out, Got it) are built without request data."""
        return render(413, too_large_text(request.max_content_length))

    @app.errorhandler(CSRFError)
    def _csrf(e):
        # a player's phone, not a judge's form: the call page says it plainly
        if request.endpoint in ("calls.table", "calls.division_table"):
            from .calls.views import call_not_sent

            return call_not_sent()
        return render(
            400,
            _(
                "This form has expired or was not sent by judgeapp (missing or wrong security token). "
                "Reload the page and send it again; what you typed was not saved."
            ),
        )

    @app.errorhandler(Refused)
    def _refused(e):
        """The permission table or a record's lifecycle said no: the reason, and what may be done instead."""
        db.session.rollback()
        d = e.decision
        return render(d.status, d.why, d.instead, title=_("Not possible now") if d.status == 409 else None)

    @app.errorhandler(IllegalTransition)
    def _illegal(e):
        db.session.rollback()
        return render(409, e.why, e.instead, title=_("Not possible now"))

    @app.errorhandler(EventClosed)
    def _closed(e):
        db.session.rollback()
        return render(409, str(e))

    @app.errorhandler(OperationalError)
    def _database_busy(e):
        """The database could not take this request in time (a rush of saves on a loaded server): nothing of it was
        written; the judge is told to send it again, and a phone's outbox does so by itself (it retries any 5xx)."""
        db.session.rollback()
        if not is_busy(e):
            raise e
        g.setdefault(READ_ONLY_FROM_NOW, True)  # the page reads the judge's account without queueing for the lock
        response = make_response(render(503))
        response.headers["Retry-After"] = "5"
        return response

    @app.errorhandler(500)
    def _server_error(e):
        db.session.rollback()
        return render(500)


def register_template_helpers(app: Flask) -> None:
    from .web import clock

    app.add_template_filter(clock, "clock")  # stored UTC time shown in the venue's time zone

    @app.template_filter("iso_utc")
    def iso_utc(value: datetime | None) -> str:
        """A stored UTC time for scripts (countdowns, stopwatches)."""
        return "" if value is None else value.replace(tzinfo=UTC).isoformat().replace("+00:00", "Z")

    @app.template_filter("url_breaks")
    def url_breaks(value: str) -> Markup:
        """A link written out, with a place to wrap after each slash and before each '?', '&' or '=' (<wbr>): on a
        narrow screen it wraps there rather than at any letter."""
        text = str(escape(value))
        text = re.sub(r"(?<!/)/(?!/)", "/<wbr>", text)
        return Markup(re.sub(r"(\?|&amp;|=)", r"<wbr>\1", text))

    from .choices import catalog_name, catalog_text
    from .permissions import Action, Role, can, may
    from .reference.views import rules_url

    app.add_template_global(catalog_name, "catalog_name")  # a catalog entry's name in the page's language
    app.add_template_global(catalog_text, "catalog_text")  # its notes, remedy, description… in the page's language

    from .help.views import help_url

    app.add_template_global(help_url, "help_url")  # the header's "?": the guide's part about this page
    app.add_template_global(rules_url, "rules_url")  # the event's own policy page (shipped, or its uploaded file)
    app.add_template_global(can, "can")  # the same table the server checks: a button only for an action it accepts
    app.add_template_global(may, "may")  # the role may do this at this event at all (menus)
    app.add_template_global(Action, "Action")
    app.add_template_global(Role, "Role")

    @app.context_processor
    def _forms():
        from .auth.forms import LogoutForm

        return {"logout_form": LogoutForm(formdata=None), "catalog": app.extensions[CATALOG_KEY]}


def register_commands(app: Flask) -> None:
    from .cli import register

    register(app)
