import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fixture, repoRoot } from '../fixtures';
import { loadThreads } from '../../../src/core/load';
import { threadJson } from '../../../src/core/summary';

const cli = path.join(repoRoot(), 'dist', 'cli.js');

function run(args: string[], input?: Buffer) {
  const r = spawnSync(process.execPath, [cli, ...args], { input, encoding: 'utf8', maxBuffer: 64 << 20 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

interface SeriesExpect {
  version: number;
  total: number;
  patches: number;
  cover: string | null;
  baseCommit?: string;
}
interface ThreadExpect {
  threads: number;
  messages: number;
  root?: string;
  series: SeriesExpect[];
  replyTrailers?: { patchIndex: number; name: string; value: string }[];
}

const expected: Record<string, ThreadExpect> = JSON.parse(fs.readFileSync(fixture('threads', 'expected.json'), 'utf8'));

for (const [file, want] of Object.entries(expected)) {
  test(`threads --json on the real thread ${file}`, () => {
    const r = run(['threads', '--json', fixture('threads', file)]);
    assert.equal(r.code, 0, r.stderr);
    const { threads } = JSON.parse(r.stdout);
    assert.equal(threads.length, want.threads);
    const t = threads[0];
    assert.equal(t.messages, want.messages);
    if (want.root) assert.equal(t.rootMessageId, want.root);
    assert.equal(t.series.length, want.series.length);
    want.series.forEach((ws, i) => {
      const s = t.series[i];
      assert.equal(s.version, ws.version);
      assert.equal(s.total, ws.total);
      assert.equal(s.patches.length, ws.patches);
      assert.equal(s.coverMessageId, ws.cover);
      if (ws.baseCommit) assert.equal(s.baseCommit, ws.baseCommit);
      assert.deepEqual(s.patches.map((p: { index: number }) => p.index), Array.from({ length: ws.patches }, (_, k) => k + 1));
    });
    for (const tr of want.replyTrailers ?? []) {
      const p = t.series[0].patches.find((x: { index: number }) => x.index === tr.patchIndex);
      const hit = p.trailers.find((x: { name: string; value: string; messageId: string }) => x.name === tr.name && x.value === tr.value);
      assert.ok(hit, `${tr.name}: ${tr.value} on patch ${tr.patchIndex}`);
      assert.notEqual(hit.messageId, p.messageId, 'the trailer came from a reply');
    }
  });
}

/** Every file under test/fixtures that is mail. */
function mailFixtures(): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.(mbox|eml)$/.test(e.name) || /\/seeds\/00[134]_/.test(p)) out.push(p);
    }
  };
  walk(fixture());
  return out;
}

const ID = /^<[^<>\s]+>$/;

test('the JSON contract holds on every mail fixture, light (index) and full imports agree', async () => {
  const files = mailFixtures();
  assert.ok(files.length > 80, `found ${files.length} mail fixtures`);
  for (const f of files) {
    const light = (await loadThreads([f], { light: true, workers: 0 })).map(threadJson);
    const full = (await loadThreads([f])).map(threadJson);
    assert.deepEqual(light, full, `${f}: the thread index equals the full import`);
    const { threads } = JSON.parse(JSON.stringify({ threads: light }));
    assert.ok(threads.length > 0, `${f}: no thread`);
    for (const t of threads) {
      assert.match(t.rootMessageId, ID, f);
      assert.equal(typeof t.subject, 'string');
      assert.ok(Number.isInteger(t.messages) && t.messages > 0);
      for (const s of t.series) {
        assert.ok(Number.isInteger(s.version) && s.version >= 1, `${f}: version`);
        assert.ok(Number.isInteger(s.total));
        assert.ok(s.coverMessageId === null || ID.test(s.coverMessageId));
        for (const p of s.patches) {
          assert.match(p.messageId, ID);
          assert.ok(p.date === null || !Number.isNaN(Date.parse(p.date)), `${f}: date ${p.date}`);
          assert.ok(Array.isArray(p.files));
          for (const tr of p.trailers) assert.match(tr.messageId, ID);
        }
      }
    }
  }
});

test('text mode prints a readable table', () => {
  const r = run(['threads', fixture('threads', 'liburing-splice-helpers-v2.mbox')]);
  assert.equal(r.code, 0);
  assert.match(r.stdout, /^\[PATCH v2 0\/2\] splice helpers \+ tests$/m);
  assert.match(r.stdout, /v2: 2\/2 patches \+ cover/);
});

test('stdin input and several inputs', () => {
  const data = fs.readFileSync(fixture('threads', 'liburing-splice-helpers-v2.mbox'));
  const viaStdin = JSON.parse(run(['threads', '--json', '-'], data).stdout);
  assert.equal(viaStdin.threads[0].rootMessageId, '<cover.1581851604.git.asml.silence@gmail.com>');
  const two = JSON.parse(run(['threads', '--json', fixture('threads', 'liburing-splice-helpers-v2.mbox'), fixture('threads', 'liburing-napi-busy-poll-v4.mbox')]).stdout);
  assert.equal(two.threads.length, 2);
});

test('unusable input: exit 2 and one line on stderr naming the file', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kr-cli-'));
  const empty = path.join(dir, 'empty.mbox');
  fs.writeFileSync(empty, '');
  for (const bad of [empty, path.join(dir, 'nope.mbox'), dir, fixture('seeds', '000_23b00ab328f9281a.txt')]) {
    const r = run(['threads', bad]);
    assert.equal(r.code, 2, `${bad}: ${r.stderr}`);
    assert.equal(r.stdout, '');
    const lines = r.stderr.trimEnd().split('\n');
    assert.equal(lines.length, 1, r.stderr);
    assert.ok(lines[0].includes(bad), `names the file: ${lines[0]}`);
    assert.doesNotMatch(r.stderr, /\bat .*\.js:\d+/, 'no stack trace');
  }
});

test('usage errors exit 2; --help documents every command', () => {
  assert.equal(run(['threads']).code, 2);
  assert.equal(run(['threads', '--bogus', 'x']).code, 2);
  assert.equal(run(['nonsense']).code, 2);
  const help = run(['--help']);
  assert.equal(help.code, 0);
  const names = [...help.stdout.matchAll(/^ {2}(\S+) {2,}/gm)].map((m) => m[1]);
  assert.ok(names.includes('threads'));
  for (const n of names) {
    const h = run([n, '--help']);
    assert.equal(h.code, 0);
    assert.match(h.stdout, new RegExp(`^usage: kernel-review ${n}`));
  }
});
