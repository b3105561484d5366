"""The job queue with a real worker: a job runs off the request, reports its progress, keeps a bounded result, and
ends failed with a readable reason when it is over its memory or time limit, when its process crashes, when its task
refuses, or when its worker died while it ran."""

from __future__ import annotations

import os
import socket

import pytest

from judgeapp import jobs
from judgeapp.extensions import db
from judgeapp.lifecycles import JOB, IllegalTransition, JobState
from judgeapp.models import AuditEntry, Event, Job, User

pytestmark = pytest.mark.db


def submit(app, kind, event_id=None, actor_id=None, **payload):
    with app.app_context():
        event = db.session.get(Event, event_id) if event_id else None
        actor = db.session.get(User, actor_id) if actor_id else None
        job = jobs.submit(db.session, kind, actor=actor, event=event, payload=payload)
        db.session.commit()
        return job.id


def test_a_submitted_job_waits_queued_until_a_worker_runs_it_then_keeps_its_counts_and_result(
    app, make_event, make_user
):
    event_id = make_event()
    actor_id, _ = make_user()
    job_id = submit(app, "test.count", event_id, actor_id, steps=150)
    with app.app_context():
        job = db.session.get(Job, job_id)
        assert (job.state, job.event_id, job.actor_id, job.done, job.total) == (
            JobState.QUEUED,
            event_id,
            actor_id,
            0,
            None,
        )
        assert db.session.query(AuditEntry).filter_by(action="job.submit").count() == 1


def test_the_worker_runs_a_job_to_done_with_its_progress_and_a_bounded_result(app, job_worker, make_event):
    event_id = make_event()
    job = job_worker.wait(submit(app, "test.count", event_id, steps=150))
    assert job.state is JobState.DONE, job.error
    assert (job.done, job.total, job.counting, job.counts) == (150, 150, "rows_read", {"rows_read": 150})
    assert job.result["counted"] == 150
    assert job.result["items"] == list(range(jobs.RESULT_LIST_LIMIT))  # bounded: the first 100 kept...
    assert job.result["items_more"] == 50  # ...and the rest counted
    assert job.started_at is not None and job.finished_at is not None and job.error is None


def test_a_job_over_its_memory_limit_ends_failed_with_a_readable_reason_and_the_worker_goes_on(app, job_worker):
    hog = job_worker.wait(submit(app, "test.hog"))
    assert hog.state is JobState.FAILED
    assert hog.error == "It needed more memory than its limit (64 MB) and was stopped."
    assert job_worker.wait(submit(app, "test.count")).state is JobState.DONE  # the worker itself is unharmed


def test_a_job_over_its_time_limit_is_stopped_and_ends_failed_never_running_for_ever(app, job_worker):
    job = job_worker.wait(submit(app, "test.sleep"))
    assert job.state is JobState.FAILED
    assert job.error == "It took longer than its time limit (2 s) and was stopped."


def test_a_job_whose_process_crashes_ends_failed_not_running(app, job_worker):
    job = job_worker.wait(submit(app, "test.crash"))
    assert job.state is JobState.FAILED
    assert job.error == "Its process ended unexpectedly (signal SIGSEGV)."
    assert job_worker.wait(submit(app, "test.count")).state is JobState.DONE


def test_a_task_that_refuses_ends_its_job_failed_with_the_task_s_own_reason(app, job_worker):
    job = job_worker.wait(submit(app, "test.refuse"))
    assert (job.state, job.error) == (JobState.FAILED, "The file is not one this job can read.")


def test_a_job_left_running_by_a_dead_worker_is_marked_failed_when_a_worker_starts(app):
    job_id = submit(app, "test.count")
    with app.app_context():
        job = db.session.get(Job, job_id)
        job.state = JobState.RUNNING
        job.worker = f"{socket.gethostname()}:{2**22 + 12345}"  # no such process
        alive = jobs.submit(db.session, "test.count", actor=None, event=None, payload={})
        alive.state, alive.worker = JobState.RUNNING, f"{socket.gethostname()}:{os.getpid()}"
        db.session.commit()
        alive_id = alive.id
    assert jobs.fail_stale(app) == 1
    with app.app_context():
        stale = db.session.get(Job, job_id)
        assert stale.state is JobState.FAILED
        assert stale.error == "Its worker stopped while it ran (the server restarted or the worker crashed)."
        assert db.session.get(Job, alive_id).state is JobState.RUNNING  # a live worker's job is left alone


def test_a_job_moves_only_queued_running_then_done_or_failed():
    assert JOB.move(JobState.QUEUED, "start") is JobState.RUNNING
    assert JOB.move(JobState.RUNNING, "finish") is JobState.DONE
    assert JOB.move(JobState.RUNNING, "fail") is JobState.FAILED
    for state, transition in [(JobState.QUEUED, "finish"), (JobState.DONE, "fail"), (JobState.FAILED, "start")]:
        with pytest.raises(IllegalTransition):
            JOB.move(state, transition)


def test_a_job_is_handed_to_the_queue_only_when_its_transaction_commits(app):
    with app.app_context():
        jobs.submit(db.session, "test.count", actor=None, event=None, payload={})
        db.session.rollback()
        assert len(app.extensions[jobs.QUEUE_KEY]) == 0
        jobs.submit(db.session, "test.count", actor=None, event=None, payload={})
        db.session.commit()
        assert len(app.extensions[jobs.QUEUE_KEY]) == 1
