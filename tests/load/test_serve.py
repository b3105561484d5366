"""`make serve`'s command line (scripts/serve.sh: migrate, then gunicorn -c gunicorn.conf.py) answers as the
production recipe (docs/operators/production.md) says: compressed pages, versioned static files cached for a year, the
HTTPS proxy's headers believed (JUDGEAPP_PROXY_HOPS=1) for the scheme and the client's address, login limits counted
in Redis, and a judge logs in.

Always on a new SQLite file (what `make serve` uses by default, migrated from nothing by the script itself); the
PostgreSQL pass skips it, as the only difference there is the DATABASE_URL the script passes on.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests

from judgeapp.static_files import minify
from tests.conftest import CSRF_RE, TEST_DATABASE_URL, app_config
from tests.load import harness
from tests.load.harness import ROOT, free_port

PASSWORD = "serve-test-password"
IMMUTABLE = "public, max-age=31536000, immutable"

pytestmark = [
    pytest.mark.skipif(bool(TEST_DATABASE_URL), reason="make serve's shape is checked on its default, SQLite"),
    pytest.mark.skipif(
        not (os.environ.get("TEST_REDIS_URL") or shutil.which("redis-server")),
        reason="needs Redis: TEST_REDIS_URL or a redis-server to start",
    ),
]


class Served:
    def __init__(self, url: str, email: str, env: dict | None = None, tmp_path: Path | None = None, session: int = 0):
        self.url, self.email, self.env, self.tmp_path = url, email, env or {}, tmp_path
        self.session = session  # serve.sh's process session: it, gunicorn's master and workers, the job worker


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """scripts/serve.sh on a free port, 2 workers, behind one (simulated) HTTPS proxy, with one judge's account."""
    tmp_path = tmp_path_factory.mktemp("serve")
    email = f"judge-{uuid.uuid4().hex[:12]}@serve.test"  # a Redis outlives one run: counts start from nothing
    port = free_port()
    env = {key: value for key, value in os.environ.items() if key not in ("RATELIMIT_STORAGE_URI", "DATABASE_URL")}
    env.update(
        {
            "JUDGEAPP_PYTHON": sys.executable,
            "DATABASE_URL": f"sqlite:///{tmp_path / 'serve.sqlite3'}",
            "SECRET_KEY": "serve-test-secret",
            "JUDGEAPP_BIND": f"127.0.0.1:{port}",
            "JUDGEAPP_WORKERS": "2",
            "JUDGEAPP_PROXY_HOPS": "1",
            "JUDGEAPP_ACCESS_LOG": str(tmp_path / "access.log"),
            "JUDGEAPP_JOBS_STORE": str(tmp_path / "jobs.sqlite3"),
        }
    )
    if os.environ.get("TEST_REDIS_URL"):
        env["REDIS_URL"] = os.environ["TEST_REDIS_URL"]  # else serve.sh starts its own throw-away redis-server
    with open(tmp_path / "serve.log", "w") as log:
        process = subprocess.Popen(
            [str(ROOT / "scripts" / "serve.sh")],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        try:
            url = f"http://127.0.0.1:{port}"
            wait_until_up(process, url, tmp_path / "serve.log")
            make_account(tmp_path, env["DATABASE_URL"], email)
            yield Served(url, email, env, tmp_path, session=process.pid)
        finally:
            os.killpg(process.pid, signal.SIGTERM)  # gunicorn, and the redis-server serve.sh may have started
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()


def make_account(tmp_path: Path, database_url: str, email: str) -> None:
    """The judge's account, written by this process into the database serve.sh migrated (as `flask users create`)."""
    from judgeapp import create_app
    from judgeapp.auth.services import create_user
    from judgeapp.extensions import db

    app = create_app(app_config(tmp_path, SQLALCHEMY_DATABASE_URI=database_url))
    with app.app_context():
        create_user(db.session, email=email, name="Served Judge", password=PASSWORD)
        db.session.commit()
        db.engine.dispose()


def wait_until_up(process: subprocess.Popen, url: str, log: Path) -> None:
    deadline = time.monotonic() + 90  # a busy machine: gunicorn's workers and the job worker start together
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"serve.sh exited with {process.returncode}:\n{log.read_text()}")
        try:
            if requests.get(url + "/login", timeout=5).status_code == 200:
                return
        except requests.RequestException:
            pass
        time.sleep(0.1)
    raise RuntimeError(f"serve.sh did not answer within 90 s:\n{log.read_text()}")


def proxied(address: str) -> dict[str, str]:
    """What the HTTPS proxy in front adds: the scheme, the public host and the phone's address."""
    return {
        "X-Forwarded-Proto": "https",
        "X-Forwarded-Host": "judge.example",
        "X-Forwarded-For": address,
        "Referer": "https://judge.example/login",
    }


def log_in(served: Served, password: str, address: str) -> requests.Response:
    """The login form and its POST through the proxy. The session cookie comes back `Secure` (the proxy said https),
    so it is sent back by hand: requests, unlike the proxy, talks plain HTTP to gunicorn."""
    page = requests.get(served.url + "/login", headers=proxied(address), timeout=30)
    cookies = "; ".join(f"{cookie.name}={cookie.value}" for cookie in page.cookies)
    return requests.post(
        served.url + "/login",
        headers={**proxied(address), "Cookie": cookies},
        timeout=30,
        allow_redirects=False,
        data={"csrf_token": CSRF_RE.search(page.text).group(1), "email": served.email, "password": password},
    )


