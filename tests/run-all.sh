#!/usr/bin/env bash
# `npm test`: every check of the project, in order, on this machine.
#   1. type check       react-router typegen && tsc
#   1b. lint            npm run lint: Biome (biome.jsonc) and no import cycle between folders
#   1c. dead code       npm run deadcode: knip (knip.jsonc) and tools/check-locale-keys.ts
#   2. unit/API tests   vitest on the embedded database (in-memory PGlite)
#   3. API tests again  on a private PostgreSQL cluster (tests/pg-cluster.sh), TEST_DATABASE_URL set
#   4. build            npm run build (the production build the browser tests run)
#   4b. scale-out       tests/scale-out: the API alone and two web instances of that build behind
#                       nginx, on a private PostgreSQL cluster (concurrent bookings, shared
#                       sessions, SIGTERM drain)
#   5. browser tests    playwright, Debian's Chromium headless shell (installed by tests/ensure-chromium.sh if missing)
# Every step runs even when an earlier one failed (except the browser tests, which need the build),
# so one run shows everything that is wrong. The last line is the summary `N passed, N failed`:
# the tests of both vitest runs and of playwright, plus one failure for each step that failed
# without tests to count (type check, lint, dead code, build, a runner that crashed, no PostgreSQL binaries).
# Exit status: 0 only if nothing failed.
#
# Environment: ALLOW_NO_POSTGRES=1 skips step 3 (with a warning) when no PostgreSQL server binaries
# exist; SKIP_E2E=1 skips step 5 (for quick local runs; CI never sets it); E2E_PORT, E2E_SMTP_PORT,
# E2E_MAIL_PORT move the browser tests' servers (3100, 2525, 2526) when those ports are taken.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
# Reports go to test-results/ (E2E_RESULTS_DIR moves them, e.g. for two runs in one tree).
results=${E2E_RESULTS_DIR:-$root/test-results}
case "$results" in /*) ;; *) results=$root/$results ;; esac
export E2E_RESULTS_DIR=$results
mkdir -p "$results"

passed=0
failed=0
notes=()
step_failures=()

step=start
say() {
  step=$*
  printf '\n===== %s =====\n' "$*"
}
# Stopped by a signal (a time limit, Ctrl-C): no summary line, since the counts would be partial, but
# a line that says so, and the signal's exit status (the EXIT trap of step 3 still cleans up).
trap 'echo "run-all: stopped by SIGINT during $step" >&2; exit 130' INT
trap 'echo "run-all: stopped by SIGTERM during $step" >&2; exit 143' TERM
fail_step() { failed=$((failed + 1)); step_failures+=("$1"); echo "!! $1" >&2; }
elapsed() { echo "$((SECONDS - $1))s"; }

# --- Node version: the stack needs Node >= 22.22 (npm ci brings Node 24 into node_modules/.bin,
# which npm puts first on PATH; tools/require-node.js says what to do where it cannot) ---------
if ! node tools/require-node.js; then
  echo "0 passed, 1 failed"
  exit 1
fi
if [ ! -d node_modules ]; then
  echo "run-all: node_modules is missing; run npm ci first" >&2
  echo "0 passed, 1 failed"
  exit 1
fi

# Reads a vitest JSON report: adds its counts to passed/failed. A missing report or a failed run
# with no failed test (a file that did not load, an error outside tests) counts as one failure.
count_vitest() { # label report exit-code
  local label=$1 report=$2 rc=$3 counts p f s
  counts=$(node -e '
    const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
    let f = r.numFailedTests;
    if (!r.success && f === 0) f = Math.max(1, r.numFailedTestSuites);
    console.log(r.numPassedTests, f, r.numPendingTests + r.numTodoTests);
  ' "$report" 2>/dev/null) || counts=""
  if [ -z "$counts" ]; then
    fail_step "$label: vitest wrote no report (exit $rc)"
    return
  fi
  read -r p f s <<<"$counts"
  if [ "$rc" != 0 ] && [ "$f" = 0 ]; then f=1; fi
  passed=$((passed + p))
  failed=$((failed + f))
  notes+=("$label: $p passed, $f failed, $s skipped")
  [ "$f" = 0 ] || step_failures+=("$label")
}

# --- 1. type check -----------------------------------------------------------------------------
say "type check"
t=$SECONDS
if [ -f tsconfig.json ]; then
  if npx react-router typegen && npx tsc; then
    notes+=("type check: ok ($(elapsed $t))")
  else
    fail_step "type check failed"
  fi
else
  echo "no tsconfig.json yet: type check skipped"
  notes+=("type check: skipped (no tsconfig.json)")
fi

# --- 1b. lint ----------------------------------------------------------------------------------
say "lint"
t=$SECONDS
if npm run -s lint; then
  notes+=("lint: ok ($(elapsed $t))")
else
  fail_step "lint failed"
fi

# --- 1c. dead code -----------------------------------------------------------------------------
say "dead code"
t=$SECONDS
if npm run -s deadcode; then
  notes+=("dead code: ok ($(elapsed $t))")
else
  fail_step "dead code check failed"
fi

# --- 2. vitest on PGlite -----------------------------------------------------------------------
say "vitest (embedded PGlite)"
t=$SECONDS
rm -f "$results/vitest-pglite.json"
env -u TEST_DATABASE_URL npx vitest run --reporter=default --reporter=json \
  --outputFile.json="$results/vitest-pglite.json"
rc=$? # (taken at once: a $(...) on the next line would reset $?)
count_vitest "vitest/PGlite ($(elapsed $t))" "$results/vitest-pglite.json" "$rc"

# --- 3. API tests on PostgreSQL ----------------------------------------------------------------
say "vitest API tests (PostgreSQL)"
t=$SECONDS
pgdir=$(mktemp -d "${TMPDIR:-/tmp}/pg-test.XXXXXX")
cleanup() {
  bash "$root/tests/pg-cluster.sh" stop "$pgdir" >/dev/null 2>&1 || true
  rm -rf "$pgdir"
}
trap cleanup EXIT
pg_url=$(bash tests/pg-cluster.sh start "$pgdir")
pg_rc=$?
if [ "$pg_rc" = 0 ]; then
  echo "PostgreSQL at $pg_url"
  rm -f "$results/vitest-postgres.json"
  # Only the API tests and the integration tests (tests/integration: the web app and the API
  # together) touch a database, and only the files that open the test database
  # (api/test/harness.ts, TEST_DATABASE_URL) differ on PostgreSQL. The files below never do: they
  # spawn the entry points or open their own PGlite folder, or test pure functions, so the PGlite
  # run above has run them exactly as this one would (the first four were 80 of this run's 138
  # test-file seconds in CI).
  same_on_both=(api/cli.test.ts api/startup.test.ts api/db/lock.test.ts api/mail/transport.test.ts
    api/calendar/ics.test.ts api/db-errors.test.ts api/mail/templates.test.ts api/time.test.ts api/trust-proxy.test.ts
    tests/integration/edge.test.ts tests/integration/startup.test.ts api/sms/texts.test.ts)
  TEST_DATABASE_URL=$pg_url npx vitest run api/ tests/integration/ "${same_on_both[@]/#/--exclude=}" --reporter=default --reporter=json \
    --outputFile.json="$results/vitest-postgres.json"
  rc=$?
  count_vitest "vitest/PostgreSQL ($(elapsed $t))" "$results/vitest-postgres.json" "$rc"
elif [ "$pg_rc" = 3 ] && [ "${ALLOW_NO_POSTGRES:-}" = 1 ]; then
  echo "WARNING: no PostgreSQL server binaries: the API tests did NOT run on PostgreSQL (ALLOW_NO_POSTGRES=1)" >&2
  notes+=("vitest/PostgreSQL: SKIPPED, no PostgreSQL binaries (ALLOW_NO_POSTGRES=1)")
elif [ "$pg_rc" = 3 ]; then
  fail_step "no PostgreSQL server binaries (initdb, pg_ctl): install them (apt-get install postgresql) or set ALLOW_NO_POSTGRES=1"
else
  fail_step "the private PostgreSQL cluster did not start"
fi
cleanup

# --- 4. build ----------------------------------------------------------------------------------
say "build"
t=$SECONDS
built=0
if npm run build; then
  built=1
  notes+=("build: ok ($(elapsed $t))")
else
  fail_step "build failed"
fi

# --- 4b. scale-out: the API alone and two web instances behind nginx, on PostgreSQL ------------
say "scale-out (two web instances behind nginx, PostgreSQL)"
t=$SECONDS
if [ "$built" != 1 ]; then
  fail_step "scale-out not run: the build failed"
elif ! command -v "${NGINX_BIN:-/usr/sbin/nginx}" >/dev/null 2>&1; then
  fail_step "scale-out not run: no nginx (apt-get install nginx, or set NGINX_BIN)"
else
  pgdir=$(mktemp -d "${TMPDIR:-/tmp}/pg-test.XXXXXX")
  if pg_url=$(bash tests/pg-cluster.sh start "$pgdir"); then
    rm -f "$results/vitest-scale-out.json"
    TEST_DATABASE_URL=$pg_url npx vitest run --config tests/scale-out/vitest.config.ts --reporter=default --reporter=json \
      --outputFile.json="$results/vitest-scale-out.json"
    rc=$?
    count_vitest "scale-out ($(elapsed $t))" "$results/vitest-scale-out.json" "$rc"
  else
    fail_step "scale-out not run: the private PostgreSQL cluster did not start"
  fi
  cleanup
fi

# --- 5. browser tests --------------------------------------------------------------------------
say "playwright (browser tests)"
t=$SECONDS
if [ "${SKIP_E2E:-}" = 1 ]; then
  echo "WARNING: SKIP_E2E=1: browser tests skipped" >&2
  notes+=("playwright: SKIPPED (SKIP_E2E=1)")
elif [ "$built" != 1 ]; then
  fail_step "playwright not run: the build failed"
elif ! bash tests/ensure-chromium.sh; then
  fail_step "playwright not run: no Chromium"
else
  rm -f "$results/e2e.json"
  npx playwright test
  rc=$?
  counts=$(node -e '
    const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
    const s = r.stats;
    let f = s.unexpected;
    if (f === 0 && (r.errors ?? []).length > 0) f = 1;
    console.log(s.expected + s.flaky, f, s.skipped, s.flaky);
  ' "$results/e2e.json" 2>/dev/null) || counts=""
  if [ -z "$counts" ]; then
    fail_step "playwright wrote no report (exit $rc)"
  else
    read -r p f s fl <<<"$counts"
    if [ "$rc" != 0 ] && [ "$f" = 0 ]; then f=1; fi
    passed=$((passed + p))
    failed=$((failed + f))
    notes+=("playwright ($(elapsed $t)): $p passed ($fl flaky), $f failed, $s skipped")
    [ "$f" = 0 ] || step_failures+=("playwright")
  fi
fi

# --- summary -----------------------------------------------------------------------------------
say "summary ($((SECONDS))s)"
for n in "${notes[@]}"; do echo "  $n"; done
if [ "${#step_failures[@]}" -gt 0 ]; then
  echo "FAILED:"
  for n in "${step_failures[@]}"; do echo "  - $n"; done
fi
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
