"""The declarative base every record is built on, with its constraint naming convention, and the engine set-up:
SQLite in WAL mode with BEGIN IMMEDIATE for writes (SQLAlchemy's pysqlite recipe)."""

from __future__ import annotations

from collections.abc import Iterable

from flask import g, has_request_context, request
from sqlalchemy import Engine, MetaData, event
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


SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
READ_ONLY_FROM_NOW = "judgeapp_read_only_from_now"  # a flag on flask.g: this request writes nothing more

# PostgreSQL's answers for "another transaction holds what this one needs" (lock_not_available, deadlock_detected,
# serialization_failure, query_canceled by a lock or statement timeout): the request may be sent again as it was.
BUSY_SQLSTATES = frozenset({"55P03", "40P01", "40001", "57014"})


def is_busy(error: BaseException) -> bool:
    """Whether a database error means "too busy now" (SQLite's write lock held past the busy timeout, PostgreSQL's
    lock and serialization failures) rather than a fault: answered 503, try again (judgeapp/__init__.py)."""
    orig = getattr(error, "orig", None)
    if getattr(orig, "sqlstate", None) in BUSY_SQLSTATES:
        return True
    message = str(orig or error).lower()
    return type(orig).__module__ == "sqlite3" and ("database is locked" in message or "table is locked" in message)


def forget_inherited_connections(engines: Iterable[Engine]) -> None:
    """In a process just forked from one that loaded the app (gunicorn's workers from its master): drop, without
    closing, any pooled connection inherited from the parent, so that the child opens its own and the two never use
    one connection (SQLAlchemy: "Using Connection Pools with Multiprocessing or os.fork()")."""
    for engine in engines:
        engine.dispose(close=False)


def configure_engine(engine: Engine, busy_timeout_ms: int) -> None:
    """Tune SQLite connections; other databases are left as they are."""
    if engine.dialect.name != "sqlite":
        return

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_conn, _record):
        dbapi_conn.isolation_level = None  # let us emit BEGIN ourselves
        cur = dbapi_conn.cursor()
        cur.execute("PRAGMA journal_mode=WAL")
        cur.execute("PRAGMA synchronous=FULL")
        cur.execute(f"PRAGMA busy_timeout={int(busy_timeout_ms)}")
        cur.execute("PRAGMA foreign_keys=ON")
        cur.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn):
        # A deferred BEGIN that reads and then writes can fail with "database is locked" under
        # concurrency; taking the write lock up front makes writers queue on the busy timeout.
        # Reading requests (GET) keep a deferred BEGIN so they never wait on writers, and so does a request that
        # only reads from now on: one answered "busy" (its error page reads the judge's account and language).
        if has_request_context() and (request.method in SAFE_METHODS or g.get(READ_ONLY_FROM_NOW)):
            conn.exec_driver_sql("BEGIN")
        else:
            conn.exec_driver_sql("BEGIN IMMEDIATE")
