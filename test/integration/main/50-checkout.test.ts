/// <reference types="mocha" />
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as vscode from 'vscode';
import { type Api, activate, settled, expected, workspaceDir } from '../support/env';

suite('checked-out review branch', () => {
  let api: Api;
  const git = (...args: string[]) => execFileSync('git', args, { cwd: workspaceDir(), encoding: 'utf8' }).trim();
  suiteSetup(async () => {
    api = await activate();
  });

  test('only on request; then the comments are on the real files', async () => {
    const exp = expected()['io_uring-register-compat-guard.mbox'];
    const headBefore = git('rev-parse', 'HEAD');
    const branchBefore = git('rev-parse', '--abbrev-ref', 'HEAD');
    const branch = await vscode.commands.executeCommand<string>('kernelReview.checkOutReviewBranch', exp.root);
    assert.ok(branch?.startsWith('review/'), String(branch));
    assert.equal(git('rev-parse', '--abbrev-ref', 'HEAD'), branch);
    await settled(api);
    for (const conv of exp.conversations) {
      const p = api.index.list().find((x) => x.threadKey === exp.root && x.comments[0].body.startsWith(conv.startsWith))!;
      assert.equal(p.uri.scheme, 'file', 'on the working-tree file');
      assert.equal(p.uri.fsPath, `${workspaceDir()}/${conv.file}`);
      const doc = await vscode.workspace.openTextDocument(p.uri);
      assert.equal(doc.lineAt(p.line).text, conv.text);
      assert.equal(api.comments.get(p.id)?.uri.toString(), p.uri.toString());
    }
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    git('checkout', '-q', branchBefore);
    assert.equal(git('rev-parse', 'HEAD'), headBefore);
    await api.index.refresh();
    const p = api.index.list().find((x) => x.threadKey === exp.root && x.where === 'tip')!;
    assert.equal(p.uri.scheme, 'kernel-review', 'back on the read-only tip file');
  });
});
