#!/usr/bin/env bash
# Runs the MCP Inspector CLI (@modelcontextprotocol/inspector@2.12.0 --cli) against engram-relay
# with the built app paired in headless Chromium, over stdio and over Streamable HTTP.
# The same checks run in test/e2e/relay.test.ts; this is the by-hand version.
#
#   npx vite build && bash scripts/inspector-check.sh
#
# Needs dist/ (vite build) and Chromium ($CHROMIUM_PATH or /usr/bin/chromium); APP_PORT and
# RELAY_PORT choose the ports (default: free ones). Exits non-zero on the first failed check.
# Everything it starts is stopped by its own pid on exit.
set -euo pipefail
cd "$(dirname "$0")/.."

CHROMIUM="${CHROMIUM_PATH:-/usr/bin/chromium}"
INSPECTOR=(npx -y @modelcontextprotocol/inspector@2.12.0 --cli)
[ -f dist/index.html ] || { echo "dist/ is missing: run npx vite build first" >&2; exit 1; }
[ -x "$CHROMIUM" ] || { echo "no Chromium at $CHROMIUM: apt-get install -y chromium (or set CHROMIUM_PATH)" >&2; exit 1; }

free_port() { node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"; }
APP_PORT=${APP_PORT:-$(free_port)}
RELAY_PORT=${RELAY_PORT:-$(free_port)}
TOKEN=$(node -e "console.log(require('crypto').randomBytes(18).toString('hex'))")
WORK=$(mktemp -d)
PIDS=()
cleanup() {
	for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
	rm -rf "$WORK"
}
trap cleanup EXIT

echo "== app on http://127.0.0.1:$APP_PORT, relay on 127.0.0.1:$RELAY_PORT"
node node_modules/vite/bin/vite.js preview --host 127.0.0.1 --port "$APP_PORT" --strictPort >"$WORK/preview.log" 2>&1 &
PIDS+=($!)
ENGRAM_RELAY_HOME="$WORK" node bin/engram-relay.mjs --port "$RELAY_PORT" --token "$TOKEN" --http-only \
	--app-url "http://127.0.0.1:$APP_PORT" </dev/null 2>"$WORK/relay.log" &
PIDS+=($!)
until grep -q 'listening' "$WORK/relay.log" 2>/dev/null; do sleep 0.2; done
until curl -sf -o /dev/null "http://127.0.0.1:$APP_PORT/"; do sleep 0.2; done

LINK="http://127.0.0.1:$APP_PORT/#relay=ws://127.0.0.1:$RELAY_PORT&token=$TOKEN"
# The app asks before it pairs ("Pair with a desktop relay?"): this opens the link and clicks Pair.
CHROMIUM_PATH="$CHROMIUM" node node_modules/tsx/dist/cli.mjs scripts/open-pairing-link.ts "$LINK" >"$WORK/chromium.log" 2>&1 &
PIDS+=($!)
for _ in $(seq 1 300); do grep -q 'Engram tab paired' "$WORK/relay.log" && break; sleep 0.2; done
grep -q 'Engram tab paired' "$WORK/relay.log" || { echo "the tab did not pair:" >&2; cat "$WORK/relay.log" >&2; exit 1; }
echo "== tab paired"

STDIO=(-e "ENGRAM_RELAY_HOME=$WORK" node bin/engram-relay.mjs --port "$RELAY_PORT" --token "$TOKEN")

echo "== stdio: tools/list (a second relay joins the running one)"
"${INSPECTOR[@]}" "${STDIO[@]}" --method tools/list | node -e "
let s='';process.stdin.on('data',d=>s+=d).on('end',()=>{const t=JSON.parse(s).tools.map(t=>t.name);console.log(t.length+' tools: '+t.join(', '));if(!t.includes('recall_memory'))process.exit(1)})"

echo "== stdio: tools/call store_memory, then recall_memory"
"${INSPECTOR[@]}" "${STDIO[@]}" --method tools/call --tool-name store_memory \
	--tool-args-json '{"content":"The inspector check stored this memory.","tags":["inspector"]}' --format json -q >/dev/null
"${INSPECTOR[@]}" "${STDIO[@]}" --method tools/call --tool-name recall_memory \
	--tool-args-json '{"query":"inspector check"}' --format json -q | grep -q 'The inspector check stored this memory.'
echo "   recalled it"

echo "== Streamable HTTP: tools/list with the automem profile"
"${INSPECTOR[@]}" "http://127.0.0.1:$RELAY_PORT/mcp?profile=automem" --transport http --header "Authorization: Bearer $TOKEN" \
	--method tools/list | grep -q '"check_database_health"'
echo "   automem tools listed"

echo "== Streamable HTTP without the token is refused"
if "${INSPECTOR[@]}" "http://127.0.0.1:$RELAY_PORT/mcp" --transport http --method tools/list >/dev/null 2>&1; then
	echo "   FAILED: an unauthenticated client was served" >&2
	exit 1
fi
echo "   refused"
echo "== all inspector checks passed"
