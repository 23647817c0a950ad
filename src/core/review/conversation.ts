/**
 * Nested quoting is a conversation. Every reply's own blocks become comments;
 * a block answering a quoted comment gets `inReplyTo` and, when nothing of the
 * patch is quoted above it, that comment's anchor. A quoted comment whose
 * author's mail is missing from the thread is recovered (attributed to the
 * author named by the attribution line) — once, and never when the mail is
 * present.
 */
import { Address, ReviewComment } from '../model';
import { Anchor, segmentAnchor } from './anchor';
import { ReplyAnalysis, ThreadContext, ancestorId } from './analyse';
import { Block } from './blocks';
import { norm } from './quote';

interface Known {
  comment: ReviewComment;
  key: string;
}

/** Comments of one reply, in order of appearance; `known` grows with them. */
export function replyComments(ctx: ThreadContext, a: ReplyAnalysis, known: Known[], recovered: Set<string>): ReviewComment[] {
  const seg = { ...a, quotedPatchId: a.missingAncestorId };
  const all: { block: Block; own: boolean }[] = [
    ...a.own.map((block) => ({ block, own: true })),
    ...a.quoted.map((block) => ({ block, own: false })),
  ].sort((x, y) => x.block.start - y.block.start);
  const out: ReviewComment[] = [];
  let n = 0;
  for (const { block, own } of all) {
    const d = block.depth;
    // The quoted region this block answers: lines above it, deeper than it, up to the previous block at its level or above.
    const to = block.rawStart - 1;
    let from = to;
    while (from >= 0 && !(a.lines[from].depth <= d && a.lines[from].kind === 'text')) from--;
    from++;
    // Only what follows the last snip mark is directly above the block, unless nothing quoted
    // follows it ("> +foo\n[...]\ncomment": the rest of the hunk was cut below the line meant).
    let quotedSince = false;
    for (let k = to; k >= from; k--) {
      const l = a.lines[k];
      if (l.kind === 'snip' && quotedSince) {
        from = k + 1;
        break;
      }
      if (l.kind === 'text' && l.depth > d) quotedSince = true;
    }
    let anchor = segmentAnchor(seg, from, to, d);
    const answered = findAnswered(ctx, a, known, from, to, d);
    if (!own) {
      if (!shouldRecover(ctx, a, block, anchor)) continue;
      const key = norm(block.body);
      if (recovered.has(key) || known.some((k) => sameText(k.key, key))) continue;
      recovered.add(key);
    }
    if (!anchor && answered) anchor = pick(answered.comment);
    if (!anchor) anchor = { kind: 'general', patchMessageId: a.ancestorPatchId, file: null, side: null, line: null };
    const author = own ? a.msg.from : addressOf(ctx, a.lineAuthor[block.start] ?? '');
    const c: ReviewComment = {
      id: `${a.msg.messageId}#${n++}`,
      messageId: a.msg.messageId,
      author,
      date: a.msg.date,
      inReplyTo: answered ? answered.comment.id : null,
      ...anchor,
      body: block.body,
    };
    out.push(c);
    known.push({ comment: c, key: norm(c.body) });
  }
  return out;
}

function pick(c: ReviewComment): Anchor {
  return { kind: c.kind, patchMessageId: c.patchMessageId, file: c.file, side: c.side, line: c.line };
}

function sameText(a: string, b: string): boolean {
  const head = (s: string) => s.slice(0, 60);
  return a.includes(head(b)) || b.includes(head(a));
}

/** The known comment quoted (as the last quoted block deeper than `d`) in lines from..to. */
function findAnswered(ctx: ThreadContext, a: ReplyAnalysis, known: Known[], from: number, to: number, d: number): Known | null {
  for (let i = a.quoted.length - 1; i >= 0; i--) {
    const q = a.quoted[i];
    if (q.start < from || q.end > to || q.depth <= d) continue;
    const key = a.quotedNorm[i];
    if (key.length < 2) continue;
    const source = ancestorId(ctx, a.msg.messageId, q.depth);
    let hit: Known | null = null;
    for (let k = known.length - 1; k >= 0; k--) {
      if (!sameText(known[k].key, key)) continue;
      if (known[k].comment.messageId === source) return known[k];
      hit ??= known[k];
    }
    if (hit) return hit;
  }
  return null;
}

/** A quoted block is a comment to recover when the mail it comes from is missing and it is prose by a named person. */
function shouldRecover(ctx: ThreadContext, a: ReplyAnalysis, block: Block, anchor: Anchor | null): boolean {
  const source = ancestorId(ctx, a.msg.messageId, block.depth);
  if (source && ctx.byId.has(source)) return false;
  if (source && ctx.patches.has(source)) return false;
  if (!a.lineAuthor[block.start]) return false;
  // The missing mail is the patch itself: its quoted text is commit message or diff, not a comment.
  if (ctx.rootIsPatch && source && ctx.thread.parentOf[source] == null && !ctx.byId.has(source)) {
    if (source === ctx.thread.rootMessageId) return false;
  }
  for (let k = block.start; k <= block.end; k++) {
    if (a.matched[k] >= 0 || (a.useCoords && a.coords[k]) || a.missingCommitLines.has(k)) return false;
  }
  void anchor;
  return true;
}

function addressOf(ctx: ThreadContext, who: string): Address {
  const m = /^(.*?)\s*<([^<>\s]+@[^<>\s]+)>\s*$/.exec(who);
  const name = (m ? m[1] : who).replace(/^"|"$/g, '').trim();
  const address = m ? m[2] : /^\S+@\S+$/.test(who) ? who : '';
  for (const msg of ctx.thread.messages) {
    const f = msg.from;
    if ((address && f.address.toLowerCase() === address.toLowerCase()) || (name && f.name.toLowerCase() === name.toLowerCase())) {
      return f;
    }
  }
  return { name: address ? name : name || who, address };
}
