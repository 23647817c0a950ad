import * as vscode from 'vscode';
import { remapToTip } from '../../core/git/remap';
import type { MailMessage, ReviewComment, Series } from '../../core/model';
import type { AppliedSeries, StoredThread } from '../threads/model';
import { diffKey, renderMail } from './mailview';
import { gitUri, messageUri } from './uris';

/** Where a conversation (a comment and the replies to it) is shown. */
export interface PlacedThread {
  /** The first comment's id. */
  id: string;
  threadKey: string;
  patchMessageId: string | null;
  comments: ReviewComment[];
  uri: vscode.Uri;
  /** 0-based line in `uri`. */
  line: number;
  /** tip: new-side at the review-branch tip; old: base side of the patch's diff; patch: a file at the patch's commit; mail: the mail view. */
  where: 'tip' | 'old' | 'patch' | 'mail';
  outdated: boolean;
  /** The file and 1-based line in the user's tree this comment is about (tip coordinates when applied). */
  source: { file: string; line: number } | null;
  /** For `old`: the diff editor's other side. */
  diffWith?: vscode.Uri;
  /** Short position text, e.g. `io_uring/register.c:19`. */
  label: string;
  /** Sort key: series version, patch index, file, line. */
  order: [number, number, string, number];
}

/** Groups comments into conversations: each answer joins the thread of the comment it answers. */
export function conversations(comments: ReviewComment[]): ReviewComment[][] {
  const byId = new Map(comments.map((c) => [c.id, c]));
  const rootOf = (c: ReviewComment): string => {
    const seen = new Set<string>();
    let cur = c;
    while (cur.inReplyTo && byId.has(cur.inReplyTo) && !seen.has(cur.id)) {
      seen.add(cur.id);
      cur = byId.get(cur.inReplyTo)!;
    }
    return cur.id;
  };
  const groups = new Map<string, ReviewComment[]>();
  for (const c of comments) {
    const r = rootOf(c);
    const g = groups.get(r);
    if (g) g.push(c);
    else groups.set(r, [c]);
  }
  return [...groups.values()];
}

function seriesOf(t: StoredThread, patchId: string | null): { series: Series; index: number } | undefined {
  if (!patchId) return undefined;
  for (const series of t.thread.series) {
    const index = series.patches.findIndex((p) => p.messageId === patchId);
    if (index >= 0) return { series, index };
  }
  return undefined;
}

/**
 * Places every conversation of `t` on a document line. `checkedOut(tree, sha)` says whether the tree's
 * checkout is at that commit: then tip comments go on the real files.
 */
export function placeThreads(t: StoredThread, checkedOut?: (tree: string, sha: string) => boolean): PlacedThread[] {
  const msgs = new Map<string, MailMessage>(t.thread.messages.map((m) => [m.messageId, m]));
  const views = new Map<string, ReturnType<typeof renderMail>>();
  const view = (m: MailMessage) => views.get(m.messageId) ?? views.set(m.messageId, renderMail(m)).get(m.messageId)!;
  const out: PlacedThread[] = [];
  for (const group of conversations(t.comments)) {
    const c = group[0];
    const loc = seriesOf(t, c.patchMessageId);
    const applied: AppliedSeries | undefined = loc && t.applied.find((a) => a.version === loc.series.version && !a.failed);
    const order: PlacedThread['order'] = [loc?.series.version ?? 0, loc?.index ?? -1, c.file ?? '', c.line ?? 0];
    const base = { id: c.id, threadKey: t.key, patchMessageId: c.patchMessageId, comments: group, order };
    const commitIdx = applied && loc ? applied.commits.findIndex((x) => x.patchMessageId === c.patchMessageId) : -1;
    if (c.kind === 'line' && c.file && c.line && applied && loc && commitIdx >= 0) {
      const commit = applied.commits[commitIdx].sha;
      const tipSha = applied.commits[applied.commits.length - 1].sha;
      if (c.side === 'old') {
        const parent = commitIdx > 0 ? applied.commits[commitIdx - 1].sha : applied.base;
        out.push({ ...base, uri: gitUri(applied.tree, parent, c.file), line: c.line - 1, where: 'old', outdated: false,
          source: null, diffWith: gitUri(applied.tree, commit, c.file), label: `${c.file}:${c.line} (old)` });
        continue;
      }
      const snapped = applied.tipLines?.[c.id];
      const tip = snapped ? { ...remapToTip(loc.series, loc.index, c.file, 'new', c.line), ...snapped } : remapToTip(loc.series, loc.index, c.file, 'new', c.line);
      const at = checkedOut?.(applied.tree, tipSha) ? vscode.Uri.file(`${applied.tree}/${tip.path}`) : gitUri(applied.tree, tipSha, tip.path);
      if (!tip.outdated) {
        out.push({ ...base, uri: at, line: tip.line - 1, where: 'tip', outdated: false,
          source: { file: tip.path, line: tip.line }, label: `${tip.path}:${tip.line}` });
      } else {
        out.push({ ...base, uri: gitUri(applied.tree, commit, c.file), line: c.line - 1, where: 'patch', outdated: true,
          source: null, label: `${c.file}:${c.line} (outdated)` });
      }
      continue;
    }
    const m = (c.patchMessageId && msgs.get(c.patchMessageId)) || msgs.get(c.messageId) || t.thread.messages[0];
    if (!m) continue;
    const v = view(m);
    let line = 0;
    let label = 'general';
    if (c.kind === 'line' && c.file && c.line && c.side) {
      line = v.diffLines.get(diffKey(c.file, c.side, c.line)) ?? 0;
      label = `${c.file}:${c.line}${c.side === 'old' ? ' (old)' : ''}`;
    } else if (c.kind === 'commit-message') {
      line = v.commitMessageEnd;
      label = 'commit message';
    }
    out.push({ ...base, uri: messageUri(t.key, m.messageId, m.subject), line, where: 'mail', outdated: false,
      source: c.kind === 'line' && c.side === 'new' && c.file && c.line ? { file: c.file, line: c.line } : null, label });
  }
  return out.sort(comparePlaced);
}

export function comparePlaced(a: PlacedThread, b: PlacedThread): number {
  for (let i = 0; i < 4; i++) {
    const x = a.order[i];
    const y = b.order[i];
    if (x < y) return -1;
    if (x > y) return 1;
  }
  return 0;
}
