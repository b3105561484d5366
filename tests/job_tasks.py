"""Tasks only the tests register (app_config's JOBS_TASK_MODULES): a job that counts, one that needs too much memory,
one that runs too long, one whose process crashes, one that refuses with a reason."""

from __future__ import annotations

import os
import signal
import time

from judgeapp import jobs
from judgeapp.extensions import db
from judgeapp.models import Job


@jobs.task("test.count", counting="rows_read")
def count(job: Job, progress: jobs.Progress) -> dict:
    steps = int(job.payload.get("steps", 3))
    for done in range(1, steps + 1):
        progress.update(done, steps, rows_read=done)
    db.session.commit()
    return {"counted": steps, "items": list(range(steps))}


@jobs.task("test.hog", memory_mb=64)
def hog(job: Job, progress: jobs.Progress) -> dict:
    kept = bytearray(1024 * 1024 * 1024)  # 1 GB, over the 64 MB limit
    return {"kept": len(kept)}


@jobs.task("test.sleep", time_limit=2)
def sleep(job: Job, progress: jobs.Progress) -> dict:
    progress.update(0, 1)
    while True:  # for ever; its time limit ends it
        time.sleep(0.5)


@jobs.task("test.crash")
def crash(job: Job, progress: jobs.Progress) -> dict:
    os.kill(os.getpid(), signal.SIGSEGV)  # what a C parser's crash does to its process
    return {}


@jobs.task("test.refuse")
def refuse(job: Job, progress: jobs.Progress) -> dict:
    raise jobs.JobError("The file is not one this job can read.")
