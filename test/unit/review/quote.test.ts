/**
 * Quote shapes of real reply mails: attributions, snips, signatures,
 * greetings, trailer-only blocks, Outlook original-message blocks,
 * format=flowed, `|` quoting, stripped `>` markers and HTML-only replies.
 * Every mail comes from test/fixtures/review (provenance in its README).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { loadThreads } from '../../../src/core/load';
import { MailMessage, Thread } from '../../../src/core/model';
import { extractComments } from '../../../src/core/review';
import { attributionAuthor, isSnip, parseQuotes, restoreStrippedQuotes } from '../../../src/core/review/quote';
import { blocksAt } from '../../../src/core/review/blocks';
import { fixture } from '../fixtures';

async function thread(...parts: string[]): Promise<Thread> {
  const threads = await loadThreads([fixture('review', ...parts)]);
  assert.equal(threads.length, 1);
  return threads[0];
}

function message(t: Thread, id: string): MailMessage {
  const m = t.messages.find((x) => x.messageId === id);
  assert.ok(m, `no message ${id}`);
  return m;
}

const ws = (s: string) => s.replace(/\s+/g, ' ').trim();

test('attribution "On <date>, Name <addr> wrote:" names the quoted author', async () => {
  const t = await thread('tuning', 'io_uring-ring-quiesce.mbox');
  const jann = parseQuotes(message(t, '<CAG48ez3ezOA2nDazwLXJgz36fzZfU7Po8vSGxfsO3JL2HiTz=g@mail.gmail.com>').body);
  assert.equal(jann[0].kind, 'attribution');
  assert.equal(jann[0].who, 'Jens Axboe <axboe@kernel.dk>');
  const jens = parseQuotes(message(t, '<c86cfa51-af78-8686-7b95-2918d54a22d2@kernel.dk>').body);
  assert.equal(jens[0].kind, 'attribution');
  assert.equal(jens[0].who, 'Jann Horn');
});

test('attribution "* Name <addr> [yymmdd hh:mm]:" (mutt, Liam Howlett)', async () => {
  const t = await thread('tuning', 'mm-madvise-process_madvise-mmap_lock-rfc.mbox');
  const liam = parseQuotes(message(t, '<vwyuhra3bjcnwxsmenngsingp5gi2xqrazej5eescnuyz332q5@jc5u34qg4umc>').body);
  const a = liam.find((l) => l.kind === 'attribution');
  assert.equal(a?.text, '* Shakeel Butt <shakeel.butt@linux.dev> [250114 13:14]:');
  assert.equal(a?.who, 'Shakeel Butt <shakeel.butt@linux.dev>');
});

test('attribution "* Name <addr> wrote:" (Ingo Molnar)', async () => {
  const t = await thread('tuning', 'fsdevel-iocb_dsync-iov_iter_zero-subthread.mbox');
  const ingo = parseQuotes(message(t, '<YpCjaL9QuuCB23A5@gmail.com>').body);
  const a = ingo.find((l) => l.kind === 'attribution');
  assert.equal(a?.who, 'Jason A. Donenfeld <Jason@zx2c4.com>');
});

test('attribution "Am <date> schrieb Name:" (Thunderbird, German)', async () => {
  const t = await thread('tuning', 'liburing-cqe_get_data-const-v1.mbox');
  const metze = parseQuotes(message(t, '<a26428e4-39d7-972c-cc68-45f7230d51b9@samba.org>').body);
  assert.equal(metze[0].text, 'Am 06.02.20 um 17:04 schrieb Jens Axboe:');
  assert.equal(metze[0].kind, 'attribution');
  assert.equal(metze[0].who, 'Jens Axboe');
});

test('attribution "Quoting Name (date)" (alot), nested twice', async () => {
  const t = await thread('shapes', 'quoting-alot.eml');
  const lines = parseQuotes(t.messages[0].body);
  const attrs = lines.filter((l) => l.kind === 'attribution');
  assert.deepEqual(
    attrs.map((l) => [l.depth, l.who]),
    [
      [0, 'Stephen Boyd'],
      [1, 'Stephen Boyd'],
    ],
  );
  const own = blocksAt(lines, 0);
  assert.equal(own.length, 1);
  assert.equal(own[0].body, "I have an implementation that does this that I'll send.");
});

test('attribution "Name <addr> writes:" (Gnus/notmuch), as written in block-atomic-writes-v4', () => {
  const lines = parseQuotes('John Garry <john.g.garry@oracle.com> writes:\n\n> From: Prasad Singamsetty <prasad.singamsetty@oracle.com>\n>\n');
  assert.equal(lines[0].kind, 'attribution');
  assert.equal(lines[0].who, 'John Garry <john.g.garry@oracle.com>');
  assert.equal(attributionAuthor('On 2024/10/17 23:09, Matthew Wilcox wrote:'), 'Matthew Wilcox');
  assert.equal(attributionAuthor('On Mon, May 23, 2022 at 09:44:12AM -0600, Jens Axboe wrote:'), 'Jens Axboe');
});

test('Outlook "-----Original Message-----": the block is attribution, everything below it is quoted', async () => {
  const t = await thread('shapes', 'outlook-original-message.eml');
  const lines = parseQuotes(t.messages[0].body);
  const start = lines.findIndex((l) => l.text === '-----Original Message-----');
  assert.ok(start > 0);
  const from = lines.find((l) => l.kind === 'attribution' && l.text.startsWith('From:'));
  assert.equal(from?.who, 'Matthias Andree <matthias.andree@stud.uni-dortmund.de>');
  const after = lines.slice(start).filter((l) => l.kind === 'text');
  assert.ok(after.length > 20 && after.every((l) => l.depth === 1), 'the original message is one level deep');
  const comments = extractComments(t);
  assert.equal(comments.length, 2);
  assert.ok(comments[0].body.startsWith('No problems here... with 2.4.3'));
  assert.equal(comments[0].kind, 'general');
  assert.ok(!comments[0].body.includes('I have several machines here'));
  // The answered mail is not in the input: its text is recovered once, attributed to its author.
  assert.equal(comments[1].author.name, 'Matthias Andree');
  assert.equal(comments[1].messageId, t.messages[0].messageId);
  assert.ok(comments[1].body.startsWith('I have several machines here'), 'greeting "Hi," left out');
  assert.ok(!comments[1].body.includes('To unsubscribe'), 'signature and list footer left out');
});

test('snip markers: "[...]", "<snip>", "[snip]", "[ ... ]"; a bare "..." only next to quoted text', async () => {
  for (const s of ['[...]', '<snip>', '[snip]', '[ ... ]', '[..]']) assert.ok(isSnip(s), s);
  const t = await thread('tuning', 'io_uring-ring-quiesce.mbox');
  const jann = parseQuotes(message(t, '<CAG48ez3ezOA2nDazwLXJgz36fzZfU7Po8vSGxfsO3JL2HiTz=g@mail.gmail.com>').body);
  assert.ok(jann.filter((l) => l.kind === 'snip').length >= 4);
  // Pavel's oops log: "..." inside his own text stays part of his comment.
  const tw = await thread('tuning', 'io_uring-task_work-for-links.mbox');
  const pavel = extractComments(tw).filter((c) => c.messageId === '<7bfac3fc-22be-0ec7-fb7e-4fa714091ba9@gmail.com>');
  const oops = pavel.find((c) => c.body.includes('BUG: kernel NULL pointer dereference'));
  assert.ok(oops && oops.body.includes('Call Trace:'), 'the log after "..." is in the same comment');
});

test('signatures ("-- " and below) and greetings/sign-offs alone are not comments', async () => {
  const t = await thread('tuning', 'liburing-splice-helpers-v2.mbox');
  const comments = extractComments(t);
  for (const c of comments) {
    assert.ok(!/^Hi Pavel/.test(c.body), 'greeting stripped');
    assert.ok(!c.body.includes('Pavel Begunkov\n') && !c.body.endsWith('Pavel Begunkov'), 'signature stripped');
    assert.ok(!/Thanks!\s*metze\s*$/.test(c.body), 'sign-off stripped');
  }
  // "Hi, Jens," (with a comma after "Hi", as io_uring-register-compat-guard has it) alone is a greeting too.
  assert.deepEqual(blocksAt(parseQuotes('Hi, Jens,\n\nOn Wed, Jan 17, 2024 Jens Axboe wrote:\n> text\n'), 0), []);
  const metze = comments.filter((c) => c.messageId === '<c1d203e2-a31a-2e61-fc2f-4b144209e0cc@samba.org>');
  assert.equal(metze.length, 3);
  assert.equal(ws(metze[2].body), 'Can you please add BUILD_BUG_SQE_ELEM() checks for the new elements in io_uring_init()?');
});

test('trailer-only blocks are not comments; an HTML-only reply is read through its text rendering', async () => {
  const t = await thread('shapes', 'html-only-reply.eml');
  const lines = parseQuotes(t.messages[0].body);
  assert.ok(lines.some((l) => l.kind === 'attribution' && l.who === 'Xiaogang.Chen'));
  assert.ok(lines.some((l) => l.depth === 1 && l.text.startsWith('After partial migration')), 'blockquote became a quote level');
  assert.ok(lines.some((l) => l.depth === 0 && l.text.startsWith('Reviewed-by: Philip Yang')));
  assert.deepEqual(extractComments(t), [], 'a lone Reviewed-by is a trailer, not a comment');
});

test('format=flowed replies: comments and anchors survive the soft line breaks', async () => {
  const t = await thread('tuning', 'io_uring-uring_cmd-sqe-copying.mbox');
  const pavel = extractComments(t).filter((c) => c.messageId === '<6659c8b0-dff2-4b5c-b4bd-00a8110e8358@gmail.com>');
  assert.equal(pavel.length, 1);
  assert.ok(ws(pavel[0].body).startsWith("It'd be great if we can't crash the kernel (or do sth more nefarious with that)"));
  assert.deepEqual([pavel[0].file, pavel[0].side, pavel[0].line], ['io_uring/uring_cmd.c', 'new', 219]);
});

test('"|" quoting is one level deeper and not part of the comment', async () => {
  const t = await thread('tuning', 'fsdevel-iocb_dsync-iov_iter_zero-subthread.mbox');
  const ingo = message(t, '<YpCjaL9QuuCB23A5@gmail.com>');
  const lines = parseQuotes(ingo.body);
  const piped = lines.filter((l) => l.text.startsWith('$ dd if=/dev/zero'));
  assert.ok(piped.length === 2 && piped.every((l) => l.depth === 1));
  const comments = extractComments(t).filter((c) => c.messageId === ingo.messageId);
  assert.deepEqual(
    comments.map((c) => c.body.split('\n')[0]),
    ['Those ~2x speedup numbers are indeed looking very nice:', 'Patch fell through the cracks & it doesn\'t apply anymore:'],
  );
});

test('stripped ">" markers (seed 003 rendering) are matched against the answered mail', async () => {
  // Nitesh Shetty's reply to patch 1/3, with its ">" markers removed the way seed 003 lost them.
  const t = await thread('tuning', 'block-bio_may_need_split-v1.mbox');
  const id = '<20251220081922.3bbmpvjorqcad5rb@green245.gost>';
  const stripped = message(t, id).body.replace(/^>+ ?/gm, '');
  const degraded: Thread = { ...t, messages: t.messages.map((m) => (m.messageId === id ? { ...m, body: stripped } : m)) };
  const c = extractComments(degraded).filter((x) => x.messageId === id);
  assert.equal(c.length, 1);
  assert.ok(c[0].body.startsWith('REQ_OP_READ, REQ_OP_WRITE check is not necessary'));
  assert.deepEqual([c[0].kind, c[0].file, c[0].side, c[0].line], ['line', 'block/blk.h', 'new', 380]);
});

test('seed 003 without the answered mail: nothing is taken for quoted, the text stays one general block per attribution gap', () => {
  const text = fs.readFileSync(fixture('review', 'shapes', 'seed-003-stripped-markers.txt'), 'utf8');
  const lines = parseQuotes(text);
  assert.equal(restoreStrippedQuotes(lines, []), lines);
  assert.ok(lines.every((l) => l.depth === 0));
  assert.deepEqual(
    lines.filter((l) => l.kind === 'attribution').map((l) => l.who),
    ['Matthew Wilcox', 'Kefeng Wang'],
  );
  const blocks = blocksAt(lines, 0);
  assert.equal(blocks.length, 1);
  assert.ok(blocks[0].body.startsWith('Directly use folio_zero_range() to cleanup code.'));
});
