"""Heavy work off the request: a kept job queue (Huey), a `Job` record per piece of work, and the worker that runs it.

A view (or a service) calls `submit(session, kind, actor=..., event=..., payload=...)`: it adds a `Job` row in the
request's transaction and the job is handed to the queue once that transaction commits (never before: the worker
must find the row). The worker (`flask jobs worker`, started beside the server by `make run` and `make serve`) runs
the task registered for the job's kind in an application context; the task reports its progress through the
`Progress` it is given, each report a short transaction of its own, and returns a small summary (kept bounded).

The queue is Huey: SQLite storage by default (its own file, JOBS_STORE, under instance/), Redis when REDIS_URL is
set (several servers sharing one queue). Huey only carries the job's id; everything else is in our database.

Limits: each job runs in a process of its own, forked by the worker for that job alone, with an address-space limit
(`resource.setrlimit(RLIMIT_AS)`: the job's memory limit over what the worker already maps) and a time limit after
which it is killed. A job over either limit, a job whose process dies (a crash in a C library) and a job whose
worker died (found when a worker next starts) all end failed, with a readable reason: never running for ever.
"""

from __future__ import annotations

import logging
import os
import resource
import signal
import socket
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from flask import Flask, current_app
from sqlalchemy import event as sa_event
from sqlalchemy import select, update
from sqlalchemy.orm import Session

from . import audit
from .lifecycles import JOB, JobState
from .models import Event, Job, User, utcnow
from .sandbox import address_space_limit
from .texts import gettext as _
from .texts import lazy_gettext as _l

if TYPE_CHECKING:
    from huey import Huey

log = logging.getLogger("judgeapp.jobs")

QUEUE_KEY = "judgeapp.jobs"
MEMORY_EXIT = 86  # a job's process ran out of its memory limit
RESULT_LIST_LIMIT = 100  # items kept of any list in a job's result (the rest counted)

# What a job's progress counts, by key: the job page shows `done` of `total` <label> and every count by its label.
COUNTING: dict[str, Any] = {
    "": _l("steps"),
    "rows_read": _l("rows read"),
    "players_written": _l("players written"),
    "rounds_written": _l("rounds written"),
    "batches": _l("batches"),
    "pages_rendered": _l("pages rendered"),
    "messages_sent": _l("messages sent"),
}


class JobError(Exception):
    """A job cannot go on, for a reason its starter can read (already translated): it ends failed with it."""


@dataclass(frozen=True)
class Task:
    kind: str
    run: Callable[[Job, Progress], dict[str, Any] | None]
    counting: str = ""
    time_limit: int | None = None  # seconds; None: JOBS_TIME_LIMIT
    memory_mb: int | None = None  # None: JOBS_MEMORY_MB
    list_limit: int | None = None  # items kept of a list in its result; None: RESULT_LIST_LIMIT


TASKS: dict[str, Task] = {}


def task(
    kind: str,
    *,
    counting: str = "",
    time_limit: int | None = None,
    memory_mb: int | None = None,
    list_limit: int | None = None,
) -> Callable[[Callable[[Job, Progress], dict[str, Any] | None]], Callable[[Job, Progress], dict[str, Any] | None]]:
    """Register the function that runs jobs of `kind`: `run(job, progress) -> result summary (or None)`. It runs in
    the worker, in an application context, with `job` loaded in `db.session`; it commits its own work (in short
    transactions when the work is long). Raise `JobError(readable reason)` to end the job failed. `list_limit`: a
    task whose result lists are already bounded by their own rule keeps that many items (see `bounded`)."""

    def register(run: Callable[[Job, Progress], dict[str, Any] | None]) -> Callable[[Job, Progress], Any]:
        TASKS[kind] = Task(kind, run, counting, time_limit, memory_mb, list_limit)
        return run

    return register


# ---- submitting ------------------------------------------------------------------------------------------------------


def submit(
    session: Session,
    kind: str,
    *,
    actor: User | None,
    event: Event | None,
    payload: dict[str, Any],
    subject: str | None = None,
) -> Job:
    """A new job of `kind` (a registered task), queued once `session` commits. `payload`: what the task needs, kept
    small (ids, options); `subject`: the record it works on ("import:12"), to find its latest job again."""
    if kind not in TASKS:
        raise KeyError(f"no task registered for jobs of kind {kind!r}")
    job = Job(
        kind=kind,
        event_id=event.id if event is not None else None,
        actor_id=actor.id if actor is not None else None,
        subject=subject,
        state=JobState.QUEUED,
        payload=payload,
        counting=TASKS[kind].counting,
        counts={},
    )
    session.add(job)
    session.flush()
    audit.record(session, actor, "job.submit", job, event_id=job.event_id, kind=kind, subject=subject)
    session.info.setdefault(QUEUE_KEY, []).append((queue(), job.id))
    return job


