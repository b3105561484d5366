"""Load harness: judgeapp under gunicorn (4 workers on loopback) and simulated judges on real HTTP sessions.

Used by tests/load (small runs in `make test`) and bench/load.py (the 10-minute run). A judge logs in, opens the
incident form (CSRF token and one-time key from the page, as a phone gets them) and posts incidents. Some posts are
sent again with the same key, as a phone does when the answer is lost; a post whose connection breaks (a worker
killed mid-request) is sent again until it is answered. The run records every answer, so afterwards the database can
be compared with what the judges were told.
"""

from __future__ import annotations

import os
import random
import re
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
import uuid
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import requests

from tests.conftest import CSRF_RE, KEY_RE

ROOT = Path(__file__).resolve().parents[2]
SAVED_RE = re.compile(r"/events/(\d+)/incidents/(\d+)\?saved=1$")
PASSWORD = "load-test-password"
STARTUP_SECONDS = 120  # gunicorn and its workers up: a condition waited for, generous for a busy machine
CODES = [("3.5.2", "warning"), ("3.2.1", "warning"), ("3.3.1", "caution"), ("3.9.1", "warning")]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass(frozen=True)
class Process:
    parent: int
    session: int
    command: str


def processes() -> dict[int, Process]:
    """Every process on the machine by pid, read from /proc (one that ends while it is read is left out)."""
    found = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
            command = (stat.parent / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        found[int(stat.parent.name)] = Process(parent=int(fields[1]), session=int(fields[3]), command=command)
    return found


class Gunicorn:
    """judgeapp served by gunicorn with sync workers; kill_worker() sends SIGKILL to one of them.

    `rate_limits` is the app's RATELIMIT_STORAGE_URI; with `access_log` every answer is logged there as
    "<worker pid> METHOD PATH STATUS" (answered_by() reads it back)."""

    def __init__(
        self,
        database_url: str,
        *,
        workers: int = 4,
        log: Path | None = None,
        rate_limits: str = "memory://",
        access_log: Path | None = None,
        app: str = "wsgi:app",
    ):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        env = {
            **os.environ,
            "DATABASE_URL": database_url,
            "SECRET_KEY": "load-test-secret",
            "JUDGEAPP_CATALOG": str(ROOT / "data" / "infractions.yaml"),
            "RATELIMIT_STORAGE_URI": rate_limits,
        }
        self._log = open(log or os.devnull, "w")  # noqa: SIM115  (open while the server runs; closed in stop)
        self.access_log = access_log
        logging_args = (
            ["--access-logfile", str(access_log), "--access-logformat", "%(p)s %(m)s %(U)s %(s)s"] if access_log else []
        )
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "gunicorn",
                "--workers",
                str(workers),
                "--bind",
                f"127.0.0.1:{self.port}",
                "--timeout",
                "60",
                "--graceful-timeout",
                "5",
                "--backlog",
                "256",
                *logging_args,
                app,
            ],
            cwd=ROOT,
            env=env,
            stdout=self._log,
            stderr=subprocess.STDOUT,
        )
        self.killed = 0
        self._serving: set[int] = set()  # workers seen answering in the access log (read from _log_read on)
        self._log_read = 0
        try:
            self._wait_until_up(workers)
        except BaseException:
            self.stop()
            raise

    def _wait_until_up(self, workers: int) -> None:
        # Four workers each import the app and load every policy: on a busy 2-core machine that took over 30 s
        deadline = time.monotonic() + STARTUP_SECONDS
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"gunicorn exited with {self.process.returncode}")
            try:
                if requests.get(self.url + "/login", timeout=10).status_code == 200 and len(self.workers()) >= workers:
                    return
            except requests.RequestException:  # not listening yet, or a worker still booting
                pass
            time.sleep(0.1)
        raise RuntimeError(f"gunicorn did not start within {STARTUP_SECONDS} s")

    def workers(self) -> list[int]:
        """Worker processes: the master's children."""
        return [pid for pid, process in processes().items() if process.parent == self.process.pid]

    def answered_by(self, method: str, path: str) -> list[tuple[int, int]]:
        """(worker pid, status) of every logged answer to METHOD PATH, oldest first (needs access_log)."""
        answers = []
        for line in self.access_log.read_text().splitlines():
            pid, logged_method, logged_path, status = line.split()
            if (logged_method, logged_path) == (method, path):
                answers.append((int(pid.strip("<>")), int(status)))
        return answers

    def wait_for_answers(self, method: str, path: str, count: int) -> list[tuple[int, int]]:
        """answered_by() once `count` answers are logged (a worker logs an answer just after sending it)."""
        deadline = time.monotonic() + 60
        while len(answers := self.answered_by(method, path)) < count:
            if time.monotonic() > deadline:
                raise RuntimeError(f"{len(answers)} of {count} answers to {method} {path} logged after 60 s")
            time.sleep(0.02)
        return answers

    def serving(self) -> list[int]:
        """Live workers that have answered at least one request (booted and serving), read from the access log."""
        with open(self.access_log, "rb") as log:
            log.seek(self._log_read)
            text = log.read()
        complete = text.rfind(b"\n") + 1  # a line still being written is read next time
        self._log_read += complete
        for line in text[:complete].decode(errors="replace").splitlines():
            self._serving.add(int(line.split()[0].strip("<>")))
        return [pid for pid in self.workers() if pid in self._serving]

    def kill_worker(self, rng: random.Random, *, serving: bool = False) -> int | None:
        """SIGKILL one worker; with `serving`, only one that has answered (needs access_log): under load a worker
        takes seconds to boot, and killing it then would cut no request."""
        workers = self.serving() if serving else self.workers()
        if not workers:
            return None
        pid = rng.choice(workers)
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            return None
        self.killed += 1
        return pid

    def stop(self) -> None:
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self._log.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()


