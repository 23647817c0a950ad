#!/usr/bin/env node
// Provenance: the offline VS Code test recipe (code-server 4.100.3 + Debian chromium + playwright-core),
// harness/run-tests.js, adapted: --user-data-dir / --extensions-dir are honoured so that a second run can
// reopen the same workspace storage (the reload test); VSC_TEST_PORT fixes the port, which is part of the
// workspace's identity in the web workbench (vscode-remote://127.0.0.1:<port>/…).
// Run a VS Code extension's integration tests inside code-server's Node (remote)
// extension host, driven by headless Debian Chromium via playwright-core.
// Exit code = the code VS Code passes to window.codeAutomationExit (0 = all passed),
// 2 = timeout / harness failure.
//
// usage: node run-tests.js --extensionDevelopmentPath DIR --extensionTestsPath DIR_OR_FILE
//                          --folder DIR [--server URL] [--timeout SECONDS] [--screenshot FILE]
//                          [--user-data-dir DIR] [--extensions-dir DIR]
// Without --server it starts its own code-server (fresh user-data/extensions dirs) and stops it.
const { chromium } = require('playwright-core');
const { spawn } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');
const util = require('util');

const argv = {};
for (let i = 2; i < process.argv.length; i += 2) argv[process.argv[i].replace(/^--/, '')] = process.argv[i + 1];
const CODE_SERVER = process.env.CODE_SERVER_ENTRY;
if (!CODE_SERVER) { console.error('set CODE_SERVER_ENTRY to .../code-server/out/node/entry.js'); process.exit(2); }
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const timeoutMs = Number(argv.timeout || 180) * 1000;
const t0 = Date.now();
const log = (...a) => console.log(`[harness +${((Date.now() - t0) / 1000).toFixed(1)}s]`, ...a);

async function startServer(tmp) {
  const env = { ...process.env, XDG_CONFIG_HOME: path.join(tmp, 'xdg-config'), XDG_DATA_HOME: path.join(tmp, 'xdg-data'), XDG_CACHE_HOME: path.join(tmp, 'xdg-cache') };
  fs.writeFileSync(path.join(tmp, 'config.yaml'), 'auth: none\ncert: false\n');
  const args = [CODE_SERVER, '--config', path.join(tmp, 'config.yaml'), '--bind-addr', `127.0.0.1:${process.env.VSC_TEST_PORT || 0}`, '--auth', 'none',
    '--user-data-dir', argv['user-data-dir'] || path.join(tmp, 'user-data'),
    '--extensions-dir', argv['extensions-dir'] || path.join(tmp, 'extensions'),
    '--disable-telemetry', '--disable-update-check', '--disable-workspace-trust', '--disable-getting-started-override'];
  const proc = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const serverLog = fs.createWriteStream(path.join(tmp, 'server.log'));
  proc.stdout.pipe(serverLog); proc.stderr.pipe(serverLog);
  const url = await new Promise((resolve, reject) => {
    let buf = '';
    const onData = d => { buf += d; const m = buf.match(/HTTP server listening on (http:\/\/[^\s]+)/); if (m) resolve(m[1].replace(/\/$/, '')); };
    proc.stdout.on('data', onData); proc.stderr.on('data', onData);
    proc.on('exit', c => reject(new Error(`code-server exited early (${c}); see ${tmp}/server.log`)));
    setTimeout(() => reject(new Error('code-server did not start in 60s')), 60000);
  });
  return { proc, url };
}

async function main() {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'vsc-it-'));
  let server = null, browser = null, exitCode = 2;
  const cleanup = async () => {
    try { if (browser) await browser.close(); } catch {}
    if (server) { try { process.kill(-server.proc.pid, 'SIGTERM'); } catch {} }
  };
  try {
    let base = argv.server;
    if (!base) { server = await startServer(tmp); base = server.url; log('code-server up at', base, 'pid', server.proc.pid); }
    // code-server advertises its remoteAuthority in the workbench HTML (it is "remote" in 4.100.x)
    const html = await (await fetch(base + '/')).text();
    const authority = (html.match(/&quot;remoteAuthority&quot;:&quot;([^&]+)&quot;/) || [])[1] || 'remote';
    const remote = p => `vscode-remote://${authority}${path.resolve(p)}`;
    const payload = [
      ['extensionDevelopmentPath', remote(argv.extensionDevelopmentPath)],
      ['extensionTestsPath', remote(argv.extensionTestsPath)],
      ['enableProposedApi', ''],
      ['skipWelcome', 'true'],
    ];
    const url = `${base}/?folder=${encodeURIComponent(path.resolve(argv.folder))}&payload=${encodeURIComponent(JSON.stringify(payload))}`;
    log('opening', url);

    browser = await chromium.launch({
      executablePath: CHROMIUM, headless: true,
      // keep Chromium's crashpad dir (~/.config/chromium) out of $HOME
      env: { ...process.env, XDG_CONFIG_HOME: path.join(os.tmpdir(), 'chromium-xdg') },
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
        '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
    });
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const done = new Promise(resolve => {
      // VS Code forwards its log lines (incl. extension-host console.log) here: (type, [fmt, ...args])
      page.exposeFunction('codeAutomationLog', (type, args) => console.log('[vscode]', util.format(...(args || []))));
      page.exposeFunction('codeAutomationExit', code => resolve(code));
    });
    if (argv.verbose) page.on('console', msg => console.log('[browser]', msg.text()));
    page.on('pageerror', e => console.log('[pageerror]', e.message));
    await page.goto(url);
    const code = await Promise.race([done, new Promise(r => setTimeout(() => r('timeout'), timeoutMs))]);
    if (argv.screenshot) await page.screenshot({ path: argv.screenshot }).catch(() => {});
    if (code === 'timeout') { log(`TIMEOUT after ${timeoutMs / 1000}s (no codeAutomationExit)`); exitCode = 2; }
    else { exitCode = Number(code); log('codeAutomationExit', exitCode); }
  } catch (e) {
    console.error('[harness] error', e); exitCode = 2;
  } finally {
    await cleanup();
    if (!argv.keep) fs.rmSync(tmp, { recursive: true, force: true });
    log(`RESULT ${exitCode === 0 ? 'PASS' : 'FAIL'} exit=${exitCode}`);
    process.exit(exitCode);
  }
}
main();
