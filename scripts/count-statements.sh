#!/usr/bin/env bash
# Counts the statements PostgreSQL receives for one game page view, one game JSON read and one
# move, on a server that has seen the game (log_statement = 'all' on a fresh database; Debian's
# PostgreSQL on port 5432, run as root; its log under /var/log/postgresql).
# Usage: scripts/count-statements.sh [BINARY]   (default: target/release/slowfuse)
set -euo pipefail
cd "$(dirname "$0")/.."
bin="${1:-target/release/slowfuse}"
CONFIG_DIR="${CONFIG_DIR:-$PWD/config}"
db="slowfuse_count_$$"
psql() { runuser -u postgres -- psql -qAt -d postgres "$@"; }
psql -c "CREATE DATABASE $db"
dir=$(mktemp -d)
export DATABASE_URL="postgres://postgres@127.0.0.1:5432/$db" SLOWFUSE__SERVER__BIND=127.0.0.1:18099 SLOWFUSE__SERVER__DATA_DIR="$dir" SLOWFUSE__WORKER__ENABLED=false
"$bin" --config-dir "$CONFIG_DIR" serve > "$dir/log" 2>&1 &
pid=$!
for _ in $(seq 1 50); do curl -sf http://127.0.0.1:18099/health >/dev/null && break; sleep 0.2; done
base=http://127.0.0.1:18099/api/v1
tok() {
  curl -s -XPOST $base/accounts -H 'content-type: application/json' -d "{\"username\":\"$1\",\"email\":\"$1@example.com\",\"password\":\"correct horse battery\"}" >/dev/null
  curl -s -XPOST $base/tokens -H 'content-type: application/json' -d "{\"username\":\"$1\",\"password\":\"correct horse battery\"}" | sed 's/.*"token":"\([^"]*\)".*/\1/'
}
a=$(tok alice); b=$(tok bob)
c=$(curl -s -XPOST $base/challenges -H "authorization: Bearer $a" -H 'content-type: application/json' -d '{"variant":"atomic","color":"white","days_per_move":3,"opponent":null}' | sed 's/.*"id":\([0-9]*\).*/\1/')
g=$(curl -s -XPOST $base/challenges/$c/accept -H "authorization: Bearer $b" -H 'content-type: application/json' -d '{}' | sed 's/.*"game_id":\([0-9]*\).*/\1/')
mv() { curl -s -o /dev/null -w "%{http_code} " -XPOST $base/games/$g/moves -H "authorization: Bearer $1" -H 'content-type: application/json' -d "{\"move\":\"$2\",\"ply\":$3}"; }
mv $a Nf3 0; mv $b Nf6 1
curl -s -o /dev/null http://127.0.0.1:18099/games/$g; curl -s -o /dev/null $base/games/$g
sleep 6   # past the pool's idle check
curl -s -o /dev/null http://127.0.0.1:18099/games/$g; curl -s -o /dev/null $base/games/$g
log=$(ls -t /var/log/postgresql/postgresql-*-main.log | head -1)
psql -c "ALTER DATABASE $db SET log_statement = 'all'"
# New connections pick the setting up: the pool's are replaced by a restart of the server.
kill $pid; wait $pid || true
"$bin" --config-dir "$CONFIG_DIR" serve >> "$dir/log" 2>&1 &
pid=$!
for _ in $(seq 1 50); do curl -sf http://127.0.0.1:18099/health >/dev/null && break; sleep 0.2; done
# Warm: one of each, so the counts below are of a server that has seen the game.
curl -s -o /dev/null http://127.0.0.1:18099/games/$g; curl -s -o /dev/null $base/games/$g
mv $a Nc3 2; echo
count() { local before=$1; echo "$2: $(( $(grep -c 'statement: \|execute ' "$log") - before ))"; }
n=$(grep -c 'statement: \|execute ' "$log"); curl -s -o /dev/null http://127.0.0.1:18099/games/$g; sleep 0.3; count $n "page view"
n=$(grep -c 'statement: \|execute ' "$log"); curl -s -o /dev/null $base/games/$g; sleep 0.3; count $n "game JSON"
n=$(grep -c 'statement: \|execute ' "$log"); mv $b Nc6 3; sleep 0.3; count $n "move"
n=$(grep -c 'statement: \|execute ' "$log"); curl -s -o /dev/null http://127.0.0.1:18099/games/$g; sleep 0.3; count $n "page view after the move"
kill $pid; wait $pid || true
psql -c "DROP DATABASE $db WITH (FORCE)"
rm -rf "$dir"
