/**
 * The reply appended to its thread's mbox and imported again: each comment
 * comes back at the anchor it was written for, in the right thread, and git
 * treats the reply as a reply, not as a patch.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync, rmSync, statSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { findThread, loadThreads } from '../../../src/core/load';
import { extractComments } from '../../../src/core/review';
import { createReply } from '../../../src/core/reply/create';
import { DraftComment } from '../../../src/core/reply/compose';
import { renderMail } from '../../../src/core/reply/draft';
import { TrailerName } from '../../../src/core/reply/trailers';
import { parseCommentsJson } from '../../../src/core/reply/comments-file';
import { fixture } from '../fixtures';
import { REVIEWER, appendMboxrd, readFixture } from './helpers';

const norm = (s: string): string => s.replace(/\s+/g, ' ').trim();

interface Case {
  mbox: string;
  answer: string;
  comments: DraftComment[];
  trailers?: TrailerName[];
}

/** Composes, appends, re-imports; returns the new thread, the reply's id and its path. */
async function roundTrip(dir: string, c: Case, replyId: string) {
  const mbox = fixture('reply', c.mbox);
  const thread = findThread(await loadThreads([mbox]), c.answer)!;
  const reply = createReply({
    thread,
    messageId: c.answer,
    comments: c.comments,
    trailers: c.trailers,
    identity: REVIEWER,
    now: new Date('2026-11-29T18:00:00Z'),
    replyMessageId: replyId,
  });
  const wire = renderMail(reply.text);
  const eml = path.join(dir, `${c.mbox}.reply.eml`);
  writeFileSync(eml, wire);
  const out = path.join(dir, c.mbox);
  writeFileSync(out, appendMboxrd(readFileSync(mbox), wire));
  const threads = await loadThreads([out]);
  const again = findThread(threads, replyId);
  assert.ok(again, 'the reply is imported');
  assert.equal(again.rootMessageId, thread.rootMessageId, 'the reply joins the thread it answers');
  assert.equal(again.parentOf[replyId], c.answer, 'the reply is threaded under the answered mail');
  assert.equal(threads.length, (await loadThreads([mbox])).length, 'no new thread appears');
  return { thread: again, eml };
}

function checkComments(thread: Parameters<typeof extractComments>[0], replyId: string, c: Case): void {
  const got = extractComments(thread).filter((x) => x.messageId === replyId);
  const want = c.comments.map((x) => ({
    kind: x.kind,
    patchMessageId: c.answer,
    file: x.kind === 'line' ? x.file : null,
    side: x.kind === 'line' ? x.side : null,
    line: x.kind === 'line' ? x.line : null,
    body: norm(x.body),
  }));
  const seen = got.map((x) => ({ kind: x.kind, patchMessageId: x.patchMessageId, file: x.file, side: x.side, line: x.line, body: norm(x.body) }));
  const order = (a: { body: string }, b: { body: string }) => a.body.localeCompare(b.body);
  assert.deepEqual([...seen].sort(order), [...want].sort(order));
  for (const x of got) {
    assert.equal(x.author.address, REVIEWER.address);
    assert.equal(x.inReplyTo, null);
  }
}

function git(cwd: string, args: string[], input?: Buffer) {
  const env = {
    ...process.env,
    HOME: cwd,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: path.join(cwd, '.gitconfig-none'),
    GIT_AUTHOR_NAME: 'T',
    GIT_AUTHOR_EMAIL: 't@example.org',
    GIT_COMMITTER_NAME: 'T',
    GIT_COMMITTER_EMAIL: 't@example.org',
  };
  return spawnSync('git', args, { cwd, env, input, encoding: 'utf8' });
}

