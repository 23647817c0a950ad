import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createReply } from '../../../src/core/reply/create';
import { composeBody } from '../../../src/core/reply/compose';
import { renderMail } from '../../../src/core/reply/draft';
import { parseCommentsJson } from '../../../src/core/reply/comments-file';
import { wrapText } from '../../../src/core/reply/wrap';
import { appendTrailers } from '../../../src/core/reply/trailers';
import { InputError } from '../../../src/core/model';
import { REVIEWER, readFixture, thread } from './helpers';

const SPLICE = '<a49db514f8b0b7d509c50ed0185688ece5830363.1581851604.git.asml.silence@gmail.com>';

test('golden: only the commented hunks, 5 lines of context, [...] where cut, comments under their lines', async () => {
  const t = await thread('liburing-splice-helpers-v2.mbox', SPLICE);
  const comments = parseCommentsJson(readFixture('splice-helpers-1of2.comments.json'), 'splice-helpers-1of2.comments.json');
  const reply = createReply({
    thread: t,
    messageId: SPLICE,
    comments,
    trailers: ['Reviewed-by'],
    identity: REVIEWER,
    now: new Date('2026-11-29T18:00:00Z'),
    tzOffsetMinutes: 60,
    replyMessageId: '<reply-splice-1@example.org>',
  });
  assert.equal(renderMail(reply.text).toString('utf8'), readFixture('splice-helpers-1of2.expected.eml'));
});

test('quoted lines are never re-wrapped; own text wraps at 72', async () => {
  const t = await thread('liburing-splice-helpers-v2.mbox', SPLICE);
  const original = t.messages.find((m) => m.messageId === SPLICE)!;
  const patch = t.series.flatMap((s) => s.patches).find((p) => p.messageId === SPLICE)!;
  const long = 'word '.repeat(40).trim();
  const body = composeBody({
    original,
    patch,
    comments: [{ kind: 'line', file: 'src/include/liburing.h', side: 'new', line: 194, body: long }],
  });
  // The hunk header of the original is 82 characters and stays on one line.
  assert.ok(body.includes('> @@ -191,6 +191,17 @@ static inline void io_uring_prep_rw(int op, struct io_uring_sqe *sqe, int fd,\n'));
  const own = body.split('\n').filter((l) => l.startsWith('word'));
  assert.ok(own.length >= 3);
  for (const l of own) assert.ok(l.length <= 72, l);
  assert.equal(own.join(' '), long);
  // Nothing quoted after the last comment.
  assert.ok(body.trimEnd().endsWith(own[own.length - 1]));
});

test('several comments on one hunk continue the quote without repeating the hunk header', async () => {
  const t = await thread('liburing-splice-helpers-v2.mbox', SPLICE);
  const original = t.messages.find((m) => m.messageId === SPLICE)!;
  const patch = t.series.flatMap((s) => s.patches).find((p) => p.messageId === SPLICE)!;
  const body = composeBody({
    original,
    patch,
    comments: [
      { kind: 'line', file: 'src/include/liburing.h', side: 'new', line: 201, body: 'second' },
      { kind: 'line', file: 'src/include/liburing.h', side: 'new', line: 194, body: 'first' },
      { kind: 'line', file: 'src/include/liburing.h', side: 'new', line: 194, body: 'first, again' },
    ],
  });
  assert.equal((body.match(/^> @@ /gm) ?? []).length, 1);
  assert.ok(body.indexOf('\nfirst\n') < body.indexOf('\nfirst, again\n'));
  assert.ok(body.indexOf('\nfirst, again\n') < body.indexOf('\nsecond\n'));
  // Between "first" (new 194) and "second" (new 201): lines 195..200 exist, at most 5 above 201 are quoted.
  const between = body.slice(body.indexOf('first, again'), body.indexOf('\nsecond\n')).split('\n').filter((l) => l.startsWith('>'));
  assert.deepEqual(between[0], '> [...]');
  assert.equal(between.length, 1 + 6);
});

test('a comment that points outside the patch is one sentence naming the file', async () => {
  const t = await thread('liburing-splice-helpers-v2.mbox', SPLICE);
  const run = (c: object) => () =>
    createReply({ thread: t, messageId: SPLICE, comments: parseCommentsJson(JSON.stringify([c]), 'c.json'), identity: REVIEWER, source: 'c.json' });
  assert.throws(run({ file: 'src/include/liburing.h', side: 'new', line: 5, body: 'x' }), (e: unknown) =>
    e instanceof InputError && e.message === 'c.json: comment 1 points at src/include/liburing.h new line 5, which is not in the patch');
  assert.throws(run({ file: 'nope.c', side: 'new', line: 5, body: 'x' }), /c\.json: comment 1 names nope\.c, which the patch does not touch/);
  assert.throws(() => parseCommentsJson('[{"file":"a","side":"left","line":1,"body":"x"}]', 'c.json'), /side "left"/);
  assert.throws(() => parseCommentsJson('{', 'c.json'), /c\.json: is not valid JSON/);
});

test('without comments the whole message is quoted, signature left out', async () => {
  const t = await thread('liburing-splice-helpers-v2.mbox', SPLICE);
  const reply = createReply({ thread: t, messageId: SPLICE, comments: [], identity: REVIEWER, replyMessageId: '<x@example.org>' });
  assert.match(reply.text, /\n\nOn Sun, 16 Feb 2020 11:14:40 \+0000, Pavel Begunkov wrote:\n> Add splice helpers and update io_uring.h\n/);
  assert.doesNotMatch(reply.text, /^> -- $/m);
  assert.doesNotMatch(reply.text, /2\.24\.0/);
});

test('wrapping keeps code, URLs, list items and the user\'s own line breaks', () => {
  const url = `https://lore.kernel.org/io-uring/${'x'.repeat(80)}/`;
  assert.equal(wrapText(url), url);
  assert.equal(wrapText('\tif (ret < 0) { return ret; } /* a long line of code that must stay exactly as typed */'), '\tif (ret < 0) { return ret; } /* a long line of code that must stay exactly as typed */');
  assert.equal(wrapText('short\nlines  \nstay'), 'short\nlines\nstay');
  const item = wrapText(`- ${'aaaa '.repeat(20).trim()}`).split('\n');
  assert.ok(item[1].startsWith('  aaaa'));
  assert.equal(wrapText('Reviewed-by: A Very Long Name Indeed With Many Parts <a.very.long.address@example.org>').split('\n').length, 1);
});

test('trailers are added once, after a blank line, next to other trailers', () => {
  assert.equal(appendTrailers('Looks good.\n', ['Reviewed-by: A <a@x>']), 'Looks good.\n\nReviewed-by: A <a@x>\n');
  assert.equal(appendTrailers('x\n\nReviewed-by: A <a@x>\n', ['Reviewed-by: A <a@x>', 'Tested-by: A <a@x>']), 'x\n\nReviewed-by: A <a@x>\nTested-by: A <a@x>\n');
});
