#!/usr/bin/env bash
# The production shape, locally (`make serve`): the database brought to the latest schema, then gunicorn with
# gunicorn.conf.py (gthread workers, access log, no forwarded header believed but through JUDGEAPP_PROXY_HOPS).
#   Database: DATABASE_URL, else SQLite in instance/judgeapp.sqlite3 (WAL mode, set by the app on every connection).
#   Login limits: RATELIMIT_STORAGE_URI, else REDIS_URL, else a throw-away local redis-server started here
#   (scripts/with-redis.sh): several workers must count together, so memory:// is never used with more than one.
#   Python: JUDGEAPP_PYTHON (default .venv/bin/python); any gunicorn.conf.py variable (JUDGEAPP_BIND, _WORKERS...).
#   Jobs (imports, renders, mail): `flask jobs worker` runs beside gunicorn and stops with it; its queue is Redis when
#   REDIS_URL is set, else instance/jobs.sqlite3 (JUDGEAPP_JOBS_STORE); JUDGEAPP_JOBS_WORKERS, _TIME_LIMIT, _MEMORY_MB.
set -euo pipefail
cd "$(dirname "$0")/.."
python=${JUDGEAPP_PYTHON:-.venv/bin/python}
if [ -z "${RATELIMIT_STORAGE_URI:-}" ]; then
  if [ -n "${REDIS_URL:-}" ]; then
    export RATELIMIT_STORAGE_URI=$REDIS_URL
  elif [ -n "${TEST_REDIS_URL:-}" ]; then  # we are running under scripts/with-redis.sh (below)
    export RATELIMIT_STORAGE_URI=$TEST_REDIS_URL
  else
    echo "No RATELIMIT_STORAGE_URI or REDIS_URL: starting a throw-away redis-server for the login limits"
    exec scripts/with-redis.sh "$0" "$@"
  fi
fi
"$python" -m flask --app wsgi init-db
echo "Login limits counted in ${RATELIMIT_STORAGE_URI%%@*}; gunicorn with gunicorn.conf.py; the job worker beside it"
"$python" -m flask --app wsgi jobs worker &
worker=$!
"$python" -m gunicorn -c gunicorn.conf.py "$@" wsgi:app &
server=$!
stop() { kill -TERM "$server" "$worker" 2>/dev/null || true; }
trap stop INT TERM
# whichever ends first (gunicorn stopped, or the worker died) stops the other: never a server without its worker
wait -n "$server" "$worker" || true
status=$?
stop
wait "$server" "$worker" 2>/dev/null || true
exit "$status"
