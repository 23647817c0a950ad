/**
 * One reply, analysed on its own: its quote levels, the author of each
 * quoted level, the patch its quotes come from and the line each quoted diff
 * line is in that patch.
 */
import { MailMessage, Thread } from '../model';
import { PatchIndex, QuoteCoord, matchLines, patchScore, quoteCoords, quotedKey } from './anchor';
import { Block, blocksAt } from './blocks';
import { QuoteLine, parseQuotes, restoreStrippedQuotes } from './quote';

export interface ReplyAnalysis {
  msg: MailMessage;
  lines: QuoteLine[];
  /** Attributed author ("Name <addr>") of the level each line is at, when an attribution named one. */
  lineAuthor: (string | null)[];
  idx: PatchIndex | null;
  matched: number[];
  coords: (QuoteCoord | null)[];
  useCoords: boolean;
  /** The patch this reply is about by ancestry (nearest patch above it), or null. */
  ancestorPatchId: string | null;
  /** First missing ancestor when the reply answers a mail that is not present. */
  missingAncestorId: string | null;
  missingCommitLines: Set<number>;
  own: Block[];
  quoted: Block[];
}

export interface ThreadContext {
  thread: Thread;
  byId: Map<string, MailMessage>;
  patches: Map<string, PatchIndex>;
  /** The thread's subject marks it as a patch (so a missing root is a patch mail). */
  rootIsPatch: boolean;
}

/** The k-th ancestor of a message (1 = parent), its id whether present or not. */
export function ancestorId(ctx: ThreadContext, id: string, k: number): string | null {
  let cur: string | null = id;
  for (let i = 0; i < k && cur; i++) cur = ctx.thread.parentOf[cur] ?? null;
  return cur;
}

export function analyseReply(ctx: ThreadContext, msg: MailMessage): ReplyAnalysis {
  let lines = parseQuotes(msg.body);
  const parentId = ctx.thread.parentOf[msg.messageId] ?? null;
  const parent = parentId ? ctx.byId.get(parentId) : undefined;
  if (parent && !lines.some((l) => l.depth > 0)) lines = restoreStrippedQuotes(lines, parseQuotes(parent.body));

  let ancestorPatchId: string | null = null;
  let missingAncestorId: string | null = null;
  for (let cur = parentId; cur; cur = ctx.thread.parentOf[cur] ?? null) {
    if (!missingAncestorId && !ctx.byId.has(cur)) missingAncestorId = cur;
    if (ctx.patches.has(cur)) {
      ancestorPatchId = cur;
      break;
    }
    if (ctx.thread.parentOf[cur] === undefined) break;
  }

  const idx = pickPatch(ctx, lines, ancestorPatchId);
  const matched = idx ? matchLines(idx, lines) : new Array<number>(lines.length).fill(-1);
  const coords = quoteCoords(lines);
  const useCoords = !idx;
  const missingCommitLines = new Set<number>();
  if (!idx && missingAncestorId && ctx.rootIsPatch) {
    // The first quoted prose of a missing patch mail, before its first diff line, is its commit message.
    for (let i = 0; i < lines.length; i++) {
      const l = lines[i];
      if (l.depth === 0 || l.kind !== 'text') continue;
      if (coords[i] || /^(?:diff --git|@@ |--- |\+\+\+ )/.test(l.text)) break;
      if (l.depth === depthOfAncestor(ctx, msg.messageId, missingAncestorId)) missingCommitLines.add(i);
    }
  }
  const maxDepth = lines.reduce((m, l) => Math.max(m, l.depth), 0);
  const quoted: Block[] = [];
  for (let d = 1; d <= maxDepth; d++) quoted.push(...blocksAt(lines, d));
  quoted.sort((a, b) => a.start - b.start);
  return {
    msg,
    lines,
    lineAuthor: levelAuthors(lines),
    idx,
    matched,
    coords,
    useCoords,
    ancestorPatchId,
    missingAncestorId,
    missingCommitLines,
    own: blocksAt(lines, 0),
    quoted,
  };
}

function depthOfAncestor(ctx: ThreadContext, id: string, target: string): number {
  for (let k = 1; k < 50; k++) {
    const a = ancestorId(ctx, id, k);
    if (!a) return -1;
    if (a === target) return k;
  }
  return -1;
}

/** The patch whose lines the reply quotes: the ancestor patch unless another patch explains clearly more. */
function pickPatch(ctx: ThreadContext, lines: QuoteLine[], ancestorPatchId: string | null): PatchIndex | null {
  if (!lines.some((l) => l.depth > 0 && l.kind === 'text' && quotedKey(l.text))) {
    return ancestorPatchId ? (ctx.patches.get(ancestorPatchId) ?? null) : null;
  }
  const anc = ancestorPatchId ? ctx.patches.get(ancestorPatchId) : undefined;
  const ancScore = anc ? patchScore(anc, lines) : 0;
  let best = anc ?? null;
  let bestScore = ancScore;
  for (const p of ctx.patches.values()) {
    if (p === anc) continue;
    const s = patchScore(p, lines);
    if (s > bestScore * 1.25 + 1 && s >= 2) {
      best = p;
      bestScore = s;
    }
  }
  return best;
}

/** For each line, the author its quote level was attributed to (nearest attribution one level up). */
function levelAuthors(lines: QuoteLine[]): (string | null)[] {
  const byLevel: (string | null)[] = [];
  const out: (string | null)[] = [];
  for (const l of lines) {
    if (l.kind === 'attribution' && l.who) {
      byLevel[l.depth + 1] = l.who;
      byLevel.length = l.depth + 2;
    }
    out.push(byLevel[l.depth] ?? null);
  }
  return out;
}
