#!/usr/bin/env bash
# Checks that src/schema.rs is what `diesel print-schema` writes for a PostgreSQL database
# migrated with migrations/postgres, and shows the difference when it is not; with --write it
# rewrites src/schema.rs instead. The database is a throwaway one, dropped at the end.
#
#   SLOWFUSE_TEST_POSTGRES=postgres://user@host:5432/postgres scripts/check-schema.sh [--write]
#
# Needs psql, diesel_cli with PostgreSQL support
# (`cargo install --locked diesel_cli --no-default-features --features postgres`) and a role
# that may create databases. The SQLite migrations are compared with src/schema.rs by
# tests/app/schema.rs, part of `cargo test`.
set -euo pipefail
cd "$(dirname "$0")/.."

write=false
case "${1:-}" in
  --write) write=true ;;
  "") ;;
  *) echo "usage: $0 [--write]" >&2; exit 2 ;;
esac

server="${SLOWFUSE_TEST_POSTGRES:-}"
if [ -z "$server" ]; then
  echo "set SLOWFUSE_TEST_POSTGRES to a PostgreSQL server URL (a role that may create databases)" >&2
  exit 2
fi
for tool in diesel psql; do
  if ! command -v "$tool" >/dev/null; then
    echo "$tool not found (diesel: cargo install --locked diesel_cli --no-default-features --features postgres)" >&2
    exit 2
  fi
done

# The server URL with the last path segment (the database name) replaced, query kept.
name="slowfuse_schema_$$_$(date +%s)"
base="${server%%\?*}"
query="${server#"$base"}"
url="${base%/*}/$name$query"

work="$(mktemp -d)"
cleanup() {
  psql "$server" -q -c "DROP DATABASE IF EXISTS $name" >/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

psql "$server" -q -v ON_ERROR_STOP=1 -c "CREATE DATABASE $name" >/dev/null
# An empty configuration: with diesel.toml, `migration run` would itself rewrite src/schema.rs.
: >"$work/diesel.toml"
diesel migration run --database-url "$url" --migration-dir migrations/postgres \
  --config-file "$work/diesel.toml" >/dev/null
# diesel.toml's [print_schema] settings apply; the schema goes to standard output.
diesel print-schema --database-url "$url" --config-file diesel.toml >"$work/schema.rs"

if $write; then
  cp "$work/schema.rs" src/schema.rs
  echo "src/schema.rs written from migrations/postgres"
elif diff -u --label src/schema.rs --label "diesel print-schema" src/schema.rs "$work/schema.rs"; then
  echo "src/schema.rs matches migrations/postgres"
else
  echo "src/schema.rs differs from what diesel prints for migrations/postgres (above)." >&2
  echo "Run scripts/check-schema.sh --write to regenerate it." >&2
  exit 1
fi
