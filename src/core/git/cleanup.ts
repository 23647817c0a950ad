/**
 * Scratch space for one apply run, inside the repository's git dir:
 * `<git dir>/kernel-review/<pid>-<random>/` holds the temporary index (and the
 * lock git takes on it), the patch files and the objects to write. It is
 * removed when the run ends; a run that was killed leaves it behind, and the
 * next run removes every such folder whose process is gone.
 */
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';

export const SCRATCH_DIR = 'kernel-review';

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Removes scratch folders left by runs whose process no longer exists; returns what was removed. */
export async function cleanStale(gitDir: string): Promise<string[]> {
  const root = path.join(gitDir, SCRATCH_DIR);
  const removed: string[] = [];
  let names: string[];
  try {
    names = await fs.readdir(root);
  } catch {
    return removed;
  }
  for (const name of names) {
    const m = /^(\d+)-[0-9a-f]+$/.exec(name);
    if (!m) continue;
    const pid = Number(m[1]);
    if (pid !== process.pid && processAlive(pid)) continue;
    await fs.rm(path.join(root, name), { recursive: true, force: true });
    removed.push(path.join(root, name));
  }
  await fs.rmdir(root).catch(() => undefined);
  return removed;
}

export interface Scratch {
  dir: string;
  indexFile: string;
  /** Writes a file in the scratch folder and returns its path. */
  write(name: string, data: string | Buffer): Promise<string>;
  /** Removes the folder (and the parent when empty). */
  dispose(): Promise<void>;
}

export async function makeScratch(gitDir: string): Promise<Scratch> {
  const root = path.join(gitDir, SCRATCH_DIR);
  const dir = path.join(root, `${process.pid}-${randomBytes(6).toString('hex')}`);
  await fs.mkdir(dir, { recursive: true });
  return {
    dir,
    indexFile: path.join(dir, 'index'),
    async write(name, data) {
      const p = path.join(dir, name);
      await fs.writeFile(p, data);
      return p;
    },
    async dispose() {
      await fs.rm(dir, { recursive: true, force: true });
      await fs.rmdir(root).catch(() => undefined);
    },
  };
}
