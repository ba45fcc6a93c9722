#!/usr/bin/env bash
# Installs the browser the Playwright suite needs: Debian's Chromium where apt is available (the
# project's CI and dev machines cannot download Playwright's browsers), else Playwright's own.
set -euo pipefail
if [ -x /usr/bin/chromium ]; then
  echo "test-deps: using /usr/bin/chromium"
elif command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq chromium >/dev/null
  echo "test-deps: installed Debian chromium"
else
  npx playwright install chromium
fi
