#!/usr/bin/env bash
# What `npm test` needs besides npm packages: Chromium, the PostgreSQL server and nginx. On Debian or
# Ubuntu as root the missing ones are installed; otherwise the test stops at once with the command to run.
set -euo pipefail

missing=()
if [ -z "${CHROME_PATH:-}" ] && [ ! -x /usr/bin/chromium ]; then missing+=(chromium); fi
if [ -z "${TEST_DATABASE_URL:-}" ] && [ -z "${PG_BIN:-}" ] && ! ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1; then missing+=(postgresql); fi
if [ -z "${NGINX_PATH:-}" ] && [ ! -x /usr/sbin/nginx ]; then missing+=(nginx); fi
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing ${missing[*]} for the tests ..."
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" fonts-liberation >/dev/null
  exit 0
fi
echo "The tests need ${missing[*]}. Install with: sudo apt-get install -y ${missing[*]}" >&2
exit 1
