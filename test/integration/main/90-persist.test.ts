/// <reference types="mocha" />
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { type Api, activate } from '../support/env';

/** Records what the next launch (the reload suite) must find again. */
suite('persistence (before reload)', () => {
  let api: Api;
  suiteSetup(async () => {
    api = await activate();
  });

  test('writes what was imported and applied for the reload check', async () => {
    console.log(`[persist] storage ${api.storagePath}`);
    const tmp = process.env.KERNEL_REVIEW_IT_TMP;
    assert.ok(tmp, 'KERNEL_REVIEW_IT_TMP is set by scripts/run-integration.mjs');
    const state = {
      threads: api.store.list().map((s) => ({ key: s.key, applied: s.applied, comments: s.comments })),
      placed: api.index.list().map((p) => ({ id: p.id, uri: p.uri.toString(), line: p.line, where: p.where })),
    };
    assert.ok(state.threads.length >= 3 && state.placed.length >= 5);
    fs.writeFileSync(path.join(tmp, 'reload-expect.json'), JSON.stringify(state, null, 1));
  });
});
