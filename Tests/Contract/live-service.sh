# Sourced by the contract runners: starts $BIN (the debug binary) on a free loopback port with a throw-away
# database, the contract and fresh credentials, and waits for /healthz. Sets WORK, BASE, API_KEY, ADMIN_TOKEN and
# SERVER; stops the service and removes WORK on exit. $NAME prefixes the messages.
WORK=$(mktemp -d)
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')
API_KEY="bgemu_${NAME//-/_}_$(date +%s)_$$"
ADMIN_TOKEN="admin_${NAME//-/_}_$(date +%s)_$$"
BASE="http://127.0.0.1:$PORT"
# Forecasts of at most 2,000 device-days (a few seconds of the debug binary): a generated forecast body cannot keep
# CI's two cores busy for the rest of the run.
FORECAST_MAX_DEVICE_DAYS=2000

BGEMU_API_KEY="$API_KEY" "$BIN" serve --host 127.0.0.1 --port "$PORT" --database "$WORK/bgemu.sqlite" \
    --admin-token "$ADMIN_TOKEN" --openapi openapi.yaml --log-level warning \
    --forecast-max-device-days "$FORECAST_MAX_DEVICE_DAYS" >"$WORK/server.log" 2>&1 &
SERVER=$!
cleanup() {
    kill "$SERVER" 2>/dev/null || true
    wait "$SERVER" 2>/dev/null || true
    rm -rf "$WORK"
}
trap cleanup EXIT

for _ in $(seq 1 300); do   # up to 30 s
    curl -fsS "$BASE/healthz" >/dev/null 2>&1 && break
    kill -0 "$SERVER" 2>/dev/null || { cat "$WORK/server.log" >&2; echo "$NAME: the service exited" >&2; exit 1; }
    sleep 0.1
done
curl -fsS "$BASE/healthz" >/dev/null || { cat "$WORK/server.log" >&2; echo "$NAME: /healthz never answered" >&2; exit 1; }
