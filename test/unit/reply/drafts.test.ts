import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { DraftStore, draftId } from '../../../src/core/reply/drafts';
import { PendingStore, toDraftComment } from '../../../src/core/reply/pending';
import { gitConfigReader, resolveIdentity } from '../../../src/core/reply/identity';
import { ReplyError } from '../../../src/core/reply/errors';
import { createReply } from '../../../src/core/reply/create';
import { withDate } from '../../../src/core/reply/draft';
import { REVIEWER, thread } from './helpers';

const SPLICE = '<a49db514f8b0b7d509c50ed0185688ece5830363.1581851604.git.asml.silence@gmail.com>';

test('drafts are saved atomically, listed, and survive a new store (a restart)', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'drafts-'));
  try {
    const t = await thread('liburing-splice-helpers-v2.mbox', SPLICE);
    const text = createReply({ thread: t, messageId: SPLICE, comments: [], identity: REVIEWER, replyMessageId: '<d1@example.org>' }).text;
    const store = new DraftStore(path.join(dir, 'drafts'));
    const info = await store.save(text);
    assert.equal(info.id, 'd1@example.org');
    assert.equal(info.inReplyTo, SPLICE);
    await store.save(`${text}\nMore text.\n`, info.id);
    // A crash between writing the temporary file and the rename leaves a dot-file, never a torn draft.
    writeFileSync(path.join(dir, 'drafts', '.d1@example.org.eml.1234.tmp'), 'From: half');
    const again = new DraftStore(path.join(dir, 'drafts'));
    const list = await again.list();
    assert.equal(list.length, 1);
    assert.equal(list[0].subject, 'Re: [PATCH v2 1/2] splice: add splice(2) helpers');
    assert.equal(await again.load(info.id), `${text}\nMore text.\n`);
    assert.equal((await again.findReplyTo(SPLICE))?.id, info.id);
    assert.deepEqual(readdirSync(path.join(dir, 'drafts')).filter((f) => !f.startsWith('.')), ['d1@example.org.eml']);
    await again.remove(info.id);
    assert.deepEqual(await again.list(), []);
    await assert.rejects(again.load('../etc/passwd'), ReplyError);
    assert.equal(draftId('<a/../b@c>'), 'a_.._b@c');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('pending inline comments are kept per message until the reply is made', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pending-'));
  try {
    const store = new PendingStore(dir);
    const [a, b] = await Promise.all([
      store.add(SPLICE, { kind: 'line', file: 'src/include/liburing.h', side: 'new', line: 200, body: 'one' }),
      store.add(SPLICE, { kind: 'general', body: 'two' }),
    ]);
    await store.add('<other@x>', { kind: 'general', body: 'three' });
    await store.update(a.id, 'one, edited');
    const again = new PendingStore(dir);
    const mine = await again.forMessage(SPLICE);
    assert.deepEqual(mine.map(toDraftComment), [
      { kind: 'line', file: 'src/include/liburing.h', side: 'new', line: 200, body: 'one, edited' },
      { kind: 'general', body: 'two' },
    ]);
    await again.remove([a.id, b.id]);
    assert.equal((await again.all()).length, 1);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('identity: sendemail.from first, then user.name/user.email, an override wins, none is one sentence', async () => {
  const home = mkdtempSync(path.join(os.tmpdir(), 'ident-'));
  const repo = path.join(home, 'tree');
  mkdirSync(repo);
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: path.join(home, '.gitconfig') };
  for (const k of ['GIT_AUTHOR_NAME', 'GIT_AUTHOR_EMAIL', 'GIT_COMMITTER_NAME', 'GIT_COMMITTER_EMAIL', 'EMAIL']) delete env[k];
  const git = (...a: string[]) => execFileSync('git', a, { cwd: repo, env });
  try {
    git('init', '-q');
    const read = gitConfigReader(repo, env);
    await assert.rejects(resolveIdentity({ readConfig: read }), (e: unknown) => {
      assert.ok(e instanceof ReplyError && e.code === 'no-identity');
      assert.match(e.message, /^No sender identity is configured: [^\n]*\.$/);
      return true;
    });
    git('config', 'user.name', 'Rafał Miłecki');
    git('config', 'user.email', 'zajec5@gmail.com');
    assert.deepEqual(await resolveIdentity({ readConfig: read }), { name: 'Rafał Miłecki', address: 'zajec5@gmail.com' });
    git('config', 'sendemail.from', '"Miłecki, Rafał" <rafal@milecki.pl>');
    assert.deepEqual(await resolveIdentity({ readConfig: read }), { name: 'Miłecki, Rafał', address: 'rafal@milecki.pl' });
    assert.deepEqual(await resolveIdentity({ readConfig: read, override: 'Jane <jane@example.org>' }), { name: 'Jane', address: 'jane@example.org' });
    await assert.rejects(resolveIdentity({ readConfig: read, override: 'just a name' }), /is not of the form "Name <address>"\.$/);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});

test('a draft is dated when sent: only its Date header changes', () => {
  const text = 'From: A <a@x>\nTo: b@x\nDate: Sun, 29 Nov 2026 18:00:00 +0000\nSubject: Re: x\n\nDate: not a header\n';
  assert.equal(withDate(text, 'Mon, 30 Nov 2026 09:00:00 +0100'), text.replace('Date: Sun, 29 Nov 2026 18:00:00 +0000', 'Date: Mon, 30 Nov 2026 09:00:00 +0100'));
  assert.equal(withDate('From: A <a@x>\n\nbody\n', 'D'), 'From: A <a@x>\nDate: D\n\nbody\n');
});
