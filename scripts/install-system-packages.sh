#!/usr/bin/env bash
# System packages Blitz (--run) or its tests use, installed when we are root on Debian/Ubuntu;
# otherwise the tests that need them say so and count as skipped.
set -euo pipefail
# What running Blitz uses: the sandbox, the tray's indicator library, desktop notifications.
run_packages=(bubblewrap libayatana-appindicator3-1 libnotify-bin)
# What the tests add: a real keychain (gnome-keyring, libsecret-tools), xvfb-run (xvfb, xauth),
# dbus-run-session (dbus, dbus-x11), gdbus to read the tray's exported menu (libglib2.0-bin),
# systemd-analyze to lint the generated user unit (systemd), a real browser for the settings
# page's tests (chromium, driven by playwright-core), pgrep to tell whether the keyring lived (procps).
test_packages=(gnome-keyring dbus-x11 libsecret-tools xvfb xauth dbus libglib2.0-bin systemd chromium procps)
if [ "${1:-}" = --run ]; then packages=("${run_packages[@]}"); else packages=("${run_packages[@]}" "${test_packages[@]}"); fi
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "not root or no apt-get: skipping system packages (${packages[*]})" >&2
  exit 0
fi
missing=()
for p in "${packages[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
[ ${#missing[@]} -eq 0 ] && exit 0
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
