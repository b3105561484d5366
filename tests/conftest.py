"""Shared fixtures: a fresh app and database per test, accounts and events made to order."""

from __future__ import annotations

import contextlib
import email
import email.policy
import hashlib
import http.server
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from datetime import date
from pathlib import Path

import pytest

from judgeapp import create_app
from judgeapp.extensions import CATALOG_KEY, db, limiter

ROOT = Path(__file__).resolve().parent.parent
CATALOG = ROOT / "data" / "infractions.yaml"
PASSWORD = "correct-horse-battery"


def worker_database_url(url: str | None, worker: str | None) -> str | None:
    """The PostgreSQL database of this pytest-xdist worker (`judgeapp_test_gw0`, …): workers never share tables."""
    if not url or not worker:
        return url
    from sqlalchemy.engine import make_url

    base = make_url(url)
    return base.set(database=f"{base.database}_{worker}").render_as_string(hide_password=False)


# set by `make test` for the PostgreSQL pass; one database per xdist worker
TEST_DATABASE_URL = worker_database_url(os.environ.get("TEST_DATABASE_URL"), os.environ.get("PYTEST_XDIST_WORKER"))


def pytest_configure(config):
    """Under xdist on PostgreSQL, this worker's own database, made before any test connects."""
    url = os.environ.get("TEST_DATABASE_URL")
    if TEST_DATABASE_URL and url != TEST_DATABASE_URL:
        from sqlalchemy import create_engine, text
        from sqlalchemy.engine import make_url

        mine = make_url(TEST_DATABASE_URL).database
        engine = create_engine(make_url(url).set(database="postgres"), isolation_level="AUTOCOMMIT")
        with engine.connect() as connection:
            if connection.scalar(text("SELECT 1 FROM pg_database WHERE datname = :n"), {"n": mine}) is None:
                connection.execute(text(f'CREATE DATABASE "{mine}"'))
        engine.dispose()


def app_config(tmp_path: Path, **overrides) -> dict:
    config = {
        "TESTING": True,
        "SECRET_KEY": "test-secret",
        "SQLALCHEMY_DATABASE_URI": TEST_DATABASE_URL or f"sqlite:///{tmp_path / 'test.sqlite3'}",
        "JUDGEAPP_CATALOG": str(CATALOG),
        "RATELIMIT_STORAGE_URI": "memory://",
        # A cheap hash keeps hundreds of logins fast; the hashing itself is tested with the default (test_auth).
        "JUDGEAPP_PASSWORD_HASH": "pbkdf2:sha256:1000",
        # The job queue: its own SQLite file per test; a worker runs only where a test asks for one (job_worker)
        "JOBS_STORE": str(tmp_path / "jobs.sqlite3"),
        "JOBS_POLL_SECONDS": 0.2,
        "JOBS_TASK_MODULES": ["judgeapp.events.imports", "judgeapp.mail", "judgeapp.renders", "tests.job_tasks"],
    }
    config.update(overrides)
    return config


def _temporary_files_in_memory() -> None:
    """Tests' files (their SQLite databases above all) in RAM when the machine has a tmpfs with room, else where
    tempfile puts them. The app commits with PRAGMA synchronous=FULL, so each commit on a disk waits for an fsync
    (~7 ms on this machine's disk, far more when six others share it); on tmpfs fsync costs nothing and the app's
    settings stay as they are. JUDGEAPP_TEST_TMPDIR names another folder; subprocesses (job workers, gunicorn) get
    TMPDIR likewise."""
    chosen = os.environ.get("JUDGEAPP_TEST_TMPDIR")
    if chosen is None:
        shm = Path("/dev/shm")
        try:
            room = os.statvfs(shm)
            if os.access(shm, os.W_OK) and room.f_bavail * room.f_frsize >= 2 * 1024**3:
                chosen = str(shm)
        except OSError:
            pass
    if chosen:
        os.environ["TMPDIR"] = chosen
        tempfile.tempdir = chosen  # pytest's tmp_path and tempfile read it when first asked


_temporary_files_in_memory()


