#!/usr/bin/env bash
# Attacks tapis serve as issue 19 describes, each attack on a fresh server
# in a scratch folder (its own store and host key, --idle-timeout 10s, the
# other limits at their defaults), and prints, per attack, what the
# server's memory did and how long a player took to get in during it and
# after it (internal/cmd/sshattack, with OpenSSH's ssh as a second player).
# Everything runs on loopback: the attacker from 127.0.0.2, the players
# from 127.0.0.1.
#
#   docs/attacks.sh [-b TAPIS] [ATTACK ...]    # every attack when none is named
#
# -b runs another build of tapis serve (an older one, to compare), whose
# flags must be those of the server it runs: only --listen, --store,
# --host-key and --idle-timeout are given. SSHATTACK_FLAGS adds flags to
# sshattack's (SSHATTACK_FLAGS="-hold 45s": attacks that hold what they
# opened past the server's grace and stall bounds). Needs: go, ssh, python3.
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
server=
cleanup() {
  [ -n "$server" ] && kill -KILL "$server" 2>/dev/null || true
  rm -rf "$tmp"
}
trap cleanup EXIT
bin=
if [ "${1:-}" = -b ]; then
  bin=$2
  shift 2
else
  go build -o "$tmp/tapis" .
  bin=$tmp/tapis
fi
go build -o "$tmp/sshattack" ./internal/cmd/sshattack
attacks=("$@")
if [ ${#attacks[@]} -eq 0 ]; then
  attacks=(pty paste input env logins boards channels halfopen windows globals churn stalled)
fi
status=0
for attack in "${attacks[@]}"; do
  dir=$tmp/$attack
  mkdir -p "$dir"
  port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  (cd "$dir" && exec "$bin" serve --listen "127.0.0.1:$port" --store "$dir/tapis.db" \
    --host-key "$dir/host_ed25519" --idle-timeout 10s 2>"$dir/serve.log") &
  server=$!
  for _ in $(seq 100); do grep -q listening "$dir/serve.log" && break; sleep 0.1; done
  "$tmp/sshattack" -addr "127.0.0.1:$port" -pid "$server" -attack "$attack" -ssh ${SSHATTACK_FLAGS:-} || status=1
  if ! kill -0 "$server" 2>/dev/null; then
    echo "$attack: the server died:"
    tail -n 5 "$dir/serve.log"
    status=1
  fi
  kill -KILL "$server" 2>/dev/null || true
  wait "$server" 2>/dev/null || true
  server=
done
exit $status