@dataclass
class Tally:
    """What the judges saw: one entry per answered post, plus anything unexpected."""

    acknowledged: dict[str, int] = field(default_factory=dict)  # one-time key -> incident number the judge was shown
    latencies: list[float] = field(default_factory=list)  # seconds, every POST that got an answer
    statuses: Counter = field(default_factory=Counter)
    dropped: int = 0  # connections broken before an answer (then sent again)
    busy: int = 0  # 503 "The server is busy" with Retry-After (the database's lock waited for too long): sent again
    resent: int = 0  # deliberate resends of an acknowledged key
    mismatches: list[str] = field(default_factory=list)  # a key answered with two different incidents
    unexpected: list[str] = field(default_factory=list)  # any answer that is not a redirect to the incident
    lock: threading.Lock = field(default_factory=threading.Lock)

    def percentile(self, q: float) -> float:
        data = sorted(self.latencies)
        return data[min(len(data) - 1, int(q * len(data)))] if data else 0.0

    def summary(self) -> str:
        median = statistics.median(self.latencies) if self.latencies else 0.0
        return (
            f"{len(self.acknowledged):,} incidents acknowledged, {len(self.latencies):,} posts answered, "
            f"{self.resent:,} deliberate resends, {self.dropped:,} broken connections retried, "
            f"{self.busy:,} busy answers sent again; "
            f"latency median {median * 1e3:.0f} ms, p95 {self.percentile(0.95) * 1e3:.0f} ms, "
            f"p99 {self.percentile(0.99) * 1e3:.0f} ms; statuses {dict(self.statuses)}"
        )


class Judge:
    """One phone: a real HTTP session (cookies, CSRF token, one-time keys)."""

    def __init__(self, base: str, event_id: int, email: str, players: list[str], tally: Tally, rng: random.Random):
        self.base, self.event_id, self.email, self.players = base, event_id, email, players
        self.tally, self.rng = tally, rng
        self.http = requests.Session()
        self.form_url = f"{base}/events/{event_id}/incidents/new"

    def _retrying(self, method: str, url: str, **kwargs) -> requests.Response:
        """Send until answered, as the phone's outbox does (static/js/outbox.js: a 5xx or a broken connection is kept
        and sent again): a connection broken by a killed worker is sent again at once; a 503 "The server is busy"
        (SQLite's write lock waited for beyond its busy timeout, nothing written: judgeapp/__init__.py) after its
        Retry-After. Any other answer, a 500 or a 503 without Retry-After included, is returned to be judged."""
        for attempt in range(30):
            try:
                answer = self.http.request(method, url, timeout=60, allow_redirects=False, **kwargs)
            except (requests.ConnectionError, requests.Timeout, requests.exceptions.ChunkedEncodingError):
                # a worker killed before or while answering (a page cut off mid-body included)
                with self.tally.lock:
                    self.tally.dropped += 1
                time.sleep(0.05 * (attempt + 1))
                continue
            if answer.status_code == 503 and answer.headers.get("Retry-After", "").isdigit():
                with self.tally.lock:
                    self.tally.busy += 1
                time.sleep(int(answer.headers["Retry-After"]))
                continue
            return answer
        raise RuntimeError(f"{url}: no answer after 30 attempts")

    def log_in(self) -> None:
        page = self._retrying("GET", self.base + "/login").text
        answer = self._retrying(
            "POST",
            self.base + "/login",
            data={"csrf_token": CSRF_RE.search(page).group(1), "email": self.email, "password": PASSWORD},
        )
        assert answer.status_code == 302, f"{self.email}: login answered {answer.status_code}"

    def open_form(self) -> tuple[str, str]:
        page = self._retrying("GET", self.form_url)
        assert page.status_code == 200, f"incident form answered {page.status_code}"
        return CSRF_RE.search(page.text).group(1), KEY_RE.search(page.text).group(1)

    def post(self, token: str, key: str, n: int) -> int | None:
        """Post one incident; returns the incident number the judge is shown."""
        code, rank = CODES[n % len(CODES)]
        data = {
            "csrf_token": token,
            "key": key,
            "round": "1",
            "table": str(1 + n % 20),
            "subject_kind": "player",
            "player": self.players[n % len(self.players)],
            "infraction": code,
            "penalty": rank,
            "deviation_reason": "load test",
            "description": f"Load test incident {n} by {self.email}",
        }
        start = time.perf_counter()
        answer = self._retrying("POST", self.form_url, data=data)
        elapsed = time.perf_counter() - start
        match = SAVED_RE.search(answer.headers.get("Location", "")) if answer.status_code == 302 else None
        with self.tally.lock:
            self.tally.latencies.append(elapsed)
            self.tally.statuses[answer.status_code] += 1
            if match is None:
                self.tally.unexpected.append(f"{answer.status_code} {answer.text[:300]!r}")
                return None
            number = int(match.group(2))
            seen = self.tally.acknowledged.setdefault(key, number)
            if seen != number:
                self.tally.mismatches.append(f"{key}: shown #{seen}, then #{number}")
        return number

    def run(
        self,
        *,
        incidents: int | None = None,
        until: float | None = None,
        stop: threading.Event | None = None,
        resend: float = 0.1,
    ) -> None:
        """Log `incidents` incidents, or keep logging until the monotonic time `until`, or until `stop` is set."""
        self.log_in()
        n = 0
        while (
            (incidents is not None and n < incidents)
            or (until is not None and time.monotonic() < until)
            or (stop is not None and not stop.is_set())
        ):
            token, key = self.open_form()
            self.post(token, key, n)
            if self.rng.random() < resend:  # the answer "was lost": the phone sends the same form again
                with self.tally.lock:
                    self.tally.resent += 1
                self.post(token, key, n)
            n += 1


