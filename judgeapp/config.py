"""Configuration: defaults, then the environment (DATABASE_URL, SECRET_KEY, JUDGEAPP_CATALOG, MAIL_*)."""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def _secret_key(instance: Path) -> str:
    """SECRET_KEY from the environment, else one generated once and kept in instance/ (never committed)."""
    if os.environ.get("SECRET_KEY"):
        return os.environ["SECRET_KEY"]
    key_file = instance / "secret_key"
    if not key_file.exists():
        instance.mkdir(parents=True, exist_ok=True)
        key_file.write_text(secrets.token_hex(32))
        key_file.chmod(0o600)
    return key_file.read_text().strip()


def from_environment(instance_path: str) -> dict:
    """Settings for a deployed or development app."""
    instance = Path(instance_path)
    if not os.environ.get("DATABASE_URL"):
        instance.mkdir(parents=True, exist_ok=True)  # SQLite creates the file, not its folder (a fresh clone has none)
    return {
        "SECRET_KEY": _secret_key(instance),
        "SQLALCHEMY_DATABASE_URI": os.environ.get("DATABASE_URL") or f"sqlite:///{instance / 'judgeapp.sqlite3'}",
        "JUDGEAPP_CATALOG": os.environ.get("JUDGEAPP_CATALOG") or str(ROOT / "data" / "infractions.yaml"),
        # The one switch for state shared between workers: memory:// counts the login limits inside this process
        # (one worker, no Redis needed); with several workers set redis://host:6379/0 so they count together.
        "RATELIMIT_STORAGE_URI": os.environ.get("RATELIMIT_STORAGE_URI", "memory://"),
        "SESSION_COOKIE_SECURE": os.environ.get("JUDGEAPP_HTTPS", "") == "1",
        "JUDGEAPP_TIMEZONE": os.environ.get("JUDGEAPP_TIMEZONE", "UTC"),
        "JUDGEAPP_PROXY_HOPS": int(os.environ.get("JUDGEAPP_PROXY_HOPS") or 0),
        "JUDGEAPP_HSTS_SECONDS": int(
            os.environ.get("JUDGEAPP_HSTS_SECONDS", "").strip() or DEFAULTS["JUDGEAPP_HSTS_SECONDS"]
        ),
        "JUDGEAPP_BASE_URL": os.environ.get("JUDGEAPP_BASE_URL") or DEFAULTS["JUDGEAPP_BASE_URL"],
        # judge calls from the tables' links: a venue whose players share one public address may need more
        "CALL_LIMIT_PER_TABLE": os.environ.get("JUDGEAPP_CALL_LIMIT_PER_TABLE") or DEFAULTS["CALL_LIMIT_PER_TABLE"],
        "CALL_LIMIT_PER_ADDRESS": os.environ.get("JUDGEAPP_CALL_LIMIT_PER_ADDRESS")
        or DEFAULTS["CALL_LIMIT_PER_ADDRESS"],
        # The job queue (judgeapp/jobs.py): Redis when REDIS_URL is set, else its own SQLite file
        "REDIS_URL": os.environ.get("REDIS_URL") or None,
        "JOBS_STORE": os.environ.get("JUDGEAPP_JOBS_STORE") or str(instance / "jobs.sqlite3"),
        "JOBS_WORKERS": int(os.environ.get("JUDGEAPP_JOBS_WORKERS") or DEFAULTS["JOBS_WORKERS"]),
        "JOBS_TIME_LIMIT": int(os.environ.get("JUDGEAPP_JOBS_TIME_LIMIT") or DEFAULTS["JOBS_TIME_LIMIT"]),
        "JOBS_MEMORY_MB": int(os.environ.get("JUDGEAPP_JOBS_MEMORY_MB") or DEFAULTS["JOBS_MEMORY_MB"]),
        **mail_settings(os.environ),
    }


