import * as vscode from 'vscode';
import type { ReviewComment, Thread } from '../../core/model';
import type { Log } from '../../platform/log';
import { type AppliedSeries, type StoredThread, type ThreadSummary, summarize } from './model';
import { ThreadFiles } from './persistence';

/**
 * The imported threads of this workspace. Summaries are loaded at start (small); a full thread is
 * read from disk on first use and kept. Every change is persisted before the change event fires.
 */
export class ThreadStore implements vscode.Disposable {
  private readonly summaries = new Map<string, ThreadSummary>();
  private readonly full = new Map<string, StoredThread>();
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private readonly ready: Promise<void>;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly files: ThreadFiles,
    private readonly log: Log,
  ) {
    this.ready = files.readIndex().then((list) => {
      for (const s of list) this.summaries.set(s.key, s);
      log.info('store', `${list.length} imported thread(s) restored`);
      if (list.length) this.changed.fire();
    });
  }

  whenReady(): Promise<void> {
    return this.ready;
  }

  list(): ThreadSummary[] {
    return [...this.summaries.values()].sort((a, b) => (b.date ?? '').localeCompare(a.date ?? ''));
  }

  summary(key: string): ThreadSummary | undefined {
    return this.summaries.get(key);
  }

  has(key: string): boolean {
    return this.summaries.has(key);
  }

  async get(key: string): Promise<StoredThread | undefined> {
    await this.ready;
    const hit = this.full.get(key);
    if (hit) return hit;
    if (!this.summaries.has(key)) return undefined;
    const t = await this.files.read(key);
    if (t) this.full.set(key, t);
    return t;
  }

  async all(): Promise<StoredThread[]> {
    const out: StoredThread[] = [];
    for (const s of this.list()) {
      const t = await this.get(s.key);
      if (t) out.push(t);
    }
    return out;
  }

  /** Adds (or replaces, keeping what was applied) threads; persists; fires one change. */
  async add(items: { thread: Thread; comments: ReviewComment[] }[], sources: string[]): Promise<StoredThread[]> {
    await this.ready;
    const added: StoredThread[] = [];
    for (const { thread, comments } of items) {
      const key = thread.rootMessageId;
      const previous = await this.get(key);
      const t: StoredThread = { key, thread, comments, sources, importedAt: new Date().toISOString(), applied: previous?.applied ?? [] };
      await this.files.write(t);
      this.full.set(key, t);
      this.summaries.set(key, summarize(t));
      added.push(t);
    }
    await this.persistIndex();
    this.changed.fire();
    return added;
  }

  async recordApplied(key: string, applied: AppliedSeries): Promise<void> {
    const t = await this.get(key);
    if (!t) return;
    t.applied = [...t.applied.filter((a) => !(a.version === applied.version && a.tree === applied.tree)), applied];
    await this.files.write(t);
    this.summaries.set(key, summarize(t));
    await this.persistIndex();
    this.changed.fire();
  }

  async remove(key: string): Promise<void> {
    await this.ready;
    this.summaries.delete(key);
    this.full.delete(key);
    await this.files.remove(key);
    await this.persistIndex();
    this.changed.fire();
  }

  private persistIndex(): Promise<void> {
    const list = this.list();
    this.queue = this.queue.then(() => this.files.writeIndex(list)).catch((e) => this.log.error('store', 'could not save the thread index', e));
    return this.queue.then(() => undefined);
  }

  dispose(): void {
    this.changed.dispose();
  }
}
