import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fixture, repoRoot } from '../fixtures';
import { buildRepo, git, snapshot, tempDir, testEnv } from './helpers';
import { loadThreads } from '../../../src/core/load';

async function setUp(file: string): Promise<{ dir: string; mbox: string }> {
  const mbox = fixture('git', file);
  const threads = await loadThreads([mbox]);
  const series = threads.flatMap((t) => t.series).filter((s) => s.patches.length > 0);
  const dir = tempDir('annotate');
  buildRepo(dir, series);
  return { dir, mbox };
}

function annotate(mbox: string, dir: string): { status: number | null; lines: string[]; stderr: string } {
  const r = spawnSync(process.execPath, [path.join(repoRoot(), 'dist/cli.js'), 'annotate', mbox, '--tree', dir], { env: testEnv(), encoding: 'utf8' });
  return { status: r.status, lines: r.stdout.split('\n').filter(Boolean), stderr: r.stderr };
}

test('annotate prints comments at their tip lines in quickfix format', async () => {
  const { dir, mbox } = await setUp('io_uring-fix-io-hang-io_wq_put_and_exit-v3.mbox');
  const before = snapshot(dir);
  const r = annotate(mbox, dir);
  assert.equal(r.status, 0, r.stderr);
  // Read from the mail: Jens quotes hunk 1 down to its last added line (new line 1930 + 6) and
  // hunk 2 down to `io_iopoll_try_reap_events(node->ctx);` (new line 3367 + 8); one patch, so the
  // tip lines are the patch's own.
  assert.ok(r.lines.includes('io_uring/io_uring.c:1936: Jens Axboe: I think this comment deserves to be more descriptive. Normally we'), r.lines.join('\n'));
  assert.ok(r.lines.includes("io_uring/io_uring.c:3375: Jens Axboe: The main issue here is that if someone isn't polling for them, then we"));
  assert.ok(r.lines.length >= 10);
  for (const l of r.lines) assert.match(l, /^[^:\s]+:\d+: [^:]+: /);
  assert.deepEqual(snapshot(dir), before);
  assert.equal(git(dir, ['for-each-ref', '--format=%(refname)', 'refs/heads/review/']).trim(), 'refs/heads/review/io-uring-fix-io-hang-in-io-wq-put-and-exit-from-do-exit-v3');
});

test('annotate carries comments through later patches of the series', async () => {
  const { dir, mbox } = await setUp('liburing-aarch64-nolibc-support-v3.mbox');
  const r = annotate(mbox, dir);
  assert.equal(r.status, 0, r.stderr);
  const tip = 'refs/heads/review/aarch64-support-v3';
  for (const l of r.lines) {
    const m = /^([^:]+):(\d+): ([^:]+): /.exec(l);
    assert.ok(m, l);
    if (/\(.*outdated.*\)/.test(m[3])) continue;
    // Every position that is not outdated exists in the file at the tip.
    const n = git(dir, ['show', `${tip}:${m[1]}`]).split('\n').length;
    assert.ok(Number(m[2]) >= 1 && Number(m[2]) <= n, l);
  }
});

test('annotate follows hunks git applied at an offset', async () => {
  const { dir, mbox } = await setUp('io_uring-fix-io-hang-io_wq_put_and_exit-v3.mbox');
  // The reviewer's tree has five more lines at the top than the sender's.
  const file = path.join(dir, 'io_uring/io_uring.c');
  fs.writeFileSync(file, `${['a', 'b', 'c', 'd', 'e'].map((x) => `/* ${x} */`).join('\n')}\n${fs.readFileSync(file, 'utf8')}`);
  git(dir, ['commit', '-q', '-am', 'five lines more']);
  const r = annotate(mbox, dir);
  assert.equal(r.status, 0, r.stderr);
  assert.ok(r.lines.includes('io_uring/io_uring.c:1941: Jens Axboe: I think this comment deserves to be more descriptive. Normally we'), r.lines.join('\n'));
  assert.ok(r.lines.includes("io_uring/io_uring.c:3380: Jens Axboe: The main issue here is that if someone isn't polling for them, then we"));
});
