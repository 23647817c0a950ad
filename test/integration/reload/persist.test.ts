/// <reference types="mocha" />
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { activate, until } from '../support/env';

suite('persistence (after reload)', () => {
  test('imported threads, applied series and comment threads are back after a restart', async () => {
    const tmp = process.env.KERNEL_REVIEW_IT_TMP;
    assert.ok(tmp);
    const want = JSON.parse(fs.readFileSync(path.join(tmp, 'reload-expect.json'), 'utf8')) as {
      threads: { key: string; applied: number[]; comments: number }[];
      placed: { id: string; uri: string; line: number; where: string }[];
    };
    const api = await activate();
    console.log(`[reload] ${api.store.list().length} thread(s), ${api.index.list().length} placed; storage ${api.storagePath}`);
    await until('the index', () => api.index.list().length >= want.placed.length || undefined);
    assert.deepEqual(api.store.list().map((s) => ({ key: s.key, applied: s.applied, comments: s.comments })), want.threads);
    assert.deepEqual(api.index.list().map((p) => ({ id: p.id, uri: p.uri.toString(), line: p.line, where: p.where })), want.placed);
    for (const p of want.placed) {
      const t = api.comments.get(p.id);
      assert.equal(t?.uri.toString(), p.uri);
      assert.equal(t?.range?.start.line, p.line);
    }
    const first = want.placed.find((p) => p.where === 'tip')!;
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.parse(first.uri));
    assert.ok(doc.lineCount > first.line, 'the tip file still opens from git');
  });
});
