/**
 * Where a line of a review document is, in the coordinates of a patch: the
 * patch mail view (diff lines and commit message), or a file of the review
 * branch at a patch's commit (new side) or at its parent (old side).
 */
import { execFile } from 'node:child_process';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { MailMessage, Patch } from '../../core/model';
import type { CommentAnchor } from '../../core/reply/compose';
import { renderMail } from '../comments/mailview';
import { parseDocUri } from '../comments/uris';
import type { StoredThread } from '../threads/model';
import type { ThreadStore } from '../threads/store';

export interface LineTarget {
  threadKey: string;
  /** The message the reply will answer. */
  messageId: string;
  comment: CommentAnchor;
  /** Short text for the comment thread's label. */
  label: string;
}

const patchesOf = (t: StoredThread): Patch[] => t.thread.series.flatMap((s) => s.patches);

function inMail(t: StoredThread, m: MailMessage, line: number): LineTarget | undefined {
  const view = renderMail(m);
  for (const [key, at] of view.diffLines) {
    if (at !== line) continue;
    const [file, side, n] = key.split('\0');
    if (side === 'old' && view.text.split('\n')[line]?.startsWith(' ')) continue; // context lines are new-side comments
    return { threadKey: t.key, messageId: m.messageId, comment: { kind: 'line', file, side: side as 'new' | 'old', line: Number(n) }, label: `${file}:${n}${side === 'old' ? ' (old)' : ''}` };
  }
  const patch = patchesOf(t).find((p) => p.messageId === m.messageId);
  const bodyStart = view.text.split('\n').indexOf('') + 1;
  if (patch && line >= bodyStart && line <= view.commitMessageEnd) {
    const text = view.text.split('\n')[line];
    const idx = patch.commitBody.split('\n').findIndex((l) => l === text && text.trim() !== '');
    const comment: LineTarget['comment'] = idx >= 0 ? { kind: 'commit-message', line: idx + 1 } : { kind: 'commit-message' };
    return { threadKey: t.key, messageId: m.messageId, comment, label: 'commit message' };
  }
  return { threadKey: t.key, messageId: m.messageId, comment: { kind: 'general' }, label: 'general' };
}

/**
 * A file at a review-branch commit: its lines are the new side of the last
 * patch up to that commit that touched the file (later ones left it alone);
 * at the base, the old side of the first patch that touches it.
 */
function inTree(t: StoredThread, rev: string, file: string, line: number): LineTarget | undefined {
  const byId = new Map(patchesOf(t).map((p) => [p.messageId, p]));
  const touches = (id: string) => byId.get(id)?.files.some((f) => f.newPath === file || f.oldPath === file) ?? false;
  for (const a of t.applied) {
    const k = a.commits.findIndex((c) => c.sha === rev);
    for (let j = k; j >= 0; j--) {
      if (!touches(a.commits[j].patchMessageId)) continue;
      return { threadKey: t.key, messageId: a.commits[j].patchMessageId, comment: { kind: 'line', file, side: 'new', line }, label: `${file}:${line}` };
    }
    if (rev === a.base || k >= 0) {
      const first = a.commits.slice(k + 1).find((c) => touches(c.patchMessageId));
      if (first) return { threadKey: t.key, messageId: first.patchMessageId, comment: { kind: 'line', file, side: 'old', line }, label: `${file}:${line} (old)` };
    }
  }
  return undefined;
}

function headOf(tree: string): Promise<string | null> {
  return new Promise((resolve) => {
    execFile('git', ['rev-parse', '--verify', 'HEAD'], { cwd: tree, encoding: 'utf8' }, (err, out) => resolve(err ? null : out.trim()));
  });
}

/** The applied trees (with their threads) that hold a file of the user's checkout. */
export function treesHolding(threads: StoredThread[], file: string): { t: StoredThread; tree: string }[] {
  return threads.flatMap((t) => t.applied.filter((a) => file.startsWith(`${a.tree}${path.sep}`)).map((a) => ({ t, tree: a.tree })));
}

/** The patch coordinates of `line` (0-based) in `uri`, or undefined when the document is not a patch's. */
export async function targetOf(store: ThreadStore, uri: vscode.Uri, line: number): Promise<LineTarget | undefined> {
  if (uri.scheme === 'file') {
    // A real file, when the checkout is at a review-branch commit.
    for (const { t, tree } of treesHolding(await store.all(), uri.fsPath)) {
      const head = await headOf(tree);
      const hit = head && inTree(t, head, path.relative(tree, uri.fsPath).split(path.sep).join('/'), line + 1);
      if (hit) return hit;
    }
    return undefined;
  }
  const ref = parseDocUri(uri);
  if (!ref) return undefined;
  if (ref.t === 'msg') {
    const t = await store.get(ref.thread);
    const m = t?.thread.messages.find((x) => x.messageId === ref.msg);
    return t && m ? inMail(t, m, line) : undefined;
  }
  for (const t of await store.all()) {
    const hit = inTree(t, ref.rev, ref.file, line + 1);
    if (hit) return hit;
  }
  return undefined;
}
