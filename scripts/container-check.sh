#!/usr/bin/env bash
# Builds the image of docs/Containerfile, starts it on a fresh volume and waits until the
# container's HEALTHCHECK (GET /health) reports it healthy; then checks the page and
# /metrics' refusal from outside the container, and removes what it made.
# Needs a running Docker (or Podman as `DOCKER=podman`) that can pull the base images.
set -euo pipefail
cd "$(dirname "$0")/.."
docker="${DOCKER:-docker}"
tag="slowfuse-check:$$"
name="slowfuse-check-$$"
volume="slowfuse-check-$$"
cleanup() {
  "$docker" rm -f "$name" >/dev/null 2>&1 || true
  "$docker" volume rm "$volume" >/dev/null 2>&1 || true
  "$docker" rmi "$tag" >/dev/null 2>&1 || true
}
trap cleanup EXIT

"$docker" info >/dev/null
"$docker" build -f docs/Containerfile -t "$tag" .
"$docker" run -d --name "$name" -p 127.0.0.1::8080 -v "$volume:/var/lib/slowfuse" "$tag" >/dev/null
port="$("$docker" port "$name" 8080/tcp | head -1 | sed 's/.*://')"
for _ in $(seq 1 60); do
  state="$("$docker" inspect -f '{{.State.Health.Status}}' "$name")"
  [ "$state" = healthy ] && break
  [ "$state" = unhealthy ] && { "$docker" logs "$name"; echo "unhealthy" >&2; exit 1; }
  sleep 2
done
[ "$state" = healthy ] || { "$docker" logs "$name"; echo "not healthy after 2 minutes" >&2; exit 1; }
curl -fsS "http://127.0.0.1:$port/health"; echo
curl -fsS -o /dev/null "http://127.0.0.1:$port/"
status="$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/metrics")"
[ "$status" = 403 ] || { echo "/metrics from outside the container answered $status, not 403" >&2; exit 1; }
[ "$("$docker" exec "$name" id -u)" != 0 ] || { echo "the server runs as root" >&2; exit 1; }
echo "container healthy, serving, /metrics closed to outsiders, not root"
