import * as vscode from 'vscode';
import { Repo } from '../../core/git/repo';
import type { Log } from '../../platform/log';
import type { ThreadStore } from '../threads/store';
import { type PlacedThread, comparePlaced, placeThreads } from './locate';

/** Every placed conversation of every imported thread, recomputed when the store changes. */
export class ReviewIndex implements vscode.Disposable {
  private items: PlacedThread[] = [];
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
        for (const t of stored) all.push(...placeThreads(t, (tree, sha) => heads.get(tree) === sha));
        this.items = all.sort((a, b) => (a.threadKey === b.threadKey ? comparePlaced(a, b) : a.threadKey < b.threadKey ? -1 : 1));
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
    return this.items.find((p) => p.id === id || p.comments.some((c) => c.id === id));
  }

  dispose(): void {
    this.sub.dispose();
    this.changed.dispose();
  }
}