def _read_each_catalog_once() -> None:
    """Every app a test makes reads its catalog through the real parser, once per file content in this process: the
    parse and its checks are ~40 % of making an app, and a `Catalog` is frozen, so each app of the session shares the
    one read of the same bytes. A file that fails is read (and fails) again each time; a changed file is read anew.
    The catalog's own tests (tests/unit) call the loader directly and are not affected."""
    import judgeapp

    read = judgeapp.load_catalog
    known: dict[tuple[str, str], object] = {}

    def load_catalog(app) -> None:
        path = Path(app.config["JUDGEAPP_CATALOG"])
        try:
            key = (str(path), hashlib.sha256(path.read_bytes()).hexdigest())
        except OSError:
            return read(app)  # the real loader names the problem
        if key in known:
            app.extensions[CATALOG_KEY] = known[key]
        else:
            read(app)
            known[key] = app.extensions[CATALOG_KEY]
        return None

    judgeapp.load_catalog = load_catalog  # create_app calls it by this name


_read_each_catalog_once()


def _compile_each_route_builder_once() -> None:
    """Every app a test makes compiles a URL builder for each of its ~90 routes, twice (werkzeug writes each as Python
    source, walks its syntax tree and calls compile()): ~85 % of making an app, ~0.1 s of CPU per test. The builder is a
    function of the rule's text and its parsed parts only (it reads the rule's converters through its `.self`
    argument, bound to each rule afterwards), so each test process compiles each distinct rule once and binds the same
    function to every later app's rule. A rule with a default for one of its variables (the default is converted when
    compiling) is compiled each time. Checked against the pinned werkzeug: if the method is gone, nothing is cached."""
    from werkzeug.routing import rules

    compile_builder = getattr(rules.Rule, "_compile_builder", None)
    if compile_builder is None:
        return
    known: dict[tuple, object] = {}

    def cached(self, append_unknown: bool = True):
        defaults = self.defaults or {}
        if any(is_dynamic and data in defaults for is_dynamic, data in self._trace):
            return compile_builder(self, append_unknown)
        key = (self.rule, tuple(self._trace), tuple(defaults), append_unknown)
        builder = known.get(key)
        if builder is None:
            builder = known[key] = compile_builder(self, append_unknown)
        return builder

    rules.Rule._compile_builder = cached


_compile_each_route_builder_once()


def _environment_fingerprint(environment) -> str:
    """What a template's compiled code depends on besides its source: the environment's options (delimiters,
    autoescape, whitespace, finalize), its extensions (i18n and its new-style gettext), and each filter's and test's
    name and the argument it is passed (context, eval context, environment: chosen when compiling)."""
    import inspect

    from jinja2 import Environment
    from jinja2.utils import _PassArg

    def named(value):
        return f"{value.__module__}.{value.__qualname__}" if callable(value) else repr(value)

    options = [
        (name, named(getattr(environment, name, None)))
        for name in inspect.signature(Environment.__init__).parameters
        if name not in ("self", "loader", "cache_size", "auto_reload", "bytecode_cache", "extensions")
    ]
    extensions = sorted(environment.extensions)
    filters = sorted((name, str(_PassArg.from_obj(f))) for name, f in environment.filters.items())
    tests = sorted((name, str(_PassArg.from_obj(f))) for name, f in environment.tests.items())
    newstyle = getattr(environment, "newstyle_gettext", None)
    return hashlib.sha256(repr((options, extensions, filters, tests, newstyle)).encode()).hexdigest()