def test_make_serve_sends_compressed_pages_and_compressed_year_long_cached_versioned_static_files(served):
    page = requests.get(served.url + "/login", headers={"Accept-Encoding": "br, gzip"}, timeout=30)
    assert page.status_code == 200 and page.headers["Content-Encoding"] == "br" and "<form" in page.text
    again = requests.get(served.url + "/login", headers={"Accept-Encoding": "br, gzip"}, timeout=30)
    assert CSRF_RE.search(page.text).group(1) != CSRF_RE.search(again.text).group(1)  # masked afresh (BREACH)
    style_url = re.search(r'href="(/static/app\.css\?v=[0-9a-f]{12})"', page.text).group(1)
    for encoding in ("br", "gzip"):
        style = requests.get(served.url + style_url, headers={"Accept-Encoding": encoding}, timeout=30)
        assert style.headers["Cache-Control"] == IMMUTABLE and style.headers["Content-Encoding"] == encoding
    # sent minified (judgeapp/static_files.py)
    assert style.content == minify("text/css", (ROOT / "judgeapp" / "static" / "app.css").read_bytes())
    worker = requests.get(served.url + "/sw.js", timeout=30)
    assert worker.headers["Cache-Control"] == "no-cache" and style_url in worker.text


def test_make_serve_believes_the_proxy_for_https_and_the_phones_address_and_a_judge_logs_in(served):
    secure = requests.get(served.url + "/login", headers=proxied("203.0.113.9"), timeout=30)
    assert secure.headers["Strict-Transport-Security"].startswith("max-age=")
    assert "Strict-Transport-Security" not in requests.get(served.url + "/login", timeout=30).headers
    # the limit counts the forwarded address, in Redis, whichever of the 2 workers answers
    assert [log_in(served, "wrong-password", "203.0.113.9").status_code for _ in range(6)] == [401] * 5 + [429]
    answer = log_in(served, PASSWORD, "198.51.100.7")  # the judge's own phone, elsewhere in the hall
    assert answer.status_code == 302 and "Secure" in answer.headers["Set-Cookie"]


def test_make_serve_runs_the_job_worker_beside_gunicorn_and_a_queued_job_is_done(served):
    """scripts/serve.sh starts `flask jobs worker` with the server: a mail queued with send_later (the console
    backend here) is sent by it, off any request."""
    from flask_mailman import EmailMessage

    from judgeapp import create_app
    from judgeapp.extensions import db
    from judgeapp.lifecycles import JobState
    from judgeapp.mail import send_later
    from judgeapp.models import Job

    config = app_config(
        served.tmp_path,
        SQLALCHEMY_DATABASE_URI=served.env["DATABASE_URL"],
        JOBS_STORE=served.env["JUDGEAPP_JOBS_STORE"],
        REDIS_URL=served.env.get("REDIS_URL"),
        MAIL_BACKEND="judgeapp.mail.LogEmailBackend",
    )
    app = create_app(config)
    with app.app_context():
        job_id = send_later(EmailMessage(subject="Serve check", body="Hello", to=["someone@serve.test"])).id
        db.session.commit()
        deadline = time.monotonic() + 60
        while (state := db.session.get(Job, job_id).state) not in (JobState.DONE, JobState.FAILED):
            assert time.monotonic() < deadline, "no worker ran the job within 60 s"
            db.session.rollback()
            time.sleep(0.1)
        assert state is JobState.DONE, db.session.get(Job, job_id).error
        db.engine.dispose()


def processes(session: int) -> dict[int, tuple[int, str]]:
    """pid -> (parent pid, command line) of every process of a session."""
    return {pid: (p.parent, p.command) for pid, p in harness.processes().items() if p.session == session}


def open_files(pid: int) -> set[str]:
    files = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            files.add(os.readlink(fd))
        except OSError:
            continue
    return files


def test_make_serve_loads_the_app_once_and_forks_every_worker_from_it_sharing_no_database_connection(served):
    """gunicorn.conf.py preloads the app: its master imports judgeapp (catalogs, templates, the database engine)
    once, and each worker, also one started again after a crash, is forked from it ready to answer, rather than
    importing it all again (at a busy venue that took a new worker 30-60 s). The master never opens the database, so
    no worker inherits a connection: each opens its own after the fork."""
    everyone = processes(served.session)
    gunicorns = {pid for pid, (_, command) in everyone.items() if "gunicorn" in command}
    (master,) = [pid for pid in gunicorns if everyone[pid][0] not in gunicorns]
    workers = {pid for pid in gunicorns if everyone[pid][0] == master}
    assert len(workers) == 2
    maps = Path(f"/proc/{master}/maps").read_text()
    assert "libsqlite3" in maps  # the app, its SQLAlchemy engine and so sqlite3, loaded in the master
    database = str(served.tmp_path / "serve.sqlite3")
    for _ in range(6):  # both workers answer reads and a judge signs in (a write: the login's audit entry)
        requests.get(served.url + "/login", timeout=30)
    assert log_in(served, PASSWORD, "192.0.2.44").status_code == 302
    assert not any(name.startswith(database) for name in open_files(master))
    os.kill(min(workers), signal.SIGKILL)
    deadline = time.monotonic() + 120  # a condition waited for, generous for a busy machine
    while True:
        now = {pid for pid, (parent, _) in processes(served.session).items() if parent == master}
        if len(now) == 2 and min(workers) not in now:
            break
        assert time.monotonic() < deadline, f"no worker started again in place of {min(workers)}: {now}"
        time.sleep(0.1)
    for _ in range(6):
        assert requests.get(served.url + "/login", timeout=30).status_code == 200
    assert log_in(served, PASSWORD, "192.0.2.45").status_code == 302
    assert not any(name.startswith(database) for name in open_files(master))
