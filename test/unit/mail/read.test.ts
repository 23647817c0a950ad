import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { fixture } from '../fixtures';
import { readMails } from '../../../src/core/mail/read';
import { parseMail } from '../../../src/core/mail/parse';
import { InputError, MailMessage } from '../../../src/core/model';

async function all(inputs: string[], stdin?: NodeJS.ReadableStream): Promise<MailMessage[]> {
  const out: MailMessage[] = [];
  for await (const raw of readMails(inputs, { stdin })) out.push(await parseMail(raw));
  return out;
}

async function rawBodies(input: string): Promise<Buffer[]> {
  const out: Buffer[] = [];
  for await (const raw of readMails([input])) out.push(raw.bytes);
  return out;
}

function tmp(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'kr-mail-'));
}

const t5100 = (f: string) => fixture('mail', 'git-t5100', f);

test('git t5100 sample.mbox splits into the 18 messages git mailsplit finds', async () => {
  const msgs = await all([fixture('patch', 'git-t5100', 'sample.mbox')]);
  assert.equal(msgs.length, 18);
  assert.equal(new Set(msgs.map((m) => m.messageId)).size, 18, 'each message gets its own id');
});

test('rfc2047-samples.mbox: 11 messages whose authors and subjects decode as git mailinfo gives them', async () => {
  const msgs = await all([t5100('rfc2047-samples.mbox')]);
  assert.equal(msgs.length, 11);
  msgs.forEach((m, i) => {
    const info = fs.readFileSync(t5100(`rfc2047-info-${String(i + 1).padStart(4, '0')}`), 'utf8');
    const field = (n: string) => new RegExp(`^${n}: (.*)$`, 'm').exec(info)?.[1];
    // git mailinfo also drops a leading "Re:" from the subject (0003); the header itself keeps it.
    assert.equal(m.subject.replace(/^Re: /, ''), field('Subject'), `subject of message ${i + 1}`);
    const email = field('Email');
    if (email) assert.equal(m.from.address, email, `email of message ${i + 1}`);
    const author = field('Author');
    // git keeps an RFC 5322 (comment) after the address in the name; we drop comments (0004).
    if (author) assert.equal(m.from.name, author.replace(/\s*\(.*\)$/, ''), `author of message ${i + 1}`);
  });
});

test('From: forms: bare address, quoted-pair and comments', async () => {
  const [bare] = await all([t5100('info-from.in')]);
  assert.deepEqual(bare.from, { name: '', address: 'bare@example.com' });
  const [quoted] = await all([t5100('quoted-string.in')]);
  assert.deepEqual(quoted.from, { name: 'Author "The Author" Name', address: 'somebody@example.com' });
  const [comment] = await all([t5100('comment.in')]);
  assert.equal(comment.from.address, 'somebody@example.com');
  // git keeps RFC 5322 comments in the name; they are not part of the display name, so we drop them.
  assert.equal(comment.from.name, 'A U Thor');
});

test('mboxrd: >From lines lose exactly one > (git mailsplit --mboxrd)', async () => {
  const bodies = await rawBodies(t5100('sample.mboxrd'));
  assert.equal(bodies.length, 2);
  for (const [i, b] of bodies.entries()) {
    const msg = await parseMail({ bytes: b, source: 'x', index: i });
    const want = fs.readFileSync(t5100(`000${i + 1}mboxrd`), 'utf8');
    // The expected files are what git mailinfo leaves of the body: compare the body lines.
    for (const line of want.split('\n').filter((l) => /From /.test(l))) {
      assert.ok(msg.body.split('\n').includes(line), `message ${i + 1} keeps ${JSON.stringify(line)}`);
    }
  }
});

test('mboxo: a body line escaped as >From is unescaped (mutt/Thunderbird escaping)', async () => {
  const dir = tmp();
  const f = path.join(dir, 'o.mbox');
  fs.writeFileSync(f, 'From a@b Mon Jan  1 00:00:00 2024\nSubject: one\nMessage-ID: <1@x>\n\n>From the start\n>>From kept\n\nFrom a@b Mon Jan  1 00:00:00 2024\nSubject: two\nMessage-ID: <2@x>\n\nbody\n');
  const msgs = await all([f]);
  assert.equal(msgs.length, 2);
  assert.equal(msgs[0].body, 'From the start\n>>From kept\n');
});

test('a >From line in an mbox body is unescaped and does not split the message', async () => {
  const msgs = await all([t5100('embed-from.in')]);
  assert.equal(msgs.length, 1);
  assert.deepEqual(msgs[0].from, { name: 'Email Author', address: 'email@example.com' });
  assert.match(msgs[0].body, /^From 1234567890123456789012345678901234567890 Mon Sep 17/);
  const dir = tmp();
  const eml = path.join(dir, 'one.eml');
  fs.writeFileSync(eml, 'Subject: x\nMessage-ID: <e@x>\n\nbody\n\nFrom 1234567890 Mon Sep 17 00:00:00 2001\nmore\n');
  const one = await all([eml]);
  assert.equal(one.length, 1, 'a single message without an envelope is never split');
  assert.match(one[0].body, /^From 1234567890/m);
});

