"""The login limits hold across gunicorn workers when RATELIMIT_STORAGE_URI points at Redis (issue 24).

Every attempt is a fresh connection (gunicorn's sync workers answer one request per connection), so the attempts
land on whichever worker accepts first; the access log names the worker that answered each one. Needs a real Redis:
`make test` starts one (scripts/with-redis.sh sets TEST_REDIS_URL); without it the Redis test is skipped.
"""

import os
import re
import uuid

import pytest
import requests

from tests.conftest import CSRF_RE
from tests.load.harness import PASSWORD, Gunicorn

REDIS_URL = os.environ.get("TEST_REDIS_URL") or os.environ.get("REDIS_URL")
needs_redis = pytest.mark.skipif(not REDIS_URL, reason="no TEST_REDIS_URL (run through scripts/with-redis.sh)")


def make_account(app) -> str:
    """An account with PASSWORD whose address no earlier run has used (a Redis outlives one test)."""
    from judgeapp.auth.services import create_user
    from judgeapp.extensions import db

    email = f"guessed-{uuid.uuid4().hex[:12]}@load.test"
    with app.app_context():
        create_user(db.session, email=email, name="Guessed", password=PASSWORD)
        db.session.commit()
    return email


@pytest.fixture
def account(app) -> str:
    return make_account(app)


def per_account_and_address(app) -> int:
    """N of "N per 15 minutes": the failures one address may make for one account."""
    return int(re.match(r"\s*(\d+)", app.config["LOGIN_LIMIT_PER_ACCOUNT_AND_ADDRESS"]).group(1))


def attempt(server: Gunicorn, email: str, password: str) -> int:
    """One login on new connections, as a fresh browser sends it: the form (for its CSRF token), then the POST."""
    with requests.Session() as browser:
        page = browser.get(server.url + "/login", timeout=30)
        answer = browser.post(
            server.url + "/login",
            timeout=30,
            allow_redirects=False,
            data={"csrf_token": CSRF_RE.search(page.text).group(1), "email": email, "password": password},
        )
    return answer.status_code


MAX_ROUNDS = 20  # the kernel hands most connections to the worker that answered last: one round in three or so
# reaches a single worker, twenty in a row practically never


@needs_redis
def test_wrong_passwords_spread_over_four_workers_lock_the_account_after_the_configured_number_with_redis(
    app, tmp_path
):
    n = per_account_and_address(app)
    assert n == 5
    with Gunicorn(
        app.config["SQLALCHEMY_DATABASE_URI"],
        workers=4,
        log=tmp_path / "gunicorn.log",
        rate_limits=REDIS_URL,
        access_log=tmp_path / "access.log",
    ) as server:
        for round_ in range(1, MAX_ROUNDS + 1):  # a fresh account each round, until one round spreads
            email = make_account(app)
            wrong = [attempt(server, email, "not-the-password") for _ in range(n + 1)]
            right = attempt(server, email, PASSWORD)
            posts = server.wait_for_answers("POST", "/login", round_ * (n + 2))[-(n + 2) :]  # sent one by one
            workers = [pid for pid, _ in posts]
            print(f"\nround {round_}: {n + 1} wrong passwords then the right one, answered by workers {workers}")
            assert wrong == [401] * n + [429], "the first N wrong passwords are told so; the next is refused"
            assert right == 429, "the right password right after is refused too: the account is locked here"
            assert [status for _, status in posts] == [401] * n + [429, 429]
            if len(set(workers[: n + 1])) >= 2:
                break
    assert len(set(workers[: n + 1])) >= 2, f"{MAX_ROUNDS} rounds each reached one worker: nothing shown"


def test_with_the_in_memory_store_each_of_four_workers_counts_alone_so_more_than_the_limit_get_through(
    app, account, tmp_path
):
    """Why several workers need Redis: with memory:// each worker keeps its own count, so once the attempts reach a
    second worker more than N wrong passwords are answered 401 (at most 4N: five per worker)."""
    n = per_account_and_address(app)
    statuses = []
    with Gunicorn(
        app.config["SQLALCHEMY_DATABASE_URI"], workers=4, log=tmp_path / "gunicorn.log", rate_limits="memory://"
    ) as server:
        while statuses.count(401) <= n and len(statuses) < 100:
            statuses.append(attempt(server, account, "not-the-password"))
    print(f"\nmemory://: wrong password {statuses.count(401)} times told 401 in {len(statuses)} attempts")
    assert statuses[:n] == [401] * n
    assert statuses.count(401) == n + 1, "100 attempts and never a sixth 401: they all reached one worker"
