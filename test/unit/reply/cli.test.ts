import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fixture, repoRoot } from '../fixtures';
import { readFixture } from './helpers';

/** Runs the built CLI (`npm run build` makes dist/cli.js before the tests). */
async function run(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const r = spawnSync(process.execPath, [path.join(repoRoot(), 'dist/cli.js'), ...argv], { encoding: 'utf8' });
  return { code: r.status ?? -1, out: r.stdout, err: r.stderr };
}

test('kernel-review reply writes the golden reply to stdout', async () => {
  const r = await run([
    'reply',
    fixture('reply', 'liburing-splice-helpers-v2.mbox'),
    '--to', 'a49db514f8b0b7d509c50ed0185688ece5830363.1581851604.git.asml.silence@gmail.com',
    '--comments', fixture('reply', 'splice-helpers-1of2.comments.json'),
    '--trailer', 'reviewed-by',
    '--from', 'Jöhn Q. Revïewer <john@example.org>',
    '--date', '2026-11-29T19:00:00+01:00',
    '--message-id', 'reply-splice-1@example.org',
  ]);
  assert.equal(r.err, '');
  assert.equal(r.code, 0);
  assert.equal(r.out, readFixture('splice-helpers-1of2.expected.eml'));
});

test('kernel-review reply: bad input is one line and exit status 2', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cli-reply-'));
  try {
    const bad = path.join(dir, 'c.json');
    writeFileSync(bad, '[{"file":"src/include/liburing.h","side":"new","line":3,"body":"x"}]');
    const base = ['reply', fixture('reply', 'liburing-splice-helpers-v2.mbox'), '--from', 'J <j@example.org>'];
    let r = await run([...base, '--to', '<a49db514f8b0b7d509c50ed0185688ece5830363.1581851604.git.asml.silence@gmail.com>', '--comments', bad]);
    assert.equal(r.code, 2);
    assert.equal(r.err, `kernel-review: ${bad}: comment 1 points at src/include/liburing.h new line 3, which is not in the patch\n`);
    r = await run([...base, '--to', '<nope@example.org>']);
    assert.equal(r.code, 2);
    assert.match(r.err, /holds no message <nope@example\.org>\n$/);
    r = await run([...base]);
    assert.equal(r.code, 2);
    assert.equal(r.err, 'kernel-review reply: --to <message-id> is required\n');
    r = await run([...base, '--to', 'x', '--trailer', 'Signed-off-by']);
    assert.equal(r.code, 2);
    assert.match(r.err, /not a trailer this tool adds/);
    assert.equal(r.out, '');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
