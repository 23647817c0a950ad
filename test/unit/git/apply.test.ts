import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fixture } from '../fixtures';
import { buildRepo, git, snapshot, tempDir, testEnv } from './helpers';
import { loadThreads } from '../../../src/core/load';
import type { Series } from '../../../src/core/model';
import { InputError } from '../../../src/core/model';
import { applySeries } from '../../../src/core/git/apply';
import { Repo, GitError } from '../../../src/core/git/repo';
import { remapToTip } from '../../../src/core/git/remap';

async function seriesOf(file: string, version?: number): Promise<Series> {
  const threads = await loadThreads([fixture('git', file)]);
  const all = threads.flatMap((t) => t.series).filter((s) => s.patches.length > 0 && (version === undefined || s.version === version));
  all.sort((a, b) => b.patches.length - a.patches.length);
  return all[0];
}

async function open(dir: string, log?: string[]): Promise<Repo> {
  return Repo.open(dir, { env: testEnv(), logger: log ? (l) => log.push(l) : undefined });
}

/** Runs `fn` and asserts the user's checkout is byte-identical afterwards. */
async function untouched<T>(dir: string, fn: () => Promise<T>): Promise<T> {
  const before = snapshot(dir);
  try {
    return await fn();
  } finally {
    assert.deepEqual(snapshot(dir), before, 'the checkout changed');
    assert.equal(fs.existsSync(path.join(dir, '.git', 'kernel-review')), false, 'scratch files were left behind');
  }
}

function show(dir: string, rev: string): string {
  return git(dir, ['show', '-s', '--format=%an <%ae>%n%aI%n%B', rev]);
}

test('a 10-patch liburing series becomes 10 commits with authors, messages and trailers from the mails', async () => {
  const series = await seriesOf('liburing-aarch64-nolibc-support-v3.mbox');
  assert.equal(series.patches.length, 10);
  const dir = tempDir('aarch64');
  const head = buildRepo(dir, [series]);
  fs.writeFileSync(path.join(dir, 'CHANGELOG'), 'dirty work in progress\n'); // a dirty tree
  fs.writeFileSync(path.join(dir, 'untracked.txt'), 'x\n');
  const repo = await open(dir);
  const r = await untouched(dir, () => applySeries(repo, series));
  assert.equal(r.failed, null);
  assert.equal(r.branch, 'refs/heads/review/aarch64-support-v3');
  // base-commit f8eb5f80… is not in this repository and the index lines name liburing's blobs: HEAD.
  assert.equal(r.baseSource, 'head');
  assert.equal(r.base, head);
  assert.equal(r.commits.length, 10);
  const log = git(dir, ['rev-list', '--reverse', `${head}..${r.branch}`]).trim().split('\n');
  assert.deepEqual(log, r.commits.map((c) => c.sha));
  assert.deepEqual(r.commits.map((c) => c.patchMessageId), series.patches.map((p) => p.messageId));

  const first = show(dir, r.commits[0].sha);
  // The author date keeps the sender's zone (Date: Tue,  5 Jul 2022 00:54:27 +0700), as git am does.
  assert.match(first, /^Ammar Faizi <ammarfaizi2@gnuweeb\.org>\n2022-07-05T00:54:27\+07:00\nCHANGELOG: Fixup missing space\n/);
  assert.match(first, /\nLink: https:\/\/lore\.kernel\.org\/r\/20220704174858\.329326-2-ammar\.faizi@intel\.com\n/);
  // Patch 2/10 got a Reviewed-by in a reply (Alviro Iskandar Setiawan); it goes after the mail's own trailers.
  const second = show(dir, r.commits[1].sha);
  assert.match(second, /Signed-off-by: Ammar Faizi <ammarfaizi2@gnuweeb\.org>\nReviewed-by: Alviro Iskandar Setiawan <alviro\.iskandar@gnuweeb\.org>\nLink: https:\/\/lore\.kernel\.org\/r\/20220704174858\.329326-3-ammar\.faizi@intel\.com\n+$/);
  // Patch 5/10 keeps its own Link:/Suggested-by: lines in order.
  assert.match(show(dir, r.commits[4].sha), /Link: https:\/\/lore\.kernel\.org\/io-uring\/49ed1c4c-46ca-15c4-f288-f6808401b0ff@kernel\.dk\nSuggested-by: Jens Axboe <axboe@kernel\.dk>\nSigned-off-by:/);
  // New files carry exactly the mail's content: their blob ids match the index lines.
  const lib = git(dir, ['rev-parse', `${r.commits[4].sha}:src/arch/aarch64/lib.h`]).trim();
  assert.ok(lib.startsWith('eb7e4cb'), lib);
  const tip = r.commits[9].sha;
  for (const p of series.patches) {
    for (const f of p.files) {
      if (f.isNew && f.newBlob) assert.ok(git(dir, ['rev-parse', `${tip}:${f.newPath}`]).startsWith(f.newBlob), f.path);
    }
  }
  // The CHANGELOG at the tip starts with the lines patch 10/10 added.
  assert.match(git(dir, ['show', `${tip}:CHANGELOG`]), /^liburing-2\.3 release\n\n- Support non-libc build for aarch64\.\n/);
  assert.equal(git(dir, ['rev-parse', '--abbrev-ref', 'HEAD']).trim(), 'main');
});

