#!/usr/bin/env node
// Provenance: the offline VS Code test recipe, harness/ui-drive.js (code-server + Debian chromium driven by
// playwright-core), adapted to this extension. Drives the real workbench like a person: F1 → "Kernel Review:
// Import Mbox…" on a bundled real thread (typed into VS Code's own file dialog), F1 → "Kernel Review: Apply
// Series…" (thread and base accepted in the quick picks), then a click on a comment in the Kernel Review
// view; asserts the comment widget is shown with the cursor on the comment's line, and saves a screenshot.
//
// usage: node ui-test.js --ext DIR --shot FILE --tmp DIR   (env CODE_SERVER_ENTRY, CHROMIUM_PATH)
const { chromium } = require('playwright-core');
const { spawn, execFileSync } = require('child_process');
const fs = require('fs');
const path = require('path');

const argv = {};
for (let i = 2; i < process.argv.length; i += 2) argv[process.argv[i].replace(/^--/, '')] = process.argv[i + 1];
const t0 = Date.now();
const log = (...a) => console.log(`[ui +${((Date.now() - t0) / 1000).toFixed(1)}s]`, ...a);
const MBOX = path.join(argv.ext, 'test/fixtures/vscode/io_uring-register-compat-guard.mbox');
const COMMENT = "I don't think this is needed.";
const LINE = 283; // io_uring/register.c at the review-branch tip, read from the mail (test/fixtures/vscode/README.md)

function makeTree(dir) {
  const out = path.join(argv.tmp, 'make-tree.js');
  require('esbuild').buildSync({ entryPoints: [path.join(argv.ext, 'test/integration/support/make-tree.ts')], bundle: true,
    platform: 'node', target: 'node20', outfile: out, logLevel: 'warning' });
  execFileSync(process.execPath, [out, dir, MBOX], { stdio: 'inherit' });
}

