"""gunicorn settings for judgeapp: `gunicorn -c gunicorn.conf.py wsgi:app` (what `make serve` and the README run).

Every value can be changed from the environment without editing this file:
  JUDGEAPP_BIND      where to listen (default 127.0.0.1:8000: loopback, the HTTPS proxy in front connects to it)
  JUDGEAPP_WORKERS   processes (default: see below, by database)
  JUDGEAPP_THREADS   threads per process (default 4)
  JUDGEAPP_TIMEOUT   seconds a request may take before its worker is restarted (default 120)
  JUDGEAPP_ACCESS_LOG  file for the access log ("-" = standard output, the default; "" = none)
and GUNICORN_CMD_ARGS for any other gunicorn setting.

Workers and threads. judgeapp's requests mostly wait: on the database, on Redis (login limits), on the SMTP server
(an invite is sent inside the request, up to MAIL_TIMEOUT = 10 s). Threads (gunicorn's gthread worker) cover that
waiting cheaply: a waiting request holds a thread, not a process, and a process holds the catalog and the app once.
The CPU-heavy work, a PDF report laid out by WeasyPrint, holds Python's GIL, so only more processes let two reports
be laid out at once: there are at least as many processes as CPU cores.
  - SQLite (the default): one writer at a time whatever we choose; writers queue on `BEGIN IMMEDIATE` with a 15 s
    busy timeout (judgeapp/database.py) and readers never wait (WAL). More processes only add contenders for the one
    write lock, so: one process per core (at least 2, so one slow PDF never stops the floor), 4 threads each.
  - PostgreSQL: writers lock rows, not the file, and run side by side, so gunicorn's own rule of thumb: 2 x cores + 1
    processes, 4 threads each. Each thread holds at most one connection: workers x threads connections in all
    (5 x 4 = 20 on 2 cores), well under PostgreSQL's default max_connections = 100.
The login limits are counted in RATELIMIT_STORAGE_URI: with more than one process it must be Redis (README).

Proxy headers. Which forwarded headers to believe is decided in one place, the app's JUDGEAPP_PROXY_HOPS (werkzeug's
ProxyFix: X-Forwarded-For/-Proto/-Host from that many proxies; 0 = none). gunicorn's own handling is turned off:
by default it would believe X-Forwarded-Proto from any local process even with JUDGEAPP_PROXY_HOPS=0.
"""

from __future__ import annotations

import multiprocessing
import os


def _database_is_sqlite() -> bool:
    url = os.environ.get("DATABASE_URL", "")
    return url == "" or url.startswith("sqlite")


def _default_workers() -> int:
    cores = multiprocessing.cpu_count()
    return max(2, cores) if _database_is_sqlite() else 2 * cores + 1


bind = os.environ.get("JUDGEAPP_BIND", "127.0.0.1:8000").split(",")
workers = int(os.environ.get("JUDGEAPP_WORKERS") or _default_workers())
threads = int(os.environ.get("JUDGEAPP_THREADS") or 4)
worker_class = "gthread"
# A large event report (PDF) takes a few seconds; 120 s leaves room on a slow machine and still ends a stuck request.
timeout = int(os.environ.get("JUDGEAPP_TIMEOUT") or 120)
graceful_timeout = 30  # on restart (SIGHUP, deploy), requests in flight get this long to finish
keepalive = 5  # the HTTPS proxy in front keeps connections to us open between requests
max_requests = 2000  # a worker is replaced now and then, so slow memory growth never accumulates
max_requests_jitter = 200  # ... not all workers at the same moment

accesslog = os.environ.get("JUDGEAPP_ACCESS_LOG", "-") or None
# the client's address as the app sees it after ProxyFix is not known here; the proxy's log has it
access_log_format = '%(h)s %(t)s "%(r)s" %(s)s %(b)s %(M)sms "%(a)s"'
errorlog = "-"
loglevel = os.environ.get("JUDGEAPP_LOG_LEVEL", "info")

# No forwarded header is believed by gunicorn itself; ProxyFix (JUDGEAPP_PROXY_HOPS) is the one place.
forwarded_allow_ips = ""
secure_scheme_headers: dict[str, str] = {}

# gunicorn 27's control socket (gunicornc: change the worker count at run time) is not used; off, so nothing listens
# on a per-user path that two gunicorns of one user would share.
control_socket_disable = True

# The master loads the app once (the catalogs, templates, the engine) and forks each worker from it ready to answer:
# a worker started again after a crash answers at once instead of importing everything again (~2.3 s of CPU, 30-60 s
# of wall on a busy machine). The master never opens the database; each worker drops whatever pooled connection it
# might have inherited and opens its own (post_fork below), so no connection is shared between processes. With the
# app preloaded, `kill -HUP` restarts the workers with the code already loaded: an update needs a restart
# (docs/operators/upgrades.md says `systemctl restart`).
preload_app = True


def post_fork(server, worker):  # gunicorn's hook: in each worker, just after the fork
    from judgeapp.database import forget_inherited_connections
    from judgeapp.extensions import db

    with server.app.wsgi().app_context():
        forget_inherited_connections(db.engines.values())
