import * as vscode from 'vscode';
import type { ReviewComment } from '../../core/model';
import type { PlacedThread } from './locate';
import type { ReviewIndex } from './reviewIndex';

/** Mail is not markdown: bodies are given as plain strings, so no link, HTML or image is ever rendered. */
function toComment(c: ReviewComment): vscode.Comment {
  const name = c.author.name || c.author.address || 'unknown';
  return {
    body: c.body,
    mode: vscode.CommentMode.Preview,
    author: { name: c.author.address && c.author.name ? `${c.author.name} <${c.author.address}>` : name },
    timestamp: c.date ? new Date(c.date) : undefined,
    contextValue: 'kernelReview.mailComment',
    label: c.messageId,
  };
}

/** The one CommentController: a vscode.CommentThread per placed conversation. */
export class ReviewComments implements vscode.Disposable {
  readonly controller = vscode.comments.createCommentController('kernelReview', 'Kernel Review');
  private readonly threads = new Map<string, vscode.CommentThread>();
  private readonly sub: vscode.Disposable;

  constructor(private readonly index: ReviewIndex) {
    this.controller.options = { placeHolder: 'Comments come from the mail thread; use Reply… to answer.' };
    this.sub = index.onDidChange(() => this.sync());
    this.sync();
  }

  private syncing: Promise<void> = Promise.resolve();

  /**
   * Brings the CommentThreads in step with the index: unchanged conversations keep their thread (and its
   * expanded state); new ones are created in slices so a large import never blocks the extension host.
   */
  private sync(): void {
    this.syncing = this.syncing.then(async () => {
      const want = new Map(this.index.list().map((p) => [p.id, p]));
      for (const [id, t] of this.threads) {
        const p = want.get(id);
        if (!p || !this.same(t, p)) {
          t.dispose();
          this.threads.delete(id);
        }
      }
      let slice = performance.now();
      for (const [id, p] of want) {
        if (this.threads.has(id)) continue;
        this.threads.set(id, this.create(p));
        if (performance.now() - slice > 15) {
          await new Promise<void>((r) => setImmediate(r));
          slice = performance.now();
        }
      }
    });
  }

  /** Resolves once the threads match the index. */
  whenSynced(): Promise<void> {
    return this.syncing;
  }

  private same(t: vscode.CommentThread, p: PlacedThread): boolean {
    return t.uri.toString() === p.uri.toString() && t.range?.start.line === p.line && t.comments.length === p.comments.length
      && t.contextValue === `kernelReview.thread${p.outdated ? '.outdated' : ''}` && t.label === this.labelOf(p);
  }

  private create(p: PlacedThread): vscode.CommentThread {
    const t = this.controller.createCommentThread(p.uri, new vscode.Range(p.line, 0, p.line, 0), p.comments.map(toComment));
    t.label = this.labelOf(p);
    t.canReply = false;
    t.contextValue = `kernelReview.thread${p.outdated ? '.outdated' : ''}`;
    t.collapsibleState = vscode.CommentThreadCollapsibleState.Collapsed;
    return t;
  }

  private labelOf(p: PlacedThread): string {
    return `${p.label}${p.outdated && !p.label.includes('outdated') ? ' (outdated)' : ''}`;
  }

  /** The live CommentThread of a placed conversation (tests and navigation use it). */
  get(id: string): vscode.CommentThread | undefined {
    return this.threads.get(id);
  }

  all(): vscode.CommentThread[] {
    return [...this.threads.values()];
  }

  expand(id: string): void {
    const t = this.threads.get(id);
    if (t) t.collapsibleState = vscode.CommentThreadCollapsibleState.Expanded;
  }

  dispose(): void {
    this.sub.dispose();
    for (const t of this.threads.values()) t.dispose();
    this.controller.dispose();
  }
}
