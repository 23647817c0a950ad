/**
 * `node make-tree.js <dir> <mbox>...`: makes <dir> a git repository whose files hold the pre-image lines of
 * the patches in the mboxes (see test/unit/git/helpers.ts), so the real series apply to it.
 * Used by the UI test and by `npm run demo` (bundled on the fly with esbuild).
 */
import * as fs from 'node:fs';
import { loadThreads } from '../../../src/core/load';
import { buildRepo } from '../../unit/git/helpers';

async function main(): Promise<void> {
  const [dir, ...mboxes] = process.argv.slice(2);
  if (!dir || !mboxes.length) throw new Error('usage: make-tree <dir> <mbox>...');
  const threads = await loadThreads(mboxes);
  fs.mkdirSync(dir, { recursive: true });
  const head = buildRepo(dir, threads.flatMap((t) => t.series));
  console.log(head);
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
