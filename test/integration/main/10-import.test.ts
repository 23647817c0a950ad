/// <reference types="mocha" />
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { type Api, activate, settled, errorsDuring, expected, fixture } from '../support/env';

suite('import', () => {
  let api: Api;
  suiteSetup(async () => {
    api = await activate();
  });

  test('activation is quick and registers the commands', async () => {
    console.log(`[measure] activate() took ${api.activationMs.toFixed(1)} ms (${api.activationDetail})`);
    assert.ok(api.activationMs < 50, `activate() took ${api.activationMs} ms`);
    const cmds = await vscode.commands.getCommands(true);
    for (const c of ['importMbox', 'openThread', 'applySeries', 'nextComment', 'previousComment', 'goToSourceLine', 'showThread', 'reply', 'checkOutReviewBranch']) {
      assert.ok(cmds.includes(`kernelReview.${c}`), `kernelReview.${c} is registered`);
    }
  });

  test('bad input shows one sentence naming the file and changes nothing', async () => {
    const before = JSON.stringify(api.store.list());
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kr-bad-'));
    const missing = path.join(dir, 'no-such.mbox');
    const garbage = path.join(dir, 'garbage.mbox.gz');
    fs.writeFileSync(garbage, Buffer.from('this is not gzip data at all\n'));
    for (const file of [missing, garbage]) {
      const errors = await errorsDuring(api, () => vscode.commands.executeCommand('kernelReview.importMbox', vscode.Uri.file(file)));
      assert.equal(errors.length, 1, `one error for ${file}`);
      const msg = errors[0].message;
      console.log(`[error shown] ${msg}`);
      assert.ok(msg.includes(path.basename(file)), `the message names the file: ${msg}`);
      assert.ok(!msg.includes('\n') && !/\bat \S+ \(/.test(msg), `one sentence, no stack: ${msg}`);
      assert.ok(!/undefined/.test(msg), msg);
    }
    assert.equal(JSON.stringify(api.store.list()), before, 'the store is unchanged');
  });

  test('imports real threads; comments sit on the quoted diff lines of the patch mail', async () => {
    const files = Object.keys(expected());
    const keys = (await vscode.commands.executeCommand<string[]>('kernelReview.importMbox', files.map((f) => vscode.Uri.file(fixture(f))))) ?? [];
    for (const [file, exp] of Object.entries(expected())) {
      assert.ok(keys.includes(exp.root), `${file}: thread ${exp.root} imported (got ${keys.join(', ')})`);
    }
    await settled(api);
    for (const [file, exp] of Object.entries(expected())) {
      for (const conv of exp.conversations) {
        const p = api.index.list().find((x) => x.threadKey === exp.root && x.comments[0].body.startsWith(conv.startsWith));
        assert.ok(p, `${file}: a conversation starting "${conv.startsWith}"`);
        assert.equal(p.where, 'mail');
        assert.equal(p.comments[0].file, conv.file);
        assert.equal(p.comments[0].side, conv.side);
        assert.equal(p.comments[0].line, conv.line);
        const doc = await vscode.workspace.openTextDocument(p.uri);
        assert.equal(doc.languageId, 'kernel-review-mail');
        const shown = doc.lineAt(p.line).text;
        assert.equal(shown.slice(1), conv.text, `${file}: mail view line ${p.line + 1}`);
        assert.ok((conv.side === 'old' ? ['-'] : ['+', ' ']).includes(shown[0]), `diff marker of ${shown}`);
        const thread = api.comments.get(p.id);
        assert.ok(thread, 'a CommentThread exists');
        assert.equal(thread.uri.toString(), p.uri.toString());
        assert.equal(thread.range?.start.line, p.line);
        const bodies = thread.comments.map((c) => String(c.body));
        assert.ok(bodies[0].startsWith(conv.startsWith));
        for (const [i, a] of (conv.answers ?? []).entries()) assert.ok(bodies[i + 1]?.startsWith(a), `answer ${i + 1} "${a}" in order: ${bodies[i + 1]}`);
      }
    }
  });

  test('Open Thread lists the threads with counts', async () => {
    const s = api.store.list().find((x) => x.key === expected()['liburing-splice-helpers-v2.mbox'].root);
    assert.ok(s);
    assert.deepEqual(s.versions, [2]);
    assert.equal(s.patches, 2);
    assert.equal(s.messages, 5);
  });
});