/** git mailinfo finds no patch in the reply, and git am refuses it as empty without making a commit. */
function checkGitSeesReply(dir: string, eml: string): void {
  const repo = mkdtempSync(path.join(dir, 'repo-'));
  assert.equal(git(repo, ['init', '-q']).status, 0);
  assert.equal(git(repo, ['commit', '-q', '--allow-empty', '-m', 'base']).status, 0);
  const head = git(repo, ['rev-parse', 'HEAD']).stdout.trim();
  const msg = path.join(dir, 'msg');
  const patch = path.join(dir, 'patch');
  const info = git(repo, ['mailinfo', msg, patch], readFileSync(eml));
  assert.equal(info.status, 0, info.stderr);
  assert.equal(statSync(patch).size, 0, 'git mailinfo finds no diff in the reply');
  assert.match(info.stdout, /^Subject: /m);
  const am = git(repo, ['am', eml]);
  assert.notEqual(am.status, 0);
  assert.match(`${am.stdout}${am.stderr}`, /Patch is empty/);
  git(repo, ['am', '--abort']);
  assert.equal(git(repo, ['rev-parse', 'HEAD']).stdout.trim(), head, 'git am made no commit');
}

const CASES: Record<string, Case> = {
  splice: {
    mbox: 'liburing-splice-helpers-v2.mbox',
    answer: '<a49db514f8b0b7d509c50ed0185688ece5830363.1581851604.git.asml.silence@gmail.com>',
    comments: parseCommentsJson(readFixture('splice-helpers-1of2.comments.json'), 'splice-helpers-1of2.comments.json'),
    trailers: ['Reviewed-by'],
  },
  // A patch sent from Thunderbird (no `---`), comments on removed lines; coordinates read off the hunk headers.
  uringCmd: {
    mbox: 'io_uring-uring_cmd-sqe-copying.mbox',
    answer: '<5d03de61-1419-443f-b3a4-e1f2ac2fe137@kernel.dk>',
    comments: [
      { kind: 'line', file: 'io_uring/uring_cmd.c', side: 'old', line: 193, body: 'Unrelated cleanup, could be a patch of its own.' },
      { kind: 'line', file: 'io_uring/uring_cmd.c', side: 'old', line: 205, body: 'This copy now lives in io_uring_sqe_copy(), fine.' },
      { kind: 'line', file: 'io_uring/uring_cmd.c', side: 'new', line: 216, body: 'Missing space after REQ_F_FORCE_ASYNC.' },
      { kind: 'line', file: 'io_uring/uring_cmd.c', side: 'new', line: 275, body: 'Does -EAGAIN always mean the command is retried from io-wq? If so, say it in a comment here.' },
      { kind: 'commit-message', body: 'Please add a Fixes: tag for d6211ebbdaa5.' },
    ],
  },
  // Cyrillic commit message and comment, 8bit body.
  t5100: {
    mbox: 'git-t5100-sample-utf8-subject.mbox',
    answer: '<1226501681-24923-1-git-send-email-bda@mnsspb.ru>',
    comments: parseCommentsJson(readFixture('t5100-utf8.comments.json'), 't5100-utf8.comments.json'),
  },
  // The commit message quotes compiler output whose code lines also occur in the diff.
  compatGuard: {
    mbox: 'io_uring-register-compat-guard.mbox',
    answer: '<80eceef8-b2d7-47e8-9ef9-7264249dedbb@kernel.dk>',
    comments: [
      { kind: 'commit-message', body: 'Please trim the compiler output to the first error.' },
      { kind: 'line', file: 'io_uring/register.c', side: 'new', line: 17, body: 'Keep the includes sorted.' },
      { kind: 'line', file: 'io_uring/register.c', side: 'old', line: 281, body: 'The braces go away here; fine.' },
    ],
  },
  // Patch 2/8 of an 8-patch series with 38 mails.
  iomap: {
    mbox: 'iomap-async-dio-perf-v4.mbox',
    answer: '<20230720181310.71589-3-axboe@kernel.dk>',
    comments: [
      { kind: 'general', body: 'Nice cleanup overall.' },
      { kind: 'line', file: 'fs/iomap/direct-io.c', side: 'new', line: 23, body: 'Bit 27 is free today, but please keep the list sorted.' },
      { kind: 'line', file: 'fs/iomap/direct-io.c', side: 'old', line: 174, body: 'This comment was useful; keep a version of it.' },
      { kind: 'line', file: 'fs/iomap/direct-io.c', side: 'new', line: 534, body: 'Why set it this late?' },
      { kind: 'commit-message', line: 6, body: 'Is that so? Writes behave the same, but the flag is new.' },
    ],
    trailers: ['Reviewed-by'],
  },
};

