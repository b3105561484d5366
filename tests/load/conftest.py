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
    url = app.config["SQLALCHEMY_DATABASE_URI"]
    with Gunicorn(url, workers=4, log=tmp_path / "gunicorn.log") as running:
        yield running


@pytest.fixture
def load_seconds() -> float:
    """How long the timed run lasts: a minute in `make test`, ten in bench/load.py."""
    return float(os.environ.get("JUDGEAPP_LOAD_SECONDS", "60"))
