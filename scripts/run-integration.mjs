#!/usr/bin/env node
// Runs the integration suites inside a real VS Code through @vscode/test-electron's runTests():
//   main    out/test/integration/main    (import, apply, comments, navigation, errors, grammar)
//   reload  out/test/integration/reload  (a second launch on the same workspace storage)
//   ui      scripts/vscode-offline/ui-test.js drives the workbench in Chromium like a person
// Where VS Code can be downloaded and shown (internet + a display), runTests() downloads the desktop
// build. Otherwise it runs the same suites in code-server (VS Code's server + web workbench) through
// scripts/vscode-offline/code-shim.js; `bash scripts/ci-vscode.sh` installs what that needs.
//
//   bench   out/test/integration/bench   (only when asked: bench/extension.mjs)
// usage: node scripts/run-integration.mjs [--mode auto|desktop|server] [--only main,reload,ui,bench]
// Run `npm run build` first (npm test does).
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const opt = (name, dflt) => { const i = args.indexOf(`--${name}`); return i >= 0 ? args[i + 1] : dflt; };
const only = new Set(opt('only', 'main,reload,ui').split(','));
const cache = process.env.KERNEL_REVIEW_VSCODE_CACHE
  ?? path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache'), 'kernel-review-vscode');
const codeServerEntry = path.join(cache, 'cs/node_modules/code-server/out/node/entry.js');
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const log = (...a) => console.log('[integration]', ...a);

async function online() {
  try {
    const r = await fetch('https://update.code.visualstudio.com/api/releases/stable', { signal: AbortSignal.timeout(4000) });
    return r.ok;
  } catch { return false; }
}

async function chooseMode() {
  const m = opt('mode', process.env.KERNEL_REVIEW_VSCODE ?? 'auto');
  if (m !== 'auto') return m;
  const display = process.platform !== 'linux' || !!process.env.DISPLAY || !!process.env.WAYLAND_DISPLAY;
  if (display && (await online())) return 'desktop';
  return 'server';
}

function serverReady() {
  const missing = [];
  if (!existsSync(codeServerEntry)) missing.push(`code-server (${codeServerEntry})`);
  if (!existsSync(chromium)) missing.push(`chromium (${chromium})`);
  try { require.resolve('playwright-core'); } catch { missing.push('playwright-core'); }
  return missing;
}

const built = path.join(root, 'out/test/integration/main/index.js');
if (!existsSync(built) || !existsSync(path.join(root, 'dist/extension.js'))) {
  console.error('run-integration: the extension and its tests are not built; run `npm run build` first.');
  process.exit(1);
}

const mode = await chooseMode();
if (mode === 'server') {
  const missing = serverReady();
  if (missing.length) {
    console.error(`run-integration: no VS Code to test in: ${missing.join(', ')} missing; run \`bash scripts/ci-vscode.sh\` once.`);
    process.exit(1);
  }
}
log(`VS Code: ${mode === 'desktop' ? 'desktop build downloaded by @vscode/test-electron' : `code-server (${codeServerEntry}) + ${chromium}`}`);

const { runTests } = require('@vscode/test-electron');
const tmp = mkdtempSync(path.join(os.tmpdir(), 'kernel-review-it-'));
const workspace = path.join(tmp, 'workspace');
const userData = path.join(tmp, 'user-data');
const extensions = path.join(tmp, 'extensions');
for (const d of [workspace, userData, extensions]) mkdirSync(d, { recursive: true });
/** A free TCP port: both launches use it, so the workspace (and its storage) is the same one. */
const port = await new Promise((resolve, reject) => {
  const srv = net.createServer().once('error', reject).listen(0, '127.0.0.1', () => {
    const p = srv.address().port;
    srv.close(() => resolve(p));
  });
});
const env = {
  VSC_TEST_PORT: String(port),
  CODE_SERVER_ENTRY: codeServerEntry,
  CHROMIUM_PATH: chromium,
  VSC_TEST_TIMEOUT: process.env.VSC_TEST_TIMEOUT ?? '300',
  KERNEL_REVIEW_IT_TMP: tmp,
  ...(process.env.KERNEL_REVIEW_BENCH_MBOX ? { KERNEL_REVIEW_BENCH_MBOX: process.env.KERNEL_REVIEW_BENCH_MBOX } : {}),
};
Object.assign(process.env, env);

async function suite(name) {
  const t0 = Date.now();
  try {
    await runTests({
      ...(mode === 'server' ? { vscodeExecutablePath: path.join(root, 'scripts/vscode-offline/code-shim.js') } : {}),
      extensionDevelopmentPath: root,
      extensionTestsPath: path.join(root, 'out/test/integration', name, 'index.js'),
      launchArgs: [workspace, `--user-data-dir=${userData}`, `--extensions-dir=${extensions}`, '--disable-extensions'],
      extensionTestsEnv: env,
    });
    log(`suite ${name}: PASS (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
    return true;
  } catch (e) {
    log(`suite ${name}: FAIL (${e?.message ?? e})`);
    return false;
  }
}

const results = {};
if (only.has('main')) results.main = await suite('main');
if (only.has('reload')) results.reload = only.has('main') && !results.main ? (log('suite reload: skipped, main failed'), false) : await suite('reload');
if (only.has('bench')) results.bench = await suite('bench');
if (only.has('ui')) {
  if (mode === 'server' || serverReady().length === 0) {
    const r = spawnSync(process.execPath, [path.join(root, 'scripts/vscode-offline/ui-test.js'),
      '--ext', root, '--shot', path.join(root, 'test-results/ui-comment.png'), '--tmp', path.join(tmp, 'ui')],
      { stdio: 'inherit', env: { ...process.env, ...env } });
    results.ui = r.status === 0;
    log(`ui test: ${results.ui ? 'PASS' : 'FAIL'} (screenshot test-results/ui-comment.png)`);
  } else {
    log('ui test: skipped (it drives the web workbench and needs code-server + chromium: bash scripts/ci-vscode.sh)');
  }
}
if (process.env.KERNEL_REVIEW_IT_RESULTS && existsSync(path.join(tmp, 'bench.json'))) {
  copyFileSync(path.join(tmp, 'bench.json'), process.env.KERNEL_REVIEW_IT_RESULTS);
}
if (!process.env.KERNEL_REVIEW_IT_KEEP) rmSync(tmp, { recursive: true, force: true });
const failed = Object.entries(results).filter(([, ok]) => !ok).map(([n]) => n);
log(failed.length ? `FAILED: ${failed.join(', ')}` : `all passed: ${Object.keys(results).join(', ')}`);
process.exit(failed.length ? 1 : 0);
