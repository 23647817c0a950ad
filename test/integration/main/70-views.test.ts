/// <reference types="mocha" />
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { renderThread } from '../../../src/features/threadPage/html';
import { type Api, activate, expected, fixture, repoRoot, settled, until } from '../support/env';

suite('views and menus', () => {
  let api: Api;
  suiteSetup(async () => {
    api = await activate();
    await settled(api);
  });

  test('every command in package.json is registered', async () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(repoRoot(), 'package.json'), 'utf8')) as { contributes: { commands: { command: string }[] } };
    const have = new Set(await vscode.commands.getCommands(true));
    const missing = pkg.contributes.commands.map((c) => c.command).filter((c) => !have.has(c));
    assert.deepEqual(missing, []);
  });

  test('tree items work as command arguments (context menus)', async () => {
    const exp = expected()['io_uring-register-compat-guard.mbox'];
    const t = (await api.store.get(exp.root))!;
    const patch = t.thread.series[0].patches[0];
    const files = await vscode.commands.executeCommand<number>('kernelReview.showPatchDiff', { kind: 'patch', key: exp.root, version: 1, messageId: patch.messageId });
    assert.equal(files, 1, 'one file in the multi-file diff');
    const conv = exp.conversations[1];
    const p = api.index.ofThread(exp.root).find((x) => x.comments[0].body.startsWith(conv.startsWith))!;
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('kernelReview.goToSourceLine', { kind: 'comment', key: exp.root, id: p.id });
    assert.equal(vscode.window.activeTextEditor?.selection.active.line, conv.line - 1);
    assert.equal(vscode.window.activeTextEditor?.document.lineAt(conv.line - 1).text, conv.text);
  });

  test('the thread page escapes every byte of mail', async () => {
    const exp = expected()['io_uring-register-compat-guard.mbox'];
    const t = (await api.store.get(exp.root))!;
    const html = renderThread(t);
    assert.ok(html.includes('#include &#60;linux/compat.h&#62;'), 'the quoted include line is escaped');
    assert.ok(html.includes('Jeff Moyer &#60;jmoyer@redhat.com&#62;'), 'addresses are escaped');
    assert.ok(!/<(?!\/?(h1|article|header|b|span|br|ul|li|a|pre|details|summary)\b)/.test(html), 'no tag but the page\'s own');
    assert.ok(!html.includes('<script'), 'no script from mail');
    assert.equal((html.match(/<article /g) ?? []).length, t.thread.messages.length, 'every message, in thread order');
    const r = await vscode.commands.executeCommand<{ title: string }>('kernelReview.showThread', exp.root);
    assert.ok(r?.title.startsWith('[PATCH] io_uring/register'));
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('Open With offers the Kernel Review thread view for mail files', async () => {
    const uri = vscode.Uri.file(fixture('liburing-splice-helpers-v2.mbox'));
    await vscode.commands.executeCommand('vscode.openWith', uri, 'kernelReview.mailThread');
    const input = await until('the custom editor tab', () => {
      const t = vscode.window.tabGroups.activeTabGroup.activeTab;
      return t?.input instanceof vscode.TabInputCustom ? t.input : undefined;
    });
    assert.equal(input.viewType, 'kernelReview.mailThread');
    assert.equal(input.uri.toString(), uri.toString());
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });
});
