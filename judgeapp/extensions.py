"""Extension objects, unbound: create_app() binds them to an app."""

from flask import current_app
from flask_compress import Compress
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from flask_login import LoginManager
from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from flask_wtf import CSRFProtect
from sqlalchemy import MetaData
from sqlalchemy.orm import DeclarativeBase

NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)


db = SQLAlchemy(model_class=Base)
csrf = CSRFProtect()
login_manager = LoginManager()
migrate = Migrate()
limiter = Limiter(key_func=get_remote_address, default_limits=[])
compress = Compress()  # br or gzip for text answers (COMPRESS_* in config.DEFAULTS)

CATALOG_KEY = "judgeapp.catalog"


def current_catalog():
    """The catalog the running app loaded at start-up."""
    return current_app.extensions[CATALOG_KEY]


def event_policy(event):
    """The policy (penalty guide) an event enforces, from the loaded catalog."""
    return current_catalog().policy(event.policy_id)
