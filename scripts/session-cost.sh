#!/usr/bin/env bash
# What a logged-in visitor costs: the same pages read by a visitor without a session and by a
# spectator logged in through the form (a session cookie, whose login generation is checked
# against the account at every request), under wrk, three rounds each (docs/benchmarks.md,
# "A logged-in visitor").
# Usage: scripts/session-cost.sh sqlite|postgres [BINARY]   (default: target/release/slowfuse)
# PostgreSQL: SLOWFUSE_BENCH_POSTGRES names a server whose role may create databases.
set -euo pipefail
cd "$(dirname "$0")/.."
backend="${1:?sqlite or postgres}"
bin="${2:-target/release/slowfuse}"
dir=$(mktemp -d)
port=18180
if [ "$backend" = postgres ]; then
  server="${SLOWFUSE_BENCH_POSTGRES:?a PostgreSQL server URL}"
  db="slowfuse_session_$$"
  psql -q "$server" -c "CREATE DATABASE $db"
  url="${server%/*}/$db"
else
  url="sqlite://$dir/slowfuse.db"
fi
DATABASE_URL="$url" SLOWFUSE__SERVER__BIND=127.0.0.1:$port SLOWFUSE__SERVER__DATA_DIR="$dir" \
  SLOWFUSE__SERVER__PUBLIC_URL=http://127.0.0.1:$port SLOWFUSE__WORKER__ENABLED=false \
  "$bin" --config-dir config serve > "$dir/log" 2>&1 &
pid=$!
finish() {
  kill "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  if [ "$backend" = postgres ]; then psql -q "$server" -c "DROP DATABASE $db WITH (FORCE)"; fi
  rm -rf "$dir"
}
trap finish EXIT
base=http://127.0.0.1:$port
for _ in $(seq 1 50); do curl -sf $base/health >/dev/null && break; sleep 0.2; done
json() { python3 -c "import json,sys; print(json.load(sys.stdin)[\"$1\"])"; }
password="correct horse battery staple"
tok() {
  curl -sf -H 'content-type: application/json' $base/api/v1/accounts \
    -d "{\"username\":\"$1\",\"email\":\"$1@example.com\",\"password\":\"$password\"}" >/dev/null
  curl -sf -H 'content-type: application/json' $base/api/v1/tokens \
    -d "{\"username\":\"$1\",\"password\":\"$password\",\"label\":\"bench\"}" | json token
}
white=$(tok white1)
black=$(tok black1)
tok watcher1 >/dev/null
challenge=$(curl -sf -H "authorization: Bearer $white" -H 'content-type: application/json' \
  -d '{"variant":"atomic","color":"white","days_per_move":3}' $base/api/v1/challenges | json id)
game=$(curl -sf -H "authorization: Bearer $black" -H 'content-type: application/json' \
  -d '{}' "$base/api/v1/challenges/$challenge/accept" | json game_id)
ply=0
for m in e4 e5 Nf3 Nc6 Bc4 Bc5 d3 d6 c3 Nf6 O-O O-O h3 h6 Re1 Re8 Nbd2 a6 a4 Ba7; do
  if [ $((ply % 2)) = 0 ]; then t=$white; else t=$black; fi
  curl -sf -o /dev/null -H "authorization: Bearer $t" -H 'content-type: application/json' \
    -d "{\"move\":\"$m\",\"ply\":$ply}" "$base/api/v1/games/$game/moves"
  ply=$((ply + 1))
done
# The spectator logs in through the form, as a browser does.
jar="$dir/jar"
curl -sf -c "$jar" -b "$jar" $base/login -o "$dir/login.html"
csrf=$(grep -o 'name="csrf_token" value="[^"]*"' "$dir/login.html" | head -1 | sed 's/.*value="//;s/"$//')
curl -sf -c "$jar" -b "$jar" -o /dev/null \
  --data-urlencode "csrf_token=$csrf" --data-urlencode "username=watcher1" \
  --data-urlencode "password=$password" $base/login
cookie=$(awk 'NF == 7 { sub(/^#HttpOnly_/, "", $1); if ($1 !~ /^#/) printf "%s=%s; ", $6, $7 }' "$jar")
curl -sf -H "cookie: $cookie" "$base/games/$game" | grep -q watcher1 || {
  echo "the spectator is not logged in" >&2
  exit 1
}
echo "| $backend | page | who | requests/s | p99 |"
echo "|---|---|---|---:|---:|"
for path in "/games/$game" "/games/$game.fen" /help/game; do
  for round in 1 2 3; do
    for who in visitor spectator; do
      if [ $who = spectator ]; then header="cookie: $cookie"; else header="accept: text/html"; fi
      wrk -t2 -c16 -d5s -H "$header" --latency "$base$path" |
        awk -v p="$path" -v w="$who" -v r="$round" \
          '/Requests\/sec/ {rate=$2} / 99%/ {p99=$2} END {printf "| round %s | %s | %s | %s | %s |\n", r, p, w, rate, p99}'
    done
  done
done
