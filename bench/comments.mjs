#!/usr/bin/env node
// Review comments: a ~50-message review thread from mbox to anchored comments, and the
// accuracy/precision of the anchors on the labelled threads.
//
//   npm run build && node bench/comments.mjs [--runs 15] [--mbox test/fixtures/review/tuning/block-atomic-writes-v4.mbox]
//
// "in-process" times loadThreads + extractComments in one node process (after one warm-up run);
// "CLI" times `node dist/cli.js comments <mbox> --json` end to end (process start included).
// Both are wall-clock medians. Prints markdown tables.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const argOf = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : dflt;
};
const RUNS = Number(argOf('runs', 15));
const MBOX = path.resolve(root, argOf('mbox', 'test/fixtures/review/tuning/block-atomic-writes-v4.mbox'));

// Bundle the core (and the label scorer of the accuracy test) into one CommonJS file.
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'kpr-bench-'));
const entry = path.join(tmp, 'entry.ts');
fs.writeFileSync(
  entry,
  [
    `export { loadThreads } from ${JSON.stringify(path.join(root, 'src/core/load'))};`,
    `export { extractComments } from ${JSON.stringify(path.join(root, 'src/core/review'))};`,
    `export * from ${JSON.stringify(path.join(root, 'test/unit/review/labels'))};`,
  ].join('\n'),
);
const out = path.join(tmp, 'core.cjs');
await esbuild.build({ entryPoints: [entry], bundle: true, platform: 'node', target: 'node20', format: 'cjs', outfile: out, logLevel: 'warning' });
const core = createRequire(import.meta.url)(out);

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const ms = (x) => `${x.toFixed(1)} ms`;

const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

async function once() {
  const c0 = cpu();
  const t0 = performance.now();
  const threads = await core.loadThreads([MBOX]);
  const t1 = performance.now();
  const c1 = cpu();
  const comments = threads.flatMap((t) => core.extractComments(t));
  const t2 = performance.now();
  const c2 = cpu();
  return { load: t1 - t0, extract: t2 - t1, total: t2 - t0, cpu: { load: c1 - c0, extract: c2 - c1, total: c2 - c0 }, threads, comments };
}

const warm = await once();
const runs = [];
for (let i = 0; i < RUNS; i++) runs.push(await once());
const messages = warm.threads.reduce((n, t) => n + t.messages.length, 0);

const cliTimes = [];
for (let i = 0; i < Math.min(RUNS, 7); i++) {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [path.join(root, 'dist/cli.js'), 'comments', MBOX, '--json'], { encoding: 'utf8', maxBuffer: 1 << 28 });
  if (r.status !== 0) throw new Error(`kernel-review comments failed: ${r.stderr}`);
  cliTimes.push(performance.now() - t0);
}

console.log(`### Speed: ${path.relative(root, MBOX)} (${messages} messages, ${fs.statSync(MBOX).size} bytes, ${warm.comments.length} comments)\n`);
console.log('| stage | median wall | min wall | max wall | median CPU (user+sys) |');
console.log('|---|---|---|---|---|');
for (const k of ['load', 'extract', 'total']) {
  const xs = runs.map((r) => r[k]);
  const cs = runs.map((r) => r.cpu[k]);
  console.log(`| ${k === 'load' ? 'read + parse + thread (loadThreads)' : k === 'extract' ? 'quote parsing + anchoring (extractComments)' : 'mbox to anchored comments, in-process'} | ${ms(median(xs))} | ${ms(Math.min(...xs))} | ${ms(Math.max(...xs))} | ${ms(median(cs))} |`);
}
console.log(`| \`kernel-review comments --json\`, end to end | ${ms(median(cliTimes))} | ${ms(Math.min(...cliTimes))} | ${ms(Math.max(...cliTimes))} | – |`);
console.log(`\n${RUNS} in-process runs after one warm-up, ${cliTimes.length} CLI runs.\n`);

console.log('### Accuracy and precision on the labelled threads\n');
console.log('| set | threads | labelled comments | accuracy (right anchor / labelled) | precision (matching / reported in exhaustive replies) |');
console.log('|---|---|---|---|---|');
for (const set of ['tuning', 'heldout']) {
  const list = core.labelledThreads(path.join(root, 'test/fixtures/review', set));
  if (!list.length) continue;
  let total = core.empty();
  for (const t of list) {
    const reported = (await core.loadThreads([t.mbox])).flatMap((th) => core.extractComments(th));
    total = core.add(total, core.score(core.loadExpected(t.expected), reported));
  }
  const pct = (x) => `${(x * 100).toFixed(1)} %`;
  console.log(`| ${set} | ${list.length} | ${total.labelled} | ${pct(core.accuracy(total))} (${total.right}/${total.labelled}) | ${pct(core.precision(total))} (${total.matchedInExhaustive}/${total.reportedInExhaustive}) |`);
}
fs.rmSync(tmp, { recursive: true, force: true });