@sa_event.listens_for(Session, "after_commit")
def _enqueue_committed(session: Session) -> None:
    for huey, job_id in session.info.pop(QUEUE_KEY, ()):
        try:
            huey.enqueue(huey._judgeapp_run.s(job_id))
        except Exception:  # the queue's store is unreachable: the job stays queued, visible as waiting
            log.exception("job %r could not be handed to the queue", job_id)


@sa_event.listens_for(Session, "after_soft_rollback")
def _forget_rolled_back(session: Session, previous_transaction: Any) -> None:
    if not session.in_transaction():
        session.info.pop(QUEUE_KEY, None)


def latest(session: Session, subject: str) -> Job | None:
    """The newest job about `subject`."""
    return session.scalar(select(Job).where(Job.subject == subject).order_by(Job.id.desc()).limit(1))


def running_for(session: Session, event_id: int, kind: str) -> Job | None:
    """A job of `kind` at the event still waiting or running, if any."""
    return session.scalar(
        select(Job)
        .where(Job.event_id == event_id, Job.kind == kind, Job.state.in_((JobState.QUEUED, JobState.RUNNING)))
        .order_by(Job.id)
        .limit(1)
    )


# ---- the queue -------------------------------------------------------------------------------------------------------


def make_queue(app: Flask) -> Huey:
    """The app's Huey: Redis when REDIS_URL is set, else SQLite in JOBS_STORE; its one task runs a Job by id."""
    from huey import RedisHuey, SqliteHuey

    url = app.config.get("REDIS_URL")
    huey: Huey
    if url:
        huey = RedisHuey("judgeapp-jobs", url=url)
    else:
        store = app.config.get("JOBS_STORE") or os.path.join(app.instance_path, "jobs.sqlite3")
        os.makedirs(os.path.dirname(os.path.abspath(store)), exist_ok=True)
        huey = SqliteHuey("judgeapp-jobs", filename=store, timeout=30)
    huey._judgeapp_run = huey.task(name="judgeapp.run_job")(_run_queued)
    return huey


def init_app(app: Flask) -> None:
    app.extensions[QUEUE_KEY] = make_queue(app)
    for module in app.config.get("JOBS_TASK_MODULES") or ():  # the tasks other packages register
        __import__(module)


def queue() -> Huey:
    return current_app.extensions[QUEUE_KEY]


# ---- progress --------------------------------------------------------------------------------------------------------


class Progress:
    """What a running task reports: `update(done, total, **counts)` writes the job's progress in a short transaction
    of its own (commits the task's session: call it between units of work, e.g. after a batch)."""

    def __init__(self, session: Any, job_id: int):  # a Session, or Flask-SQLAlchemy's scoped db.session
        self.session, self.job_id = session, job_id
        self.counts: dict[str, int] = {}

    def update(self, done: int | None = None, total: int | None = None, *, counting: str | None = None,
               **counts: int) -> None:  # fmt: skip
        self.counts.update(counts)
        values: dict[str, Any] = {"counts": dict(self.counts)}
        if done is not None:
            values["done"] = done
        if total is not None:
            values["total"] = total
        if counting is not None:
            values["counting"] = counting
        self.session.execute(update(Job).where(Job.id == self.job_id).values(**values))
        self.session.commit()


# ---- the worker ------------------------------------------------------------------------------------------------------

_APP: Flask | None = None  # the worker's app, set by `run_worker` before the consumer forks its processes


def _run_queued(job_id: int) -> None:
    """Huey's task, in a worker process: run the job in a process of its own, within its limits."""
    app = _APP
    if app is None:
        raise RuntimeError("the job worker's app is not set: run `flask jobs worker`")
    run_job(app, job_id)


def worker_name(pid: int | None = None) -> str:
    return f"{socket.gethostname()}:{pid or os.getpid()}"


def limits(app: Flask, kind: str) -> tuple[int, int]:
    """(seconds, MB) the job may take: its task's own, else JOBS_TIME_LIMIT and JOBS_MEMORY_MB."""
    registered = TASKS.get(kind)
    seconds = (registered and registered.time_limit) or int(app.config["JOBS_TIME_LIMIT"])
    megabytes = (registered and registered.memory_mb) or int(app.config["JOBS_MEMORY_MB"])
    return seconds, megabytes


