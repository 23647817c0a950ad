/**
 * Sending against a real SMTP server on loopback (aiosmtpd): the bytes
 * received are the draft as rendered; failures are one sentence and the
 * draft stays where it was.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { simpleParser } from 'mailparser';
import { createReply } from '../../../src/core/reply/create';
import { parseCommentsJson } from '../../../src/core/reply/comments-file';
import { renderMail } from '../../../src/core/reply/draft';
import { DraftStore } from '../../../src/core/reply/drafts';
import { ReplyError } from '../../../src/core/reply/errors';
import { exportEml, sendViaGit, sendViaSmtp, summarize } from '../../../src/core/reply/send';
import { SmtpSettings } from '../../../src/core/reply/smtp';
import { REVIEWER, readFixture, thread } from './helpers';
import { startSink } from './sink';

const ID = '<1226501681-24923-1-git-send-email-bda@mnsspb.ru>';

async function draft(): Promise<string> {
  const t = await thread('git-t5100-sample-utf8-subject.mbox', ID);
  const comments = parseCommentsJson(readFixture('t5100-utf8.comments.json'), 't5100-utf8.comments.json');
  // A line starting with a dot exercises dot-stuffing.
  comments.push({ kind: 'general', body: '.config needs CONFIG_IO_URING=y\n.\nThat is all.' });
  return createReply({ thread: t, messageId: ID, comments, trailers: ['Reviewed-by'], identity: REVIEWER, replyMessageId: '<send-test@example.org>' }).text;
}

const plain = (port: number, more: Partial<SmtpSettings> = {}): SmtpSettings => ({ host: '127.0.0.1', port, security: 'none', timeoutMs: 10_000, ...more });

function oneSentence(e: unknown, code: ReplyError['code']): boolean {
  assert.ok(e instanceof ReplyError, String(e));
  assert.equal(e.code, code, e.message);
  assert.match(e.message, /^[A-Z][^\n]*\.$/, e.message);
  return true;
}

test('SMTP: the server receives exactly the rendered draft, envelope from the headers (Bcc only in the envelope)', async () => {
  const sink = await startSink();
  try {
    const text = (await draft()).replace(/^Cc: (.*)$/m, 'Cc: $1\nBcc: hidden@example.org');
    const res = await sendViaSmtp(text, plain(sink.port));
    assert.match(res.response, /^250 /);
    const [got] = sink.received();
    assert.ok(got.bytes.equals(renderMail(text, { eol: '\r\n' })), 'received bytes equal the draft as rendered');
    assert.equal(got.envelope.mail_from, 'john@example.org');
    assert.deepEqual(got.envelope.rcpt_tos, ['bda@mnsspb.ru', 'navy-patches@dinar.mns.mnsspb.ru', 'hidden@example.org']);
    assert.ok(got.envelope.mail_options.includes('BODY=8BITMIME'));
    assert.doesNotMatch(got.bytes.toString('utf8'), /hidden@example\.org/);
    const parsed = await simpleParser(got.bytes);
    assert.match(parsed.text ?? '', /^\.config needs CONFIG_IO_URING=y\n\.\nThat is all\.$/m);
  } finally {
    await sink.stop();
  }
});

test('SMTP: STARTTLS then AUTH PLAIN, and AUTH LOGIN, and TLS from the start, against a server with a self-signed certificate', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'smtp-tls-'));
  const cert = path.join(dir, 'cert.pem');
  const key = path.join(dir, 'key.pem');
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'], { stdio: 'ignore' });
  const text = await draft();
  for (const mech of ['PLAIN', 'LOGIN']) {
    const sink = await startSink(['--tls', cert, key, '--auth', 'john:s3cret', '--auth-only', mech]);
    try {
      await sendViaSmtp(text, plain(sink.port, { security: 'starttls', user: 'john', password: 's3cret', ca: readFileSync(cert) }));
      assert.ok(sink.received()[0].bytes.equals(renderMail(text, { eol: '\r\n' })), mech);
      await assert.rejects(sendViaSmtp(text, plain(sink.port, { security: 'starttls', user: 'john', password: 'wrong', ca: readFileSync(cert) })), (e) => oneSentence(e, 'smtp-auth'));
      // An untrusted certificate stops the send before any credentials go out.
      await assert.rejects(sendViaSmtp(text, plain(sink.port, { security: 'starttls', user: 'john', password: 's3cret' })), (e) => oneSentence(e, 'smtp-connect'));
      assert.equal(sink.received().length, 1);
    } finally {
      await sink.stop();
    }
  }
  // TLS from the first byte (port 465 style).
  const sink = await startSink(['--tls', cert, key, '--implicit-tls', '--auth', 'john:s3cret']);
  try {
    await sendViaSmtp(text, plain(sink.port, { security: 'tls', user: 'john', password: 's3cret', ca: readFileSync(cert) }));
    assert.ok(sink.received()[0].bytes.equals(renderMail(text, { eol: '\r\n' })), 'implicit TLS');
  } finally {
    await sink.stop();
  }
  rmSync(dir, { recursive: true, force: true });
});

test('SMTP: a server without 8BITMIME gets quoted-printable that decodes to the same text', async () => {
  const sink = await startSink(['--no-8bitmime']);
  try {
    const text = await draft();
    await sendViaSmtp(text, plain(sink.port));
    const [got] = sink.received();
    assert.ok(got.bytes.equals(renderMail(text, { eol: '\r\n', forceQuotedPrintable: true })));
    assert.match(got.bytes.toString('latin1'), /^Content-Transfer-Encoding: quoted-printable\r$/m);
    assert.ok(!got.envelope.mail_options.includes('BODY=8BITMIME'));
    assert.match(got.bytes.toString('latin1'), /^[\x00-\x7f]*$/);
    const parsed = await simpleParser(got.bytes);
    const sent = await simpleParser(renderMail(text));
    assert.equal(parsed.text, sent.text);
  } finally {
    await sink.stop();
  }
});

test('SMTP errors are one sentence and the saved draft is kept unchanged', async () => {
  const store = new DraftStore(mkdtempSync(path.join(os.tmpdir(), 'drafts-')));
  const text = await draft();
  const saved = await store.save(text);
  const sink = await startSink(['--refuse-rcpt', 'navy-patches@dinar.mns.mnsspb.ru']);
  try {
    await assert.rejects(sendViaSmtp(text, plain(sink.port)), (e) => oneSentence(e, 'smtp-refused') && /navy-patches@dinar\.mns\.mnsspb\.ru: 550/.test((e as Error).message));
    assert.equal(sink.received().length, 0);
  } finally {
    await sink.stop();
  }
  // Nothing listens on the port any more.
  await assert.rejects(sendViaSmtp(text, plain(sink.port)), (e) => oneSentence(e, 'smtp-connect') && /ECONNREFUSED/.test((e as Error).message));
  await assert.rejects(sendViaSmtp(text.replace(/^(To|Cc): .*\n/gm, ''), plain(sink.port)), (e) => oneSentence(e, 'no-recipients'));
  assert.equal(await store.load(saved.id), text);
  assert.equal((await store.list()).length, 1);
  rmSync(store.folder, { recursive: true, force: true });
});

function gitEnv(home: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return { ...process.env, HOME: home, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: path.join(home, '.gitconfig'), ...extra };
}

test('git send-email: the user\'s sendemail.* configuration is used and the mail arrives as composed', async () => {
  const home = mkdtempSync(path.join(os.tmpdir(), 'sendemail-'));
  const repo = path.join(home, 'tree');
  mkdirSync(repo);
  const env = gitEnv(home);
  execFileSync('git', ['init', '-q'], { cwd: repo, env });
  const sink = await startSink();
  try {
    // What a user has in ~/.gitconfig or .git/config.
    execFileSync('git', ['config', 'sendemail.smtpServer', '127.0.0.1'], { cwd: repo, env });
    execFileSync('git', ['config', 'sendemail.smtpServerPort', String(sink.port)], { cwd: repo, env });
    execFileSync('git', ['config', 'sendemail.to', 'should-not-be-added@example.org'], { cwd: repo, env });
    const text = await draft();
    await sendViaGit(text, { cwd: repo, env });
    const [got] = sink.received();
    assert.deepEqual(got.envelope.rcpt_tos.sort(), ['bda@mnsspb.ru', 'navy-patches@dinar.mns.mnsspb.ru']);
    const ours = await simpleParser(renderMail(text));
    const theirs = await simpleParser(got.bytes);
    assert.equal(theirs.messageId, '<send-test@example.org>');
    assert.equal(theirs.inReplyTo, ID);
    assert.deepEqual(theirs.references, ours.references);
    assert.equal(theirs.subject, ours.subject);
    assert.equal(theirs.text, ours.text);
    assert.equal(JSON.stringify(theirs.from?.value), JSON.stringify(ours.from?.value));
    assert.equal(JSON.stringify(theirs.cc && !Array.isArray(theirs.cc) ? theirs.cc.value : null), JSON.stringify(ours.cc && !Array.isArray(ours.cc) ? ours.cc.value : null));
  } finally {
    await sink.stop();
    rmSync(home, { recursive: true, force: true });
  }
});

test('git send-email missing: one sentence naming the package, draft kept', async () => {
  const home = mkdtempSync(path.join(os.tmpdir(), 'sendemail-'));
  // A git whose exec path has no send-email, as on a system without the git-email package.
  const execPath = path.join(home, 'libexec');
  mkdirSync(execPath);
  const text = await draft();
  await assert.rejects(sendViaGit(text, { cwd: home, env: gitEnv(home, { GIT_EXEC_PATH: execPath }) }), (e) => oneSentence(e, 'send-email-missing'));
  rmSync(home, { recursive: true, force: true });
});

test('summary for the confirmation, and .eml export of exactly what would be sent', async () => {
  const text = await draft();
  const s = summarize(text);
  assert.equal(s.from, 'Jöhn Q. Revïewer <john@example.org>');
  assert.deepEqual(s.to, ['Dmitriy Blinov <bda@mnsspb.ru>']);
  assert.deepEqual(s.cc, ['navy-patches@dinar.mns.mnsspb.ru']);
  assert.equal(s.subject, 'Re: [Navy-patches] [PATCH] Изменён список пакетов необходимых для сборки');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'eml-'));
  const file = path.join(dir, 'reply.eml');
  await exportEml(text, file);
  assert.ok(readFileSync(file).equals(renderMail(text)));
  const git = spawnSync('git', ['mailinfo', path.join(dir, 'm'), path.join(dir, 'p')], { input: readFileSync(file), encoding: 'utf8' });
  assert.match(git.stdout, /^Email: john@example\.org$/m);
  rmSync(dir, { recursive: true, force: true });
});

test('git send-email failing to reach its server: one sentence, no Perl location, draft kept', async () => {
  const home = mkdtempSync(path.join(os.tmpdir(), 'sendemail-'));
  const repo = path.join(home, 'tree');
  mkdirSync(repo);
  const env = gitEnv(home);
  execFileSync('git', ['init', '-q'], { cwd: repo, env });
  const sink = await startSink();
  await sink.stop();
  execFileSync('git', ['config', 'sendemail.smtpServer', '127.0.0.1'], { cwd: repo, env });
  execFileSync('git', ['config', 'sendemail.smtpServerPort', String(sink.port)], { cwd: repo, env });
  const store = new DraftStore(path.join(home, 'drafts'));
  const text = await draft();
  const saved = await store.save(text);
  await assert.rejects(sendViaGit(text, { cwd: repo, env }), (e) => {
    oneSentence(e, 'send-email-failed');
    assert.doesNotMatch((e as Error).message, /line \d+|VALUES/);
    return true;
  });
  assert.equal(await store.load(saved.id), text);
  rmSync(home, { recursive: true, force: true });
});
