#!/usr/bin/env bash
# Sets up Blitz on a fresh Debian/Ubuntu machine and runs it: the daemon in the background,
# and the tray icon when there is a desktop.
set -euo pipefail
cd "$(dirname "$0")/.."
export NO_UPDATE_NOTIFIER=1 TURBO_TELEMETRY_DISABLED=1
scripts/install-system-packages.sh --run
npm ci --no-audit --no-fund
npm run build
npx blitz daemon start
npx blitz doctor || true
if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ] || [ "$(uname)" = Darwin ]; then
  exec npx blitz tray
fi
echo "No desktop here: the daemon runs without a tray. Connect a client with: blitz connect (see docs/clients.md)"
