/**
 * The lore client against a real public-inbox server (public-inbox-init, -index, -mda and
 * -httpd on 127.0.0.1), loaded with real threads from test/fixtures/lore.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import { AddressInfo, Socket } from 'node:net';
import { PassThrough } from 'node:stream';
import { fetchMessage, fetchThread } from '../../../src/core/lore/client';
import { cachedThread, refreshThread } from '../../../src/core/lore/cache';
import { LoreError } from '../../../src/core/lore/http';
import { resolveInputs } from '../../../src/core/lore/inputs';
import { splitEntries } from '../../../src/core/lore/mboxrd';
import { fetchHint, pageUrl } from '../../../src/core/lore/msgid';
import { searchMbox } from '../../../src/core/lore/search';
import { loadThreads } from '../../../src/core/load';
import { parseArgs } from '../../../src/cli/args';
import { UsageError } from '../../../src/cli/command';
import { fetchCommand } from '../../../src/cli/fetch';
import { fixture } from '../fixtures';
import { PublicInboxServer, SKIP_WITHOUT_PUBLIC_INBOX, splitMbox, startPublicInbox } from './public-inbox';

const expected = JSON.parse(fs.readFileSync(fixture('lore', 'expected.json'), 'utf8'));
const COMPAT = 'io_uring-register-compat-guard.mbox';
const MAN = 'liburing-restrictions-man-pages-v2.mbox';
const POLL = 'io_uring-poll-multishot-termination.mbox';
const FSDEVEL = 'fsdevel-iocb_dsync-iov_iter_zero-subthread.mbox';
const ids = (file: string): string[] => expected.threads[file].messageIds;
const root = (file: string): string => expected.threads[file].root;

/** Message-ID (with brackets) -> decoded body, through the project's own mail loader. */
async function bodies(file: string): Promise<Map<string, string>> {
  const threads = await loadThreads([file]);
  return new Map(threads.flatMap((t) => t.messages.map((m) => [m.messageId, m.body] as [string, string])));
}

/** Message-ID -> raw body bytes (after the header block) of each mboxrd entry. */
function rawBodies(mbox: Buffer): Map<string | null, string> {
  return new Map(
    splitEntries(mbox).map((e) => {
      const t = e.bytes.toString('latin1');
      return [e.messageId, t.slice(t.indexOf('\n\n') + 2)];
    }),
  );
}

function lineError(e: unknown, kind: string, re: RegExp): true {
  assert.ok(e instanceof LoreError, String(e));
  assert.equal(e.kind, kind);
  assert.match(e.message, re);
  assert.doesNotMatch(e.message, /\n/);
  return true;
}

async function runCli(argv: string[]): Promise<{ code: number; stdout: string; bytes: Buffer; stderr: string }> {
  const out = new PassThrough();
  const err = new PassThrough();
  const chunks: Buffer[] = [];
  const errs: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  err.on('data', (c: Buffer) => errs.push(c));
  // What `kernel-review fetch …` runs (src/cli.ts's main without its process wiring).
  const io = { stdout: out, stderr: err, stdin: new PassThrough(), signal: new AbortController().signal };
  let code: number;
  try {
    code = await fetchCommand.run(parseArgs(fetchCommand, argv.slice(1)), io);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    err.write(`kernel-review fetch: ${e.message}\n`);
    code = 2;
  }
  const bytes = Buffer.concat(chunks);
  return { code, stdout: bytes.toString(), bytes, stderr: Buffer.concat(errs).toString() };
}

