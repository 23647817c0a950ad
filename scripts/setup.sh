#!/usr/bin/env bash
# Installs everything `npm test` needs on a fresh Debian/Ubuntu machine (root or sudo):
# Debian packages, the npm dependencies, a real public-inbox server and a real VS Code (code-server).
set -euo pipefail
cd "$(dirname "$0")/.."
export DEBIAN_FRONTEND=noninteractive
SUDO=; [ "$(id -u)" = 0 ] || SUDO=sudo
# git (the apply engine and its tests), git-email (git send-email for sending replies),
# public-inbox (a real server for the lore client tests), python3-aiosmtpd (a real SMTP server for the
# reply tests), openssl (a self-signed certificate for the SMTP TLS test); ci-vscode.sh adds chromium and
# code-server's build dependencies.
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq git git-email public-inbox python3-aiosmtpd openssl >/dev/null
npm ci --no-audit --no-fund
bash scripts/ci-public-inbox.sh
bash scripts/ci-vscode.sh
