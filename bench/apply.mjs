#!/usr/bin/env node
// Applying a 20-patch series: `kernel-review apply` (checkout untouched) against plain `git am` on a
// scratch work tree of the same repository, on a small tree and on a generated 80k-file tree.
//
//   npm run build && node bench/apply.mjs [--runs 5] [--files 80000] [--patches 20]
//
// Prints a markdown table. Times are wall-clock medians of end-to-end commands (process start, mail
// parsing, applying, writing the branch); the setup (generating the trees, checking out the scratch
// work tree for git am) is not timed.
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const cli = path.join(root, 'dist/cli.js');
const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const RUNS = arg('runs', 5);
const BIG = arg('files', 80000);
const PATCHES = arg('patches', 20);

const env = {
  ...process.env,
  GIT_AUTHOR_NAME: 'Bench Author',
  GIT_AUTHOR_EMAIL: 'author@example.org',
  GIT_COMMITTER_NAME: 'Bench Reviewer',
  GIT_COMMITTER_EMAIL: 'reviewer@example.org',
};
const git = (cwd, args, input) => execFileSync('git', args, { cwd, env, input, maxBuffer: 1 << 30, encoding: 'utf8' });

/** Lines of a C-like source file. */
function source(tag, n) {
  const out = [];
  for (let i = 1; i <= n; i++) out.push(i % 7 === 0 ? `static int ${tag}_fn${i}(void)\n{\n\treturn ${i};\n}` : `/* ${tag} line ${i} */`);
  return `${out.join('\n')}\n`;
}

function data(s) {
  const b = Buffer.from(s);
  return `data ${b.length}\n${s}\n`;
}

/**
 * A repository whose base commit has `filler` generated files plus the series' files, and 20 commits
 * on top (made with fast-import, no checkout); returns the mbox of those commits and the base.
 */
function makeRepo(dir, filler) {
  git(dir, ['init', '-q', '-b', 'main']);
  const dirs = ['fs/io_uring', 'block', 'drivers/nvme/host', 'include/linux', 'mm'];
  const series = [];
  for (let i = 0; i < 12; i++) series.push(`${dirs[i % dirs.length]}/file${i}.c`);
  const contents = new Map(series.map((p, i) => [p, source(`f${i}`, 400)]));
  let stream = `commit refs/heads/main\nmark :1\nauthor Base <base@example.org> 1700000000 +0000\ncommitter Base <base@example.org> 1700000000 +0000\n${data('base\n')}`;
  for (const [p, text] of contents) stream += `M 100644 inline ${p}\n${data(text)}`;
  const perDir = 150;
  for (let i = 0; i < filler; i++) {
    const d = Math.floor(i / perDir);
    const top = dirs[d % dirs.length];
    stream += `M 100644 inline ${top}/gen${Math.floor(d / dirs.length)}/g${i % perDir}.c\n${data(`/* generated ${i} */\nint g${i};\n`)}`;
  }
  for (let k = 0; k < PATCHES; k++) {
    stream += `commit refs/heads/main\nauthor Patch Author <patch@example.org> ${1700001000 + k * 60} +0000\ncommitter Patch Author <patch@example.org> ${1700001000 + k * 60} +0000\n`;
    stream += data(`area${k}: change number ${k + 1}\n\nWhat it does, in a line or two.\n\nSigned-off-by: Patch Author <patch@example.org>\n`);
    if (k === 0) stream += 'from :1\n';
    for (const j of [k % series.length, (k * 5 + 3) % series.length]) {
      const p = series[j];
      const lines = contents.get(p).split('\n');
      // Two hunks: change one line and insert three.
      const a = 20 + ((k * 37) % 300);
      lines[a] = `/* changed by patch ${k + 1} */`;
      lines.splice(a + 40, 0, `int added_${k}_a;`, `int added_${k}_b;`, `int added_${k}_c;`);
      contents.set(p, lines.join('\n'));
      stream += `M 100644 inline ${p}\n${data(contents.get(p))}`;
    }
    if (k % 5 === 4) stream += `M 100644 inline ${dirs[k % dirs.length]}/new${k}.c\n${data(source(`n${k}`, 60))}`;
  }
  execFileSync('git', ['fast-import', '--quiet'], { cwd: dir, env, input: stream, maxBuffer: 1 << 30 });
  const mbox = path.join(dir, '..', `${path.basename(dir)}.mbox`);
  fs.writeFileSync(mbox, git(dir, ['format-patch', '--stdout', '--thread', `main~${PATCHES}..main`]));
  const base = git(dir, ['rev-parse', `main~${PATCHES}`]).trim();
  git(dir, ['update-ref', 'refs/heads/main', base]);
  git(dir, ['read-tree', 'main']);
  return { mbox, base, files: Number(git(dir, ['ls-tree', '-r', '--name-only', 'main']).split('\n').length - 1) };
}

