/**
 * One reply, analysed on its own: its quote levels, the author of each
 * quoted level, the patch its quotes come from and the line each quoted diff
 * line is in that patch.
 */
import { MailMessage, Thread } from '../model';
import { PatchIndex, matchLines, patchScore, quotedKeys } from './anchor';
import { QuoteCoord, quoteCoords } from './coords';
import { Block, blocksAt } from './blocks';
import { QuoteLine, norm, parseQuotes, restoreStrippedQuotes } from './quote';

export interface ReplyAnalysis {
  msg: MailMessage;
  lines: QuoteLine[];
  /** Attributed author ("Name <addr>") of the level each line is at, when an attribution named one. */
  lineAuthor: (string | null)[];
  idx: PatchIndex | null;
  keys: (string | null)[];
  matched: number[];
  coords: (QuoteCoord | null)[];
  useCoords: boolean;
  /** The patch this reply is about by ancestry (nearest patch above it), or null. */
  ancestorPatchId: string | null;
  /** First missing ancestor when the reply answers a mail that is not present. */
  missingAncestorId: string | null;
  missingCommitLines: Set<number>;
  own: Block[];
  /** Quoted prose blocks (not diff): the comments this reply may answer, with their normalised text. */
  quoted: Block[];
  quotedNorm: string[];
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

  const keys = quotedKeys(lines);
  const idx = pickPatch(ctx, keys, ancestorPatchId);
  // The patch mail's own text sits at the quote depth of its generation: deeper text is
  // nobody's, shallower text is a reviewer's (code they paste must not match the patch).
  const patchDepth = idx ? depthOfAncestor(ctx, msg.messageId, idx.patch.messageId) : -1;
  const matchable = patchDepth > 0 ? keys.map((k, i) => (lines[i].depth === patchDepth ? k : null)) : keys;
  const matched = idx ? matchLines(idx, matchable) : new Array<number>(lines.length).fill(-1);
  const coords = quoteCoords(lines);
  // Coordinates read from the quote stand in only for a patch mail that is missing,
  // and only in a reply that quotes a hunk header of it.
  const useCoords = !idx && missingAncestorId !== null && lines.some((l) => l.depth > 0 && /^@@ -\d/.test(l.text));
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
  // Quoted patch text is not a comment anyone answers.
  const prose = quoted.filter((b) => {
    let diff = 0;
    let all = 0;
    for (let i = b.start; i <= b.end; i++) {
      if (lines[i].kind !== 'text') continue;
      all++;
      if (matched[i] >= 0 || (useCoords && coords[i]) || /^(?:diff --git |index [0-9a-f]{7,}\.\.|@@ -\d)/.test(lines[i].text)) diff++;
    }
    return diff * 2 < all;
  });
  return {
    msg,
    lines,
    lineAuthor: levelAuthors(lines),
    idx,
    keys,
    matched,
    coords,
    useCoords,
    ancestorPatchId,
    missingAncestorId,
    missingCommitLines,
    own: blocksAt(lines, 0),
    quoted: prose,
    quotedNorm: prose.map((b) => norm(b.body)),
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
function pickPatch(ctx: ThreadContext, keys: (string | null)[], ancestorPatchId: string | null): PatchIndex | null {
  const anc = ancestorPatchId ? ctx.patches.get(ancestorPatchId) : undefined;
  const diffLike = keys.filter((k) => k && k.length > 6 && /^[-+@F]/.test(k)).length;
  if (diffLike === 0) return anc ?? null;
  const ancScore = anc ? patchScore(anc, keys) : 0;
  // The patch the reply answers explains most of its quoted diff: no need to look further.
  if (anc && ancScore >= diffLike * 0.8) return anc;
  let best = anc ?? null;
  let bestScore = ancScore;
  for (const p of ctx.patches.values()) {
    if (p === anc) continue;
    const s = patchScore(p, keys);
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
