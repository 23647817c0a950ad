/**
 * Anchoring quoted text to the ORIGINAL patch: every quoted line of a reply is
 * matched to a line of the patch's hunks (whitespace-insensitive, so trimmed,
 * re-wrapped and tab-mangled quotes still match), and the choice among equal
 * lines is made for the whole reply at once (a Viterbi pass that prefers each
 * quoted line to follow the previous one in the patch, and quoted hunk headers
 * pin the hunk). Line numbers come from the patch's hunk headers, never from
 * the quote — except when the patch mail is missing, where the quoted hunk
 * headers are all there is.
 */
import { CommentKind, Patch } from '../model';
import { QuoteCoord } from './coords';
import { QuoteLine, norm } from './quote';

export interface Anchor {
  kind: CommentKind;
  patchMessageId: string | null;
  file: string | null;
  side: 'new' | 'old' | null;
  line: number | null;
}

interface Entry {
  /** 'line' for hunk lines, 'header' for a hunk header, 'file' for a file header. */
  what: 'line' | 'header' | 'file';
  key: string;
  file: string;
  side: 'new' | 'old';
  line: number;
}

export interface PatchIndex {
  patch: Patch;
  entries: Entry[];
  byKey: Map<string, number[]>;
  /** Entries by squeezed key, built on first use. */
  squeezed: () => Map<string, number[]>;
  /** Commit title, body and notes, whitespace-normalised. */
  commitText: string;
}

export function indexPatch(patch: Patch): PatchIndex {
  const entries: Entry[] = [];
  for (const f of patch.files) {
    entries.push({ what: 'file', key: `F${f.path}`, file: f.path, side: 'new', line: 0 });
    for (const h of f.hunks) {
      entries.push({ what: 'header', key: `@${h.oldStart},${h.newStart}`, file: f.path, side: 'new', line: h.newStart });
      for (const l of h.lines) {
        const sign = l.type === 'add' ? '+' : l.type === 'del' ? '-' : ' ';
        const side = l.type === 'del' ? 'old' : 'new';
        const line = (l.type === 'del' ? l.oldLine : l.newLine) ?? 0;
        entries.push({ what: 'line', key: sign + norm(l.text), file: f.path, side, line });
      }
    }
  }
  const byKey = new Map<string, number[]>();
  entries.forEach((e, i) => {
    const list = byKey.get(e.key);
    if (list) list.push(i);
    else byKey.set(e.key, [i]);
  });
  const commitText = norm(`${patch.commitTitle}\n${patch.commitBody}\n${patch.notes}`);
  let sq: Map<string, number[]> | null = null;
  const squeezed = () => {
    if (!sq) {
      sq = new Map();
      entries.forEach((e, i) => {
        if (e.what !== 'line') return;
        const k = squeeze(e.key);
        const list = sq!.get(k);
        if (list) list.push(i);
        else sq!.set(k, [i]);
      });
    }
    return sq;
  };
  return { patch, entries, byKey, squeezed, commitText };
}

/** The lookup key of a quoted line, or null when it cannot be a diff line. */
export function quotedKey(text: string): string | null {
  const h = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(text);
  if (h) return `@${h[1]},${h[2]}`;
  const f = /^diff --git a\/(\S+) b\/(\S+)/.exec(text) ?? /^\+\+\+ b\/(\S+)/.exec(text);
  if (f) return `F${f[f.length - 1]}`;
  if (/^--- (?:a\/|\/dev\/null)|^index [0-9a-f]+\.\.|^\+\+\+ \/dev\/null/.test(text)) return null;
  const c = text.charAt(0);
  if (c === '+' || c === '-') return c + norm(text.slice(1));
  const n = norm(text);
  return n === '' ? null : ` ${n}`;
}

const MAX_CANDIDATES = 200;

function candidates(idx: PatchIndex, key: string): number[] {
  const exact = idx.byKey.get(key);
  if (exact) return exact.length > MAX_CANDIDATES ? exact.slice(0, MAX_CANDIDATES) : exact;
  // Thunderbird's ">   +\tfoo": the diff marker after extra spaces.
  if (/^ [+-]/.test(key)) {
    const signed = candidates(idx, key[1] + key.slice(2).replace(/^ /, ''));
    if (signed.length) return signed;
  }
  // A line the mail client split: the quote is the start of the original.
  const sign = key.charAt(0);
  if (key.length < 14 || sign === '@' || sign === 'F') return [];
  const out: number[] = [];
  for (let i = 0; i < idx.entries.length && out.length < 8; i++) {
    const e = idx.entries[i];
    if (e.what === 'line' && e.key.charAt(0) === sign && e.key.startsWith(key)) out.push(i);
  }
  if (out.length) return out;
  // A mailer that turned tabs or non-breaking spaces into "?": compare without them.
  if (key.includes('??')) return idx.squeezed().get(squeeze(key)) ?? [];
  return out;
}

/** A key without whitespace and "?" (for quotes whose mailer replaced blanks by "?"). */
export function squeeze(key: string): string {
  return key.replace(/[\s?]+/g, '');
}

/** The lookup key of every quoted line of a reply (null for own text and non-diff lines). */
export function quotedKeys(lines: QuoteLine[]): (string | null)[] {
  return lines.map((l) => (l.depth === 0 || l.kind !== 'text' ? null : quotedKey(l.text)));
}

/** How many quoted lines of the reply this patch explains (for picking the patch). */
export function patchScore(idx: PatchIndex, keys: (string | null)[]): number {
  let n = 0;
  for (const k of keys) if (k && k.length > 6 && idx.byKey.has(k)) n++;
  return n;
}

