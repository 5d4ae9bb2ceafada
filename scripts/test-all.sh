#!/usr/bin/env bash
# Sets up a fresh Debian/Ubuntu machine and runs every check: build, lint, typecheck, tests.
set -euo pipefail
cd "$(dirname "$0")/.."
export TURBO_TELEMETRY_DISABLED=1 NO_UPDATE_NOTIFIER=1
scripts/install-system-packages.sh
npm ci --no-audit --no-fund
# The large catalog's servers that declare Node >= 22 (they run on 20): kept out of the root install,
# which scripts/run.sh shares, so that setting Blitz up prints no EBADENGINE warning.
npm ci --prefix test/fixtures/large-catalog/node22-servers --no-audit --no-fund --loglevel=error
# The MCP conformance runner 0.2.0-alpha (2026-07-28 requirements) and the Node 22 it needs for itself.
npm ci --prefix test/fixtures/node22-conformance --no-audit --no-fund --loglevel=error
rm -rf .test-results
status=0
npx turbo run build lint typecheck test test:real --continue --force --log-order=grouped || status=$?
npx prettier --check . || status=$?
node scripts/test-summary.mjs || status=$?
exit "$status"
