/// <reference types="mocha" />
// A tree whose file has drifted from the sender's base: git applies the hunk a few lines away from where its
// header says, and the comment must still sit on the line it addresses at the tip, not on the header's line.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AppliedSeries, StoredThread } from '../../../src/features/threads/model';
import { placeThreads } from '../../../src/features/comments/locate';
import { buildRepo, git, tempDir } from '../../unit/git/helpers';
import { type Api, activate, expected } from '../support/env';

const FILE = 'io_uring/register.c';
const SHIFT = 5;

suite('apply at an offset', () => {
  let api: Api;
  let dir = '';
  suiteSetup(async () => {
    api = await activate();
  });
  suiteTeardown(async () => {
    await vscode.workspace.getConfiguration('kernelReview').update('tree', undefined, vscode.ConfigurationTarget.Workspace);
  });

  test('a comment follows its line when git applied the hunk at an offset', async () => {
    const exp = expected()['io_uring-register-compat-guard.mbox'];
    const t = (await api.store.get(exp.root)) as StoredThread;
    dir = tempDir('offset');
    buildRepo(dir, t.thread.series);
    // The reviewer's tree has five more lines at the top of the file than the sender's had.
    const file = path.join(dir, FILE);
    fs.writeFileSync(file, `${Array.from({ length: SHIFT }, (_, i) => `/* local line ${i + 1} */`).join('\n')}\n${fs.readFileSync(file, 'utf8')}`);
    git(dir, ['commit', '-qam', 'local drift']);
    await vscode.workspace.getConfiguration('kernelReview').update('tree', dir, vscode.ConfigurationTarget.Workspace);
    const applied = await vscode.commands.executeCommand<AppliedSeries>('kernelReview.applySeries', exp.root, { base: 'HEAD' });
    assert.ok(applied && applied.failed === null, JSON.stringify(applied?.failed));
    const conv = exp.conversations.find((c) => c.line === 283)!;
    const placed = placeThreads({ ...t, applied: [applied] }).find((p) => p.comments[0].body.startsWith(conv.startsWith));
    assert.ok(placed, 'the conversation is placed');
    assert.equal(placed.where, 'tip');
    assert.equal(placed.line, conv.line - 1 + SHIFT, 'moved by the offset git applied the hunk at');
    const tipText = git(dir, ['show', `${applied.commits[applied.commits.length - 1].sha}:${FILE}`]).split('\n')[placed.line];
    assert.equal(tipText, conv.text, 'the line the comment is on holds the commented text');
  });
});
