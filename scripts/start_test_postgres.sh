#!/usr/bin/env bash
# Start a throwaway PostgreSQL cluster for the gradebook tests and print its URL on stdout.
#
#   export TEST_DATABASE_URL="$(scripts/start_test_postgres.sh)"
#   scripts/start_test_postgres.sh --stop      # stop it again (the data stays until /tmp is wiped)
#
# Idempotent: a second call finds the running cluster and prints the same URL. Installs
# Debian's postgresql with apt when no server binaries are present (needs root). The server
# listens on 127.0.0.1 only, on a free port, with trust authentication: for tests, never for
# real data. Everything but the URL goes to stderr.
set -euo pipefail

PGROOT="${LAB_TEST_PG_DIR:-/tmp/lab-test-postgres}"
DB="lab_test"
log() { echo "start_test_postgres: $*" >&2; }

find_bin() {
    local d
    d="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)"
    if [[ -n "$d" && -x "$d/initdb" ]]; then echo "$d"; fi
}

BIN="$(find_bin)"
if [[ -z "$BIN" ]]; then
    if [[ "$(id -u)" != 0 ]]; then
        log "no PostgreSQL server found and not root: install it with 'apt-get install -y postgresql'"
        exit 1
    fi
    log "installing PostgreSQL with apt-get (Debian 12 ships version 15)"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >&2
    apt-get install -y -qq postgresql >&2
    BIN="$(find_bin)"
    [[ -n "$BIN" ]] || { log "apt-get installed postgresql but no initdb was found"; exit 1; }
fi

# initdb and postgres refuse to run as root: run them as the 'postgres' system user then.
as_owner() {
    if [[ "$(id -u)" == 0 ]]; then runuser -u postgres -- "$@"; else "$@"; fi
}

DATA="$PGROOT/data"
PORTFILE="$PGROOT/port"

if [[ "${1:-}" == "--stop" ]]; then
    if [[ -f "$DATA/PG_VERSION" ]] && as_owner "$BIN/pg_ctl" -D "$DATA" status >/dev/null 2>&1; then
        as_owner "$BIN/pg_ctl" -D "$DATA" -m fast -w stop >&2
    else
        log "not running"
    fi
    exit 0
fi

mkdir -p "$PGROOT"
if [[ "$(id -u)" == 0 ]]; then chown postgres: "$PGROOT"; fi
chmod 700 "$PGROOT"

if [[ ! -f "$DATA/PG_VERSION" ]]; then
    log "creating a cluster in $DATA"
    as_owner "$BIN/initdb" -D "$DATA" -U postgres -A trust -E UTF8 --locale=C.UTF-8 >"$PGROOT/initdb.log" 2>&1 \
        || { cat "$PGROOT/initdb.log" >&2; exit 1; }
fi

if ! as_owner "$BIN/pg_ctl" -D "$DATA" status >/dev/null 2>&1; then
    # Reuse the previous port when it is still free, so the URL stays stable across restarts.
    PORT="$(cat "$PORTFILE" 2>/dev/null || true)"
    PORT="$(python3 - "$PORT" <<'PY'
import socket, sys
want = int(sys.argv[1]) if sys.argv[1].isdigit() else 0
for port in (want, 0):
    s = socket.socket()
    # As the server itself does: a port left in TIME_WAIT by the last run is free to reuse.
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        s.bind(("127.0.0.1", port))
    except OSError:
        continue
    print(s.getsockname()[1])
    break
PY
)"
    echo "$PORT" >"$PORTFILE"
    log "starting PostgreSQL on 127.0.0.1:$PORT"
    as_owner "$BIN/pg_ctl" -D "$DATA" -l "$PGROOT/server.log" -w -t 60 \
        -o "-c listen_addresses=127.0.0.1 -c port=$PORT -c unix_socket_directories=$PGROOT -c max_connections=60 -c shared_buffers=32MB" \
        start >&2 || { tail -n 20 "$PGROOT/server.log" >&2; exit 1; }
fi

PORT="$(cat "$PORTFILE")"
if ! as_owner "$BIN/psql" -h 127.0.0.1 -p "$PORT" -U postgres -d postgres -tAc \
        "SELECT 1 FROM pg_database WHERE datname = '$DB'" | grep -q 1; then
    as_owner "$BIN/createdb" -h 127.0.0.1 -p "$PORT" -U postgres "$DB"
fi
echo "postgresql://postgres@127.0.0.1:$PORT/$DB"
