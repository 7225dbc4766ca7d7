#!/usr/bin/env bash
# Makes sure the browser tests have a Chromium: Playwright cannot download its own browser on
# these machines, so they use Debian's headless shell (/usr/bin/chromium-headless-shell, package
# chromium-headless-shell; tests/chromium.ts says why), or CHROMIUM_PATH if set.
# Installs Debian's package when it is missing and we are root (or have passwordless sudo).
set -euo pipefail
shell=/usr/bin/chromium-headless-shell
browser=${CHROMIUM_PATH:-$shell}
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
  echo "ensure-chromium: $shell is missing; install it as root: apt-get update && apt-get install -y chromium-headless-shell" >&2
  exit 1
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "ensure-chromium: $shell is missing and this is not a Debian-like system; install Chromium and set CHROMIUM_PATH" >&2
  exit 1
fi

echo "ensure-chromium: installing Debian's chromium-headless-shell (about 30 s)..."
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq chromium-headless-shell >/dev/null
[ -x "$shell" ] || { echo "ensure-chromium: chromium-headless-shell installed but $shell is absent" >&2; exit 1; }
"$shell" --version 2>/dev/null || true