async function startServer(tmp) {
  fs.writeFileSync(path.join(tmp, 'config.yaml'), 'auth: none\ncert: false\n');
  const env = { ...process.env, XDG_CONFIG_HOME: path.join(tmp, 'xdg-config'), XDG_DATA_HOME: path.join(tmp, 'xdg-data'), XDG_CACHE_HOME: path.join(tmp, 'xdg-cache') };
  const proc = spawn(process.execPath, [process.env.CODE_SERVER_ENTRY, '--config', path.join(tmp, 'config.yaml'), '--bind-addr', '127.0.0.1:0',
    '--auth', 'none', '--user-data-dir', path.join(tmp, 'user-data'), '--extensions-dir', path.join(tmp, 'extensions'),
    '--disable-telemetry', '--disable-update-check', '--disable-workspace-trust', '--disable-getting-started-override'],
  { env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const url = await new Promise((resolve, reject) => {
    let buf = '';
    const onData = (d) => { buf += d; const m = buf.match(/HTTP server listening on (http:\/\/[^\s]+)/); if (m) resolve(m[1].replace(/\/$/, '')); };
    proc.stdout.on('data', onData); proc.stderr.on('data', onData);
    proc.on('exit', (c) => reject(new Error(`code-server exited early (${c})`)));
    setTimeout(() => reject(new Error('code-server did not start in 60s')), 60000);
  });
  return { proc, url };
}

async function palette(page, title, attempts = 6) {
  // The extension's commands appear once the extension host has read its manifest: retry until then.
  for (let attempt = 1; ; attempt++) {
    await page.keyboard.press('F1');
    const input = page.locator('.quick-input-widget input');
    await input.waitFor({ state: 'visible' });
    await input.fill(`>${title}`);
    try {
      await page.locator(`.quick-input-list .monaco-list-row:has-text("${title}")`).first().waitFor({ timeout: 10000 });
      break;
    } catch (e) {
      if (attempt >= attempts) throw e;
      await page.keyboard.press('Escape');
    }
  }
  await page.keyboard.press('Enter');
}

async function toast(page, text, timeout = 60000) {
  await page.locator(`.notifications-toasts .notification-list-item:has-text("${text}")`).first().waitFor({ timeout });
}

(async () => {
  fs.mkdirSync(argv.tmp, { recursive: true });
  fs.mkdirSync(path.dirname(argv.shot), { recursive: true });
  const workspace = path.join(argv.tmp, 'linux');
  makeTree(workspace);
  const server = await startServer(argv.tmp);
  log('code-server up at', server.url);
  const html = await (await fetch(server.url + '/')).text();
  const authority = (html.match(/&quot;remoteAuthority&quot;:&quot;([^&]+)&quot;/) || [])[1] || 'remote';
  const payload = [['extensionDevelopmentPath', `vscode-remote://${authority}${path.resolve(argv.ext)}`], ['skipWelcome', 'true']];
  const url = `${server.url}/?folder=${encodeURIComponent(workspace)}&payload=${encodeURIComponent(JSON.stringify(payload))}`;
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium', headless: true,
    env: { ...process.env, XDG_CONFIG_HOME: path.join(argv.tmp, 'chromium-xdg') },
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
  });
  let ok = false;
  const page = await (await browser.newContext({ viewport: { width: 1400, height: 900 } })).newPage();
  page.on('pageerror', (e) => log('pageerror', e.message));
  try {
    await page.goto(url);
    await page.waitForSelector('.explorer-folders-view .monaco-list-row:has-text("io_uring")', { timeout: 90000 });
    log('workbench shows the kernel tree');
    await page.locator('.monaco-workbench').click({ position: { x: 700, y: 450 } }).catch(() => {});

    await palette(page, 'Kernel Review: Import Mbox');
    // VS Code's own file dialog (a quick input holding a path): type the mbox's path and accept it.
    const input = page.locator('.quick-input-widget input');
    await input.waitFor({ state: 'visible' });
    await page.waitForTimeout(500);
    await input.fill(MBOX);
    await page.locator(`.quick-input-list .monaco-list-row:has-text("${path.basename(MBOX)}")`).first().waitFor({ timeout: 15000 });
    await page.locator('.quick-input-widget .monaco-button:has-text("Import")').first().click();
    await page.waitForTimeout(1000);
    if (await input.isVisible()) await page.keyboard.press('Enter');
    await toast(page, 'Imported 1 thread');
    log('imported through the file dialog');

    await palette(page, 'Kernel Review: Apply Series');
    await page.locator('.quick-input-list .monaco-list-row:has-text("io_uring/register")').first().waitFor({ timeout: 30000 });
    await page.keyboard.press('Enter'); // the thread
    await page.locator('.quick-input-title:has-text("on which base")').waitFor({ timeout: 30000 });
    await page.keyboard.press('Enter'); // the base it found
    await toast(page, 'Applied 1 patch');
    log('applied');

    // the Comments panel opens by itself: give the editor room
    await palette(page, 'View: Hide Panel', 1).catch(() => page.keyboard.press('Escape'));
    await palette(page, 'View: Show Kernel Review');
    const row = page.locator(`.pane-body .monaco-list-row:has-text("${COMMENT}")`).first();
    await row.waitFor({ timeout: 30000 });
    await page.waitForTimeout(1500); // let the view settle (it refreshes once the comments are placed)
    const widget = page.locator(`.review-widget .comment-body:has-text("${COMMENT}")`).first();
    for (let attempt = 1; ; attempt++) {
      await row.click();
      log(`clicked the comment in the tree (attempt ${attempt})`);
      try {
        await widget.waitFor({ state: 'visible', timeout: 10000 });
        break;
      } catch (e) {
        if (attempt === 3) throw e;
        await page.screenshot({ path: argv.shot.replace(/\.png$/, `-attempt${attempt}.png`) }).catch(() => {});
      }
    }
    await page.locator(`.statusbar-item:has-text("Ln ${LINE},")`).first().waitFor({ timeout: 15000 });
    await page.locator('.monaco-editor .view-line:has-text("if (in_compat_syscall())")').first().waitFor({ timeout: 15000 });
    log(`comment widget visible, cursor on line ${LINE}`);
    await page.locator('.notifications-toasts .codicon-notifications-clear-all, .notification-toast .codicon-close').first().click().catch(() => {});
    await page.waitForTimeout(800);
    ok = true;
  } catch (e) {
    log('FAILED:', e.message.split('\n')[0]);
  } finally {
    await page.screenshot({ path: argv.shot }).catch((e) => log('screenshot failed', e.message));
    log('screenshot ->', argv.shot);
    await browser.close();
    try { process.kill(-server.proc.pid, 'SIGTERM'); } catch {}
    log(ok ? 'UI PASS' : 'UI FAIL');
    process.exit(ok ? 0 : 1);
  }
})();