function time(fn) {
  const t = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - t) / 1e6;
}

async function timeAsync(fn) {
  const t = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - t) / 1e6;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** The core as the editor runs it: bundled from src/ into a temporary module. */
async function loadCore(dir) {
  const outfile = path.join(dir, 'core.cjs');
  await esbuild.build({
    stdin: {
      contents: "export { loadThreads } from './src/core/load'; export { applySeries } from './src/core/git/apply'; export { Repo } from './src/core/git/repo';",
      resolveDir: root,
      loader: 'ts',
    },
    bundle: true,
    platform: 'node',
    format: 'cjs',
    outfile,
    logLevel: 'warning',
  });
  return createRequire(import.meta.url)(outfile);
}

function setUp(work, label, filler) {
  const repo = path.join(work, label);
  fs.mkdirSync(repo);
  const made = makeRepo(repo, filler);
  const wt = path.join(work, `${label}-am`);
  git(repo, ['worktree', 'add', '-q', '--detach', wt, made.base]);
  return { label, repo, wt, ...made, cli: [], core: [], am: [], baseSource: '' };
}

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'kr-bench-'));
try {
  const core = await loadCore(work);
  const trees = [setUp(work, 'small tree', 0), setUp(work, `${Math.round(BIG / 1000)}k-file tree`, BIG)];
  // Interleaved, so that both trees and all three tools see the same machine load.
  for (let i = 0; i < RUNS; i++) {
    for (const t of trees) {
      t.cli.push(
        time(() => {
          const r = spawnSync(process.execPath, [cli, 'apply', t.mbox, '--tree', t.repo, '--branch', `bench/cli-${i}`, '--json'], { env, encoding: 'utf8' });
          if (r.status !== 0) throw new Error(`kernel-review apply failed: ${r.stderr}`);
          const out = JSON.parse(r.stdout);
          if (out.commits.length !== PATCHES) throw new Error(`expected ${PATCHES} commits`);
          t.baseSource = out.baseSource;
        }),
      );
      t.core.push(
        await timeAsync(async () => {
          const [threads, repo] = await Promise.all([core.loadThreads([t.mbox]), core.Repo.open(t.repo, { env })]);
          const series = threads.flatMap((th) => th.series).find((s) => s.patches.length === PATCHES);
          const r = await core.applySeries(repo, series, { branch: `bench/core-${i}` });
          if (r.failed || r.commits.length !== PATCHES) throw new Error('in-process apply failed');
        }),
      );
      t.am.push(time(() => git(t.wt, ['am', '-q', t.mbox])));
      git(t.wt, ['checkout', '-q', '--detach', t.base]);
    }
  }
  const cell = (xs) => `${median(xs).toFixed(0)} (${Math.min(...xs).toFixed(0)})`;
  console.log(`${PATCHES}-patch series, ${RUNS} interleaved runs, wall-clock ms: median (best)\n`);
  console.log('| tree | files | `kernel-review apply` (CLI) | `applySeries` in-process | `git am` (scratch work tree) | CLI / git am | in-process / git am | base |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---|');
  for (const t of trees) {
    const [c, k, a] = [median(t.cli), median(t.core), median(t.am)];
    console.log(`| ${t.label} | ${t.files} | ${cell(t.cli)} | ${cell(t.core)} | ${cell(t.am)} | ${(c / a).toFixed(2)}× | ${(k / a).toFixed(2)}× | ${t.baseSource} |`);
  }
  const [s, b] = trees;
  const g = (k) => `${(median(b[k]) / median(s[k])).toFixed(2)}× (best runs ${(Math.min(...b[k]) / Math.min(...s[k])).toFixed(2)}×)`;
  console.log(`\ngrowth from the small tree to the ${b.label} (medians): CLI ${g('cli')}, in-process ${g('core')}, git am ${g('am')}`);
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}
