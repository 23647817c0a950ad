/**
 * The user's own inline comments, pending until they make the reply: a
 * comment controller of their own (the review controller shows what came
 * by mail and has no reply box), where any line of a patch mail view or of
 * a file at a patch's commit can be commented on. Pending comments are shown
 * labelled "Pending", can be edited and deleted, and survive a restart.
 */
import * as vscode from 'vscode';
import type { PendingComment, PendingStore } from '../../core/reply/pending';
import { SCHEME } from '../comments/uris';
import type { ThreadStore } from '../threads/store';
import { targetOf, treesHolding } from './anchor';

export const PENDING_CONTROLLER = 'kernelReview.pending';

class PendingNote implements vscode.Comment {
  mode = vscode.CommentMode.Preview;
  contextValue = 'kernelReview.pendingComment';
  label = 'Pending';
  savedBody: string;
  constructor(
    readonly id: string,
    public body: string | vscode.MarkdownString,
    readonly author: vscode.CommentAuthorInformation,
    readonly parent: vscode.CommentThread,
  ) {
    this.savedBody = typeof body === 'string' ? body : body.value;
  }
}

export class PendingComments implements vscode.Disposable {
  readonly controller = vscode.comments.createCommentController(PENDING_CONTROLLER, 'Kernel Review: your comments');
  private readonly threads = new Set<vscode.CommentThread>();

  constructor(
    private readonly pending: PendingStore,
    private readonly store: ThreadStore,
    private readonly me: () => string,
  ) {
    this.controller.options = { prompt: 'Comment for your reply…', placeHolder: 'Your comment; it goes into the reply to this patch.' };
    this.controller.commentingRangeProvider = {
      provideCommentingRanges: async (doc) => {
        const all = [new vscode.Range(0, 0, Math.max(doc.lineCount - 1, 0), 0)];
        if (doc.uri.scheme === SCHEME) return all;
        if (doc.uri.scheme !== 'file') return [];
        return treesHolding(await this.store.all(), doc.uri.fsPath).length ? all : [];
      },
    };
  }

  /** Shows the stored pending comments again (after a restart). */
  async restore(): Promise<void> {
    for (const c of await this.pending.all()) {
      if (!c.place) continue;
      const t = this.controller.createCommentThread(vscode.Uri.parse(c.place.uri), new vscode.Range(c.place.line, 0, c.place.line, 0), []);
      this.decorate(t, c.place.label);
      t.comments = [new PendingNote(c.id, c.body, { name: this.me() }, t)];
      t.collapsibleState = vscode.CommentThreadCollapsibleState.Collapsed;
    }
  }

  private decorate(t: vscode.CommentThread, label: string): void {
    t.label = `${label} — pending`;
    t.contextValue = 'kernelReview.pendingThread';
    t.canReply = true;
    this.threads.add(t);
  }

  /** "Comment on this line": an empty thread with its reply box open. */
  openAt(uri: vscode.Uri, line: number): vscode.CommentThread {
    const t = this.controller.createCommentThread(uri, new vscode.Range(line, 0, line, 0), []);
    t.canReply = true;
    t.collapsibleState = vscode.CommentThreadCollapsibleState.Expanded;
    this.threads.add(t);
    return t;
  }

  /** Saves the text typed in a thread's reply box as a pending comment. */
  async add(reply: vscode.CommentReply): Promise<PendingComment> {
    const t = reply.thread;
    const line = t.range?.start.line ?? 0;
    const target = await targetOf(this.store, t.uri, line);
    if (!target) {
      throw new Error('This line is not part of an imported patch; comment on the patch mail (Show Patch Mail) or on a file of the review branch.');
    }
    const body = reply.text.trim();
    if (!body) throw new Error('The comment is empty.');
    const saved = await this.pending.add(target.messageId, { ...target.comment, body } as Parameters<PendingStore['add']>[1], {
      threadKey: target.threadKey,
      uri: t.uri.toString(),
      line,
      label: target.label,
    });
    this.decorate(t, target.label);
    t.comments = [...t.comments, new PendingNote(saved.id, body, { name: this.me() }, t)];
    return saved;
  }

  edit(c: PendingNote): void {
    c.parent.comments = c.parent.comments.map((x) => (x === c ? Object.assign(c, { mode: vscode.CommentMode.Editing }) : x));
  }

  async saveEdit(c: PendingNote): Promise<void> {
    const body = typeof c.body === 'string' ? c.body : c.body.value;
    await this.pending.update(c.id, body);
    c.savedBody = body;
    c.parent.comments = c.parent.comments.map((x) => (x === c ? Object.assign(c, { mode: vscode.CommentMode.Preview }) : x));
  }

  cancelEdit(c: PendingNote): void {
    c.parent.comments = c.parent.comments.map((x) => (x === c ? Object.assign(c, { body: c.savedBody, mode: vscode.CommentMode.Preview }) : x));
  }

  async remove(c: PendingNote): Promise<void> {
    await this.pending.remove([c.id]);
    c.parent.comments = c.parent.comments.filter((x) => x !== c);
    if (c.parent.comments.length === 0) this.dispose1(c.parent);
  }

  /** Drops the threads of comments that went into a reply. */
  forget(ids: string[]): void {
    for (const t of [...this.threads]) {
      t.comments = t.comments.filter((x) => !(x instanceof PendingNote && ids.includes(x.id)));
      if (t.comments.length === 0) this.dispose1(t);
    }
  }

  private dispose1(t: vscode.CommentThread): void {
    this.threads.delete(t);
    t.dispose();
  }

  dispose(): void {
    for (const t of this.threads) t.dispose();
    this.controller.dispose();
  }
}

export function isPendingNote(x: unknown): x is PendingNote {
  return x instanceof PendingNote;
}
