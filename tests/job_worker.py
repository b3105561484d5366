"""The job worker the tests run (tests/conftest.py `Worker`): the test's app configuration, then the same consumer
`flask jobs worker` runs (`jobs.run_worker`). `main` is what both ways of starting it run:

- forked from the test's own process (`Worker`'s default): judgeapp, WeasyPrint and the task modules are already
  imported there, so the worker starts in ~0.1 s of CPU instead of the ~7 s a fresh interpreter spends importing them;
- a fresh interpreter, `python -m tests.job_worker` with the configuration as JSON in JUDGEAPP_WORKER_CONFIG
  (`Worker(app, fresh=True)`): nothing inherited from the test's process."""

from __future__ import annotations

import json
import os
from typing import Any

from judgeapp import create_app, jobs


def main(config: dict[str, Any], count: int) -> None:
    """A new app made from `config` (as a server's worker makes it from the same settings), then the consumer, until
    SIGTERM/SIGINT."""
    app = create_app(config)
    jobs.run_worker(app, workers=count)


if __name__ == "__main__":
    main(json.loads(os.environ["JUDGEAPP_WORKER_CONFIG"]), int(os.environ.get("JUDGEAPP_WORKER_COUNT") or 1))
