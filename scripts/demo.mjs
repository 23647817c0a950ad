#!/usr/bin/env node
// `npm run demo`: a real VS Code with the extension, a bundled real review thread, and a generated git tree
// the thread's patch applies to. The extension imports the thread, applies it to a review branch and opens
// the first comment by itself (KERNEL_REVIEW_OPEN).
//   - desktop `code` when it is on PATH (an Extension Development Host window);
//   - otherwise code-server on 127.0.0.1 (install it once with `bash scripts/ci-vscode.sh`), URL printed.
// usage: node scripts/demo.mjs [--port 8080] [--check]   (--check: open it headless in Chromium, screenshot
//        to test-results/demo.png, and exit)
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { appendFileSync, copyFileSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const opt = (name, dflt) => { const i = args.indexOf(`--${name}`); return i >= 0 ? args[i + 1] : dflt; };
const check = args.includes('--check');
const cache = process.env.KERNEL_REVIEW_VSCODE_CACHE
  ?? path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache'), 'kernel-review-vscode');
const demo = path.join(cache, 'demo');
const thread = 'io_uring-register-compat-guard.mbox';

if (!existsSync(path.join(root, 'dist/extension.js'))) {
  console.error('demo: the extension is not built; run `npm run build` first (npm run demo does).');
  process.exit(1);
}

// 1. A git tree whose files hold the pre-image lines of the thread's patch, and the thread next to it.
rmSync(demo, { recursive: true, force: true });
mkdirSync(demo, { recursive: true });
const tree = path.join(demo, 'linux');
const maker = path.join(demo, 'make-tree.js');
(await import('esbuild')).buildSync({ entryPoints: [path.join(root, 'test/integration/support/make-tree.ts')], bundle: true,
  platform: 'node', target: 'node20', outfile: maker, logLevel: 'warning' });
execFileSync(process.execPath, [maker, tree, path.join(root, 'test/fixtures/vscode', thread)], { stdio: 'ignore' });
// The mail sits in the workspace (which activates the extension), ignored by git so the checkout stays clean.
const mbox = path.join(tree, thread);
copyFileSync(path.join(root, 'test/fixtures/vscode', thread), mbox);
appendFileSync(path.join(tree, '.git', 'info', 'exclude'), `/${thread}\n`);
const env = { ...process.env, KERNEL_REVIEW_OPEN: mbox };
console.log(`demo: kernel tree ${tree} (git, branch main), thread ${thread}`);

// 2a. Desktop VS Code.
const code = !check && spawnSync('sh', ['-c', 'command -v code'], { encoding: 'utf8' }).stdout.trim();
if (code) {
  spawn(code, ['--new-window', `--extensionDevelopmentPath=${root}`, tree, mbox], { env, stdio: 'ignore', detached: true }).unref();
  console.log('demo: opened in VS Code (Extension Development Host window).');
  process.exit(0);
}

// 2b. code-server.
const entry = path.join(cache, 'cs/node_modules/code-server/out/node/entry.js');
if (!existsSync(entry)) {
  console.error(`demo: no \`code\` on PATH and no code-server at ${entry}; run \`bash scripts/ci-vscode.sh\` once.`);
  process.exit(1);
}
const port = Number(opt('port', check ? '0' : '8080'));
writeFileSync(path.join(demo, 'config.yaml'), 'auth: none\ncert: false\n');
const server = spawn(process.execPath, [entry, '--config', path.join(demo, 'config.yaml'), '--bind-addr', `127.0.0.1:${port}`, '--auth', 'none',
  '--user-data-dir', path.join(demo, 'user-data'), '--extensions-dir', path.join(demo, 'extensions'),
  '--disable-telemetry', '--disable-update-check', '--disable-workspace-trust', '--disable-getting-started-override'],
{ env: { ...env, XDG_CONFIG_HOME: path.join(demo, 'xdg-config'), XDG_DATA_HOME: path.join(demo, 'xdg-data'), XDG_CACHE_HOME: path.join(demo, 'xdg-cache') },
  stdio: ['ignore', 'pipe', 'pipe'], detached: true });
const stop = () => { try { process.kill(-server.pid, 'SIGTERM'); } catch { /* gone */ } };
process.on('SIGINT', () => { stop(); process.exit(0); });
process.on('SIGTERM', () => { stop(); process.exit(0); });
const base = await new Promise((resolve, reject) => {
  let buf = '';
  const onData = (d) => { buf += d; const m = buf.match(/HTTP server listening on (http:\/\/[^\s]+)/); if (m) resolve(m[1].replace(/\/$/, '')); };
  server.stdout.on('data', onData); server.stderr.on('data', onData);
  server.on('exit', (c) => reject(new Error(`code-server exited (${c}): ${buf.slice(-500)}`)));
});
const html = await (await fetch(`${base}/`)).text();
const authority = (html.match(/&quot;remoteAuthority&quot;:&quot;([^&]+)&quot;/) || [])[1] || 'remote';
const payload = [['extensionDevelopmentPath', `vscode-remote://${authority}${root}`], ['skipWelcome', 'true']];
const url = `${base}/?folder=${encodeURIComponent(tree)}&payload=${encodeURIComponent(JSON.stringify(payload))}`;
console.log(`demo: VS Code (code-server) is at\n\n  ${url}\n\nOpen it in a browser; the first review comment opens by itself. Ctrl-C stops it.`);

if (check) {
  const { chromium } = require('playwright-core');
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', headless: true,
    env: { ...process.env, XDG_CONFIG_HOME: path.join(demo, 'chromium-xdg') },
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run', '--disable-background-networking'] });
  const page = await (await browser.newContext({ viewport: { width: 1400, height: 900 } })).newPage();
  let ok = false;
  try {
    await page.goto(url);
    await page.locator('.review-widget .comment-body').first().waitFor({ state: 'visible', timeout: 180000 });
    await page.waitForTimeout(1500);
    ok = true;
  } catch (e) {
    console.error('demo --check:', e.message.split('\n')[0]);
  }
  mkdirSync(path.join(root, 'test-results'), { recursive: true });
  await page.screenshot({ path: path.join(root, 'test-results/demo.png') }).catch(() => {});
  await browser.close();
  stop();
  console.log(`demo --check: ${ok ? 'a comment widget is shown' : 'FAILED'} (test-results/demo.png)`);
  process.exit(ok ? 0 : 1);
}
