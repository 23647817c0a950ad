#!/usr/bin/env bash
# Installs what the integration tests need to run inside a real VS Code without internet access beyond
# the npm registry and the Debian archive:
#   - Debian packages: chromium (the browser that drives the web workbench), ripgrep (VS Code's search),
#     build-essential python3 libkrb5-dev (native modules of code-server);
#   - code-server 4.100.3 (VS Code 1.100.3 server + web workbench) into a cache folder outside the repo;
#   - the project's devDependencies (mocha, playwright-core, @vscode/test-electron) when missing.
# Idempotent: a second run only checks. usage: bash scripts/ci-vscode.sh
# Env: KERNEL_REVIEW_VSCODE_CACHE (default ~/.cache/kernel-review-vscode), SKIP_APT=1 to skip apt-get.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
CACHE=${KERNEL_REVIEW_VSCODE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/kernel-review-vscode}
CS_VERSION=4.100.3
ENTRY=$CACHE/cs/node_modules/code-server/out/node/entry.js
mkdir -p "$CACHE/tmp"
export TMPDIR=$CACHE/tmp

need_apt=()
for p in chromium ripgrep build-essential python3 libkrb5-dev; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || need_apt+=("$p")
done
if [ ${#need_apt[@]} -gt 0 ] && [ "${SKIP_APT:-0}" != 1 ]; then
  SUDO=; [ "$(id -u)" = 0 ] || SUDO=sudo
  echo "ci-vscode: apt-get install ${need_apt[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi

if [ ! -f "$ENTRY" ] || ! grep -q "\"version\": \"$CS_VERSION\"" "$CACHE/cs/node_modules/code-server/package.json" 2>/dev/null; then
  echo "ci-vscode: installing code-server@$CS_VERSION into $CACHE/cs (native builds take 1-2 minutes)"
  # @vscode/ripgrep downloads rg from GitHub unless its cache holds the release tarball: seed it with Debian's rg.
  T=$(uname -m | sed 's/x86_64/x86_64-unknown-linux-musl/;s/aarch64/aarch64-unknown-linux-musl/')
  mkdir -p "$TMPDIR/rg-stage" "$TMPDIR/vscode-ripgrep-cache-1.15.11"
  cp /usr/bin/rg "$TMPDIR/rg-stage/"
  tar czf "$TMPDIR/vscode-ripgrep-cache-1.15.11/ripgrep-v13.0.0-10-$T.tar.gz" -C "$TMPDIR/rg-stage" rg
  mkdir -p "$CACHE/cs"
  ( cd "$CACHE/cs"
    [ -f package.json ] || npm init -y >/dev/null
    # unsafe_perm: code-server's postinstall refuses root without it; yes: node-pty's post-install runs npx node-gyp
    npm_config_unsafe_perm=true npm_config_yes=true npm install --no-audit --no-fund "code-server@$CS_VERSION" )
  test -f "$ENTRY"
fi

if ! ( cd "$ROOT" && node -e "for (const m of ['mocha','playwright-core','@vscode/test-electron']) require.resolve(m)" ) 2>/dev/null; then
  echo "ci-vscode: installing the project's devDependencies"
  ( cd "$ROOT" && npm install --no-audit --no-fund )
fi
echo "ci-vscode: ready (code-server $CS_VERSION at $ENTRY, chromium at $(command -v chromium))"