def mail_settings(env) -> dict:
    """SMTP from MAIL_SERVER, MAIL_PORT, MAIL_USERNAME, MAIL_PASSWORD, MAIL_USE_TLS, MAIL_USE_SSL and
    MAIL_DEFAULT_SENDER; without MAIL_SERVER, mail is written to the server's log instead of sent."""
    if not env.get("MAIL_SERVER"):
        return {"MAIL_DEFAULT_SENDER": env.get("MAIL_DEFAULT_SENDER") or DEFAULTS["MAIL_DEFAULT_SENDER"]}
    return {
        "MAIL_BACKEND": "smtp",
        "MAIL_SERVER": env["MAIL_SERVER"],
        "MAIL_PORT": int(env.get("MAIL_PORT") or 587),
        "MAIL_USERNAME": env.get("MAIL_USERNAME") or None,
        "MAIL_PASSWORD": env.get("MAIL_PASSWORD") or None,
        "MAIL_USE_TLS": env.get("MAIL_USE_TLS", "1").lower() in ("1", "true", "yes"),
        "MAIL_USE_SSL": env.get("MAIL_USE_SSL", "").lower() in ("1", "true", "yes"),
        "MAIL_DEFAULT_SENDER": env.get("MAIL_DEFAULT_SENDER") or DEFAULTS["MAIL_DEFAULT_SENDER"],
    }


