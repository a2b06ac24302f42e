# A throwaway PostgreSQL server for the tests that need one, sourced by
# .ci/run (and usable by hand: `source .ci/postgres.sh; tapis_pg_start;
# ...; tapis_pg_stop`).
#
# tapis_pg_start starts the machine's own PostgreSQL (initdb, pg_ctl and
# postgres on PATH) in a new temporary directory, listening on a free TCP
# port of 127.0.0.1 only, trusting loopback connections, fsync on, and
# exports TAPIS_TEST_POSTGRES (the URL of its postgres database, superuser
# postgres) and TAPIS_PG_DIR. As root it runs the server as the `postgres`
# user, which must exist: it creates no user and nothing outside the
# temporary directory. tapis_pg_stop stops the server at once and removes
# the directory; call it from a trap.

# tapis_pg_as runs a command as the server's owner, in the server's
# directory (the caller's may be unreadable to that user).
tapis_pg_as() {
  if [ "$(id -u)" -ne 0 ]; then
    (cd "$TAPIS_PG_DIR" && "$@")
  elif command -v runuser >/dev/null; then
    (cd "$TAPIS_PG_DIR" && runuser -u postgres -- "$@")
  else
    (cd "$TAPIS_PG_DIR" && su postgres -s /bin/sh -c '"$0" "$@"' -- "$@")
  fi
}

# tapis_pg_free_port prints a TCP port of 127.0.0.1 that the kernel just
# handed out as free.
tapis_pg_free_port() {
  python3 -c 'import socket
s = socket.socket()
s.bind(("127.0.0.1", 0))
print(s.getsockname()[1])
s.close()'
}

tapis_pg_start() {
  local tool
  # Debian's server binaries, when the machine has no links to them on PATH.
  if ! command -v initdb >/dev/null && [ -x /usr/lib/postgresql/15/bin/initdb ]; then
    PATH=/usr/lib/postgresql/15/bin:$PATH
  fi
  for tool in initdb pg_ctl postgres python3; do
    if ! command -v "$tool" >/dev/null; then
      echo "postgres: $tool is not on PATH: the PostgreSQL tests need the machine's PostgreSQL 15 (initdb, pg_ctl, postgres)" >&2
      return 1
    fi
  done
  if [ "$(id -u)" -eq 0 ] && ! id -u postgres >/dev/null 2>&1; then
    echo "postgres: running as root and there is no postgres user to run the server as (none is created here)" >&2
    return 1
  fi

  TAPIS_PG_DIR=$(mktemp -d "${TMPDIR:-/tmp}/tapis-pg.XXXXXX")
  export TAPIS_PG_DIR
  if [ "$(id -u)" -eq 0 ]; then
    chown postgres: "$TAPIS_PG_DIR"
  fi
  tapis_pg_as initdb --pgdata="$TAPIS_PG_DIR/data" --username=postgres \
    --auth=trust --encoding=UTF8 --locale=C --no-instructions >"$TAPIS_PG_DIR/initdb.log" 2>&1 || {
    echo "postgres: initdb failed:" >&2
    cat "$TAPIS_PG_DIR/initdb.log" >&2
    return 1
  }

  # The port is free when the kernel hands it out; another process may take
  # it before the server binds it, so a failed start tries another one.
  local port try
  for try in 1 2 3 4 5; do
    port=$(tapis_pg_free_port)
    if tapis_pg_as pg_ctl --pgdata="$TAPIS_PG_DIR/data" --log="$TAPIS_PG_DIR/server.log" \
      --wait --timeout=120 \
      -o "-c listen_addresses=127.0.0.1 -c port=$port -c unix_socket_directories='$TAPIS_PG_DIR' -c fsync=on -c synchronous_commit=on -c max_connections=200" \
      start >/dev/null; then
      export TAPIS_TEST_POSTGRES="postgres://postgres@127.0.0.1:$port/postgres?sslmode=disable"
      echo "postgres: PostgreSQL $(postgres --version | awk '{print $3}') on 127.0.0.1:$port in $TAPIS_PG_DIR"
      return 0
    fi
    echo "postgres: the server did not start on port $port (try $try of 5):" >&2
    tail -n 5 "$TAPIS_PG_DIR/server.log" >&2
  done
  return 1
}

tapis_pg_stop() {
  if [ -z "${TAPIS_PG_DIR:-}" ]; then
    return 0
  fi
  if [ -f "$TAPIS_PG_DIR/data/postmaster.pid" ]; then
    tapis_pg_as pg_ctl --pgdata="$TAPIS_PG_DIR/data" --mode=immediate stop >/dev/null 2>&1 || true
  fi
  rm -rf "$TAPIS_PG_DIR"
  unset TAPIS_PG_DIR TAPIS_TEST_POSTGRES
}