test('CRLF mail and base64 bodies decode to LF text (quoted-cr.mbox)', async () => {
  const msgs = await all([t5100('quoted-cr.mbox')]);
  assert.equal(msgs.length, 2);
  assert.ok(msgs.every((m) => !m.subject.includes('\r') && m.messageId.startsWith('<')));
  const dir = tmp();
  const f = path.join(dir, 'crlf.eml');
  fs.writeFileSync(f, 'Subject: crlf\r\nFrom: A <a@b.c>\r\nMessage-ID: <c@x>\r\n\r\nline one\r\nline two\r\n');
  const [m] = await all([f]);
  assert.equal(m.subject, 'crlf');
  assert.equal(m.body, 'line one\nline two\n');
});

test('NUL bytes in a body survive splitting', async () => {
  const bodies = await rawBodies(t5100('nul-plain'));
  assert.equal(bodies.length, 1);
  assert.ok(bodies[0].includes(0), 'NUL kept');
});

test('.mbox.gz, several inputs, stdin and Maildir all read the same messages', async () => {
  const src = fixture('threads', 'liburing-splice-helpers-v2.mbox');
  const plain = await all([src]);
  assert.equal(plain.length, 5);
  const dir = tmp();
  const gz = path.join(dir, 't.mbox.gz');
  fs.writeFileSync(gz, gzipSync(fs.readFileSync(src)));
  assert.deepEqual((await all([gz])).map((m) => m.messageId), plain.map((m) => m.messageId));
  const two = await all([src, fixture('series', 'base-cover-letter.mbox')]);
  assert.equal(two.length, 8);
  const viaStdin = await all(['-'], Readable.from([fs.readFileSync(src)]));
  assert.deepEqual(viaStdin.map((m) => m.messageId), plain.map((m) => m.messageId));
  const md = path.join(dir, 'Maildir');
  for (const sub of ['cur', 'new', 'tmp']) fs.mkdirSync(path.join(md, sub), { recursive: true });
  const bodies = await rawBodies(src);
  bodies.forEach((b, i) => fs.writeFileSync(path.join(md, i < 3 ? 'cur' : 'new', `17000000${i}.M1P1.host:2,S`), b));
  assert.deepEqual(new Set((await all([md])).map((m) => m.messageId)), new Set(plain.map((m) => m.messageId)));
});

async function inputError(input: string): Promise<InputError> {
  try {
    await all([input]);
  } catch (e) {
    assert.ok(e instanceof InputError, `InputError expected, got ${e}`);
    assert.equal(e.file, input);
    assert.doesNotMatch(e.message, /\n/);
    return e;
  }
  assert.fail(`${input} was accepted`);
}

test('bad input: each gives one sentence naming the file', async () => {
  const dir = tmp();
  const put = (name: string, data: string | Buffer) => {
    const p = path.join(dir, name);
    fs.writeFileSync(p, data);
    return p;
  };
  const real = fs.readFileSync(fixture('threads', 'liburing-splice-helpers-v2.mbox'));
  assert.match((await inputError(put('empty.mbox', ''))).problem, /is empty/);
  const garbage = Buffer.alloc(4096);
  for (let i = 0; i < garbage.length; i++) garbage[i] = (i * 7919) % 256;
  assert.match((await inputError(put('garbage.bin', garbage))).problem, /binary|not mail/);
  assert.match((await inputError(put('long.txt', 'x'.repeat(10 * 1024 * 1024)))).problem, /not mail/);
  assert.match((await inputError(put('fake.mbox.gz', real))).problem, /not gzip/);
  assert.match((await inputError(put('broken.mbox.gz', gzipSync(real).subarray(0, 3000)))).problem, /gzip/);
  assert.match((await inputError(put('truncated.mbox', real.subarray(0, Math.floor(real.length * 0.6))))).problem, /truncated/);
  const notMaildir = path.join(dir, 'folder');
  fs.mkdirSync(notMaildir);
  assert.match((await inputError(notMaildir)).problem, /not a Maildir/);
  assert.match((await inputError(path.join(dir, 'missing.mbox'))).problem, /does not exist/);
});

test('seeds: lost line breaks are refused naming the Message-ID; renderings import', async () => {
  const e0 = await inputError(fixture('seeds', '000_23b00ab328f9281a.txt'));
  assert.match(e0.problem, /line breaks were lost.*<20260416152705\.GC114239@frogsfrogsfrogs>/);
  const e2 = await inputError(fixture('seeds', '002_7b00ef0e5f3a9422.txt'));
  assert.match(e2.problem, /line breaks were lost.*<6594c360-0c7c-412f-29c9-377ddda16937@kernel\.dk>/);
  const [p] = await all([fixture('seeds', '001_6f9925cdc8b1adc1.txt')]);
  assert.equal(p.subject, '[PATCH v2] iomap: avoid memset iomap when iter is done');
  assert.deepEqual(p.from, { name: 'Fengnan Chang', address: 'fengnanchang@gmail.com' });
  assert.match(p.body, /^When iomap_iter\(\) finishes/);
  const [r] = await all([fixture('seeds', '004_ee1528a9964a8f09.txt')]);
  assert.equal(r.from.name, 'Nitesh Shetty');
  assert.match(r.subject, /^Re: \[PATCH 1\/3\] block: fix bio_may_need_split/);
  const [plain] = await all([fixture('seeds', '003_8990d80c87076970.txt')]);
  assert.match(plain.body, /^On 2024\/10\/17 23:09, Matthew Wilcox wrote:/);
});
