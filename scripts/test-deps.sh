#!/usr/bin/env bash
# Installs what the tests need beyond npm: Debian's Chromium (the project's CI and dev machines cannot
# download Playwright's browsers), redis-server (the shared cache and rate limiter's tests) and
# bubblewrap (the code sandbox's boundary on Linux). Where apt is not available: Playwright's own
# browser, and the other two are left to the contributor (their tests say what is missing).
set -euo pipefail
need=()
[ -x /usr/bin/chromium ] || need+=(chromium)
command -v redis-server >/dev/null 2>&1 || need+=(redis-server)
command -v bwrap >/dev/null 2>&1 || need+=(bubblewrap)
if [ ${#need[@]} -eq 0 ]; then
  echo "test-deps: chromium, redis-server and bubblewrap are installed"
elif command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq "${need[@]}" >/dev/null
  echo "test-deps: installed ${need[*]} from Debian"
else
  [ -x /usr/bin/chromium ] || npx playwright install chromium
  echo "test-deps: without apt, install redis-server and bubblewrap yourself: ${need[*]}"
fi
