import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { repoRoot } from '../fixtures';
import { git, snapshot, tempDir, testEnv } from './helpers';

const CLI = (): string => path.join(repoRoot(), 'dist/cli.js');

interface Made {
  /** The user's repository (holding only the base commit). */
  target: string;
  /** The mbox `git format-patch` wrote. */
  mbox: string;
  /** The tree git itself made for the last commit. */
  expectedTree: string;
}

/** Makes real patch mails with git format-patch: base files, then one commit per change. */
function makeSeries(name: string, base: Record<string, string | Buffer>, changes: Array<{ subject: string; edit: (dir: string) => void }>, fpArgs: string[] = []): Made {
  const src = tempDir(`${name}-src`);
  git(src, ['init', '-q', '-b', 'main']);
  for (const [p, text] of Object.entries(base)) {
    fs.mkdirSync(path.dirname(path.join(src, p)), { recursive: true });
    fs.writeFileSync(path.join(src, p), text);
  }
  git(src, ['add', '-A']);
  git(src, ['commit', '-q', '-m', 'base']);
  const target = tempDir(`${name}-tree`);
  fs.rmSync(target, { recursive: true });
  git(src, ['clone', '-q', src, target]);
  for (const c of changes) {
    c.edit(src);
    git(src, ['add', '-A']);
    git(src, ['commit', '-q', '-F', '-'], `${c.subject}\n\nSigned-off-by: A U Thor <author@example.org>\n`);
  }
  const mbox = path.join(src, 'series.mbox');
  fs.writeFileSync(mbox, git(src, ['format-patch', '--stdout', '--thread', '--cover-letter', ...fpArgs, `HEAD~${changes.length}`]));
  return { target, mbox, expectedTree: git(src, ['rev-parse', 'HEAD^{tree}']).trim() };
}

