#!/usr/bin/env node
// Extension figures for BENCHMARKS.md: bundle size, code loading, activation inside a real VS Code, and an
// import of a large archive inside that VS Code with an event-loop probe in the extension host.
// usage: npm run build && node bench/extension.mjs [--mbox <archive.mbox[.gz]>] [--runs 5]
// The integration harness must be installed (bash scripts/ci-vscode.sh).
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import * as esbuild from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const opt = (name, dflt) => { const i = args.indexOf(`--${name}`); return i >= 0 ? args[i + 1] : dflt; };
const mbox = opt('mbox');
const runs = Number(opt('runs', '5'));
const tmp = mkdtempSync(path.join(os.tmpdir(), 'kr-bench-ext-'));
const kib = (n) => `${(n / 1024).toFixed(0)} KiB`;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

// Bundle: the development build (npm run build) and the minified one (esbuild.mjs --production).
const dev = path.join(root, 'dist/extension.js');
const min = path.join(tmp, 'extension.min.js');
await esbuild.build({ entryPoints: [path.join(root, 'src/extension.ts')], bundle: true, platform: 'node', target: 'node20', format: 'cjs',
  external: ['vscode'], minify: true, outfile: min, logLevel: 'warning' });

// Code loading: require() of the bundle in plain node (a stub stands in for the `vscode` module).
mkdirSync(path.join(tmp, 'node_modules/vscode'), { recursive: true });
writeFileSync(path.join(tmp, 'node_modules/vscode/index.js'), 'module.exports = new Proxy({}, { get: () => function () {} });\n');
const load = (file) => {
  const times = [];
  for (let i = 0; i < runs; i++) {
    const r = spawnSync(process.execPath, ['-e', `const t=performance.now();require(${JSON.stringify(file)});console.log(performance.now()-t)`],
      { cwd: tmp, env: { ...process.env, NODE_PATH: path.join(tmp, 'node_modules') }, encoding: 'utf8' });
    times.push(Number(r.stdout.trim()));
  }
  return times;
};
const devLoad = load(dev);
const minLoad = load(min);

// Inside VS Code: activation and the import.
const results = path.join(tmp, 'bench.json');
const r = spawnSync(process.execPath, [path.join(root, 'scripts/run-integration.mjs'), '--only', 'bench'], {
  stdio: ['ignore', 'ignore', 'inherit'],
  env: { ...process.env, KERNEL_REVIEW_IT_RESULTS: results, VSC_TEST_TIMEOUT: '1800', ...(mbox ? { KERNEL_REVIEW_BENCH_MBOX: path.resolve(mbox) } : {}) },
});
if (r.status !== 0) {
  console.error('bench/extension: the bench suite failed in VS Code');
  process.exit(1);
}
const b = JSON.parse(readFileSync(results, 'utf8'));
const ms = (x) => `${Number(x).toFixed(1)} ms`;

console.log(`| measure | value |\n|---|---|`);
console.log(`| bundle dist/extension.js (npm run build) | ${kib(statSync(dev).size)} |`);
console.log(`| bundle minified (esbuild.mjs --production) | ${kib(statSync(min).size)}, ${kib(gzipSync(readFileSync(min)).length)} gzipped |`);
console.log(`| require() of the bundle in node, median of ${runs} (min–max) | dev ${ms(median(devLoad))} (${ms(Math.min(...devLoad))}–${ms(Math.max(...devLoad))}), minified ${ms(median(minLoad))} (${ms(Math.min(...minLoad))}–${ms(Math.max(...minLoad))}) |`);
console.log(`| activate() call in VS Code ${b.vscode} | ${ms(b.activateCallMs)} (${b.activationDetail} ms) |`);
console.log(`| first activation in VS Code, wall (code loading + activate) | ${ms(b.activateWallMs)} |`);
if (b.mbox) {
  console.log(`| import ${b.mbox} (${(b.mboxBytes / 2 ** 20).toFixed(1)} MiB): messages / threads / comments / placed conversations | ${b.messages} / ${b.threads} / ${b.comments} / ${b.placed} |`);
  console.log(`| import wall time (Import Mbox command, progress shown) | ${(b.importMs / 1000).toFixed(1)} s |`);
  console.log(`| longest extension-host event-loop stall during the import | ${ms(b.importMaxStallMs)} |`);
  console.log(`| stalls over 50 ms / over 100 ms | ${b.importStallsOver50} / ${b.importStallsOver100} |`);
  console.log(`| first Next Comment after the import | ${ms(b.firstCommentMs)} |`);
  console.log(`| extension host RSS after the import | ${b.rssMb.toFixed(0)} MiB |`);
}
