import { randomBytes } from 'node:crypto';
import { open, rename, rm } from 'node:fs/promises';
import * as path from 'node:path';

/** Writes `data` to a temporary file in the same folder, flushes it, then renames it over `file`. */
export async function writeFileAtomic(file: string, data: string | Buffer): Promise<void> {
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.${randomBytes(4).toString('hex')}.tmp`);
  const fh = await open(tmp, 'w', 0o600);
  try {
    await fh.writeFile(data);
    await fh.sync();
  } finally {
    await fh.close();
  }
  try {
    await rename(tmp, file);
  } catch (e) {
    await rm(tmp, { force: true });
    throw e;
  }
}