def run_job(app: Flask, job_id: int) -> None:
    """Start job `job_id` (queued -> running), fork its process, wait for it within the time limit; whatever way it
    ends, the job is left done or failed."""
    from .extensions import db

    with app.app_context():
        job = db.session.get(Job, job_id)
        if job is None or job.state is not JobState.QUEUED:
            db.session.rollback()
            return  # unknown, or already run (a queue redelivery)
        job.state = JOB.move(job.state, "start")  # type: ignore[assignment]
        job.started_at, job.worker = utcnow(), worker_name()
        seconds, megabytes = limits(app, job.kind)
        session: Any = db.session
        audit.record(session, job.actor, "job.start", job, event_id=job.event_id, kind=job.kind, worker=job.worker)
        db.session.commit()
        db.session.remove()
        db.engine.dispose()  # no connection shared with the job's process
    pid = os.fork()
    if pid == 0:  # the job's own process
        code = 1
        try:
            code = _child(app, job_id, megabytes)
        except BaseException:
            log.error("job %s: its process failed:\n%s", job_id, traceback.format_exc())
        finally:
            os._exit(code)
    reason = _wait(pid, seconds, megabytes)
    if reason is not None:
        _end(app, job_id, failed=reason)


def _wait(pid: int, seconds: int, megabytes: int) -> str | None:
    """Wait for the job's process; the reason it failed when it did not end by itself (None: it did)."""
    deadline = time.monotonic() + seconds
    delay = 0.01
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        if time.monotonic() > deadline:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            return _("It took longer than its time limit (%(seconds)s s) and was stopped.", seconds=seconds)
        time.sleep(delay)
        delay = min(delay * 2, 0.2)
    if os.WIFEXITED(status):
        code = os.WEXITSTATUS(status)
        if code == 0:
            return None
        if code == MEMORY_EXIT:
            return _("It needed more memory than its limit (%(mb)s MB) and was stopped.", mb=megabytes)
        return _("Its process ended unexpectedly (exit code %(code)s).", code=code)
    sig = os.WTERMSIG(status)
    name = signal.Signals(sig).name if sig in signal.valid_signals() else str(sig)
    return _("Its process ended unexpectedly (signal %(signal)s).", signal=name)


def _child(app: Flask, job_id: int, megabytes: int) -> int:
    """The job's process: the memory limit, then the task in an application context. Exit code 0 when the job row
    says how it ended (done, or failed with the task's own reason)."""
    from flask_babel import force_locale

    from .extensions import db
    from .i18n import language_of

    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C stops the worker, which ends its jobs failed
    _limit_memory(megabytes)
    with app.app_context():
        try:
            job = db.session.get(Job, job_id)
            assert job is not None
            event = db.session.get(Event, job.event_id) if job.event_id is not None else None
            if job.actor is not None:
                language = language_of(job.actor, event)
            else:
                language = event.language if event is not None else app.config.get("JUDGEAPP_LANGUAGE") or "en"
            registered = TASKS[job.kind]  # read now: after the task's commit, `job` would be read again
            with force_locale(language):
                try:
                    result = registered.run(job, Progress(db.session, job_id))
                except MemoryError:
                    return MEMORY_EXIT
                except JobError as err:
                    db.session.rollback()
                    _end(app, job_id, failed=str(err))
                    return 0
                except Exception as err:
                    db.session.rollback()
                    log.error("job %s (%s) failed:\n%s", job_id, registered.kind, traceback.format_exc())
                    _end(app, job_id, failed=_(
                        "It stopped on an unexpected error (%(error)s); the details are in the worker's log.",
                        error=type(err).__name__,
                    ))  # fmt: skip
                    return 0
            db.session.commit()
            _end(app, job_id, result=bounded(result or {}, limit=registered.list_limit or RESULT_LIST_LIMIT))
            return 0
        except MemoryError:
            return MEMORY_EXIT


def _limit_memory(megabytes: int) -> None:
    """RLIMIT_AS: what this process maps now (the worker's code and libraries) plus the job's own `megabytes`."""
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    resource.setrlimit(resource.RLIMIT_AS, (address_space_limit(megabytes), hard))


