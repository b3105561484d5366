"""`flask --app wsgi backup PATH` copies a live SQLite database while judges keep logging; the copy restores."""

import shutil
import subprocess
import sys
import threading

import pytest

from tests.conftest import ROOT, app_config
from tests.load.harness import Tally, check_database, run_judges


def test_backup_taken_while_judges_log_incidents_restores_to_a_consistent_database(app, staffing, server, tmp_path):
    url = app.config["SQLALCHEMY_DATABASE_URI"]
    if not url.startswith("sqlite"):
        pytest.skip("PostgreSQL is backed up with pg_dump (docs/operators/backups.md)")
    tally = Tally()
    writers = threading.Thread(target=run_judges, args=(server.url, staffing, tally), kwargs={"seconds": 12})
    writers.start()
    try:
        threading.Event().wait(5)  # let the writes get going
        before = len(tally.acknowledged)
        copy = tmp_path / "backups" / "judgeapp-copy.sqlite3"
        done = subprocess.run(
            [sys.executable, "-m", "flask", "--app", "wsgi", "backup", str(copy)],
            cwd=ROOT,
            env={"DATABASE_URL": url, "SECRET_KEY": "x", "PATH": "/usr/bin:/bin"},
            capture_output=True,
            text=True,
            timeout=120,
        )
        during = len(tally.acknowledged)
    finally:
        writers.join()
    assert done.returncode == 0, done.stderr
    assert "integrity check ok" in done.stdout
    assert during > before, "the writes went on while the backup ran"

    restored = tmp_path / "restored.sqlite3"  # restoring is copying the file into place (docs/operators/backups.md)
    shutil.copy(copy, restored)
    from judgeapp import create_app

    restored_app = create_app(app_config(tmp_path, SQLALCHEMY_DATABASE_URI=f"sqlite:///{restored}"))
    held = check_database(restored_app, staffing.event_id)
    with restored_app.app_context():
        restored_app.extensions["sqlalchemy"].engine.dispose()
    assert held["integrity"] == "ok"
    assert before <= len(held["rows"]) <= len(tally.acknowledged), "the copy holds what was committed when it ran"
    assert held["without_subject"] == 0 and set(held["audit_counts"].values()) == {1}, "no half-written incident"
    acknowledged = tally.acknowledged
    assert all(acknowledged.get(key) == number for key, number in held["rows"].items())


def test_backup_refuses_to_overwrite_the_live_database(app, tmp_path):
    url = app.config["SQLALCHEMY_DATABASE_URI"]
    if not url.startswith("sqlite"):
        pytest.skip("SQLite only")
    live = url.removeprefix("sqlite:///")
    done = subprocess.run(
        [sys.executable, "-m", "flask", "--app", "wsgi", "backup", live],
        cwd=ROOT,
        env={"DATABASE_URL": url, "SECRET_KEY": "x", "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 1 and "must not overwrite the live database" in done.stderr
