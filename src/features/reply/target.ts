/** What a Reply command was invoked on: a tree item, a comment thread, a message id, or the active mail view. */
import * as vscode from 'vscode';
import type { ReviewIndex } from '../comments/reviewIndex';
import type { ReviewComments } from '../comments/controller';
import type { PlacedThread } from '../comments/locate';
import { parseDocUri } from '../comments/uris';
import type { ThreadStore } from '../threads/store';
import { CancelledError, UserError } from '../../platform/errors';

export interface ReplyTarget {
  threadKey: string;
  messageId: string;
  /** When answering one review comment: its text. */
  answering?: string;
}

type Arg = undefined | string | { kind?: string; key?: string; messageId?: string; id?: string } | vscode.CommentThread;

function fromPlaced(p: PlacedThread): ReplyTarget {
  const last = p.comments[p.comments.length - 1];
  return { threadKey: p.threadKey, messageId: last.messageId, answering: last.body };
}

async function pickMessage(store: ThreadStore, key?: string): Promise<ReplyTarget> {
  const threads = key ? [await store.get(key)].filter((t) => t !== undefined) : await store.all();
  const items = threads.flatMap((t) =>
    t.thread.messages.map((m) => ({
      label: m.subject,
      description: `${m.from.name || m.from.address}${m.date ? `, ${new Date(m.date).toISOString().slice(0, 10)}` : ''}`,
      target: { threadKey: t.key, messageId: m.messageId },
    })),
  );
  if (!items.length) throw new UserError('No thread is imported yet; import an mbox first.');
  const pick = await vscode.window.showQuickPick(items, { placeHolder: 'Reply to which message?', matchOnDescription: true });
  if (!pick) throw new CancelledError();
  return pick.target;
}

export async function resolveTarget(arg: Arg, store: ThreadStore, index: ReviewIndex, comments: ReviewComments | undefined): Promise<ReplyTarget> {
  if (typeof arg === 'string') {
    const id = arg.startsWith('<') ? arg : `<${arg}>`;
    const t = (await store.all()).find((x) => x.thread.messages.some((m) => m.messageId === id));
    if (!t) throw new UserError(`The message ${id} is not among the imported threads.`);
    return { threadKey: t.key, messageId: id };
  }
  if (arg && 'uri' in arg && 'range' in arg) {
    const p = index.list().find((x) => comments?.get(x.id) === arg);
    if (p) return fromPlaced(p);
  } else if (arg && 'kind' in arg) {
    if (arg.kind === 'comment' && arg.id) {
      const p = index.find(arg.id);
      if (p) return fromPlaced(p);
    }
    if (arg.kind === 'patch' && arg.key && arg.messageId) return { threadKey: arg.key, messageId: arg.messageId };
    if (arg.key) return pickMessage(store, arg.key);
  }
  const doc = vscode.window.activeTextEditor?.document.uri;
  const ref = doc && parseDocUri(doc);
  if (ref?.t === 'msg') return { threadKey: ref.thread, messageId: ref.msg };
  return pickMessage(store);
}