DEFAULTS: dict[str, Any] = {
    "SQLALCHEMY_ENGINE_OPTIONS": {"pool_pre_ping": True},
    "WTF_CSRF_TIME_LIMIT": None,  # a token lives as long as the session: a judge may keep a form open all round
    "SESSION_COOKIE_HTTPONLY": True,
    "SESSION_COOKIE_SAMESITE": "Lax",
    "REMEMBER_COOKIE_DURATION": 0,
    "MAX_CONTENT_LENGTH": 2 * 1024 * 1024,  # any request body; over it, a readable 413 page (web.too_large_text)
    # Over HTTPS (directly, or X-Forwarded-Proto from JUDGEAPP_PROXY_HOPS trusted proxies) browsers are told to use
    # HTTPS only, for this long (JUDGEAPP_HSTS_SECONDS; 0 sends no Strict-Transport-Security header).
    "JUDGEAPP_HSTS_SECONDS": 365 * 24 * 3600,
    "JUDGEAPP_IMPORT_MAX_BYTES": 16 * 1024 * 1024,  # the players import only: 130,000 rows are 4-5 MB
    # players written per transaction: SQLite's write lock is held briefly (250 rather than 500 halved the longest
    # save at another event during an import job on a loaded machine: bench/jobs.py --batch-rows)
    "JUDGEAPP_IMPORT_BATCH_ROWS": 250,
    "JUDGEAPP_IMPORT_PAUSE_MS": 110,  # SQLite: between batches, so that waiting requests get the lock
    # The job queue (judgeapp/jobs.py). JOBS_STORE: the SQLite file of the queue when REDIS_URL is not set (None:
    # instance/jobs.sqlite3). Each job runs in a process of its own with these limits (a task may set lower ones);
    # the worker polls the queue at most this many seconds apart when it is idle.
    "REDIS_URL": None,
    "JOBS_STORE": None,
    "JOBS_WORKERS": 2,
    "JOBS_TIME_LIMIT": 600,
    "JOBS_MEMORY_MB": 1024,
    "JOBS_POLL_SECONDS": 1.0,
    "JOBS_TASK_MODULES": ["judgeapp.events.imports", "judgeapp.mail", "judgeapp.renders"],
    "JUDGEAPP_SESSION_DAYS": 14,
    "JUDGEAPP_SQLITE_BUSY_MS": 15000,
    # How long the phone waits for the server's answer to a save before it gives the form back for the next record
    # and sends the record on in the background (static/js/outbox.js SAVE_WAIT_MS; a page names another value in its
    # <meta name=judgeapp-save-wait>). The browser tests that wait for a save's confirmation page set it long
    # (tests/browser/conftest.py): on a busy test machine a save can take more than 3 s, and those tests are about
    # the answer, not about a slow network.
    "JUDGEAPP_SAVE_WAIT_MS": 3000,
    # How long the service worker waits for the server's answer to a page before it shows the phone's kept copy of it,
    # or the offline page (static/sw.js NETWORK_WAIT_MS): a crowded venue network. The browser tests' live servers set
    # it long (tests/browser/conftest.py), since there a slow answer means a busy test machine, not a slow network; the
    # slow network itself is tested at the deployed value (tests/browser/test_network.py).
    "JUDGEAPP_NETWORK_WAIT_MS": 6000,
    # How often a player's call page asks the server for its call's state while the call is live (static/js/
    # call-status.js, from the page's data-every). The browser tests' live servers ask more often (tests/browser/
    # conftest.py), so that a test waits for the change it expects, not for ten seconds of a poll's interval.
    "JUDGEAPP_CALL_STATUS_EVERY_MS": 10000,
    "LOGIN_LIMIT_PER_ACCOUNT_AND_ADDRESS": "5 per 15 minutes",  # the 6th failure from one place is refused
    "LOGIN_LIMIT_PER_ACCOUNT": "10 per 15 minutes",  # a guesser spread over many addresses
    "LOGIN_LIMIT_PER_ADDRESS": "200 per 15 minutes",  # a venue's judges share one public address
    "RATELIMIT_HEADERS_ENABLED": False,
    # The shared store (Redis) unreachable: each worker counts in its own memory until it is back, instead of every
    # sign-in failing with a server error (tests/integration/test_limits_store.py).
    "RATELIMIT_IN_MEMORY_FALLBACK_ENABLED": True,
    # Accounts: links in emails start with JUDGEAPP_BASE_URL, never with the Host header a request claims.
    "JUDGEAPP_BASE_URL": "http://127.0.0.1:5000",
    "ACCOUNT_INVITE_HOURS": 7 * 24,
    "ACCOUNT_RESET_MINUTES": 60,
    "FORGOT_LIMIT_PER_ACCOUNT": "3 per hour",  # reset emails to one address
    "FORGOT_LIMIT_PER_ADDRESS": "20 per hour",
    "INVITE_LIMIT_PER_ORGANIZER": "30 per hour",  # staff invitations one organizer sends (each one emails someone)
    # A table's call link (judgeapp/calls): new calls from one table, and new calls from one address (a venue's
    # players may share one public address, so that one is generous; a post that makes no new call, e.g. a forged
    # link, a repeated tap or a form error, counts against neither)
    "CALL_LIMIT_PER_TABLE": "6 per 10 minutes",
    "CALL_LIMIT_PER_ADDRESS": "60 per 10 minutes",
    "MAIL_BACKEND": "judgeapp.mail.LogEmailBackend",  # no MAIL_SERVER: the message goes to the server's log
    "MAIL_DEFAULT_SENDER": "judgeapp <judgeapp@localhost>",
    "MAIL_TIMEOUT": 10,
    # Flask-Compress: brotli where the browser takes it (every current one over HTTPS), else gzip; pages, static text,
    # JSON and CSV. A page's secrets stay safe from its compressed size (BREACH, judgeapp/breach.py): the CSRF token is
    # masked afresh in every answer, and a page with a raw one-time secret on it is sent uncompressed (so the hook is
    # registered by the app, not by Flask-Compress; tests/integration/test_breach.py). PDFs, PNGs and other compressed
    # types are left alone; answers under 500 bytes are not worth it.
    "COMPRESS_REGISTER": False,
    "COMPRESS_ALGORITHM": ["br", "gzip"],
    "COMPRESS_ALGORITHM_STREAMING": ["br", "gzip"],  # CSV exports are sent as streams: the same choice for them
    "COMPRESS_MIMETYPES": [
        "text/html",
        "text/css",
        "text/javascript",
        "application/javascript",
        "application/json",
        "application/manifest+json",
        "text/csv",
        "text/plain",
        "image/svg+xml",
    ],
    "COMPRESS_MIN_SIZE": 500,
    # brotli 5 rather than Flask-Compress's 4: a 24 KB page comes out ~5 % smaller for ~0.2 ms more CPU; on a venue's
    # shared access point the bytes cost more than the CPU
    "COMPRESS_BR_LEVEL": 5,
    # A user's file (a policy upload, a tournament file) is parsed in a child process with these limits
    # (judgeapp/sandbox.py): a runaway or a crash in a parser costs that process, never a worker.
    "PARSE_CPU_SECONDS": 20,
    "PARSE_MEMORY_MB": 1024,  # on top of what the worker holds when it forks
    "PARSE_WALL_SECONDS": 90,
    "UPLOADED_POLICY_CACHE": 64,  # uploaded policies kept parsed per process (least recently used dropped)
}
