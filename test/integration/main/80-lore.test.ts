/// <reference types="mocha" />
// Fetch Thread… against a real public-inbox server (Debian's public-inbox, started on 127.0.0.1 by
// scripts/public-inbox-server.mjs): the pasted Message-ID opens the thread in the editor.
import * as assert from 'node:assert/strict';
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { type Api, activate, errorsDuring, repoRoot, settled } from '../support/env';

const ROOT_ID = '<cover.1581851604.git.asml.silence@gmail.com>';
const PATCH_ID = '<a49db514f8b0b7d509c50ed0185688ece5830363.1581851604.git.asml.silence@gmail.com>';

function installed(): boolean {
  return spawnSync('sh', ['-c', 'command -v public-inbox-httpd && command -v public-inbox-init']).status === 0;
}

suite('lore', function () {
  this.timeout(120_000);
  let api: Api;
  let server: ChildProcess | undefined;
  let url = '';

  suiteSetup(async function () {
    if (!installed()) {
      // CI installs public-inbox (scripts/setup.sh); only a machine without it skips.
      console.log('[lore] public-inbox is not installed: skipping (run scripts/setup.sh)');
      this.skip();
    }
    api = await activate();
    const mbox = path.join(repoRoot(), 'test', 'fixtures', 'threads', 'liburing-splice-helpers-v2.mbox');
    server = spawn(process.execPath, [path.join(repoRoot(), 'scripts', 'public-inbox-server.mjs'), 'io-uring', mbox], {
      env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    url = await new Promise<string>((resolve, reject) => {
      let out = '';
      let err = '';
      server!.stdout!.on('data', (d) => {
        out += d;
        const line = out.split('\n').find((l) => /^https?:\/\//.test(l));
        if (line) resolve(line.trim());
      });
      server!.stderr!.on('data', (d) => (err += d));
      server!.on('exit', (code) => reject(new Error(`public-inbox server exited (${code}): ${err}`)));
    });
    console.log(`[lore] public-inbox at ${url}`);
    await vscode.workspace.getConfiguration('kernelReview').update('publicInbox', url, vscode.ConfigurationTarget.Global);
  });

  suiteTeardown(async () => {
    await vscode.workspace.getConfiguration('kernelReview').update('publicInbox', undefined, vscode.ConfigurationTarget.Global);
    if (server?.pid) {
      try {
        process.kill(-server.pid, 'SIGTERM');
      } catch {
        server.kill('SIGTERM');
      }
    }
  });

  test('Fetch Thread with a pasted Message-ID opens the thread from the server', async () => {
    if (api.store.has(ROOT_ID)) await vscode.commands.executeCommand('kernelReview.removeThread', ROOT_ID);
    const keys = (await vscode.commands.executeCommand<string[]>('kernelReview.fetchThread', PATCH_ID)) ?? [];
    assert.deepEqual(keys, [ROOT_ID]);
    const stored = await api.store.get(ROOT_ID);
    assert.ok(stored, 'the thread is in the store');
    assert.equal(stored.thread.messages.length, 5);
    assert.equal(stored.thread.series[0].patches.length, 2);
    assert.ok(stored.comments.length > 0, 'the review comments came with it');
    await settled(api);
  });

  test('a Message-ID the server does not have gives one sentence and imports nothing', async () => {
    const before = api.store.list().length;
    const errors = await errorsDuring(api, () => vscode.commands.executeCommand('kernelReview.fetchThread', '<no-such-message@example.com>'));
    assert.equal(errors.length, 1);
    assert.match(errors[0].message, /no message <?no-such-message@example\.com>? on 127\.0\.0\.1/);
    assert.ok(!errors[0].message.includes('\n'));
    assert.equal(api.store.list().length, before);
  });
});
