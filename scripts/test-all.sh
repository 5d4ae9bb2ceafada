#!/usr/bin/env bash
# Sets up a fresh Debian/Ubuntu machine and runs every check: build, lint, typecheck, tests.
set -euo pipefail
cd "$(dirname "$0")/.."
export TURBO_TELEMETRY_DISABLED=1 NO_UPDATE_NOTIFIER=1
scripts/install-system-packages.sh
npm ci --no-audit --no-fund
rm -rf .test-results
status=0
npx turbo run build lint typecheck test --continue --force --log-order=grouped || status=$?
node scripts/test-summary.mjs || status=$?
exit "$status"
