/// <reference types="mocha" />
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { type Api, activate, expected, until } from '../support/env';

interface Step { index: number; total: number; id: string; uri: string; line: number }

suite('navigation', () => {
  let api: Api;
  suiteSetup(async () => {
    api = await activate();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('Next Comment walks every conversation in order and wraps; Previous goes back', async () => {
    const all = api.index.list();
    assert.ok(all.length >= 5);
    const seen: Step[] = [];
    for (let i = 0; i < all.length; i++) {
      const step = (await vscode.commands.executeCommand<Step>('kernelReview.nextComment'))!;
      const e = vscode.window.activeTextEditor;
      console.log(`[nav] ${step.index} ${step.id} -> ${all[step.index].where} ${all[step.index].label}; editor ${e?.document.uri.toString().slice(0, 60)} line ${e?.selection.active.line}`);
      seen.push(step);
    }
    assert.deepEqual(seen.map((s) => s.id), all.map((p) => p.id), 'every conversation once, in order');
    const wrapped = await vscode.commands.executeCommand<Step>('kernelReview.nextComment');
    assert.equal(wrapped?.index, 0);
    const back = await vscode.commands.executeCommand<Step>('kernelReview.previousComment');
    assert.equal(back?.index, all.length - 1);
    assert.match(api.navigation.item.text, new RegExp(`comment ${all.length} of ${all.length}$`));
  });

  test('the editor shows the comment line and the thread is expanded', async () => {
    const exp = expected()['io_uring-register-compat-guard.mbox'];
    const p = api.index.list().find((x) => x.threadKey === exp.root && x.comments[0].line === 283)!;
    await vscode.commands.executeCommand('kernelReview.openComment', p.id);
    const e = await until('the tip file in the editor', () => vscode.window.activeTextEditor?.document.uri.toString() === p.uri.toString() && vscode.window.activeTextEditor);
    assert.equal(e.selection.active.line, 282);
    assert.equal(api.comments.get(p.id)?.collapsibleState, vscode.CommentThreadCollapsibleState.Expanded);
  });

  test('Go to Source Line jumps from a comment to its line in the source', async () => {
    const exp = expected()['liburing-splice-helpers-v2.mbox'];
    const conv = exp.conversations[0];
    const p = api.index.list().find((x) => x.threadKey === exp.root && x.comments[0].body.startsWith(conv.startsWith))!;
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const r = await vscode.commands.executeCommand<{ uri: string; line: number }>('kernelReview.goToSourceLine', p.id);
    assert.ok(r);
    const e = vscode.window.activeTextEditor!;
    assert.ok(e.document.uri.path.endsWith(`/${conv.file}`), e.document.uri.toString());
    assert.equal(e.selection.active.line, conv.line - 1);
    assert.equal(e.document.lineAt(conv.line - 1).text, conv.text);
  });
});
