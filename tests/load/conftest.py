"""Load tests start gunicorn (4 workers) on the test database; they run on SQLite and again on PostgreSQL."""

import os

import pytest

from tests.load.harness import Gunicorn, set_up_event

JUDGES = 40


def pytest_collection_modifyitems(items):
    for item in items:
        if "/load/" in str(item.fspath):
            item.add_marker(pytest.mark.db)
            item.add_marker(pytest.mark.load)


@pytest.fixture
def staffing(app):
    return set_up_event(app, JUDGES)


@pytest.fixture
def server(app, staffing, tmp_path):
    """gunicorn's 4 workers with an access log, which names the workers that have answered (the ones worth killing)."""
    url = app.config["SQLALCHEMY_DATABASE_URI"]
    with Gunicorn(url, workers=4, log=tmp_path / "gunicorn.log", access_log=tmp_path / "access.log") as running:
        yield running


@pytest.fixture
def workers_to_kill() -> int:
    """How many serving workers the killing run kills, one every 1.5 s at most (JUDGEAPP_LOAD_KILLS; bench/load.py
    runs ten minutes instead). Until 27 Nov: a minute with a worker killed every 5 s (11 kills or more, booting
    workers included)."""
    return int(os.environ.get("JUDGEAPP_LOAD_KILLS", "12"))
