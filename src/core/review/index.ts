/**
 * Review comments of a thread: every block a reviewer wrote in a reply,
 * anchored to (patch, file, side, line), the commit message, or the patch as
 * a whole, and linked into conversations.
 */
import { MailMessage, ReviewComment, Thread } from '../model';
import { PatchIndex, indexPatch } from './anchor';
import { ThreadContext, analyseReply } from './analyse';
import { replyComments } from './conversation';

export { parseQuotes, restoreStrippedQuotes, attributionAuthor } from './quote';
export type { QuoteLine, LineKind } from './quote';
export { blocksAt } from './blocks';

const PATCH_SUBJECT = /\[[^\]]*\b(?:PATCH|PATCHv\d+|PATCHSET)\b[^\]]*\]/i;

export function extractComments(thread: Thread): ReviewComment[] {
  const byId = new Map<string, MailMessage>();
  for (const m of thread.messages) byId.set(m.messageId, m);
  const patches = new Map<string, PatchIndex>();
  const covers = new Set<string>();
  for (const s of thread.series) {
    if (s.coverMessageId) covers.add(s.coverMessageId);
    for (const p of s.patches) {
      // A mail that answers something ("Re: …") with a diff in it is a reply, not a posted patch.
      if (p.subject.isReply) continue;
      patches.set(p.messageId, indexPatch(p));
    }
  }
  const ctx: ThreadContext = { thread, byId, patches, rootIsPatch: PATCH_SUBJECT.test(thread.subject) };
  const known: Parameters<typeof replyComments>[2] = [];
  const recovered = new Set<string>();
  const out: ReviewComment[] = [];
  for (const msg of orderParentsFirst(thread)) {
    if (patches.has(msg.messageId) || covers.has(msg.messageId)) continue;
    out.push(...replyComments(ctx, analyseReply(ctx, msg), known, recovered));
  }
  return out;
}

/** Thread order, but a message is never handled before its parent (so answered comments are known). */
function orderParentsFirst(thread: Thread): MailMessage[] {
  const present = new Set(thread.messages.map((m) => m.messageId));
  const done = new Set<string>();
  const out: MailMessage[] = [];
  const byId = new Map(thread.messages.map((m) => [m.messageId, m]));
  const visit = (m: MailMessage) => {
    if (done.has(m.messageId)) return;
    done.add(m.messageId);
    const p = thread.parentOf[m.messageId];
    if (p && present.has(p)) visit(byId.get(p)!);
    out.push(m);
  };
  for (const m of thread.messages) visit(m);
  return out;
}
