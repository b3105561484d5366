#!/usr/bin/env bash
# Run a command against a throw-away local PostgreSQL cluster: initdb in a temporary folder,
# start it on a free loopback port, export TEST_DATABASE_URL, run the command, then stop and delete it.
set -euo pipefail
bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
if [ -z "$bindir" ]; then echo "PostgreSQL server binaries not found (apt-get install postgresql)" >&2; exit 1; fi
dir=$(mktemp -d /tmp/judgeapp-pg.XXXXXX)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
as_pg=()
if [ "$(id -u)" -eq 0 ]; then chown postgres "$dir"; as_pg=(runuser -u postgres --); fi  # initdb refuses root
cleanup() { "${as_pg[@]}" "$bindir/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true; rm -rf "$dir"; }
trap cleanup EXIT
"${as_pg[@]}" "$bindir/initdb" -D "$dir/data" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 >/dev/null
"${as_pg[@]}" "$bindir/pg_ctl" -D "$dir/data" -l "$dir/log" -w \
  -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c fsync=off -c synchronous_commit=off -c full_page_writes=off" start >/dev/null
"$bindir/createdb" -h 127.0.0.1 -p "$port" -U postgres judgeapp_test 2>/dev/null || \
  "${as_pg[@]}" "$bindir/createdb" -h 127.0.0.1 -p "$port" -U postgres judgeapp_test
export TEST_DATABASE_URL="postgresql+psycopg://postgres@127.0.0.1:$port/judgeapp_test"
echo "PostgreSQL $("$bindir/postgres" --version | awk '{print $3}') on 127.0.0.1:$port (throw-away)"
"$@"
