#!/usr/bin/env bash
# System packages the tests use, installed when we are root on Debian/Ubuntu; otherwise
# the tests that need them say so and count as skipped.
set -euo pipefail
# The tray's tests: libayatana-appindicator3-1 (the systray helper's indicator), xvfb and
# xauth (xvfb-run), dbus (dbus-run-session), libglib2.0-bin (gdbus, to read the exported
# menu), systemd (systemd-analyze, to lint the generated user unit).
packages=(bubblewrap gnome-keyring dbus-x11 libsecret-tools libayatana-appindicator3-1 xvfb xauth dbus libglib2.0-bin systemd)
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "not root or no apt-get: skipping system packages (${packages[*]})" >&2
  exit 0
fi
missing=()
for p in "${packages[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
[ ${#missing[@]} -eq 0 ] && exit 0
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