describe('public-inbox client against a real public-inbox-httpd', { skip: SKIP_WITHOUT_PUBLIC_INBOX }, () => {
  let pi: PublicInboxServer;
  let tmp = '';
  let cacheDir = '';
  let later: Buffer; // the last reply of the poll thread, delivered during the tests
  const sideServers: http.Server[] = [];
  const sockets = new Set<Socket>();

  async function sideServer(handler: http.RequestListener): Promise<string> {
    const s = http.createServer(handler);
    s.on('connection', (c) => {
      sockets.add(c);
      c.on('close', () => sockets.delete(c));
    });
    sideServers.push(s);
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
    return `http://127.0.0.1:${(s.address() as AddressInfo).port}/`;
  }

  before(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'kr-lore-test-'));
    cacheDir = path.join(tmp, 'cache');
    const poll = splitEntries(fs.readFileSync(fixture('lore', POLL)));
    const firstThree = path.join(tmp, 'poll-first-three.mbox');
    fs.writeFileSync(firstThree, Buffer.concat(poll.slice(0, 3).map((e) => e.bytes)));
    later = (await splitMbox(poll[3].bytes))[0];
    pi = await startPublicInbox([
      { name: 'io-uring', mboxes: [fixture('lore', COMPAT), fixture('lore', MAN)] },
      { name: 'linux-fsdevel', mboxes: [fixture('lore', FSDEVEL)] },
      // v2, the format lore uses, filled through public-inbox-mda.
      { name: 'io-uring-v2', version: 2, mboxes: [firstThree] },
    ]);
  });

  after(async () => {
    for (const c of sockets) c.destroy();
    await Promise.all(sideServers.map((s) => new Promise((r) => s.close(r))));
    await pi?.stop();
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  test('a fetched thread holds exactly the messages put in, with the same bodies', async () => {
    for (const [inbox, file] of [['io-uring', COMPAT], ['io-uring', MAN], ['linux-fsdevel', FSDEVEL]]) {
      const got = await fetchThread(root(file), { base: pi.url(inbox) });
      assert.equal(got.url, `${pi.url(inbox)}${root(file)}/t.mbox.gz`);
      const out = path.join(tmp, `fetched-${file}`);
      fs.writeFileSync(out, got.mbox);
      const threads = await loadThreads([out]);
      assert.equal(threads.length, 1, file);
      assert.deepEqual(threads[0].messages.map((m) => m.messageId).sort(), ids(file).map((i) => `<${i}>`).sort(), file);
      assert.deepEqual(await bodies(out), await bodies(fixture('lore', file)), file);
      // And byte for byte: public-inbox serves each mail as it was delivered.
      const want = new Map(splitEntries(fs.readFileSync(fixture('lore', file))).map((e) => [e.messageId, e.bytes]));
      for (const e of splitEntries(got.mbox)) assert.equal(e.bytes.equals(want.get(e.messageId)!), true, `${file} ${e.messageId}`);
    }
  });

  test('any message of a thread fetches the whole thread; ids with + and = are escaped right', async () => {
    const id = 'CA+icZUWBrZqst6qCCYNsGBzZstRx-=TTT+fOD9=RVVJkWmgxbw@mail.gmail.com';
    const got = await fetchThread(id, { base: pi.url('linux-fsdevel') });
    assert.deepEqual(splitEntries(got.mbox).map((e) => e.messageId).sort(), [...ids(FSDEVEL)].sort());
  });

  test('one message comes from /raw as stored', async () => {
    const id = ids(MAN)[3];
    const got = await fetchMessage(id, { base: pi.url('io-uring') });
    const entries = splitEntries(got.mbox);
    assert.deepEqual(entries.map((e) => e.messageId), [id]);
    assert.equal(rawBodies(got.mbox).get(id), rawBodies(fs.readFileSync(fixture('lore', MAN))).get(id));
  });

  test('a missing Message-ID is one sentence naming it and the host', async () => {
    const host = new URL(pi.base).host;
    await assert.rejects(fetchThread('no-such-message@example.org', { base: pi.url('io-uring') }), (e) =>
      lineError(e, 'not-found', new RegExp(`^no message <no-such-message@example\\.org> on ${host}$`)));
    await assert.rejects(fetchMessage('no/such@example.org', { base: pi.url('io-uring') }), (e) =>
      lineError(e, 'not-found', new RegExp(`^no message <no/such@example\\.org> on ${host}$`)));
  });

  test('refresh picks up a reply delivered later, without duplicates, old messages untouched', async () => {
    const id = root(POLL);
    const base = pi.url('io-uring-v2');
    const first = await cachedThread(id, { base, cacheDir });
    assert.equal(first.fromCache, false);
    assert.deepEqual(first.added, ids(POLL).slice(0, 3));
    const before = fs.readFileSync(first.path);
    const again = await cachedThread(id, { base, cacheDir });
    assert.equal(again.fromCache, true);
    assert.equal(again.path, first.path);

    await pi.deliver('io-uring-v2', later);
    const refreshed = await refreshThread(id, { base, cacheDir });
    assert.deepEqual(refreshed.added, [ids(POLL)[3]]);
    assert.equal(refreshed.messages, 4);
    const after = fs.readFileSync(refreshed.path);
    assert.equal(after.subarray(0, before.length).equals(before), true);
    const threads = await loadThreads([refreshed.path]);
    assert.deepEqual(threads[0].messages.map((m) => m.messageId).sort(), ids(POLL).map((i) => `<${i}>`).sort());

    const twice = await refreshThread(id, { base, cacheDir });
    assert.deepEqual(twice.added, []);
    assert.equal(fs.readFileSync(twice.path).equals(after), true);
  });

  test('redirects are followed (a patch.msgid.link-style redirector in front of the inbox)', async () => {
    const target = pi.url('io-uring');
    const redirector = await sideServer((req, res) => {
      res.writeHead(302, { Location: `${target}${(req.url ?? '/').replace(/^\/r\//, '')}` }).end();
    });
    const got = await fetchThread(root(COMPAT), { base: `${redirector}r/` });
    assert.equal(got.url, `${target}${root(COMPAT)}/t.mbox.gz`);
    assert.deepEqual(splitEntries(got.mbox).map((e) => e.messageId), ids(COMPAT));
  });

  test('a server that hangs hits the timeout and leaves no cache entry', async () => {
    const hang = await sideServer(() => undefined);
    await assert.rejects(cachedThread('hang@example.org', { base: hang, cacheDir, timeoutMs: 400 }), (e) =>
      lineError(e, 'timeout', /^127\.0\.0\.1:\d+ did not answer within 0\.4 s$/));
    assert.equal(fs.readdirSync(cacheDir).some((f) => f.startsWith('hang')), false);
  });

  test('answers over the size cap are refused, compressed or once decompressed', async () => {
    const base = pi.url('linux-fsdevel');
    const gz = await fetchThread(root(FSDEVEL), { base });
    assert.ok(gz.mbox.length > 20_000);
    await assert.rejects(fetchThread(root(FSDEVEL), { base, maxBytes: 2000 }), (e) =>
      lineError(e, 'too-large', /sent more than 2000 bytes, the most accepted$/));
    await assert.rejects(fetchThread(root(FSDEVEL), { base, maxBytes: gz.mbox.length - 1 }), (e) =>
      lineError(e, 'too-large', /sent a thread larger than \d+ bytes once decompressed$/));
  });

  test('search returns the matching messages as an mbox', async () => {
    const compat = await searchMbox('s:CONFIG_COMPAT', { base: pi.url('io-uring') });
    assert.deepEqual(compat.entries.map((e) => e.messageId).sort(), [...expected.search['s:CONFIG_COMPAT']].sort());
    const one = await searchMbox('s:EBADFD', { base: pi.url('io-uring') });
    assert.deepEqual(one.entries.map((e) => e.messageId), expected.search['s:EBADFD']);
    // With t=1 the whole thread of each match comes along.
    const whole = await searchMbox('s:EBADFD', { base: pi.url('io-uring'), threads: true });
    assert.deepEqual(whole.entries.map((e) => e.messageId).sort(), [...ids(MAN)].sort());
    const fsdevel = await searchMbox('s:IOCB_DSYNC', { base: pi.url('linux-fsdevel') });
    assert.deepEqual(fsdevel.entries.map((e) => e.messageId).sort(), [...ids(expected.search['s:IOCB_DSYNC'])].sort());
    const none = await searchMbox('s:nonexistentword', { base: pi.url('io-uring') });
    assert.equal(none.entries.length, 0);
  });

  test('the seed mail that lost its line breaks: its Message-ID fetches the intact thread', async () => {
    const seedId = expected.seeds['002_7b00ef0e5f3a9422.txt'];
    const hint = fetchHint(`<${seedId}>`, pi.url('linux-fsdevel'));
    assert.equal(hint.url, pageUrl(pi.url('linux-fsdevel'), seedId));
    const res = await runCli(['fetch', `<${seedId}>`, '--public-inbox', pi.url('linux-fsdevel'), '--cache-dir', cacheDir]);
    assert.equal(res.code, 0, res.stderr);
    const out = path.join(tmp, 'seed-002.mbox');
    fs.writeFileSync(out, res.bytes);
    const msg = (await loadThreads([out])).flatMap((t) => t.messages).find((m) => m.messageId === `<${seedId}>`);
    assert.ok(msg);
    assert.match(msg.body, /\ndiff --git a\/lib\/iov_iter\.c b\/lib\/iov_iter\.c\n/);
    // The id the importer names for the seed is its parent, which this archive lacks.
    const parent = expected.threads[FSDEVEL].missingParent;
    const miss = await runCli(['fetch', `<${parent}>`, '--public-inbox', pi.url('linux-fsdevel'), '--cache-dir', cacheDir]);
    assert.equal(miss.code, 1);
    assert.equal(miss.stderr, `kernel-review fetch: no message <${parent}> on ${new URL(pi.base).host}\n`);
  });

  test('kernel-review fetch takes a lore-style URL and -o, and says so in one line on failure', async () => {
    const out = path.join(tmp, 'cli.mbox');
    const url = `${pi.url('io-uring')}${encodeURIComponent(ids(MAN)[2])}/T/#u`;
    const ok = await runCli(['fetch', url, '-o', out, '--cache-dir', cacheDir]);
    assert.equal(ok.code, 0, ok.stderr);
    assert.match(ok.stdout, new RegExp(`^5 messages \\(5 new\\) from ${pi.url('io-uring')}.* written to ${out}\\n$`));
    assert.deepEqual(splitEntries(fs.readFileSync(out)).map((e) => e.messageId).sort(), [...ids(MAN)].sort());
    const found = await runCli(['fetch', '--search', 's:EBADFD', '--threads', '--public-inbox', pi.url('io-uring'), '-o', out]);
    assert.equal(found.code, 0, found.stderr);
    assert.equal(found.stdout, `5 messages matching 's:EBADFD' from ${new URL(pi.base).host} written to ${out}\n`);
    assert.deepEqual(splitEntries(fs.readFileSync(out)).map((e) => e.messageId).sort(), [...ids(MAN)].sort());
    const nothing = await runCli(['fetch', '--search', 's:nonexistentword', '--public-inbox', pi.url('io-uring')]);
    assert.equal(nothing.code, 1);
    assert.equal(nothing.stderr, `kernel-review fetch: no messages match 's:nonexistentword' on ${new URL(pi.base).host}\n`);
    const bad = await runCli(['fetch', 'not-a-message-id', '--cache-dir', cacheDir]);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /^kernel-review fetch: 'not-a-message-id' is neither a Message-ID .*\n$/);
    const badBase = await runCli(['fetch', ids(MAN)[0], '--public-inbox', 'ftp://x/', '--cache-dir', cacheDir]);
    assert.equal(badBase.code, 2);
    assert.equal(badBase.stderr, "kernel-review fetch: public-inbox URL 'ftp://x/' must start with http:// or https://\n");
  });

  test('with the server stopped, cached threads still open; fetching says what failed', async () => {
    await pi.stop();
    const id = root(POLL);
    const cached = await cachedThread(id, { base: pi.url('io-uring-v2'), cacheDir });
    assert.equal(cached.fromCache, true);
    assert.equal(cached.messages, 4);
    const [p] = await resolveInputs([`<${id}>`], { publicInbox: pi.url('io-uring-v2'), cacheDir });
    assert.equal(p, cached.path);
    const threads = await loadThreads([p]);
    assert.equal(threads[0].messages.length, 4);
    const host = new URL(pi.base).host;
    await assert.rejects(refreshThread(id, { base: pi.url('io-uring-v2'), cacheDir }), (e) =>
      lineError(e, 'network', new RegExp(`^${host} refused the connection`)));
    const cli = await runCli(['fetch', id, '--public-inbox', pi.url('io-uring-v2'), '--cache-dir', cacheDir]);
    assert.equal(cli.code, 0);
    assert.match(cli.stderr, new RegExp(`^kernel-review fetch: ${host} refused the connection \\(is the server running\\?\\); using the copy cached \\S+\\n$`));
    assert.equal(cli.bytes.equals(fs.readFileSync(cached.path)), true);
    const never = await runCli(['fetch', 'never-fetched@example.org', '--public-inbox', pi.url('io-uring-v2'), '--cache-dir', cacheDir]);
    assert.equal(never.code, 1);
    assert.equal(never.stderr, `kernel-review fetch: ${host} refused the connection (is the server running?)\n`);
  });
});
