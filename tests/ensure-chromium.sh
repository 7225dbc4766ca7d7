#!/usr/bin/env bash
# Makes sure the browser tests have a Chromium: Playwright cannot download its own browser on
# these machines, so they use Debian's (/usr/bin/chromium, or CHROMIUM_PATH if set).
# Installs Debian's chromium package when it is missing and we are root (or have passwordless sudo).
set -euo pipefail
browser=${CHROMIUM_PATH:-/usr/bin/chromium}
if [ -x "$browser" ]; then exit 0; fi
if [ -n "${CHROMIUM_PATH:-}" ]; then
  echo "ensure-chromium: CHROMIUM_PATH=$CHROMIUM_PATH is not an executable" >&2
  exit 1
fi

if [ "$(id -u)" = 0 ]; then
  sudo=()
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
  sudo=(sudo -n)
else
  echo "ensure-chromium: /usr/bin/chromium is missing; install it as root: apt-get update && apt-get install -y chromium" >&2
  exit 1
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "ensure-chromium: /usr/bin/chromium is missing and this is not a Debian-like system; install Chromium and set CHROMIUM_PATH" >&2
  exit 1
fi

echo "ensure-chromium: installing Debian's chromium (about 30 s)..."
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq chromium >/dev/null
[ -x /usr/bin/chromium ] || { echo "ensure-chromium: chromium installed but /usr/bin/chromium is absent" >&2; exit 1; }
/usr/bin/chromium --version 2>/dev/null || true
