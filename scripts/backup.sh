#!/usr/bin/env bash
# One backup of the database DATABASE_URL names (default: SQLite in instance/) into DIR (default: backups/), named
# by the UTC time, then delete the copies there older than JUDGEAPP_BACKUP_DAYS days (default 14). Run it from a
# timer (docs/operators/production.md, the recipe); it is safe while judges keep logging.
#   SQLite: `flask backup` (SQLite's online backup API, integrity-checked, renamed into place when complete).
#   PostgreSQL: pg_dump --format=custom (one consistent snapshot), renamed into place when complete.
# Python: JUDGEAPP_PYTHON (default .venv/bin/python).
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-backups}
days=${JUDGEAPP_BACKUP_DAYS:-14}
python=${JUDGEAPP_PYTHON:-.venv/bin/python}
stamp=$(date -u +%Y%m%d-%H%M%S)
mkdir -p "$dir"
case "${DATABASE_URL:-sqlite:}" in
  sqlite:*)
    "$python" -m flask --app wsgi backup "$dir/judgeapp-$stamp.sqlite3" ;;
  postgresql*)
    url="postgresql:${DATABASE_URL#*:}"  # pg_dump takes libpq's URL: without SQLAlchemy's +psycopg
    pg_dump --format=custom --no-owner --file="$dir/.judgeapp-$stamp.dump.partial" "$url"
    mv "$dir/.judgeapp-$stamp.dump.partial" "$dir/judgeapp-$stamp.dump"
    echo "Backed up to $dir/judgeapp-$stamp.dump: $(stat -c %s "$dir/judgeapp-$stamp.dump") bytes" ;;
  *)
    echo "backup.sh: DATABASE_URL is neither SQLite nor PostgreSQL" >&2; exit 2 ;;
esac
find "$dir" -maxdepth 1 -type f \( -name 'judgeapp-*.sqlite3' -o -name 'judgeapp-*.dump' \) -mtime +"$days" \
  -print -delete | sed 's/^/Deleted (older than '"$days"' days): /'