def _end(app: Flask, job_id: int, *, failed: str | None = None, result: dict[str, Any] | None = None) -> None:
    """Leave the job done (with its result) or failed (with the reason), in a short transaction; a job already ended
    (the task ended it itself) is left as it is."""
    from .extensions import db

    with app.app_context():
        job = db.session.get(Job, job_id)
        if job is None or not JOB.allows(job.state, "fail"):
            db.session.rollback()
            return
        if failed is not None:
            job.state, job.error = JOB.move(job.state, "fail"), failed[:2000]  # type: ignore[assignment]
        else:
            job.state, job.result = JOB.move(job.state, "finish"), result  # type: ignore[assignment]
        job.finished_at = utcnow()
        session: Any = db.session
        audit.record(session, job.actor, f"job.{job.state.value}", job, event_id=job.event_id, kind=job.kind,
                     error=job.error)  # fmt: skip
        db.session.commit()
        db.session.remove()


def bounded(value: Any, depth: int = 0, limit: int = RESULT_LIST_LIMIT) -> Any:
    """A result kept small: every list cut to `limit` items (a `<key>_more` count beside it, added to the count the
    task put there itself, as the import does for its rejections past the first 200), nesting cut at 6 levels,
    strings at 2,000 characters."""
    if isinstance(value, str):
        return value[:2000]
    if depth > 6:
        return None
    if isinstance(value, dict):
        out: dict[str, Any] = {}
        cut: dict[str, int] = {}
        for key, item in value.items():
            if isinstance(item, list) and len(item) > limit:
                cut[f"{key}_more"] = len(item) - limit
                item = item[:limit]
            out[str(key)] = bounded(item, depth + 1, limit)
        for key, more in cut.items():
            counted = out.get(key)
            out[key] = more + (counted if isinstance(counted, int) and not isinstance(counted, bool) else 0)
        return out
    if isinstance(value, list | tuple):
        return [bounded(item, depth + 1, limit) for item in value[:limit]]
    return value


def fail_stale(app: Flask) -> int:
    """Jobs left running by a worker of this host that is gone (killed, crashed, the machine restarted) end failed;
    the number of them. A running job's `worker` is host:pid of the process that watches it."""
    from .extensions import db

    session: Any = db.session
    host = socket.gethostname()
    failed = 0
    with app.app_context():
        for job in db.session.scalars(select(Job).where(Job.state == JobState.RUNNING)):
            where, _sep, pid = (job.worker or "").rpartition(":")
            if where and where != host:
                continue  # another machine's worker (Redis shared by several): its own start looks after it
            if pid.isdigit() and _alive(int(pid)):
                continue
            job.state = JOB.move(job.state, "fail")  # type: ignore[assignment]
            job.error = _("Its worker stopped while it ran (the server restarted or the worker crashed).")
            job.finished_at = utcnow()
            audit.record(session, None, "job.failed", job, event_id=job.event_id, kind=job.kind, error=job.error)
            failed += 1
        db.session.commit()
        db.session.remove()
    return failed


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def run_worker(app: Flask, *, workers: int | None = None) -> None:
    """The consumer: stale jobs failed first, then `workers` worker processes (JOBS_WORKERS) taking jobs until
    SIGINT/SIGTERM. Blocks."""
    global _APP
    _APP = app
    stale = fail_stale(app)
    if stale:
        log.warning("jobs left running by a stopped worker, marked failed: %s", stale)
    huey = app.extensions[QUEUE_KEY]
    consumer = huey.create_consumer(
        workers=workers or int(app.config["JOBS_WORKERS"]),
        worker_type="process",
        periodic=False,
        initial_delay=0.05,
        backoff=1.5,
        max_delay=float(app.config["JOBS_POLL_SECONDS"]),
        check_worker_health=True,
    )
    consumer.run()


# ---- what the job page shows ----------------------------------------------------------------------------------------


def _order(key: str) -> int:
    """Counts in COUNTING's order; counts it does not name after them."""
    return list(COUNTING).index(key) if key in COUNTING else len(COUNTING)


def view(job: Job) -> dict[str, Any]:
    """A job as its page and the page's script show it: state, the bar (done of total, in percent when the total is
    known), every count with its label (in the request's language), the reason it failed."""
    total = job.total
    percent = None
    if total:
        percent = min(100, round(100 * job.done / total))
    elif job.state is JobState.DONE:
        percent = 100
    return {
        "id": job.id,
        "kind": job.kind,
        "state": job.state.value,
        "state_label": str(job.state.label),
        "ended": job.state in (JobState.DONE, JobState.FAILED),
        "done": job.done,
        "total": total,
        "percent": percent,
        "counting": str(COUNTING.get(job.counting, job.counting)),
        "counts": [
            {"key": key, "label": str(COUNTING.get(key, key)), "value": value}
            for key, value in sorted((job.counts or {}).items(), key=lambda kv: _order(kv[0]))
        ],
        "error": job.error,
    }
