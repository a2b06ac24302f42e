#!/usr/bin/env bash
# Makes the README's text screenshots of tapis serve: a player's session over
# SSH and the board, as an OpenSSH client in tmux shows them (docs/*.txt).
# A server is started on a free loopback port in a scratch folder, with a
# store of its own; a player with a new key opens Yam's and plays Auto a few
# times; the board is taken over SSH once they have played; then simulated
# players buy 3 000 units of each game and stake, and the room's board is
# taken at 80x24 in French and at 200x50 in English (docs/board-*.txt).
# Needs: go, ssh, ssh-keygen, tmux, python3.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
tmp=$(mktemp -d)
sock="tapis-shots-$$"
cleanup() {
  tmux -L "$sock" kill-server 2>/dev/null || true
  [ -n "${server:-}" ] && kill -TERM "$server" 2>/dev/null && wait "$server" 2>/dev/null || true
  rm -rf "$tmp"
}
trap cleanup EXIT
go build -o "$tmp/tapis" .
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
(cd "$tmp" && exec ./tapis serve --listen "127.0.0.1:$port" --store "$tmp/shots.db" --join-address stand.local:23234 2>"$tmp/serve.log") &
server=$!
ssh-keygen -q -t ed25519 -N '' -f "$tmp/key"
ssh_cmd="ssh -q -t -p $port -i $tmp/key -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR localhost"
for _ in $(seq 50); do grep -q listening "$tmp/serve.log" && break; sleep 0.2; done

# shoot NAME: the pane as text, as docs/NAME.txt (trailing blanks cut).
shoot() {
  tmux -L "$sock" capture-pane -p -t "$1" | sed -e 's/[[:space:]]*$//' > "$root/docs/$1.txt"
}

tmux -L "$sock" new-session -d -s serve-session -x 80 -y 24 "TERM=xterm-256color $ssh_cmd"
sleep 2
tmux -L "$sock" send-keys -t serve-session 1
for _ in 1 2 3 4; do
  sleep 0.5
  tmux -L "$sock" send-keys -t serve-session a
  sleep 3
done
shoot serve-session
if "$tmp/tapis" board --help >/dev/null 2>&1; then
  tmux -L "$sock" new-session -d -s serve-board -x 120 -y 36 "TERM=xterm-256color $ssh_cmd board"
  sleep 3
  shoot serve-board
fi
# The room's board, once simulated players have bought from every block.
for sale in "yams 0.5" "yams 1" "yams 2" "vegas 3"; do
  set -- $sale
  (cd "$tmp" && ./tapis simulate --store "$tmp/shots.db" --account "sim-$1-$2" --game "$1" --stake "$2" --count 3000 >/dev/null)
done
tmux -L "$sock" new-session -d -s board-80x24 -x 80 -y 24 "TERM=xterm-256color LANG=fr_FR.UTF-8 $ssh_cmd -o SetEnv=LANG=fr_FR.UTF-8 board"
tmux -L "$sock" new-session -d -s board-200x50 -x 200 -y 50 "TERM=xterm-256color LANG=en_US.UTF-8 $ssh_cmd -o SetEnv=LANG=en_US.UTF-8 board"
sleep 4
shoot board-80x24
shoot board-200x50
tmux -L "$sock" send-keys -t serve-session q
