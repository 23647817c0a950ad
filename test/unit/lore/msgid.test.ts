import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import {
  DEFAULT_PUBLIC_INBOX,
  baseFor,
  fetchHint,
  midEscape,
  normalizeBase,
  parseMessageRef,
  rawUrl,
  refFromText,
  requireMessageRef,
  searchUrl,
  threadUrl,
} from '../../../src/core/lore/msgid';
import { entriesNotIn, mergeMboxes, splitEntries } from '../../../src/core/lore/mboxrd';
import { fixture } from '../fixtures';

const expected = JSON.parse(fs.readFileSync(fixture('lore', 'expected.json'), 'utf8'));
const ID = '20200929132339.45710-1-sgarzare@redhat.com';

test('every way a user pastes a Message-ID gives the same id', () => {
  for (const input of [ID, `<${ID}>`, ` <${ID}> `, `id:${ID}`, `id:<${ID}>`, `mid:${ID}`]) {
    assert.deepEqual(parseMessageRef(input), { id: ID, base: null }, input);
  }
});

test('lore URLs in every shape name the message and the inbox they point at', () => {
  const io = 'https://lore.kernel.org/io-uring/';
  for (const suffix of ['', '/', '/T/', '/T/#u', '/t/#r', '/raw', '/t.mbox.gz', '/t.atom', '/#r', '/2-a.txt']) {
    const ref = parseMessageRef(`https://lore.kernel.org/io-uring/${ID}${suffix}`);
    assert.deepEqual(ref, { id: ID, base: io }, suffix);
  }
  assert.deepEqual(parseMessageRef(`https://lore.kernel.org/all/${ID}/`), { id: ID, base: DEFAULT_PUBLIC_INBOX });
  // lore's /r/ redirector and a bare host path both mean `all`.
  assert.deepEqual(parseMessageRef(`https://lore.kernel.org/r/${ID}`), { id: ID, base: DEFAULT_PUBLIC_INBOX });
  assert.deepEqual(parseMessageRef(`https://lore.kernel.org/${ID}/`), { id: ID, base: DEFAULT_PUBLIC_INBOX });
});

test('patch.msgid.link URLs name only the message', () => {
  assert.deepEqual(parseMessageRef(`https://patch.msgid.link/${ID}`), { id: ID, base: null });
  assert.deepEqual(parseMessageRef(`https://msgid.link/${ID}`), { id: ID, base: null });
});

test('a self-hosted public-inbox under a path prefix keeps that prefix as its inbox', () => {
  const id = 'Yo+S4JtT6fjwO5GL@zx2c4.com';
  const ref = parseMessageRef(`http://127.0.0.1:8080/pub/lists/linux-fsdevel/${encodeURIComponent(id)}/T/#u`);
  assert.deepEqual(ref, { id, base: 'http://127.0.0.1:8080/pub/lists/linux-fsdevel/' });
});

test('escaped characters in URLs are decoded; a slash arrives as %2F', () => {
  const ref = parseMessageRef('https://lore.kernel.org/git/a%2Fb%25c%3Fd@host.example/raw');
  assert.deepEqual(ref, { id: 'a/b%c?d@host.example', base: 'https://lore.kernel.org/git/' });
});

test('files and words are not Message-IDs; URLs without one are refused in one sentence', () => {
  for (const s of ['thread.mbox', 'test/fixtures/lore/x.mbox', '-', '', 'hello world', 'a@b c']) {
    assert.equal(parseMessageRef(s), null, s);
  }
  assert.throws(() => parseMessageRef('https://lore.kernel.org/io-uring/'), /does not name a message/);
  assert.throws(() => requireMessageRef('thread.mbox'), /'thread\.mbox' is neither a Message-ID .* nor a public-inbox URL/);
});

test('clipboard text is offered only when it is a single Message-ID or message URL', () => {
  assert.deepEqual(refFromText(`  https://patch.msgid.link/${ID}\n`), { id: ID, base: null });
  assert.deepEqual(refFromText(`<${ID}>`), { id: ID, base: null });
  assert.equal(refFromText('https://lore.kernel.org/io-uring/'), null);
  assert.equal(refFromText(`${ID}\n${ID}`), null);
  assert.equal(refFromText('static int foo(void)'), null);
  assert.equal(refFromText(''), null);
});

