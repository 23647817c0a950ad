/// <reference types="mocha" />
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { type Api, activate, expected, until } from '../support/env';

suite('old-side comments', () => {
  let api: Api;
  suiteSetup(async () => {
    api = await activate();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('a comment on a removed line is on the base side of the patch diff editor', async () => {
    const exp = expected()['io_uring-task_work-for-links.mbox'];
    const conv = exp.conversations[0];
    const p = api.index.list().find((x) => x.threadKey === exp.root && x.comments[0].body.startsWith(conv.startsWith));
    assert.ok(p, 'the old-side conversation');
    assert.equal(p.where, 'old');
    assert.equal(p.line, conv.line - 1);
    await vscode.commands.executeCommand('kernelReview.openComment', p.id);
    const tab = await until('a diff editor tab', () => {
      const t = vscode.window.tabGroups.activeTabGroup.activeTab;
      return t?.input instanceof vscode.TabInputTextDiff ? t.input : undefined;
    });
    assert.equal(tab.original.toString(), p.uri.toString(), 'the thread is on the left (base) document');
    assert.equal(tab.modified.toString(), p.diffWith?.toString());
    const base = await vscode.workspace.openTextDocument(tab.original);
    assert.equal(base.lineAt(p.line).text, conv.text);
    // the removed function starts five lines above the removed empty line (hunk -2013: 2016..2021 removed)
    assert.equal(base.lineAt(conv.line - 6).text, 'static inline void req_set_fail_links(struct io_kiocb *req)');
    const patched = await vscode.workspace.openTextDocument(tab.modified);
    assert.notEqual(patched.getText(), base.getText(), 'the right side is the patched file');
    const thread = api.comments.get(p.id);
    assert.equal(thread?.uri.toString(), tab.original.toString());
    assert.equal(thread?.range?.start.line, conv.line - 1);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('Go to Source Line explains why an old-side comment has no source line', async () => {
    const exp = expected()['io_uring-task_work-for-links.mbox'];
    const p = api.index.list().find((x) => x.threadKey === exp.root && x.where === 'old')!;
    const seen: string[] = [];
    const sub = api.onDidReportError((e) => seen.push(e.message));
    await vscode.commands.executeCommand('kernelReview.goToSourceLine', p.id);
    sub.dispose();
    assert.equal(seen.length, 1);
    assert.match(seen[0], /removed line/);
  });
});
