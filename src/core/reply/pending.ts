/**
 * Inline comments the user wrote while reviewing, not yet turned into a
 * reply: kept per answered message in one JSON file, written atomically.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readFile } from 'node:fs/promises';
import * as path from 'node:path';
import { writeFileAtomic } from './atomic';
import { DraftComment } from './compose';

export type PendingComment = DraftComment & {
  id: string;
  /** The message the reply will answer (the patch mail). */
  messageId: string;
  created: string;
  /** Where the editor shows it (document URI, 0-based line) and under which imported thread. */
  place?: PendingPlace;
};

export interface PendingPlace {
  threadKey: string;
  uri: string;
  line: number;
  label: string;
}

export class PendingStore {
  private readonly file: string;
  /** Read-modify-write steps run one after another. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(folder: string) {
    this.file = path.join(folder, 'pending-comments.json');
  }

  async all(): Promise<PendingComment[]> {
    try {
      const data = JSON.parse(await readFile(this.file, 'utf8'));
      return Array.isArray(data) ? (data as PendingComment[]) : [];
    } catch {
      return [];
    }
  }

  async forMessage(messageId: string): Promise<PendingComment[]> {
    return (await this.all()).filter((c) => c.messageId === messageId);
  }

  private serial<T>(step: () => Promise<T>): Promise<T> {
    const run = this.queue.then(step, step);
    this.queue = run.catch(() => undefined);
    return run;
  }

  add(messageId: string, comment: DraftComment, place?: PendingPlace): Promise<PendingComment> {
    return this.serial(async () => {
      const list = await this.all();
      const p = { ...comment, id: randomBytes(6).toString('hex'), messageId, created: new Date().toISOString(), place } as PendingComment;
      list.push(p);
      await this.write(list);
      return p;
    });
  }

  update(id: string, body: string): Promise<void> {
    return this.serial(async () => {
      const list = await this.all();
      const c = list.find((x) => x.id === id);
      if (c) c.body = body;
      await this.write(list);
    });
  }

  remove(ids: string[]): Promise<void> {
    return this.serial(async () => this.write((await this.all()).filter((c) => !ids.includes(c.id))));
  }

  private async write(list: PendingComment[]): Promise<void> {
    await mkdir(path.dirname(this.file), { recursive: true });
    await writeFileAtomic(this.file, `${JSON.stringify(list, null, 1)}\n`);
  }
}

/** The comment shape compose takes, without the bookkeeping fields. */
export function toDraftComment(p: PendingComment): DraftComment {
  if (p.kind === 'general') return { kind: 'general', body: p.body };
  if (p.kind === 'commit-message') return p.line === undefined ? { kind: 'commit-message', body: p.body } : { kind: 'commit-message', line: p.line, body: p.body };
  return { kind: 'line', file: p.file, side: p.side, line: p.line, body: p.body };
}