for (const [name, c] of Object.entries(CASES)) {
  test(`round trip (${name}): every comment comes back on its anchor, in the right thread; git sees a reply`, async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'reply-rt-'));
    try {
      const replyId = `<roundtrip-${name}@example.org>`;
      const { thread, eml } = await roundTrip(dir, c, replyId);
      checkComments(thread, replyId, c);
      checkGitSeesReply(dir, eml);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}

test('round trip: trailers on several patches and on the cover letter land where the series keeps them', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'reply-rt-'));
  try {
    const mbox = fixture('reply', 'iomap-async-dio-perf-v4.mbox');
    const thread = findThread(await loadThreads([mbox]), '<20230720181310.71589-1-axboe@kernel.dk>')!;
    let bytes = readFileSync(mbox);
    const targets: [string, TrailerName][] = [
      ['<20230720181310.71589-2-axboe@kernel.dk>', 'Tested-by'],
      ['<20230720181310.71589-4-axboe@kernel.dk>', 'Tested-by'],
      ['<20230720181310.71589-1-axboe@kernel.dk>', 'Acked-by'],
    ];
    targets.forEach(([id, t], i) => {
      const r = createReply({ thread, messageId: id, comments: [], trailers: [t], identity: REVIEWER, replyMessageId: `<trailer-${i}@example.org>` });
      bytes = appendMboxrd(bytes, renderMail(r.text));
    });
    const out = path.join(dir, 'iomap.mbox');
    writeFileSync(out, bytes);
    const again = findThread(await loadThreads([out]), '<trailer-0@example.org>')!;
    const series = again.series.find((s) => s.coverMessageId === '<20230720181310.71589-1-axboe@kernel.dk>')!;
    const mine = (list: { name: string; value: string }[] = []) => list.filter((t) => t.value.includes(REVIEWER.address)).map((t) => `${t.name}: ${t.value}`);
    assert.deepEqual(mine(series.replyTrailers['<20230720181310.71589-2-axboe@kernel.dk>']), ['Tested-by: Jöhn Q. Revïewer <john@example.org>']);
    assert.deepEqual(mine(series.replyTrailers['<20230720181310.71589-4-axboe@kernel.dk>']), ['Tested-by: Jöhn Q. Revïewer <john@example.org>']);
    assert.deepEqual(mine(series.coverTrailers), ['Acked-by: Jöhn Q. Revïewer <john@example.org>']);
    // A trailer-only reply carries no comment.
    assert.equal(extractComments(again).filter((x) => x.messageId.startsWith('<trailer-')).length, 0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('round trip: answering a reviewer\'s comment joins that conversation at the same anchor', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'reply-rt-'));
  try {
    const mbox = fixture('reply', 'liburing-splice-helpers-v2.mbox');
    const thread = findThread(await loadThreads([mbox]), '<c1d203e2-a31a-2e61-fc2f-4b144209e0cc@samba.org>')!;
    const theirs = extractComments(thread).filter((c) => c.messageId === '<c1d203e2-a31a-2e61-fc2f-4b144209e0cc@samba.org>' && c.kind === 'line');
    assert.ok(theirs.length > 0);
    let bytes = readFileSync(mbox);
    theirs.forEach((c, i) => {
      const r = createReply({ thread, messageId: c.messageId, comments: [], answering: c.body, identity: REVIEWER, replyMessageId: `<answer-${i}@example.org>` });
      assert.ok(!r.text.includes('\n> -- \n'));
      // What the user types under the quoted comment.
      bytes = appendMboxrd(bytes, renderMail(`${r.text}Agreed, I will change that in v3 (${i}).\n`));
    });
    const out = path.join(dir, 'answer.mbox');
    writeFileSync(out, bytes);
    const again = findThread(await loadThreads([out]), '<answer-0@example.org>')!;
    const all = extractComments(again);
    theirs.forEach((c, i) => {
      const mine = all.filter((x) => x.messageId === `<answer-${i}@example.org>`);
      assert.equal(mine.length, 1, `answer ${i}: ${JSON.stringify(mine)}`);
      assert.equal(mine[0].body, `Agreed, I will change that in v3 (${i}).`);
      assert.equal(mine[0].inReplyTo, c.id);
      assert.deepEqual([mine[0].patchMessageId, mine[0].file, mine[0].side, mine[0].line], [c.patchMessageId, c.file, c.side, c.line]);
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