def _compile_each_template_once() -> None:
    """Every app a test makes has its own Jinja environment, which compiles each template it renders (lex, parse,
    generate Python source, compile()): ~35 ms of CPU for the login page's few templates, against ~6 ms to render it
    once compiled, paid again by every test for every page it shows. Jinja's own bytecode cache (the mechanism it
    offers for sharing compiled templates between environments, e.g. on disk between processes) is set on each app's
    environment, in memory for this process: a template is compiled once per source text (a changed source has another
    checksum and is compiled again) and per environment fingerprint (options, extensions, filters), and each app runs
    the same code object as it would have compiled itself."""
    from flask import Flask
    from jinja2.bccache import Bucket, BytecodeCache

    class SharedInMemory(BytecodeCache):
        def __init__(self) -> None:
            self.codes: dict[str, bytes] = {}

        def get_bucket(self, environment, name, filename, source):
            key = self.get_cache_key(name, filename) + "/" + _environment_fingerprint(environment)
            bucket = Bucket(environment, key, self.get_source_checksum(source))
            self.load_bytecode(bucket)
            return bucket

        def load_bytecode(self, bucket) -> None:
            code = self.codes.get(bucket.key)
            if code is not None:
                bucket.bytecode_from_string(code)  # checks the source's checksum; a mismatch compiles anew

        def dump_bytecode(self, bucket) -> None:
            self.codes[bucket.key] = bucket.bytecode_to_string()

    shared = SharedInMemory()
    create = Flask.create_jinja_environment

    def create_jinja_environment(self):
        environment = create(self)
        environment.bytecode_cache = shared
        return environment

    Flask.create_jinja_environment = create_jinja_environment


_compile_each_template_once()


class MailSink:
    """A real SMTP server on loopback (aiosmtpd) that keeps every message it receives."""

    def __init__(self):
        self.messages: list[email.message.EmailMessage] = []

    async def handle_DATA(self, server, session, envelope):
        self.messages.append(email.message_from_bytes(envelope.content, policy=email.policy.default))
        return "250 Message accepted"

    def to(self, address: str) -> list[email.message.EmailMessage]:
        return [m for m in self.messages if address in (a.addr_spec for a in m["To"].addresses)]

    def link(self, address: str) -> str:
        """The one-time account link in the latest message to `address`."""
        body = self.to(address)[-1].get_body(("plain",)).get_content()
        return ACCOUNT_LINK_RE.search(body).group(0)


ACCOUNT_LINK_RE = re.compile(r"https?://\S+/account/set-password/[\w-]+")


@pytest.fixture(scope="session")
def smtp_server():
    from aiosmtpd.controller import Controller

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    sink = MailSink()
    controller = Controller(sink, hostname="127.0.0.1", port=port)
    controller.start()
    yield sink, port
    controller.stop()


@pytest.fixture
def mailbox(smtp_server):
    """The local SMTP sink the app sends to, emptied for this test."""
    sink, _ = smtp_server
    sink.messages.clear()
    return sink


@pytest.fixture(scope="session")
def sqlite_schema(tmp_path_factory) -> Path:
    """An SQLite file with every table of the models and no rows, made by `create_all` once per test process: each test
    on SQLite starts from its own copy (a file copy takes well under a millisecond; `create_all` ~50 ms of CPU)."""
    folder = tmp_path_factory.mktemp("schema")
    config = app_config(folder)
    config["SQLALCHEMY_DATABASE_URI"] = f"sqlite:///{folder / 'schema.sqlite3'}"
    app = create_app(config)
    with app.app_context():
        db.create_all()
        db.session.remove()
        db.engine.dispose()  # the last connection closes: the WAL is written back into the file, which stands alone
    return folder / "schema.sqlite3"


@pytest.fixture
def app(request, tmp_path, smtp_server):
    mail = {"MAIL_BACKEND": "smtp", "MAIL_SERVER": "127.0.0.1", "MAIL_PORT": smtp_server[1], "MAIL_USE_TLS": False}
    if TEST_DATABASE_URL is None:  # SQLite: this test's file, a copy of the empty schema (not made on PostgreSQL)
        shutil.copyfile(request.getfixturevalue("sqlite_schema"), tmp_path / "test.sqlite3")
    app = create_app(app_config(tmp_path, **mail))
    with app.app_context():
        if TEST_DATABASE_URL is not None:  # PostgreSQL: the worker's one database, emptied for this test
            empty_postgres_database()
        limiter.reset()
    yield app
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


# The worker's PostgreSQL schema right after this process last built it with create_all: its tables, columns, types,
# defaults, constraints, indexes, sequences, triggers and functions, as one digest (None: not built yet).
_built_schema: str | None = None

