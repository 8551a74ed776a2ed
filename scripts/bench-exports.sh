#!/usr/bin/env bash
# PGN import and export speed and memory, beside the bare tools in the same run: the rules
# alone replaying the same file (`slowfuse replay`: pgn-reader and shakmaty, no database) and
# pgn-extract reading it. Usage: scripts/bench-exports.sh [COPIES] (default 10: 4,460 crazyhouse
# games and 160 standard ones, each copy with its own Round). Set SLOWFUSE_BENCH_POSTGRES to a
# server URL (a role that may create databases) to measure PostgreSQL too. Needs a release
# build (`cargo build --release`; CARGO_TARGET_DIR is honoured) and GNU time.
set -euo pipefail
cd "$(dirname "$0")/.."
copies="${1:-10}"
bin="${CARGO_TARGET_DIR:-target}/release/slowfuse"
[ -x "$bin" ] || { echo "build first: cargo build --release" >&2; exit 1; }
corpus=../shared/corpus/pgn
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

python3 - "$copies" "$corpus" "$work/games.pgn" <<'PY'
import re, sys
copies, corpus, out = int(sys.argv[1]), sys.argv[2], sys.argv[3]
sources = [(corpus + "/crazyhouse/crazyhouse-fics-2200plus.pgn", copies),
           (corpus + "/standard/lichess-db-sample.pgn", copies * 10)]
with open(out, "w") as w:
    for path, n in sources:
        games = [g for g in re.split(r"\n\s*\n(?=\[)", open(path).read().strip()) if g.strip()]
        for c in range(n):
            for g in games:
                g = re.sub(r'^\[Round "[^"]*"\]\n', "", g, flags=re.M)
                w.write(f'[Round "copy {c + 1}"]\n' + g.strip() + "\n\n")
PY
games=$(grep -c '^\[Event ' "$work/games.pgn")
kib=$(( $(stat -c %s "$work/games.pgn") / 1024 ))
echo "# PGN import and export: $games games, $kib KiB, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u '+%Y-%m-%d %H:%M UTC'), $(git rev-parse --short HEAD)"
echo
echo "| what | database | games | seconds | games/s | CPU s | max RSS MiB |"
echo "|---|---|---:|---:|---:|---:|---:|"

# One row: LABEL DB COMMAND… (stdout of the command discarded).
row() {
  local label="$1" db="$2"; shift 2
  local t0 t1 secs
  t0=$(date +%s.%N)
  /usr/bin/time -f '%U %S %M' -o "$work/time" "$@" > /dev/null 2> "$work/err" || { cat "$work/err" >&2; exit 1; }
  t1=$(date +%s.%N)
  read -r user sys rss < "$work/time"
  secs=$(echo "$t1 - $t0" | bc -l)
  # An export counts the games it wrote on stderr; the rest read the whole file.
  local n
  n=$(sed -n 's/^\([0-9]*\) games exported$/\1/p' "$work/err")
  n="${n:-$games}"
  printf '| %s | %s | %d | %.2f | %.0f | %.2f | %.0f |\n' "$label" "$db" "$n" "$secs" \
    "$(echo "$n / $secs" | bc -l)" "$(echo "$user + $sys" | bc -l)" "$(echo "$rss / 1024" | bc -l)"
}

pgn_extract=$(command -v pgn-extract || echo /usr/games/pgn-extract)
row "bare: pgn-extract reads the file" - "$pgn_extract" -s -r "$work/games.pgn"
row "bare: the rules replay the file (slowfuse replay)" - "$bin" replay "$work/games.pgn"

databases=("sqlite://$work/bench.db")
if [ -n "${SLOWFUSE_BENCH_POSTGRES:-}" ]; then
  pgdb="slowfuse_bench_exports_$$"
  psql "$SLOWFUSE_BENCH_POSTGRES" -qc "CREATE DATABASE $pgdb"
  trap 'psql "$SLOWFUSE_BENCH_POSTGRES" -qc "DROP DATABASE IF EXISTS $pgdb" >/dev/null 2>&1; rm -rf "$work"' EXIT
  databases+=("${SLOWFUSE_BENCH_POSTGRES%/*}/$pgdb")
fi
for url in "${databases[@]}"; do
  name=SQLite; [[ "$url" == postgres* ]] && name=PostgreSQL
  export DATABASE_URL="$url" SLOWFUSE__SERVER__DATA_DIR="$work" RUST_LOG=off
  "$bin" migrate > /dev/null
  row "slowfuse import" "$name" "$bin" import "$work/games.pgn"
  row "slowfuse import again (every game a duplicate)" "$name" "$bin" import "$work/games.pgn"
  row "slowfuse export (every game)" "$name" "$bin" export
  row "slowfuse export --variant crazyhouse" "$name" "$bin" export --variant crazyhouse
done
