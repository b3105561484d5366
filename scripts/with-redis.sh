#!/usr/bin/env bash
# Run a command against a throw-away local Redis: Debian's redis-server on a free loopback port, no persistence
# (--save '' --appendonly no), its working folder temporary; export TEST_REDIS_URL, run the command, then stop the
# server and delete the folder, whatever the command did.
set -euo pipefail
server=$(command -v redis-server || true)
if [ -z "$server" ]; then echo "redis-server not found (apt-get install redis-server)" >&2; exit 1; fi
dir=$(mktemp -d /tmp/judgeapp-redis.XXXXXX)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
pid=""
cleanup() {
  if [ -n "$pid" ]; then kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; fi
  rm -rf "$dir"
}
trap cleanup EXIT
"$server" --bind 127.0.0.1 --port "$port" --protected-mode yes --save '' --appendonly no --dir "$dir" \
  --daemonize no --logfile "$dir/log" &
pid=$!
ping_py='import socket, sys
with socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=1) as s:
    s.sendall(b"PING\r\n")
    sys.exit(0 if s.recv(16).startswith(b"+PONG") else 1)'
up=""
for _ in $(seq 100); do  # up to 10 s for the server to answer PING
  if python3 -c "$ping_py" "$port" 2>/dev/null; then up=1; break; fi
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.1
done
if [ -z "$up" ]; then echo "redis-server did not start:" >&2; cat "$dir/log" >&2; exit 1; fi
export TEST_REDIS_URL="redis://127.0.0.1:$port/0"
echo "Redis $("$server" --version | sed -n 's/.* v=\([^ ]*\).*/\1/p') on 127.0.0.1:$port (throw-away)"
"$@"
