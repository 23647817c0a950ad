// Bundles the extension and the CLI. `node esbuild.mjs [--watch] [--production]`.
import * as esbuild from 'esbuild';
import { chmod, readdir } from 'node:fs/promises';
import { join } from 'node:path';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: !production,
  minify: production,
  logLevel: 'warning',
};

const builds = [
  { ...common, entryPoints: ['src/extension.ts'], outfile: 'dist/extension.js', external: ['vscode'] },
  {
    ...common,
    entryPoints: ['src/cli.ts'],
    outfile: 'dist/cli.js',
    banner: { js: '#!/usr/bin/env node' },
  },
  // Decodes mail on worker threads during large imports (CLI and extension alike).
  { ...common, entryPoints: ['src/import-worker.ts'], outfile: 'dist/import-worker.js' },
];

/** Every `*.test.ts` under a folder, recursively. */
async function testFiles(dir) {
  const out = [];
  for (const e of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...(await testFiles(p)));
    else if (e.name.endsWith('.test.ts') || e.name === 'index.ts') out.push(p);
  }
  return out;
}

// Tests are bundled too, so they run under plain `node --test` (unit) or inside
// VS Code's extension host (integration) without a TypeScript loader.
const unit = await testFiles('test/unit');
if (unit.length) builds.push({ ...common, entryPoints: unit, outdir: 'out/test/unit', outbase: 'test/unit' });
const integration = await testFiles('test/integration');
if (integration.length) {
  builds.push({
    ...common,
    entryPoints: integration,
    outdir: 'out/test/integration',
    outbase: 'test/integration',
    external: ['vscode', 'mocha'],
  });
}

if (watch) {
  for (const b of builds) (await esbuild.context(b)).watch();
} else {
  // Build every bundle even when one fails, so each failure is reported at once.
  const results = await Promise.allSettled(builds.map((b) => esbuild.build(b)));
  const failed = results.filter((r) => r.status === 'rejected');
  if (results[1].status === 'fulfilled') await chmod('dist/cli.js', 0o755);
  if (failed.length) {
    console.error(`${failed.length} of ${builds.length} bundles failed to build`);
    process.exitCode = 1;
  }
}
