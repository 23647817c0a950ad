/// <reference types="mocha" />
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';

suite('host', () => {
  test('runs in a real VS Code extension host with the extension present', async () => {
    console.log(`[info] node=${process.version} vscode=${vscode.version} uiKind=${vscode.env.uiKind} remote=${vscode.env.remoteName ?? '-'}`);
    const ext = vscode.extensions.getExtension('kernel-patch-review.kernel-patch-review');
    assert.ok(ext, 'extension kernel-patch-review.kernel-patch-review is not loaded');
    assert.ok(vscode.workspace.workspaceFolders?.length, 'a workspace folder is open');
  });
});