SCHEMA_DIGEST_SQL = """
SELECT md5(coalesce(string_agg(part, E'\\n' ORDER BY part), '')) FROM (
  SELECT 'column ' || table_name || '.' || column_name || ' ' || data_type || ' ' || udt_name || ' '
         || coalesce(character_maximum_length::text, '') || ' ' || is_nullable || ' '
         || coalesce(column_default, '') AS part
    FROM information_schema.columns WHERE table_schema = 'public'
  UNION ALL SELECT 'index ' || indexdef FROM pg_indexes WHERE schemaname = 'public'
  UNION ALL SELECT 'constraint ' || conrelid::regclass::text || ' ' || conname || ' ' || pg_get_constraintdef(oid)
    FROM pg_constraint WHERE connamespace = 'public'::regnamespace
  UNION ALL SELECT 'type ' || typname FROM pg_type WHERE typnamespace = 'public'::regnamespace
  UNION ALL SELECT 'sequence ' || sequencename FROM pg_sequences WHERE schemaname = 'public'
  UNION ALL SELECT 'trigger ' || tgname FROM pg_trigger WHERE NOT tgisinternal
  UNION ALL SELECT 'function ' || p.oid::regprocedure::text FROM pg_proc p WHERE pronamespace = 'public'::regnamespace
) AS parts
"""


def empty_postgres_database() -> None:
    """The worker's PostgreSQL database as `drop_all` then `create_all` leave it (every table of the models, no rows,
    every id counting from 1), in an app context. Building the schema again takes 0.21 s a test at load 3 (1.5 s at
    load 13), the digest and TRUNCATE 0.07 s (0.36 s), so when the schema is still exactly the one this process built
    last (compared by SCHEMA_DIGEST_SQL: a test that dropped a table, ran the migrations or changed anything else gets
    it rebuilt), its tables are emptied instead: TRUNCATE … RESTART IDENTITY CASCADE. Tables outside the models
    (alembic_version) are left as they are, as drop_all leaves them."""
    global _built_schema
    from sqlalchemy import text

    if _built_schema is not None and db.session.scalar(text(SCHEMA_DIGEST_SQL)) == _built_schema:
        tables = ", ".join(f'"{table.name}"' for table in db.metadata.sorted_tables)
        db.session.execute(text(f"TRUNCATE {tables} RESTART IDENTITY CASCADE"))
        db.session.commit()
        return
    db.session.remove()
    db.drop_all()
    db.create_all()
    _built_schema = db.session.scalar(text(SCHEMA_DIGEST_SQL))
    db.session.commit()


