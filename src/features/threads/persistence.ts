import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { StoredThread, ThreadSummary } from './model';

const ISO_DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z$/;

/** JSON with Date values restored (the model keeps dates as Date). */
function revive(_key: string, value: unknown): unknown {
  return typeof value === 'string' && ISO_DATE.test(value) ? new Date(value) : value;
}

/**
 * Threads on disk in the workspace storage folder: one JSON file per thread and an index of
 * summaries, each written atomically (temp file + rename) so a crash never leaves half a file.
 */
export class ThreadFiles {
  constructor(private readonly dir: string) {}

  private fileOf(key: string): string {
    return path.join(this.dir, `${createHash('sha1').update(key).digest('hex')}.json`);
  }

  private async writeAtomic(file: string, data: string): Promise<void> {
    await fs.mkdir(this.dir, { recursive: true });
    const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
    await fs.writeFile(tmp, data);
    await fs.rename(tmp, file);
  }

  async readIndex(): Promise<ThreadSummary[]> {
    try {
      const list = JSON.parse(await fs.readFile(path.join(this.dir, 'index.json'), 'utf8')) as unknown;
      return Array.isArray(list) ? (list as ThreadSummary[]) : [];
    } catch {
      return [];
    }
  }

  writeIndex(list: ThreadSummary[]): Promise<void> {
    return this.writeAtomic(path.join(this.dir, 'index.json'), JSON.stringify(list));
  }

  async read(key: string): Promise<StoredThread | undefined> {
    try {
      return JSON.parse(await fs.readFile(this.fileOf(key), 'utf8'), revive) as StoredThread;
    } catch {
      return undefined;
    }
  }

  write(t: StoredThread): Promise<void> {
    return this.writeAtomic(this.fileOf(t.key), JSON.stringify(t));
  }

  async remove(key: string): Promise<void> {
    await fs.rm(this.fileOf(key), { force: true });
  }
}
