import { test } from 'node:test';
import assert from 'node:assert/strict';
import { simpleParser } from 'mailparser';
import { createReply } from '../../../src/core/reply/create';
import { renderMail, parseDraft, header } from '../../../src/core/reply/draft';
import { encodedWords, encodeUnstructured } from '../../../src/core/reply/encode';
import { parseCommentsJson } from '../../../src/core/reply/comments-file';
import { replySubject } from '../../../src/core/reply/headers';
import { REVIEWER, readFixture, thread } from './helpers';

test('reply headers: encoded sender name, user left out of Cc, long Cc list folded between addresses', async () => {
  const id = '<1464811283-10381-1-git-send-email-zajec5@gmail.com>';
  const t = await thread('patchwork-0013-with-utf8-body.mbox', id);
  const reply = createReply({
    thread: t,
    messageId: id,
    comments: [],
    trailers: ['Acked-by'],
    identity: { name: 'Florian Fainelli', address: 'f.fainelli@gmail.com' },
    now: new Date('2026-11-29T17:00:00Z'),
    tzOffsetMinutes: 60,
    replyMessageId: '<reply-0013@example.org>',
  });
  const wire = renderMail(reply.text).toString('utf8');
  assert.equal(wire, readFixture('patchwork-0013.expected.eml'));
  for (const line of wire.split('\n')) assert.ok(line.length <= 78, `header line too long: ${line}`);
});

test('a non-ASCII subject is RFC 2047 encoded in words of at most 75 characters and decodes back', async () => {
  const id = '<1226501681-24923-1-git-send-email-bda@mnsspb.ru>';
  const t = await thread('git-t5100-sample-utf8-subject.mbox', id);
  const reply = createReply({
    thread: t,
    messageId: id,
    comments: parseCommentsJson(readFixture('t5100-utf8.comments.json'), 't5100-utf8.comments.json'),
    identity: REVIEWER,
    now: new Date('2026-11-29T18:00:00Z'),
    tzOffsetMinutes: 0,
    replyMessageId: '<reply-t5100@example.org>',
  });
  const wire = renderMail(reply.text);
  const head = wire.toString('utf8').split('\n\n')[0];
  assert.match(head, /^[\x00-\x7f]*$/, 'headers on the wire are ASCII');
  for (const line of head.split('\n')) assert.ok(line.length <= 78, `header line too long: ${line}`);
  for (const w of head.match(/=\?[^?]+\?[qQbB]\?[^?]*\?=/g) ?? []) assert.ok(w.length <= 75, w);
  const parsed = await simpleParser(wire);
  // Subject read off the original mail's three base64 words.
  assert.equal(parsed.subject, 'Re: [Navy-patches] [PATCH] Изменён список пакетов необходимых для сборки');
  assert.equal(parsed.from?.value[0].name, 'Jöhn Q. Revïewer');
  assert.equal(parsed.from?.value[0].address, 'john@example.org');
  assert.deepEqual(parsed.to && !Array.isArray(parsed.to) ? parsed.to.value.map((a) => a.address) : [], ['bda@mnsspb.ru']);
  assert.deepEqual(parsed.cc && !Array.isArray(parsed.cc) ? parsed.cc.value.map((a) => a.address) : [], ['navy-patches@dinar.mns.mnsspb.ru']);
  assert.equal(parsed.inReplyTo, id);
  assert.equal(parsed.messageId, '<reply-t5100@example.org>');
  assert.match(head, /^Content-Type: text\/plain; charset=UTF-8$/m);
  assert.match(head, /^Content-Transfer-Encoding: 8bit$/m);
  assert.equal(wire.toString('utf8').split('\n\n').slice(1).join('\n\n'), readFixture('t5100-utf8.expected-body.txt'));
});

test('Re: is added once, never stacked, whatever marker the other client used', () => {
  // Subjects as they occur in the threads and in other mail clients.
  assert.equal(replySubject('[PATCH v1] io_uring_cqe_get_data() only requires a const struct io_uring_cqe *cqe'), 'Re: [PATCH v1] io_uring_cqe_get_data() only requires a const struct io_uring_cqe *cqe');
  assert.equal(replySubject('Re: [PATCH v2 1/2] splice: add splice(2) helpers'), 'Re: [PATCH v2 1/2] splice: add splice(2) helpers');
  assert.equal(replySubject('RE: Re: [PATCH] x'), 'Re: [PATCH] x');
  assert.equal(replySubject('AW: [PATCH] x'), 'Re: [PATCH] x');
  assert.equal(replySubject('Re[2]: foo'), 'Re: foo');
  assert.equal(replySubject('[External] Re: [PATCH] block: use percpu bio cache'), 'Re: [PATCH] block: use percpu bio cache');
  assert.equal(replySubject('Reviewing: the plan'), 'Re: Reviewing: the plan');
});

test('encoded words never split a character and ASCII words stay readable', () => {
  const words = encodedWords('ł'.repeat(40));
  for (const w of words) {
    assert.ok(w.length <= 75);
    assert.match(w, /^=\?UTF-8\?q\?(=C5=82)+\?=$/);
  }
  assert.deepEqual(encodeUnstructured('Re: fix für Größe'), ['Re:', 'fix', '=?UTF-8?q?f=C3=BCr_Gr=C3=B6=C3=9Fe?=']);
  assert.deepEqual(encodeUnstructured('Re: a =?x?q?y?= trick'), ['Re:', 'a', '=?UTF-8?q?=3D=3Fx=3Fq=3Fy=3F=3D?=', 'trick']);
});

test('a hand-edited draft keeps its headers; Bcc stays out of the mail', () => {
  const text = 'From: "Doe, Jane" <jane@example.org>\nTo: a@example.org\nBcc: secret@example.org\nSubject: Re: x\n\nbody\n';
  const wire = renderMail(text).toString('utf8');
  assert.match(wire, /^From: "Doe, Jane" <jane@example.org>$/m);
  assert.doesNotMatch(wire, /secret/);
  assert.equal(header(parseDraft(text), 'subject'), 'Re: x');
});
