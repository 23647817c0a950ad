#!/bin/sh
# Installs what the public-inbox client tests need: Debian's public-inbox (init, index,
# mda, httpd; it pulls in git, Xapian and SQLite bindings). Idempotent; run as root or
# with sudo available. The tests skip only when these programs are missing, so CI must run this.
set -eu

need=""
for p in public-inbox-init public-inbox-index public-inbox-mda public-inbox-httpd git; do
  command -v "$p" >/dev/null 2>&1 || need=1
done
if [ -z "$need" ]; then
  echo "public-inbox: $(dpkg-query -W -f='${Version}' public-inbox 2>/dev/null || echo present)"
  exit 0
fi

if [ "$(id -u)" -eq 0 ]; then SUDO=""; else SUDO="sudo"; fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "ci-public-inbox: apt-get not found; install public-inbox (https://public-inbox.org/) by hand" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends public-inbox git >/dev/null
for p in public-inbox-init public-inbox-index public-inbox-mda public-inbox-httpd; do
  command -v "$p" >/dev/null 2>&1 || { echo "ci-public-inbox: $p still missing after install" >&2; exit 1; }
done
echo "public-inbox: $(dpkg-query -W -f='${Version}' public-inbox)"