test('applying the same series again changes nothing; a new version gets its own branch', async () => {
  const v1 = await seriesOf('liburing-tx-timestamp-tests.mbox');
  const v2 = await seriesOf('liburing-tx-timestamp-tests-v2.mbox');
  const dir = tempDir('versions');
  buildRepo(dir, [v1]);
  const repo = await open(dir);
  const a = await untouched(dir, () => applySeries(repo, v1));
  const reflog1 = git(dir, ['reflog', 'show', '--format=%H', a.branch]);
  const again = await untouched(dir, () => applySeries(repo, v1));
  assert.equal(again.unchanged, true);
  assert.deepEqual(again.commits, a.commits);
  assert.equal(git(dir, ['reflog', 'show', '--format=%H', a.branch]), reflog1);
  const b = await untouched(dir, () => applySeries(repo, v2));
  assert.equal(a.branch, 'refs/heads/review/add-tx-timestamp-tests-v1');
  assert.equal(b.branch, 'refs/heads/review/add-tx-timestamp-tests-v2');
  assert.equal(b.failed, null);
  assert.equal(git(dir, ['rev-parse', a.branch]).trim(), a.commits[1].sha);
});

test('the base: explicit, then base-commit when present, then a guess from the index lines', async () => {
  const series = await seriesOf('block-bio_may_need_split-v2.mbox');
  const dir = tempDir('base');
  const base = buildRepo(dir, [series]);
  // Move HEAD on so that the series no longer applies there.
  const file = path.join(dir, 'block/bio.c');
  fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace(/^/, 'x\n').replace(/\n[^\n]*\n/, '\nchanged\n'));
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  fs.writeFileSync(file, lines.map((l, i) => (i % 2 ? `${l} /* moved */` : l)).join('\n'));
  git(dir, ['commit', '-q', '-am', 'later work', '--date=2001-01-01T00:00:00Z']);
  const repo = await open(dir);

  const explicit = await untouched(dir, () => applySeries(repo, series, { base, branch: 'review/explicit' }));
  assert.equal(explicit.baseSource, 'explicit');
  assert.equal(explicit.base, base);
  assert.equal(explicit.failed, null);

  // The index lines name the real kernel's blobs; point them at this tree's so the guess can find them.
  const blobs = new Map(git(dir, ['ls-tree', '-r', base]).trim().split('\n').map((l) => [l.split('\t')[1], l.split(' ')[2].split('\t')[0]]));
  const guessed: Series = {
    ...series,
    patches: series.patches.map((p) => ({ ...p, files: p.files.map((f) => ({ ...f, oldBlob: f.oldPath && !f.isNew ? (blobs.get(f.oldPath) ?? f.oldBlob)?.slice(0, 12) ?? null : f.oldBlob })) })),
  };
  const g = await untouched(dir, () => applySeries(repo, guessed, { branch: 'review/guessed' }));
  assert.equal(g.baseSource, 'guess');
  assert.equal(g.base, base);
  assert.equal(g.failed, null);

  const withBase: Series = { ...series, baseCommit: base };
  const bc = await untouched(dir, () => applySeries(repo, withBase, { branch: 'review/base-commit' }));
  assert.equal(bc.baseSource, 'base-commit');
  assert.equal(bc.base, base);

  await assert.rejects(() => applySeries(repo, series, { base: 'deadbeefdeadbeef' }), (e: unknown) => e instanceof InputError && /does not name a commit/.test(e.message));
  assert.equal(git(dir, ['for-each-ref', '--format=%(refname)', 'refs/heads/review/']).trim().split('\n').length, 3);
});

