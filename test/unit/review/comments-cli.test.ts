/**
 * The `kernel-review comments` contract: JSON shape, --thread, text grouping, errors.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough, Writable } from 'node:stream';
import { commentsCommand } from '../../../src/cli/comments';
import { parseArgs } from '../../../src/cli/args';
import { CliIo } from '../../../src/cli/command';
import { InputError } from '../../../src/core/model';
import { fixture } from '../fixtures';

class Sink extends Writable {
  text = '';
  override _write(chunk: Buffer, _enc: BufferEncoding, cb: () => void) {
    this.text += chunk.toString();
    cb();
  }
}

async function run(argv: string[]) {
  const stdout = new Sink();
  const stderr = new Sink();
  const io: CliIo = { stdout, stderr, stdin: new PassThrough(), signal: new AbortController().signal };
  const code = await commentsCommand.run(parseArgs(commentsCommand, argv), io);
  return { code, stdout: stdout.text, stderr: stderr.text };
}

const splice = fixture('review', 'tuning', 'liburing-splice-helpers-v2.mbox');

test('comments --json prints every field of the contract', async () => {
  const r = await run([splice, '--json']);
  assert.equal(r.code, 0);
  const { comments } = JSON.parse(r.stdout);
  assert.equal(comments.length, 5);
  assert.deepEqual(Object.keys(comments[0]).sort(), [
    'author', 'body', 'date', 'file', 'id', 'inReplyTo', 'kind', 'line', 'messageId', 'patchMessageId', 'side',
  ]);
  const first = comments[0];
  assert.equal(first.id, '<c1d203e2-a31a-2e61-fc2f-4b144209e0cc@samba.org>#0');
  assert.equal(first.author, 'Stefan Metzmacher <metze@samba.org>');
  assert.equal(first.date, '2020-02-17T15:48:34.000Z');
  assert.equal(first.patchMessageId, '<a49db514f8b0b7d509c50ed0185688ece5830363.1581851604.git.asml.silence@gmail.com>');
  assert.deepEqual([first.kind, first.file, first.side, first.line], ['line', 'src/include/liburing.h', 'new', 198]);
  assert.ok(first.body.startsWith("The splice() syscall takes 'size_t len'"));
  const answer = comments.find((c: { author: string }) => c.author.startsWith('Pavel Begunkov'));
  assert.equal(answer.inReplyTo, first.id, 'the answer points at the comment it quotes');
});

test('comments --thread keeps one thread; an unknown id is an input error naming the inputs', async () => {
  const quiesce = fixture('review', 'tuning', 'io_uring-ring-quiesce.mbox');
  const r = await run([splice, quiesce, '--thread', '<c86cfa51-af78-8686-7b95-2918d54a22d2@kernel.dk>', '--json']);
  const { comments } = JSON.parse(r.stdout);
  assert.equal(comments.length, 26);
  assert.ok(comments.every((c: { patchMessageId: string }) => c.patchMessageId === '<0e64d3be-c6b0-dc0d-57f7-da3312bfa743@kernel.dk>'));
  await assert.rejects(run([splice, '--thread', '<nope@example.org>']), (e: unknown) => e instanceof InputError && /holds no message <nope@example.org>/.test(e.message));
});

test('comments without --json groups by patch and file', async () => {
  const r = await run([splice]);
  assert.equal(r.code, 0);
  const lines = r.stdout.split('\n');
  assert.ok(lines[0].startsWith('splice: add splice(2) helpers'));
  assert.equal(lines[1], '  src/include/liburing.h');
  assert.ok(lines[2].startsWith('    +198 Stefan Metzmacher <metze@samba.org>'));
  assert.ok(lines.includes('  src/include/liburing/io_uring.h'));
});
