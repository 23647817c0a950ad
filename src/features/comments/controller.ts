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

  private sync(): void {
    for (const t of this.threads.values()) t.dispose();
    this.threads.clear();
    for (const p of this.index.list()) this.threads.set(p.id, this.create(p));
  }

  private create(p: PlacedThread): vscode.CommentThread {
    const t = this.controller.createCommentThread(p.uri, new vscode.Range(p.line, 0, p.line, 0), p.comments.map(toComment));
    t.label = `${p.label}${p.outdated && !p.label.includes('outdated') ? ' (outdated)' : ''}`;
    t.canReply = false;
    t.contextValue = `kernelReview.thread${p.outdated ? '.outdated' : ''}`;
    t.collapsibleState = vscode.CommentThreadCollapsibleState.Collapsed;
    return t;
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
