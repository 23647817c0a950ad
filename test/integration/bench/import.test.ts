/// <reference types="mocha" />
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { KernelReviewApi } from '../../../src/extension';
import { EXTENSION_ID } from '../support/env';

/** Longest gaps of a 5 ms timer while `fn` runs: how long the extension host's event loop was blocked. */
async function probe<T>(fn: () => Thenable<T>): Promise<{ result: T; ms: number; maxStall: number; stalls50: number; stalls100: number }> {
  let last = performance.now();
  let maxStall = 0;
  let stalls50 = 0;
  let stalls100 = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    const gap = now - last - 5;
    last = now;
    if (gap > maxStall) maxStall = gap;
    if (gap > 50) stalls50++;
    if (gap > 100) stalls100++;
  }, 5);
  const t0 = performance.now();
  try {
    const result = await fn();
    return { result, ms: performance.now() - t0, maxStall, stalls50, stalls100 };
  } finally {
    clearInterval(timer);
  }
}

suite('bench', () => {
  test('activation and a large import', async function () {
    this.timeout(30 * 60_000);
    const out: Record<string, unknown> = { vscode: vscode.version, uiKind: vscode.env.uiKind };
    const ext = vscode.extensions.getExtension<KernelReviewApi>(EXTENSION_ID)!;
    assert.equal(ext.isActive, false, 'the extension is not active before its first use');
    const t0 = performance.now();
    const api = (await ext.activate())!;
    out.activateWallMs = performance.now() - t0;
    out.activateCallMs = api.activationMs;
    out.activationDetail = api.activationDetail;
    const mbox = process.env.KERNEL_REVIEW_BENCH_MBOX;
    if (mbox) {
      out.mbox = path.basename(mbox);
      out.mboxBytes = fs.statSync(mbox).size;
      const imp = await probe(() => vscode.commands.executeCommand<string[]>('kernelReview.importMbox', vscode.Uri.file(mbox)));
      out.importMs = imp.ms;
      out.importMaxStallMs = imp.maxStall;
      out.importStallsOver50 = imp.stalls50;
      out.importStallsOver100 = imp.stalls100;
      out.threads = imp.result?.length ?? 0;
      const summaries = api.store.list();
      out.messages = summaries.reduce((n, s) => n + s.messages, 0);
      out.comments = summaries.reduce((n, s) => n + s.comments, 0);
      out.placed = api.index.list().length;
      const open = await probe(() => vscode.commands.executeCommand('kernelReview.nextComment'));
      out.firstCommentMs = open.ms;
      out.rssMb = process.memoryUsage().rss / 2 ** 20;
    }
    const file = path.join(process.env.KERNEL_REVIEW_IT_TMP ?? '/tmp', 'bench.json');
    fs.writeFileSync(file, JSON.stringify(out, null, 1));
    console.log(`[bench] ${JSON.stringify(out)}`);
  });
});
