"""Extension objects, unbound: create_app() binds them to an app."""

from collections import OrderedDict

from flask import current_app
from flask_compress import Compress
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from flask_login import LoginManager
from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy

from .breach import MaskedCSRFProtect
from .database import Base

db = SQLAlchemy(model_class=Base)
csrf = MaskedCSRFProtect()  # Flask-WTF's, the token masked afresh in every answer (judgeapp/breach.py)
login_manager = LoginManager()
migrate = Migrate()
limiter = Limiter(key_func=get_remote_address, default_limits=[])
compress = Compress()  # br or gzip for text answers (COMPRESS_* in config.DEFAULTS), through breach.compress

CATALOG_KEY = "judgeapp.catalog"


def current_catalog():
    """The catalog the running app loaded at start-up."""
    return current_app.extensions[CATALOG_KEY]


UPLOADED_KEY = "judgeapp.uploaded_policies"  # SHA-256 of an uploaded policy file -> its Policy (an LRU, see below)
UPLOADED_CACHE_SIZE = 64  # uploaded policies kept parsed per process (UPLOADED_POLICY_CACHE in the config)


def event_policy(event):
    """The policy (penalty guide) an event enforces: a shipped one from the loaded catalog, or the file its organizer
    uploaded for it (EventPolicy). An uploaded file was bounded and validated when it came (its parse is linear in
    its size, at most 1 MB, no aliases); it is parsed once per process and kept by its SHA-256 in a bounded LRU
    cache. Every page, report and history reads an event's policy here, never the shipped catalog by id."""
    if not event.policy_sha:
        return current_catalog().policy(event.policy_id)
    parsed = current_app.extensions.setdefault(UPLOADED_KEY, OrderedDict())
    if event.policy_sha in parsed:
        parsed.move_to_end(event.policy_sha)
        return parsed[event.policy_sha]
    from .infractions import parse_catalog
    from .models import EventPolicy

    row = db.session.scalar(
        db.select(EventPolicy).where(EventPolicy.event_id == event.id, EventPolicy.sha256 == event.policy_sha)
    )
    policy = next(iter(parse_catalog(row.text, row.filename).policies.values()))
    parsed[event.policy_sha] = policy
    while len(parsed) > max(1, int(current_app.config.get("UPLOADED_POLICY_CACHE", UPLOADED_CACHE_SIZE))):
        parsed.popitem(last=False)
    return policy


def known_event_policy(event):
    """event_policy(), or None when the event names a shipped policy the running catalog no longer has."""
    from .infractions import UnknownChoice

    try:
        return event_policy(event)
    except UnknownChoice:
        return None


def policy_key(event) -> str:
    """How the phone's copy names the policy an event enforces: the shipped policy's id, or for an uploaded file its
    id and its whole SHA-256 (two events may upload different files with one id; a prefix could be made to collide)."""
    return f"{event.policy_id}@{event.policy_sha}" if event.policy_sha else event.policy_id