class Worker:
    """A real job worker (the consumer of judgeapp/jobs.py, `tests.job_worker.main`) on the test's database and job
    store, in a process of its own: forked from the test's process by default (judgeapp, WeasyPrint and the task
    modules already imported: ~0.1 s of CPU to start instead of ~7 s for a fresh interpreter; the worker still makes
    its own app from the test's configuration and runs the same consumer, forks and limits), or with `fresh=True` a
    fresh interpreter (`python -m tests.job_worker`), as `flask jobs worker` starts. JUDGEAPP_TEST_WORKER=fresh makes
    every test's worker a fresh interpreter (to compare the two, bench-style). A process that drives a browser (the
    browser tier: Playwright's driver pipes, live servers listening in threads) keeps the fresh interpreter: a fork
    would hold their pipes and listening sockets open."""

    def __init__(self, app, count: int = 1, *, fresh: bool = False):
        self.app, self.count = app, count
        self.fresh = fresh or os.environ.get("JUDGEAPP_TEST_WORKER") == "fresh" or "playwright.sync_api" in sys.modules
        self.pid: int | None = None
        self.process: subprocess.Popen | None = None  # the fresh interpreter, when fresh
        self.returncode: int | None = None
        self.log_path = Path(app.config["JOBS_STORE"]).with_suffix(".log")
        self.log = open(self.log_path, "w+b")  # noqa: SIM115

    def start(self):
        """Start the worker on the app's configuration as it is now (a test may change it first: jobs already
        submitted wait in the queue). `wait` starts it when no one has."""
        if self.pid is not None:
            return self
        config = {}
        for key, value in self.app.config.items():
            try:
                json.dumps(value)
            except TypeError:
                continue
            config[key] = value
        if self.fresh:
            env = {**os.environ, "JUDGEAPP_WORKER_CONFIG": json.dumps(config), "JUDGEAPP_WORKER_COUNT": str(self.count)}
            self.process = subprocess.Popen(
                [sys.executable, "-m", "tests.job_worker"],
                cwd=ROOT,
                env=env,
                stdout=self.log,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # its own process group: the consumer and its worker processes stop together
            )
            self.pid = self.process.pid
        else:
            self.pid = self._fork(json.loads(json.dumps(config)))
        return self

    def _fork(self, config: dict) -> int:
        """The worker forked from this process. In the child, before `main`: its own session (process group), its
        output to the log, nothing of pytest's (tracing, captured streams, log handlers, fault handler, signal
        handlers), and the test app's pooled connections left to the parent (SQLAlchemy's advice for a fork)."""
        log_fd = os.open(self.log_path, os.O_WRONLY | os.O_APPEND)
        pid = os.fork()
        if pid:
            os.close(log_fd)
            return pid
        code = 1
        try:
            import faulthandler
            import logging

            os.setsid()
            sys.settrace(None)
            threading.settrace(None)  # type: ignore[arg-type]
            faulthandler.disable()
            for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGALRM):
                signal.signal(sig, signal.SIG_DFL)
            null = os.open(os.devnull, os.O_RDONLY)
            os.dup2(null, 0)
            os.dup2(log_fd, 1)
            os.dup2(log_fd, 2)
            sys.stdout = open(1, "w", buffering=1, closefd=False)  # noqa: SIM115
            sys.stderr = open(2, "w", buffering=1, closefd=False)  # noqa: SIM115
            root = logging.getLogger()
            root.handlers.clear()
            root.setLevel(logging.WARNING)  # as in a fresh interpreter: warnings and errors to stderr (the log)
            with self.app.app_context():
                for engine in db.engines.values():
                    engine.dispose(close=False)
            from tests.job_worker import main

            main(config, self.count)
            code = 0
        except BaseException:
            import traceback

            traceback.print_exc()
        finally:
            try:
                sys.stdout.flush()
                sys.stderr.flush()
            finally:
                os._exit(code)
        raise AssertionError("unreachable")  # pragma: no cover

    def _poll(self) -> int | None:
        """The worker's exit status once it ended (reaped here), None while it runs."""
        if self.process is not None:
            self.returncode = self.process.poll()
        elif self.pid is not None and self.returncode is None:
            done, status = os.waitpid(self.pid, os.WNOHANG)
            if done:
                self.returncode = os.waitstatus_to_exitcode(status)
        return self.returncode

    def wait(self, job_id: int, timeout: float = 120):
        """The job once it ended (done or failed), read from the database; fails the test after `timeout` s."""
        from judgeapp.lifecycles import JobState
        from judgeapp.models import Job

        self.start()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self.app.app_context():
                job = db.session.get(Job, job_id)
                if job is not None and job.state in (JobState.DONE, JobState.FAILED):
                    db.session.expunge(job)
                    db.session.remove()
                    return job
                db.session.remove()
            assert self._poll() is None, f"the job worker died ({self.returncode}):\n{self.output()}"
            time.sleep(0.1)
        raise AssertionError(f"job {job_id} did not end within {timeout} s; worker output:\n{self.output()}")

    def output(self) -> str:
        self.log.flush()
        self.log.seek(0)
        return self.log.read().decode(errors="replace")

    def stop(self):
        if self.pid is None:
            self.log.close()
            return
        for sig in (signal.SIGTERM, signal.SIGKILL):
            if self._poll() is not None:
                break
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.pid, sig)  # the group this fixture started, by its id
            deadline = time.monotonic() + 20
            while self._poll() is None and time.monotonic() < deadline:
                time.sleep(0.02)
        self.log.close()


JOB_URL_RE = re.compile(r"/events/\d+/jobs/(\d+)$")


def follow_job(client, response, worker):
    """A request answered with a job (303 to its page): wait for the worker to end the job, then its page."""
    assert response.status_code == 303, (response.status_code, response.get_data(as_text=True)[:2000])
    location = response.headers["Location"]
    match = JOB_URL_RE.search(location)
    assert match, location
    worker.wait(int(match.group(1)))
    return client.get(location)


