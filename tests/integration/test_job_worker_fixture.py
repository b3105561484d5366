"""The tests' job worker (tests/conftest.py `Worker`): forked from the test's process, where judgeapp, WeasyPrint and
the task modules are already imported (a fresh interpreter spent ~7 s of CPU importing them for each test that ran a
job), it still makes its own app from the test's configuration and runs the real consumer, whose processes run the
job; a fresh interpreter (`python -m tests.job_worker`) runs the same code."""

from __future__ import annotations

import os
from pathlib import Path

from judgeapp import jobs
from judgeapp.extensions import db
from judgeapp.lifecycles import JobState
from tests.conftest import Worker


def submit_count(app, steps: int = 4) -> int:
    with app.app_context():
        job = jobs.submit(db.session, "test.count", actor=None, event=None, payload={"steps": steps})
        db.session.commit()
        return job.id


def parent_of(pid: int) -> int:
    stat = Path(f"/proc/{pid}/stat").read_text()
    return int(stat.rsplit(")", 1)[1].split()[1])


def cmdline(pid: int) -> bytes:
    return Path(f"/proc/{pid}/cmdline").read_bytes()


def consumer_of(job) -> int:
    """The consumer process above the huey worker process that ran `job` (its `worker` is host:pid)."""
    return parent_of(int(job.worker.rpartition(":")[2]))


def test_a_tests_job_worker_is_a_fork_of_the_test_process_that_runs_the_real_consumer_and_the_job_to_its_end(app):
    worker = Worker(app)
    try:
        job = worker.wait(submit_count(app))
        assert job.state is JobState.DONE, job.error
        assert job.result == {"counted": 4, "items": [0, 1, 2, 3]}
        assert job.done == job.total == 4
        ran_in = int(job.worker.rpartition(":")[2])
        assert ran_in != os.getpid()  # the consumer's own process ran it, not the test's
        consumer = consumer_of(job)
        assert parent_of(consumer) == os.getpid()
        assert cmdline(consumer) == cmdline(os.getpid())  # forked, no second interpreter importing judgeapp
        assert os.getpgid(consumer) == consumer  # its own group: stopping it stops its processes
    finally:
        worker.stop()
    assert worker.returncode is not None  # stopped and reaped by the test


def test_a_fresh_interpreter_job_worker_runs_the_same_consumer_and_the_job_to_its_end(app):
    worker = Worker(app, fresh=True)
    try:
        job = worker.wait(submit_count(app, steps=2))
        assert job.state is JobState.DONE, job.error
        assert job.result == {"counted": 2, "items": [0, 1]}
        consumer = consumer_of(job)
        assert parent_of(consumer) == os.getpid()
        assert b"tests.job_worker" in cmdline(consumer)
    finally:
        worker.stop()
    assert worker.returncode is not None
