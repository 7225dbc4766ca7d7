#!/usr/bin/env bash
# A private, throw-away PostgreSQL cluster for the tests, listening on 127.0.0.1 only.
#
#   tests/pg-cluster.sh start DIR   initdb + start in DIR; prints postgres://postgres@127.0.0.1:PORT/postgres
#   tests/pg-cluster.sh stop DIR    stop it (DIR may then be removed)
#
# DIR should be fresh, e.g. from `mktemp -d`. As root, the cluster runs as the `postgres` OS user
# (initdb and postgres refuse root), so DIR is chowned to it and must be reachable by it.
# Server binaries: PG_BIN if set, else pg_ctl/initdb on PATH, else /usr/lib/postgresql/*/bin.
# Exit status 3 means no server binaries were found.
set -euo pipefail
cmd=${1:-}
dir=${2:-}
if [ -z "$cmd" ] || [ -z "$dir" ]; then echo "usage: $0 start|stop DIR" >&2; exit 2; fi

find_bin() {
  local c candidates=()
  [ -n "${PG_BIN:-}" ] && candidates+=("$PG_BIN")
  if command -v pg_ctl >/dev/null 2>&1; then candidates+=("$(dirname "$(readlink -f "$(command -v pg_ctl)")")"); fi
  # Newest version first.
  for c in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -t/ -k4 -rn); do candidates+=("$c"); done
  for c in "${candidates[@]}"; do
    if [ -x "$c/pg_ctl" ] && [ -x "$c/initdb" ] && [ -x "$c/postgres" ]; then echo "$c"; return 0; fi
  done
  return 1
}

bin=$(find_bin) || { echo "pg-cluster: no PostgreSQL server binaries (initdb, pg_ctl, postgres) found; install them (Debian: apt-get install postgresql) or set PG_BIN" >&2; exit 3; }

as_owner() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

case "$cmd" in
  start)
    mkdir -p "$dir"
    dir=$(cd "$dir" && pwd -P)
    if [ -e "$dir/data/PG_VERSION" ]; then echo "pg-cluster: $dir already holds a cluster; use a fresh directory" >&2; exit 1; fi
    if [ "$(id -u)" = 0 ]; then
      id postgres >/dev/null 2>&1 || useradd --system --user-group --no-create-home --shell /usr/sbin/nologin postgres
      chown postgres: "$dir"
      if ! runuser -u postgres -- test -w "$dir"; then
        echo "pg-cluster: the postgres user cannot reach $dir (a parent folder is private); use a directory made by \`mktemp -d\`" >&2
        exit 1
      fi
    fi
    as_owner "$bin/initdb" -D "$dir/data" -U postgres --auth=trust --no-sync -E UTF8 --locale=C >"$dir/initdb.log" 2>&1 \
      || { echo "pg-cluster: initdb failed:" >&2; cat "$dir/initdb.log" >&2; exit 1; }
    # A free port from 54329 up; retry on the rare race where another process takes it first.
    port=${PG_PORT:-54329}
    for attempt in 1 2 3 4 5 6 7 8 9 10; do
      while ! port_free "$port"; do port=$((port + 1)); done
      if as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
        -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" \
        start >/dev/null; then
        echo "$port" >"$dir/port"
        echo "postgres://postgres@127.0.0.1:$port/postgres"
        exit 0
      fi
      if ! grep -q "could not bind\|Address already in use" "$dir/server.log" 2>/dev/null; then break; fi
      port=$((port + 1))
    done
    echo "pg-cluster: the server did not start:" >&2
    cat "$dir/server.log" >&2 2>/dev/null || true
    exit 1
    ;;
  stop)
    if [ -f "$dir/data/postmaster.pid" ]; then
      as_owner "$bin/pg_ctl" -D "$dir/data" -m immediate -w -t 30 stop >/dev/null 2>&1 || true
    fi
    ;;
  *) echo "usage: $0 start|stop DIR" >&2; exit 2 ;;
esac