test('Message-IDs are escaped the way public-inbox escapes them', () => {
  // RFC 3986 pchar stays; everything else is percent-encoded from UTF-8.
  assert.equal(midEscape("a/b@c"), 'a%2Fb@c');
  assert.equal(midEscape('CA+icZUWBrZqst6qCCYNsGBzZstRx-=TTT+fOD9=RVVJkWmgxbw@mail.gmail.com'),
    'CA+icZUWBrZqst6qCCYNsGBzZstRx-=TTT+fOD9=RVVJkWmgxbw@mail.gmail.com');
  assert.equal(midEscape('x%y #?z<>"é@h'), 'x%25y%20%23%3Fz%3C%3E%22%C3%A9@h');
  assert.equal(midEscape("!$&'()*+,;=:~._-@h"), "!$&'()*+,;=:~._-@h");
});

test('thread, raw and search URLs are built on the inbox base', () => {
  assert.equal(threadUrl('https://lore.kernel.org/io-uring', 'a/b@c'), 'https://lore.kernel.org/io-uring/a%2Fb@c/t.mbox.gz');
  assert.equal(rawUrl(DEFAULT_PUBLIC_INBOX, ID), `https://lore.kernel.org/all/${ID}/raw`);
  assert.equal(searchUrl('http://h/x/', 's:CONFIG_COMPAT f:axboe'), 'http://h/x/?q=s%3ACONFIG_COMPAT+f%3Aaxboe&x=m');
  assert.equal(searchUrl('http://h/x/', 'dfn:io_uring/poll.c', true), 'http://h/x/?q=dfn%3Aio_uring%2Fpoll.c&x=m&t=1');
  assert.equal(normalizeBase('https://lore.kernel.org/all?x=1#y'), 'https://lore.kernel.org/all/');
  assert.throws(() => normalizeBase('ftp://lore.kernel.org/'), /must start with http/);
  assert.throws(() => normalizeBase('lore'), /is not a URL/);
});

test('the inbox is the URL\'s own, else the one given, else lore', () => {
  assert.equal(baseFor({ id: ID, base: 'https://lore.kernel.org/io-uring/' }, 'http://h/'), 'https://lore.kernel.org/io-uring/');
  assert.equal(baseFor({ id: ID, base: null }, 'http://h/list'), 'http://h/list/');
  assert.equal(baseFor({ id: ID, base: null }), DEFAULT_PUBLIC_INBOX);
});

test('the seed mail whose line breaks were lost gets a fetch hint by its Message-ID', () => {
  const id = expected.seeds['000_23b00ab328f9281a.txt'];
  const hint = fetchHint(`<${id}>`);
  assert.equal(hint.url, 'https://lore.kernel.org/all/20260416152705.GC114239@frogsfrogsfrogs/');
  assert.equal(hint.command, "kernel-review fetch '<20260416152705.GC114239@frogsfrogsfrogs>' -o thread.mbox");
  assert.match(hint.sentence, /^fetch the intact thread with kernel-review fetch '<20260416152705\.GC114239@frogsfrogsfrogs>'/);
  // What the hint tells the user to type parses back to the same id.
  assert.deepEqual(parseMessageRef(`<${id}>`), { id, base: null });
  const other = fetchHint(id, 'http://127.0.0.1:8080/linux-xfs');
  assert.equal(other.command, `kernel-review fetch '<${id}>' --public-inbox http://127.0.0.1:8080/linux-xfs/ -o thread.mbox`);
});

test('merging a refreshed thread adds only messages not seen before, keeping the old ones byte for byte', () => {
  const file = 'io_uring-register-compat-guard.mbox';
  const whole = fs.readFileSync(fixture('lore', file));
  const entries = splitEntries(whole);
  assert.deepEqual(entries.map((e) => e.messageId), expected.threads[file].messageIds);
  assert.equal(Buffer.concat(entries.map((e) => e.bytes)).equals(whole), true);
  const old = Buffer.concat(entries.slice(0, 3).map((e) => e.bytes));
  const fresh = Buffer.concat([entries[4], entries[1], entries[3], entries[0]].map((e) => e.bytes));
  const merged = mergeMboxes(old, fresh);
  assert.deepEqual(merged.added, [expected.threads[file].messageIds[4], expected.threads[file].messageIds[3]]);
  assert.equal(merged.total, 5);
  assert.equal(merged.mbox.subarray(0, old.length).equals(old), true);
  assert.equal(mergeMboxes(merged.mbox, whole).added.length, 0);
});

test('the new replies of a fetched thread are those whose Message-ID an imported thread lacks', () => {
  const file = 'io_uring-poll-multishot-termination.mbox';
  const whole = fs.readFileSync(fixture('lore', file));
  const all: string[] = expected.threads[file].messageIds;
  const fresh = entriesNotIn(whole, [`<${all[0]}>`, all[1], ` <${all[2]}> `]);
  assert.deepEqual(fresh.map((e) => e.messageId), [all[3]]);
});
