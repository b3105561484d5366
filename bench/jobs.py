"""A 130,000-row players import as a job, and incident saves at another event meanwhile, against the same saves with
no import (issue 32: "A 130,000-row players import takes 55–77 s inside one HTTP request, with no progress shown").

The upload goes through the whole request path (upload, CSRF, the file kept, the job queued) and is answered at once
with the job's page; a real job worker (the consumer of judgeapp/jobs.py, a subprocess, as `flask jobs worker`)
reads and applies the file in batches. Meanwhile a floor judge of another event saves incidents in a loop through the
incident form (as bench/incidents.py does). Figures: the upload's answer time; the job's total time (upload to done)
and the progress values seen; the saves' max and median latency during the job (goal: max under 1 s), with the same
saves measured first with no import as the baseline (same run, same database file).

Run: .venv/bin/python bench/jobs.py [--rows 130000] (or make bench)
"""

from __future__ import annotations

import argparse
import io
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sqlalchemy import func, select
from werkzeug.datastructures import FileStorage
from werkzeug.test import stream_encode_multipart

from bench.fixtures import CATALOG
from bench.imports import TOKEN_RE, players_file, save_incident, setup, signed_in
from judgeapp import create_app
from judgeapp.extensions import db
from judgeapp.lifecycles import JobState
from judgeapp.models import Job, Player


def config_for(tmp: Path) -> dict:
    return {
        "SECRET_KEY": "bench",
        "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp / 'bench.sqlite3'}",
        "JUDGEAPP_CATALOG": str(CATALOG),
        "RATELIMIT_STORAGE_URI": "memory://",
        "JUDGEAPP_PASSWORD_HASH": "pbkdf2:sha256:1000",
        "JOBS_STORE": str(tmp / "jobs.sqlite3"),
        "JOBS_POLL_SECONDS": 0.2,
    }


def worker_main() -> None:
    """The job worker, on the bench's configuration (JSON in JUDGEAPP_BENCH_CONFIG)."""
    from judgeapp import jobs

    jobs.run_worker(create_app(json.loads(os.environ["JUDGEAPP_BENCH_CONFIG"])), workers=1)


def main() -> None:
    from bench.results import emit

    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=130_000)
    parser.add_argument("--baseline-saves", type=int, default=100)
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        return worker_main()
    with tempfile.TemporaryDirectory() as tmp:
        config = config_for(Path(tmp))
        app = create_app(config)
        with app.app_context():
            db.create_all()
        big, small = setup(app)
        judge, organizer = signed_in(app, "judge@example.test"), signed_in(app, "org@example.test")
        env = {**os.environ, "JUDGEAPP_BENCH_CONFIG": json.dumps(config)}
        worker = subprocess.Popen(  # started first: it is up (and idle) by the time the file is uploaded
            [sys.executable, str(Path(__file__).resolve()), "--worker"],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=open(Path(tmp) / "worker.log", "w"),  # noqa: SIM115
            start_new_session=True,
        )
        try:
            save_incident(judge, small, 0)  # warm: the first page render compiles templates
            baseline = [save_incident(judge, small, n) for n in range(args.baseline_saves)]
            body = players_file(args.rows)
            token = TOKEN_RE.search(organizer.get(f"/events/{big}/players").get_data(as_text=True)).group(1)
            stream, _, boundary = stream_encode_multipart(
                {"csrf_token": token, "file": FileStorage(io.BytesIO(body), "players.csv")}, use_tempfile=False
            )
            start = time.perf_counter()
            answer = organizer.post(
                f"/events/{big}/players/import",
                data=stream.getvalue(),
                content_type=f"multipart/form-data; boundary={boundary}",
            )
            upload_took = time.perf_counter() - start
            assert answer.status_code == 303, answer.get_data(as_text=True)[:2000]
            job_url = answer.headers["Location"]
            during, seen, n = [], set(), 0
            while True:
                during.append(save_incident(judge, small, n))
                n += 1
                status = organizer.get(job_url + ".json").get_json()
                seen.add(status["done"])
                if status["ended"]:
                    break
                assert worker.poll() is None, (Path(tmp) / "worker.log").read_text()
            with app.app_context():
                job = db.session.scalar(select(Job).order_by(Job.id.desc()))
                assert job.state is JobState.DONE, job.error
                total = (job.finished_at - job.created_at).total_seconds()
                running = (job.finished_at - job.started_at).total_seconds()
                imported = db.session.scalar(select(func.count()).select_from(Player).where(Player.event_id == big))
                assert imported == args.rows, imported
                db.session.remove()
                db.engine.dispose()
        finally:
            os.killpg(worker.pid, signal.SIGTERM)
            worker.wait(30)
    mb = len(body) / 1e6
    worst, median = max(during), statistics.median(during)
    base_max, base_median = max(baseline), statistics.median(baseline)
    print(f"upload of {args.rows:,} rows ({mb:.1f} MB) answered with its job in {upload_took * 1e3:.0f} ms")
    print(
        f"job: {total:.1f} s from upload to done ({running:.1f} s running), "
        f"{len(seen)} different progress values seen; {len(during)} saves at another event meanwhile"
    )
    print(f"save latency during the job: max {worst * 1e3:.0f} ms, median {median * 1e3:.0f} ms")
    print(f"same saves, no import:       max {base_max * 1e3:.0f} ms, median {base_median * 1e3:.0f} ms")
    print(f"ratio: max {worst / base_max:.1f}×, median {median / base_median:.1f}×")
    rows = f"{args.rows:,}-row players import job"
    emit("jobs", f"{rows} ({mb:.1f} MB): the upload's answer", upload_took * 1000, "ms")
    emit("jobs", f"{rows}: upload to done", total, "s")
    emit(
        "jobs",
        f"save at another event during a {rows}, max",
        worst * 1000,
        "ms",
        baseline="same saves, no import, max",
        baseline_value=base_max * 1000,
        goal="< 1 s",
        met=worst < 1,
    )
    emit(
        "jobs",
        f"save at another event during a {rows}, median",
        median * 1000,
        "ms",
        baseline="same saves, no import, median",
        baseline_value=base_median * 1000,
    )


if __name__ == "__main__":
    main()