function cli(args: string[], env: NodeJS.ProcessEnv = testEnv()): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI(), ...args], { env, encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

function reviewBranches(dir: string): string[] {
  return git(dir, ['for-each-ref', '--format=%(refname)', 'refs/heads/review/']).split('\n').filter(Boolean);
}

const lines = (n: number, tag: string): string => Array.from({ length: n }, (_, i) => `${tag} line ${i + 1}`).join('\n') + '\n';

test('apply --json: a binary file and a rename apply, the tree equals the one git made, the checkout is untouched', () => {
  const png = Buffer.from(Array.from({ length: 300 }, (_, i) => (i * 37) % 256));
  const m = makeSeries('binren', { 'docs/old-name.txt': lines(30, 'doc'), 'img/logo.png': png, 'src/main.c': lines(40, 'main') }, [
    {
      subject: 'docs: rename old-name to new-name',
      edit: (d) => {
        fs.mkdirSync(path.join(d, 'docs/sub'));
        fs.renameSync(path.join(d, 'docs/old-name.txt'), path.join(d, 'docs/sub/new-name.txt'));
        fs.appendFileSync(path.join(d, 'docs/sub/new-name.txt'), 'one more line\n');
      },
    },
    { subject: 'img: new logo', edit: (d) => fs.writeFileSync(path.join(d, 'img/logo.png'), Buffer.concat([png, Buffer.from([0, 1, 2, 255])])) },
    { subject: 'main: change a line', edit: (d) => fs.writeFileSync(path.join(d, 'src/main.c'), lines(40, 'main').replace('main line 20', 'main line twenty')) },
  ], ['-M']);
  const before = snapshot(m.target);
  const r = cli(['apply', m.mbox, '--tree', m.target, '--json']);
  assert.equal(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.deepEqual(Object.keys(out), ['branch', 'base', 'baseSource', 'commits', 'failed']);
  assert.equal(out.failed, null);
  assert.equal(out.branch, 'refs/heads/review/docs-rename-old-name-to-new-name-v1');
  assert.equal(out.commits.length, 3);
  for (const c of out.commits) assert.match(c.patchMessageId, /^<.+@.+>$/);
  assert.equal(git(m.target, ['rev-parse', `${out.branch}^{tree}`]).trim(), m.expectedTree);
  assert.deepEqual(snapshot(m.target), before);
  // Again: nothing changes.
  const again = JSON.parse(cli(['apply', m.mbox, '--tree', m.target, '--json']).stdout);
  assert.deepEqual(again.commits, out.commits);
});

test('a binary patch without full blob ids fails with a reason, exit 3, nothing created', () => {
  const m = makeSeries('binshort', { 'blob.bin': Buffer.from([0, 1, 2, 3, 0, 5]) }, [
    { subject: 'change the blob', edit: (d) => fs.writeFileSync(path.join(d, 'blob.bin'), Buffer.from([0, 9, 9, 9, 0])) },
  ], ['--no-binary']);
  const before = snapshot(m.target);
  const r = cli(['apply', m.mbox, '--tree', m.target, '--json']);
  assert.equal(r.status, 3, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.equal(out.failed.file, 'blob.bin');
  assert.match(out.failed.reason, /binary/);
  assert.deepEqual(out.commits, []);
  assert.deepEqual(reviewBranches(m.target), []);
  assert.deepEqual(snapshot(m.target), before);
});

test('hostile paths are refused with one sentence and exit 2; a subject starting with "-" stays a message', () => {
  for (const [bad, why] of [['../evil.sh', /leaves the tree/], ['.git/hooks/post-checkout', /\.git directory/], ['/etc/evil', /absolute/]] as const) {
    const m = makeSeries('hostile', { 'x.txt': lines(5, 'x') }, [{ subject: 'innocent', edit: (d) => fs.appendFileSync(path.join(d, 'x.txt'), 'more\n') }]);
    const text = fs.readFileSync(m.mbox, 'utf8').replace(/a\/x\.txt/g, bad.startsWith('/') ? bad : `a/${bad}`).replace(/b\/x\.txt/g, bad.startsWith('/') ? bad : `b/${bad}`);
    fs.writeFileSync(m.mbox, text);
    const before = snapshot(m.target);
    const r = cli(['apply', m.mbox, '--tree', m.target]);
    assert.equal(r.status, 2, `${bad}: ${r.stderr}`);
    assert.equal(r.stderr.trim().split('\n').length, 1);
    assert.match(r.stderr, why);
    assert.ok(r.stderr.includes(bad));
    assert.deepEqual(reviewBranches(m.target), []);
    assert.deepEqual(snapshot(m.target), before);
    assert.equal(fs.existsSync(path.join(path.dirname(m.target), 'evil.sh')), false);
  }
  const title = '--upload-pack=touch pwned -rf';
  const m = makeSeries('dash', { 'x.txt': lines(5, 'x') }, [{ subject: title, edit: (d) => fs.appendFileSync(path.join(d, 'x.txt'), 'more\n') }]);
  const r = cli(['apply', m.mbox, '--tree', m.target, '--json']);
  assert.equal(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.equal(out.branch, 'refs/heads/review/upload-pack-touch-pwned-rf-v1');
  assert.equal(git(m.target, ['log', '-1', '--format=%s', out.branch]).trim(), title);
  assert.equal(fs.existsSync(path.join(m.target, 'pwned')), false);
});

test('git missing from PATH: one clear sentence', () => {
  const m = makeSeries('nogit', { 'x.txt': lines(5, 'x') }, [{ subject: 'x', edit: (d) => fs.appendFileSync(path.join(d, 'x.txt'), 'y\n') }]);
  const r = cli(['apply', m.mbox, '--tree', m.target], { ...testEnv(), PATH: '/nonexistent' });
  assert.equal(r.status, 1);
  assert.equal(r.stderr, 'kernel-review: git was not found on PATH; install git or add it to PATH.\n');
});

test('a run killed mid-way leaves no branch; the next run cleans up and succeeds', async () => {
  const m = makeSeries('killed', { 'a.txt': lines(20, 'a'), 'b.txt': lines(20, 'b') }, [
    { subject: 'first', edit: (d) => fs.appendFileSync(path.join(d, 'a.txt'), 'x\n') },
    { subject: 'second', edit: (d) => fs.appendFileSync(path.join(d, 'b.txt'), 'y\n') },
  ]);
  // A git that stops when the run starts writing objects: every patch applied, no branch yet.
  const bin = tempDir('fakebin');
  const marker = path.join(bin, 'writing');
  const real = spawnSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).stdout.trim();
  fs.writeFileSync(
    path.join(bin, 'git'),
    `#!/bin/sh\nif [ "$1" = hash-object ]; then touch "${marker}"; sleep 60; fi\nexec "${real}" "$@"\n`,
    { mode: 0o755 },
  );
  const before = snapshot(m.target);
  const child = spawn(process.execPath, [CLI(), 'apply', m.mbox, '--tree', m.target], {
    env: { ...testEnv(), PATH: `${bin}:${process.env.PATH}` },
    detached: true,
    stdio: 'ignore',
  });
  for (let i = 0; i < 600 && !fs.existsSync(marker); i++) await new Promise((r) => setTimeout(r, 50));
  assert.ok(fs.existsSync(marker), 'the run reached the writing of objects');
  process.kill(-child.pid!, 'SIGKILL');
  await new Promise((r) => child.on('exit', r));
  const scratch = path.join(m.target, '.git/kernel-review');
  assert.equal(fs.readdirSync(scratch).length, 1, 'the killed run left its scratch folder');
  assert.deepEqual(reviewBranches(m.target), []);
  const r = cli(['apply', m.mbox, '--tree', m.target, '--json']);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(JSON.parse(r.stdout).commits.length, 2);
  assert.equal(fs.existsSync(scratch), false);
  assert.deepEqual(snapshot(m.target), before);
});

test('a series mixing proven in-memory patches and git apply gives the tree git made', () => {
  const m = makeSeries('mixed', { 'a.c': lines(50, 'a'), 'b.c': lines(50, 'b') }, [
    { subject: 'one', edit: (d) => fs.writeFileSync(path.join(d, 'a.c'), lines(50, 'a').replace('a line 10\n', 'a line ten\n')) },
    { subject: 'two', edit: (d) => fs.writeFileSync(path.join(d, 'a.c'), lines(50, 'a').replace('a line 10\n', 'a line ten\n').replace('a line 30\n', 'a line thirty\nextra\n')) },
    { subject: 'three', edit: (d) => fs.appendFileSync(path.join(d, 'b.c'), 'b tail\n') },
  ]);
  // Patch 2 claims a pre-image blob the tree does not have: it must go through git apply.
  const mails = fs.readFileSync(m.mbox, 'utf8').split(/^(?=From [0-9a-f]{40} )/m);
  mails[1] = mails[1].replace(/^index [0-9a-f]+\.\./m, 'index 1234567..');
  fs.writeFileSync(m.mbox, mails.join(''));
  const before = snapshot(m.target);
  const r = cli(['apply', m.mbox, '--tree', m.target, '--json', '--verbose']);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stderr, /git apply --cached/);
  const out = JSON.parse(r.stdout);
  assert.equal(out.commits.length, 3);
  assert.equal(git(m.target, ['rev-parse', `${out.branch}^{tree}`]).trim(), m.expectedTree);
  assert.deepEqual(snapshot(m.target), before);
});

test('applying again after HEAD moved on keeps the review branch where it is', () => {
  const m = makeSeries('keep', { 'a.c': lines(20, 'a'), 'other.c': lines(5, 'o') }, [
    { subject: 'one', edit: (d) => fs.appendFileSync(path.join(d, 'a.c'), 'x\n') },
  ]);
  const first = JSON.parse(cli(['apply', m.mbox, '--tree', m.target, '--json']).stdout);
  assert.equal(first.baseSource, 'guess');
  fs.appendFileSync(path.join(m.target, 'other.c'), 'unrelated\n');
  git(m.target, ['commit', '-q', '-am', 'unrelated work']);
  const again = cli(['apply', m.mbox, '--tree', m.target, '--json']);
  assert.equal(again.status, 0, again.stderr);
  const out = JSON.parse(again.stdout);
  assert.equal(out.base, first.base);
  assert.deepEqual(out.commits, first.commits);
});