@dataclass
class Staffing:
    event_id: int
    emails: list[str]
    players: list[str]


def fresh_app(url: str):
    """The app the load runs arrange their data with, on an emptied database at `url` (the gunicorn workers serve
    the same database with their own app)."""
    from judgeapp import create_app
    from judgeapp.extensions import db

    app = create_app(
        {
            "SECRET_KEY": "load-test-secret",
            "SQLALCHEMY_DATABASE_URI": url,
            "JUDGEAPP_CATALOG": str(ROOT / "data" / "infractions.yaml"),
            "RATELIMIT_STORAGE_URI": "memory://",
        }
    )
    with app.app_context():
        db.drop_all()
        db.create_all()
    return app


def set_up_event(app, judges: int, players: int = 64) -> Staffing:
    """An event with a running round, `players` players and `judges` floor judges (accounts with PASSWORD)."""
    from datetime import date

    from judgeapp.auth.services import create_user
    from judgeapp.events import player_services, round_services, services, staff_services
    from judgeapp.extensions import CATALOG_KEY, db
    from judgeapp.models import Role

    with app.app_context():
        organizer = create_user(
            db.session, email="organizer@load.test", name="Organizer", password=PASSWORD, organizer=True
        )
        event = services.create_event(
            db.session,
            app.extensions[CATALOG_KEY],
            organizer=organizer,
            data=services.EventData(
                name="Load Open",
                date=date(2026, 11, 28),
                venue="Hall",
                policy_id="bushiroad-afr",
                level=2,
                rounds=8,
                round_minutes=50,
                challenge_limit=None,
            ),
        )
        emails = []
        for n in range(judges):
            judge = create_user(db.session, email=f"judge{n}@load.test", name=f"Judge {n}", password=PASSWORD)
            staff_services.assign_staff(
                db.session, actor=organizer, event=event, email=judge.email, name="", role=Role.FLOOR_JUDGE
            )
            emails.append(judge.email)
        codes = [f"L-{p:03d}" for p in range(players)]
        for code in codes:
            player_services.add_player(
                db.session, actor=organizer, event=event, name=f"Player {code}", player_code=code
            )
        round_services.start_round(db.session, actor=organizer, event=event)
        db.session.commit()
        return Staffing(event.id, emails, codes)


def run_judges(
    base: str,
    staffing: Staffing,
    tally: Tally,
    *,
    incidents: int | None = None,
    seconds: float | None = None,
    stop: threading.Event | None = None,
    resend: float = 0.1,
    seed: int = 7,
) -> None:
    """Every judge logs `incidents` incidents, or logs for `seconds`, or until `stop` is set."""
    until = time.monotonic() + seconds if seconds is not None else None

    def work(n: int, email: str) -> None:
        Judge(base, staffing.event_id, email, staffing.players, tally, random.Random(seed * 1000 + n)).run(
            incidents=incidents, until=until, stop=stop, resend=resend
        )

    in_threads(work, list(enumerate(staffing.emails)))


