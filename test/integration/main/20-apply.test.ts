/// <reference types="mocha" />
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { AppliedSeries } from '../../../src/features/threads/model';
import { buildRepo, snapshot } from '../../unit/git/helpers';
import { type Api, activate, settled, expected, workspaceDir } from '../support/env';

suite('apply', () => {
  let api: Api;
  let before: Record<string, unknown>;
  suiteSetup(async () => {
    api = await activate();
    const series = [];
    for (const exp of Object.values(expected())) series.push(...((await api.store.get(exp.root))?.thread.series ?? []));
    assert.ok(series.length >= 3, 'the imported threads have their series');
    buildRepo(workspaceDir(), series);
    before = snapshot(workspaceDir());
  });

  test('applies each series to a review branch; the checkout is untouched', async () => {
    for (const [file, exp] of Object.entries(expected())) {
      const t = await api.store.get(exp.root);
      const applied = await vscode.commands.executeCommand<AppliedSeries>('kernelReview.applySeries', exp.root, { base: 'auto' });
      assert.ok(applied, `${file}: applied`);
      assert.equal(applied.failed, null, `${file}: ${JSON.stringify(applied.failed)}`);
      assert.equal(applied.commits.length, t!.thread.series[0].patches.length);
      assert.match(applied.branch, /^refs\/heads\/review\//);
    }
    assert.deepEqual(snapshot(workspaceDir()), before, 'HEAD, index, status and files are unchanged');
  });

  test('comment threads are on the review-branch tip files at the expected lines', async () => {
    await settled(api);
    for (const [file, exp] of Object.entries(expected())) {
      for (const conv of exp.conversations.filter((c) => c.side === 'new')) {
        const p = api.index.list().find((x) => x.threadKey === exp.root && x.comments[0].body.startsWith(conv.startsWith));
        assert.ok(p, `${file}: "${conv.startsWith}"`);
        assert.equal(p.where, 'tip');
        assert.equal(p.uri.scheme, 'kernel-review');
        assert.equal(p.uri.path, `/${conv.file}`);
        assert.equal(p.line, conv.line - 1);
        const doc = await vscode.workspace.openTextDocument(p.uri);
        assert.equal(doc.lineAt(p.line).text, conv.text, `${file}: ${conv.file}:${conv.line} at the tip`);
        const thread = api.comments.get(p.id);
        assert.equal(thread?.uri.toString(), p.uri.toString());
        assert.equal(thread?.range?.start.line, conv.line - 1);
      }
    }
  });

  test('the tree lists thread → series → patch with its status', async () => {
    const tree = (api as unknown as { tree: vscode.TreeDataProvider<{ kind: string; key: string }> }).tree;
    const roots = (await tree.getChildren()) ?? [];
    const splice = roots.find((n) => n.key === expected()['liburing-splice-helpers-v2.mbox'].root);
    assert.ok(splice);
    const [series] = (await tree.getChildren(splice)) ?? [];
    const patches = (await tree.getChildren(series)) ?? [];
    assert.equal(patches.length, 2);
    const item = await tree.getTreeItem(patches[0]);
    assert.match(String(item.description), /^applied · \d+ comments?/);
  });
});
