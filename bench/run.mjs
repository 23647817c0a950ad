#!/usr/bin/env node
// `npm run bench`: runs every benchmark in this folder and prints their markdown sections.
// Arguments after `--` go to the import benchmark (e.g. `npm run bench -- --archive big.mbox.gz`);
// `BENCH=import,apply` runs only those.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

const here = import.meta.dirname;
const only = process.env.BENCH ? process.env.BENCH.split(',') : null;
let failed = 0;
for (const f of readdirSync(here).filter((n) => n.endsWith('.mjs') && n !== 'run.mjs').sort()) {
  if (only && !only.includes(f.replace(/\.mjs$/, ''))) continue;
  console.error(`[bench] ${f}`);
  const extra = f === 'import.mjs' ? process.argv.slice(2) : [];
  const r = spawnSync(process.execPath, [join(here, f), ...extra], { stdio: 'inherit' });
  if (r.status !== 0) failed++;
}
process.exitCode = failed ? 1 : 0;