def in_threads(work, argsets: list[tuple]) -> None:
    """Run `work(*args)` for every argument set at once, one thread each; the first error is raised afterwards."""
    errors: list[BaseException] = []

    def guarded(*args):
        try:
            work(*args)
        except BaseException as err:
            errors.append(err)

    threads = [threading.Thread(target=guarded, args=args) for args in argsets]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        raise errors[0]


def run_bare_clients(base: str, clients: int, seconds: float) -> list[float]:
    """`clients` threads posting to the benchmark's bare one-row-insert route (bench/served.py) for `seconds`;
    the latency of every answered post (each must be 204)."""
    until = time.monotonic() + seconds
    latencies: list[float] = []
    lock = threading.Lock()

    def work(n: int) -> None:
        http = requests.Session()
        mine = []
        while time.monotonic() < until:
            start = time.perf_counter()
            answer = http.post(base + "/bench/bare", timeout=60)
            assert answer.status_code == 204, f"bare insert answered {answer.status_code}"
            mine.append(time.perf_counter() - start)
        with lock:
            latencies.extend(mine)

    in_threads(work, [(n,) for n in range(clients)])
    return latencies


class WorkerKiller:
    """Kills one gunicorn worker every `every` seconds while the block runs.

    With `serving` (the server needs an access log) only a worker that has answered is killed; with `ready`, a kill
    waits until ready() is true (e.g. enough incidents acknowledged since the last one). Both are conditions, looked
    at every 50 ms; the next kill is `every` seconds after that one at the soonest. With `kills`, it stops after that
    many and sets `done`."""

    def __init__(
        self,
        server: Gunicorn,
        every: float,
        seed: int = 11,
        *,
        serving: bool = False,
        kills: int | None = None,
        ready: Callable[[], bool] | None = None,
    ):
        self.server, self.every, self.rng = server, every, random.Random(seed)
        self.serving, self.kills, self.ready = serving, kills, ready
        self.done = threading.Event()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, daemon=True)

    def _loop(self) -> None:
        while not self._stop.wait(self.every):
            while (self.ready is not None and not self.ready()) or self.server.kill_worker(
                self.rng, serving=self.serving
            ) is None:
                if self._stop.wait(0.05):
                    return
            if self.kills is not None and self.server.killed >= self.kills:
                self.done.set()
                return

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join()


def same_keys_at_once(base: str, staffing: Staffing, *, clients: int, keys: int) -> dict[str, set[int]]:
    """`clients` sessions post the same `keys` one-time keys, all starting together; key -> incident numbers seen."""
    shared = [uuid.uuid4().hex for _ in range(keys)]
    seen: dict[str, set[int]] = {k: set() for k in shared}
    tally = Tally()
    judges = [
        Judge(
            base,
            staffing.event_id,
            staffing.emails[n % len(staffing.emails)],
            staffing.players,
            tally,
            random.Random(n),
        )
        for n in range(clients)
    ]
    barrier = threading.Barrier(clients)

    def work(n: int) -> None:
        judge = judges[n]
        judge.log_in()
        token, _ = judge.open_form()
        barrier.wait()
        order = list(range(keys))
        random.Random(n).shuffle(order)
        for k in order:
            number = judge.post(token, shared[k], k)  # the same content for the same key, as a resend has
            with tally.lock:
                seen[shared[k]].add(number)

    in_threads(work, [(n,) for n in range(clients)])
    assert not tally.unexpected, tally.unexpected[:5]
    return seen


def check_database(app, event_id: int) -> dict:
    """What the database holds for the event: {key: number}, and rows that would show a broken write."""
    from sqlalchemy import func, select

    from judgeapp.extensions import db
    from judgeapp.models import AuditEntry, Incident, IncidentSubject

    with app.app_context():
        rows = dict(
            db.session.execute(select(Incident.client_key, Incident.number).where(Incident.event_id == event_id)).all()
        )
        without_subject = db.session.scalar(
            select(func.count())
            .select_from(Incident)
            .where(
                Incident.event_id == event_id,
                ~select(IncidentSubject.id).where(IncidentSubject.incident_id == Incident.id).exists(),
            )
        )
        audited = db.session.execute(
            select(AuditEntry.object_id, func.count())
            .where(AuditEntry.action == "incident.log", AuditEntry.event_id == event_id)
            .group_by(AuditEntry.object_id)
        ).all()
        integrity = "n/a"
        if db.engine.dialect.name == "sqlite":
            integrity = db.session.execute(db.text("PRAGMA integrity_check")).scalar()
        db.session.rollback()
    return {"rows": rows, "without_subject": without_subject, "audit_counts": dict(audited), "integrity": integrity}