test('a patch that conflicts names the patch, the file and the hunk, and creates nothing', async () => {
  const series = await seriesOf('block-bio_may_need_split-v2.mbox');
  const dir = tempDir('conflict');
  buildRepo(dir, [series]);
  // Rewrite the lines the second hunk of patch 1 expects in block/bio.c.
  const f1 = series.patches[0].files.find((f) => f.path === 'block/bio.c')!;
  const h = f1.hunks[1] ?? f1.hunks[0];
  const file = path.join(dir, 'block/bio.c');
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  for (let i = h.oldStart - 1; i < h.oldStart - 1 + h.oldLines; i++) lines[i] = `conflicting ${i}`;
  fs.writeFileSync(file, lines.join('\n'));
  git(dir, ['commit', '-q', '-am', 'conflict']);
  const repo = await open(dir);
  const r = await untouched(dir, () => applySeries(repo, series));
  assert.ok(r.failed);
  assert.equal(r.failed.patchMessageId, series.patches[0].messageId);
  assert.equal(r.failed.file, 'block/bio.c');
  assert.equal(r.failed.hunk, f1.hunks.indexOf(h) + 1);
  assert.match(r.failed.reason, /^hunk #\d \(@@ -\d+,\d+ \+\d+,\d+ @@\) does not apply/);
  assert.deepEqual(r.commits, []);
  assert.equal(git(dir, ['for-each-ref', 'refs/heads/review/']), '');
});

test('a patch creating a file that exists fails on that file; a held index.lock does not matter', async () => {
  const series = await seriesOf('liburing-test-file-position-v2.mbox');
  assert.ok(series.patches[0].files.some((f) => f.path === 'test/fpos.c' && f.isNew));
  const dir = tempDir('exists');
  buildRepo(dir, [series], { 'test/fpos.c': 'already here\n' });
  fs.writeFileSync(path.join(dir, '.git', 'index.lock'), ''); // another git is running
  const repo = await open(dir);
  const r = await untouched(dir, () => applySeries(repo, series));
  assert.equal(r.failed?.file, 'test/fpos.c');
  assert.match(r.failed!.reason, /creates this file but it already exists/);
  assert.equal(fs.existsSync(path.join(dir, '.git', 'index.lock')), true, 'the other process\'s lock must stay');

  const clean = tempDir('locked');
  buildRepo(clean, [series]);
  fs.writeFileSync(path.join(clean, '.git', 'index.lock'), '');
  const ok = await untouched(clean, async () => applySeries(await open(clean), series));
  assert.equal(ok.failed, null);
  assert.equal(ok.commits.length, 1);
});

test('a lock on the review branch held by another git is explained and leaves nothing behind', async () => {
  const series = await seriesOf('liburing-test-file-position-v2.mbox');
  const dir = tempDir('reflock');
  buildRepo(dir, [series]);
  fs.mkdirSync(path.join(dir, '.git/refs/heads/review'), { recursive: true });
  const lock = path.join(dir, '.git/refs/heads/review/test-consistent-file-position-updates-v2.lock');
  fs.writeFileSync(lock, '');
  const repo = await open(dir);
  await untouched(dir, () =>
    assert.rejects(() => applySeries(repo, series), (e: unknown) => e instanceof GitError && e.kind === 'locked' && /another git process/.test(e.message)),
  );
  assert.equal(git(dir, ['for-each-ref', 'refs/heads/review/']), '');
  fs.unlinkSync(lock);
  assert.equal((await applySeries(repo, series)).failed, null);
});

test('every line of every patch is found at the tip where the remapping says (or a later patch removed it)', async () => {
  for (const name of ['liburing-aarch64-nolibc-support-v3.mbox', 'block-bio_may_need_split-v2.mbox']) {
    const series = await seriesOf(name);
    const dir = tempDir('remap');
    buildRepo(dir, [series]);
    const r = await applySeries(await open(dir), series);
    const tip = r.commits[r.commits.length - 1].sha;
    const cache = new Map<string, string[]>();
    const tipLines = (p: string): string[] => {
      if (!cache.has(p)) cache.set(p, git(dir, ['show', `${tip}:${p}`]).split('\n'));
      return cache.get(p)!;
    };
    let mapped = 0;
    let outdated = 0;
    let oldSide = 0;
    series.patches.forEach((patch, k) => {
      for (const f of patch.files) {
        if (!f.newPath) continue;
        for (const h of f.hunks) {
          h.lines.forEach((l, li) => {
            if (l.type !== 'del' || !f.oldPath || f.isDeleted) return;
            // A comment on a removed line sits at the line that now follows the removal.
            const at = remapToTip(series, k, f.oldPath, 'old', l.oldLine!);
            assert.equal(at.side, 'old');
            const next = h.lines.slice(li + 1).find((x) => x.newLine !== null);
            if (at.outdated || !next) return;
            const follow = remapToTip(series, k, f.newPath!, 'new', next.newLine!);
            if (!follow.outdated) assert.deepEqual([at.path, at.line], [follow.path, follow.line]);
            oldSide++;
          });
          for (const l of h.lines) {
            if (l.newLine === null) continue;
            const at = remapToTip(series, k, f.newPath, 'new', l.newLine);
            if (at.outdated) {
              outdated++;
              continue;
            }
            assert.equal(tipLines(at.path)[at.line - 1], l.text, `${name} patch ${k + 1} ${f.newPath}:${l.newLine} -> ${at.path}:${at.line}`);
            mapped++;
          }
        }
      }
    });
    assert.ok(mapped > 50, `${name}: ${mapped} lines mapped`);
    assert.ok(oldSide > 5, `${name}: ${oldSide} removed lines placed`);
    if (name.startsWith('liburing')) assert.ok(outdated > 0, 'later patches of the aarch64 series rewrite earlier lines');
  }
});

test('the Link: and reply trailers are optional', async () => {
  const series = await seriesOf('block-bio_may_need_split-v2.mbox');
  const dir = tempDir('trailers');
  buildRepo(dir, [series]);
  const repo = await open(dir);
  const withAll = await applySeries(repo, series);
  // Read from the mail: Nitesh Shetty answered each of the three patches with a Reviewed-by.
  for (const c of withAll.commits) {
    const msg = git(dir, ['log', '-1', '--format=%B', c.sha]);
    assert.match(msg, /\nReviewed-by: Nitesh Shetty <nj\.shetty@samsung\.com>\n/);
    assert.ok(msg.includes(`\nLink: https://lore.kernel.org/r/${c.patchMessageId.slice(1, -1)}\n`));
  }
  const bare = await applySeries(repo, series, { branch: 'review/bare', trailers: { link: false, replyTrailers: false } });
  for (const c of bare.commits) {
    const msg = git(dir, ['log', '-1', '--format=%B', c.sha]);
    assert.doesNotMatch(msg, /^(Link: https:\/\/lore\.kernel\.org\/r\/|Reviewed-by: Nitesh)/m);
    assert.match(msg, /Signed-off-by: Ming Lei <ming\.lei@redhat\.com>\n+$/);
  }
});