/** For each line of the reply, the index of the patch entry it quotes (or -1). */
export function matchLines(idx: PatchIndex, keys: (string | null)[]): number[] {
  const result = new Array<number>(keys.length).fill(-1);
  const seq: { at: number; cands: number[] }[] = [];
  keys.forEach((k, at) => {
    if (!k) return;
    const cands = candidates(idx, k);
    if (cands.length) seq.push({ at, cands });
  });
  if (!seq.length) return result;
  // Viterbi: score[i][c] = best score ending with candidate c for quoted line i.
  const back: Int32Array[] = [];
  let prevScore = new Float64Array(seq[0].cands.length).fill(1);
  back.push(new Int32Array(seq[0].cands.length).fill(-1));
  for (let i = 1; i < seq.length; i++) {
    const pc = seq[i - 1].cands;
    const cc = seq[i].cands;
    const score = new Float64Array(cc.length);
    const bp = new Int32Array(cc.length);
    for (let c = 0; c < cc.length; c++) {
      let best = -Infinity;
      let arg = 0;
      for (let p = 0; p < pc.length; p++) {
        const s = prevScore[p] + transition(pc[p], cc[c]);
        if (s > best) {
          best = s;
          arg = p;
        }
      }
      score[c] = best + 1;
      bp[c] = arg;
    }
    prevScore = score;
    back.push(bp);
  }
  let c = 0;
  for (let k = 1; k < prevScore.length; k++) if (prevScore[k] > prevScore[c]) c = k;
  for (let i = seq.length - 1; i >= 0; i--) {
    result[seq[i].at] = seq[i].cands[c];
    c = back[i][c];
  }
  return result;
}

function transition(p: number, q: number): number {
  if (q === p + 1) return 2;
  if (q > p && q <= p + 60) return 0.5;
  if (q > p) return 0;
  return -2;
}

export interface SegmentInput {
  lines: QuoteLine[];
  /** Entry matched per line (or -1), for the chosen patch. */
  matched: number[];
  idx: PatchIndex | null;
  coords: (QuoteCoord | null)[];
  /** Id of the (possibly missing) patch the quote-only coordinates belong to. */
  quotedPatchId: string | null;
  /** Lookup key of each quoted line (see quotedKey). */
  keys: (string | null)[];
  /** True when no quoted line matched the patch: coordinates come from the quote. */
  useCoords: boolean;
  /** Line indexes of quoted commit-message text when the patch mail is missing. */
  missingCommitLines: Set<number>;
}

/**
 * The anchor of a comment given the quoted lines directly above it
 * (`from`..`to`, inclusive, only lines deeper than `minDepth` count): the
 * last quoted diff line, else quoted commit-message text, else null.
 * A quoted `-- ` (the patch's own tail) below the diff makes it general.
 */
export function segmentAnchor(s: SegmentInput, from: number, to: number, minDepth: number): Anchor | null {
  let quotedSince = false;
  for (let k = to; k >= from; k--) {
    const l = s.lines[k];
    // What lies above a snip mark is not directly above the comment (unless nothing quoted follows the snip).
    if (l.kind === 'snip') {
      if (quotedSince) return null;
      continue;
    }
    if (l.kind === 'text' && l.depth > minDepth) quotedSince = true;
    if (l.depth <= minDepth) continue;
    if (l.kind === 'signature' && (l.text === '-- ' || l.text === '--')) {
      return { kind: 'general', patchMessageId: s.idx?.patch.messageId ?? s.quotedPatchId, file: null, side: null, line: null };
    }
    if (l.kind !== 'text') continue;
    const m = s.matched[k];
    if (s.idx && m >= 0) {
      const e = s.idx.entries[m];
      if (e.what !== 'line') continue;
      // Generic lines ("if (ret)", "}") under a quoted diff line this patch does not have: another patch is quoted.
      if (!reliable(s, k)) return null;
      return { kind: 'line', patchMessageId: s.idx.patch.messageId, file: e.file, side: e.side, line: e.line };
    }
    const c = s.coords[k];
    if (c && s.useCoords) {
      return { kind: 'line', patchMessageId: s.idx?.patch.messageId ?? s.quotedPatchId, file: c.file, side: c.side, line: c.line };
    }
    if (s.idx && isCommitText(s.idx, l.text)) {
      return { kind: 'commit-message', patchMessageId: s.idx.patch.messageId, file: null, side: null, line: null };
    }
    if (!s.idx && s.missingCommitLines.has(k)) {
      return { kind: 'commit-message', patchMessageId: s.quotedPatchId, file: null, side: null, line: null };
    }
  }
  return null;
}

function distinctive(idx: PatchIndex, key: string | null): boolean {
  return !!key && key.length >= 14 && (idx.byKey.get(key)?.length ?? 0) <= 2;
}

/** A matched line is trusted unless, going up its quoted run, a signed diff line the patch lacks comes before any distinctive match. */
function reliable(s: SegmentInput, k: number): boolean {
  const idx = s.idx!;
  if (distinctive(idx, s.keys[k])) return true;
  const depth = s.lines[k].depth;
  for (let j = k - 1, n = 0; j >= 0 && n < 8; j--) {
    const l = s.lines[j];
    if (l.kind === 'blank') continue;
    if (l.depth !== depth || l.kind !== 'text') break;
    n++;
    const key = s.keys[j];
    if (s.matched[j] >= 0) {
      if (distinctive(idx, key)) return true;
    } else if (key && /^[+-]/.test(key) && key.length >= 14) {
      return false;
    }
  }
  return true;
}

function isCommitText(idx: PatchIndex, text: string): boolean {
  const n = norm(text);
  if (n.length < 12) return false;
  return idx.commitText.includes(n);
}
