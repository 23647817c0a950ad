import * as vscode from 'vscode';
import type { Log } from '../../platform/log';
import type { ThreadStore } from '../threads/store';
import { type PlacedThread, comparePlaced, placeThreads } from './locate';

/** Every placed conversation of every imported thread, recomputed when the store changes. */
export class ReviewIndex implements vscode.Disposable {
  private items: PlacedThread[] = [];
  private byThread = new Map<string, PlacedThread[]>();
  private byId = new Map<string, PlacedThread>();
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private readonly sub: vscode.Disposable;
  private pending: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: ThreadStore,
    private readonly log: Log,
  ) {
    this.sub = store.onDidChange(() => void this.refresh());
  }

  /** Recomputes after the store changed; resolves when done. */
  refresh(): Promise<void> {
    this.pending = this.pending.then(async () => {
      try {
        const all: PlacedThread[] = [];
        const stored = await this.store.all();
        const heads = await this.heads(stored.flatMap((t) => t.applied.map((a) => a.tree)));
        let slice = performance.now();
        for (const t of stored) {
          all.push(...placeThreads(t, (tree, sha) => heads.get(tree) === sha));
          if (performance.now() - slice > 20) {
            await new Promise<void>((r) => setImmediate(r)); // big imports: keep the extension host responsive
            slice = performance.now();
          }
        }
        this.items = all.sort((a, b) => (a.threadKey === b.threadKey ? comparePlaced(a, b) : a.threadKey < b.threadKey ? -1 : 1));
        this.byThread = new Map();
        this.byId = new Map();
        for (const p of this.items) {
          const list = this.byThread.get(p.threadKey);
          if (list) list.push(p);
          else this.byThread.set(p.threadKey, [p]);
          for (const c of p.comments) this.byId.set(c.id, p);
        }
        void vscode.commands.executeCommand('setContext', 'kernelReview.hasComments', all.length > 0);
        this.changed.fire();
      } catch (e) {
        this.log.error('comments', 'could not place comments', e);
      }
    });
    return this.pending;
  }

  /** HEAD of each tree, to know whether a review branch is checked out (then comments go on the real files). */
  private async heads(trees: string[]): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    if (!trees.length) return out;
    const { Repo } = require('../../core/git/repo') as typeof import('../../core/git/repo'); // loaded on first use
    for (const tree of new Set(trees)) {
      try {
        const repo = await Repo.open(tree, { logger: (l) => this.log.trace('git', l) });
        out.set(tree, (await repo.run(['rev-parse', '--verify', '-q', 'HEAD'])).trim());
      } catch {
        // the tree moved or is gone: comments stay on the read-only documents
      }
    }
    return out;
  }

  whenReady(): Promise<void> {
    return this.pending;
  }

  list(): readonly PlacedThread[] {
    return this.items;
  }

  /** The conversation holding comment `id` (first or answer). */
  find(id: string): PlacedThread | undefined {
    return this.byId.get(id);
  }

  /** The placed conversations of one imported thread, in order. */
  ofThread(key: string): readonly PlacedThread[] {
    return this.byThread.get(key) ?? [];
  }

  dispose(): void {
    this.sub.dispose();
    this.changed.dispose();
  }
}
