#!/usr/bin/env bash
# Sets up Blitz on a fresh Debian/Ubuntu machine (or macOS) and runs it: builds and packs the
# `blitz` package, installs it for you (`blitz` on PATH, independent of this clone), starts
# the daemon, and the tray icon when there is a desktop. Safe to run again: it reinstalls and
# says what it found running.
#
# Where it installs: $BLITZ_PREFIX when set; else npm's global prefix when you can write to it;
# else ~/.local (so `blitz` lands in ~/.local/bin).
set -euo pipefail
cd "$(dirname "$0")/.."
export NO_UPDATE_NOTIFIER=1 npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false TURBO_TELEMETRY_DISABLED=1

step() { printf '\n==> %s\n' "$*"; }

step "System packages the daemon and tray use (bubblewrap, the indicator library, notify-send)"
scripts/install-system-packages.sh --run

step "Installing the build's dependencies (npm ci)"
npm ci --no-audit --no-fund --no-update-notifier --loglevel=warn

step "Building every workspace (turbo run build)"
npx turbo run build --output-logs=errors-only

step "Packing the blitz package (scripts/pack.mjs)"
tarball=$(node scripts/pack.mjs | tail -n 1)
echo "packed $tarball"

writable_prefix() {
  [ -d "$1" ] && [ -w "$1" ] && { [ ! -e "$1/lib/node_modules" ] || [ -w "$1/lib/node_modules" ]; }
}
npm_prefix=$(npm prefix --global 2>/dev/null || true)
if [ -n "${BLITZ_PREFIX:-}" ]; then
  prefix=$BLITZ_PREFIX
  why="BLITZ_PREFIX"
elif [ -n "$npm_prefix" ] && writable_prefix "$npm_prefix"; then
  prefix=$npm_prefix
  why="npm's global prefix, writable by you"
else
  prefix=$HOME/.local
  why="npm's global prefix ($npm_prefix) is not writable by you"
fi
bindir=$prefix/bin
blitz=$bindir/blitz

step "Installing it for you into $prefix ($why): npm install --global --prefix $prefix"
mkdir -p "$prefix"
npm install --global --prefix "$prefix" --no-audit --no-fund --no-update-notifier --loglevel=warn "$tarball"
echo "blitz $("$blitz" --version) is installed: $blitz"

# How to run it in the advice below: by name when this blitz is the one PATH finds.
run_blitz=blitz
case ":$PATH:" in
  *":$bindir:"*)
    found=$(command -v blitz || true)
    if [ "$found" != "$blitz" ]; then
      echo "warning: another blitz comes first on your PATH ($found); this one is $blitz"
      run_blitz=$blitz
    fi
    ;;
  *)
    echo "warning: $bindir is not on your PATH, so typing \`blitz\` does not find it yet."
    echo "  Add this line to your shell's startup file (~/.profile, ~/.bashrc or ~/.zshrc), then open a new shell:"
    echo "    export PATH=\"$bindir:\$PATH\""
    run_blitz=$blitz
    ;;
esac

step "The Blitz daemon"
installed=$("$blitz" --version)
status=$("$blitz" daemon status --json 2>/dev/null || true)
running=$(node -e 'try { const s = JSON.parse(require("fs").readFileSync(0, "utf8")); if (s.running) console.log(`${s.pid} ${s.version}`); } catch {}' <<<"$status")
if [ -z "$running" ]; then
  "$blitz" daemon start
else
  pid=${running%% *}
  version=${running#* }
  if [ "$version" = "$installed" ]; then
    echo "A Blitz daemon was already running (pid $pid, version $version): the version just installed, so it keeps running."
  else
    echo "A Blitz daemon was already running (pid $pid, version $version), not the version just installed ($installed): restarting it."
    "$blitz" daemon restart
  fi
fi

step "Checking the setup (blitz doctor)"
"$blitz" doctor || true

if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ] || [ "$(uname)" = Darwin ]; then
  step "Starting the tray icon (blitz tray); quit it from its menu. Connect a client with: $run_blitz connect (see docs/clients.md)"
  exec "$blitz" tray
fi
echo
echo "No desktop here: the daemon runs without a tray. Connect a client with: $run_blitz connect (see docs/clients.md)"