def run_jobs(worker: Worker) -> list:
    """Wait until every job submitted so far has ended (the worker ran them: a reset mail is sent off the request)."""
    from sqlalchemy import select

    from judgeapp.models import Job

    with worker.app.app_context():
        ids = list(db.session.scalars(select(Job.id).order_by(Job.id)))
        db.session.remove()
    return [worker.wait(job_id) for job_id in ids]


@pytest.fixture
def job_worker(app):
    """A real job worker for this test (only the tests that need one start it), started by its first `wait` or by
    `start()`."""
    worker = Worker(app)
    yield worker
    worker.stop()


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def catalog(app):
    return app.extensions[CATALOG_KEY]


CSRF_RE = re.compile(r'name="csrf_token" type="hidden" value="([^"]+)"')
KEY_RE = re.compile(r'id="key" name="key" type="hidden" value="([^"]+)"')  # a form's one-time key


def csrf_token(client, url: str) -> str:
    """The CSRF token of the form on `url`, as a browser would have it."""
    page = client.get(url)
    match = CSRF_RE.search(page.get_data(as_text=True))
    assert match, f"no CSRF token on {url} (status {page.status_code})"
    return match.group(1)


def post_form(client, url: str, data: dict, *, form_page: str | None = None, **kwargs):
    """POST like a browser: fetch the form page first for its CSRF token."""
    data = {"csrf_token": csrf_token(client, form_page or url), **data}
    return client.post(url, data=data, **kwargs)


class UserNumbers:
    """The numbers of make_user's made-up addresses (user1@example.test, …), in order, per test."""

    def __init__(self) -> None:
        self.issued = 0

    def next(self) -> int:
        self.issued += 1
        return self.issued


@pytest.fixture
def make_user(app):
    from judgeapp.auth.services import create_user

    counter = UserNumbers()

    def make(email: str | None = None, *, name: str = "Test Judge", organizer: bool = False, password: str = PASSWORD):
        with app.app_context():
            user = create_user(
                db.session,
                email=email or f"user{counter.next()}@example.test",
                name=name,
                password=password,
                organizer=organizer,
            )
            db.session.commit()
            return user.id, user.email

    make.numbers = counter  # type: ignore[attr-defined]  # `floor` restored from its copy skips the numbers it used
    return make


@pytest.fixture
def make_event(app, make_user):
    from judgeapp.events import services
    from judgeapp.models import User

    def make(organizer_id: int | None = None, **overrides):
        if organizer_id is None:
            organizer_id, _ = make_user(organizer=True)
        data = dict(
            name="Regional Qualifier",
            date=date(2026, 11, 28),
            venue="Hall A",
            policy_id="bushiroad-afr",
            level=2,
            rounds=5,
            round_minutes=50,
            challenge_limit=None,
        )
        data.update(overrides)
        with app.app_context():
            event = services.create_event(
                db.session,
                app.extensions[CATALOG_KEY],
                organizer=db.session.get(User, organizer_id),
                data=services.EventData(**data),
            )
            db.session.commit()
            return event.id

    return make


@pytest.fixture
def give_role(app):
    from judgeapp.events import staff_services
    from judgeapp.models import Event, Role, User

    def give(event_id: int, user_id: int, role: Role | str):
        with app.app_context():
            event = db.session.get(Event, event_id)
            user = db.session.get(User, user_id)
            staff_services.assign_staff(
                db.session, actor=event.organizer, event=event, email=user.email, name="", role=Role(role)
            )
            db.session.commit()

    return give


def login(client, email: str, password: str = PASSWORD):
    return post_form(client, "/login", {"email": email, "password": password})


@pytest.fixture
def login_as(client):
    def do(email: str, password: str = PASSWORD):
        response = login(client, email, password)
        assert response.status_code == 302, response.get_data(as_text=True)
        return client

    return do


@pytest.fixture
def listening_server():
    """A local HTTP server that records every request it receives: (base URL, list of paths requested)."""
    hits: list[str] = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            hits.append(self.path)
            self.send_response(200)
            self.end_headers()

        def log_message(self, *args):
            pass

    server = http.server.HTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_port}", hits
    server.shutdown()
    server.server_close()
