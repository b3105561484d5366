"""The job worker the tests start as a subprocess (tests/conftest.py `job_worker`): the test's app configuration
(JSON in JUDGEAPP_WORKER_CONFIG), then the same consumer `flask jobs worker` runs."""

from __future__ import annotations

import json
import os

from judgeapp import create_app, jobs

if __name__ == "__main__":
    app = create_app(json.loads(os.environ["JUDGEAPP_WORKER_CONFIG"]))
    jobs.run_worker(app, workers=int(os.environ.get("JUDGEAPP_WORKER_COUNT") or 1))
