/**
 * Line coordinates read from the quote itself, for replies whose patch mail is
 * missing: a quoted hunk header starts the count, each quoted context, removed
 * or added line advances it, and a snip mark (or prose) stops it.
 */
import { QuoteLine } from './quote';

/** Line coordinates read from the quote itself (for replies whose patch mail is missing). */
export interface QuoteCoord {
  file: string | null;
  side: 'new' | 'old';
  line: number | null;
}

export function quoteCoords(lines: QuoteLine[]): (QuoteCoord | null)[] {
  const out: (QuoteCoord | null)[] = new Array(lines.length).fill(null);
  const state = new Map<number, { file: string | null; old: number | null; nw: number | null; active: boolean }>();
  lines.forEach((l, i) => {
    if (l.kind === 'snip') {
      // A snip at any level cuts every quoted hunk at that level or deeper.
      for (const [d, st] of state) if (d >= l.depth) st.active = false;
      return;
    }
    if (l.depth === 0) return;
    let s = state.get(l.depth);
    if (!s) state.set(l.depth, (s = { file: null, old: null, nw: null, active: false }));
    const t = l.text;
    const f = /^diff --git a\/(\S+) b\/(\S+)/.exec(t) ?? /^\+\+\+ b\/(\S+)/.exec(t);
    if (f) {
      s.file = f[f.length - 1];
      s.active = false;
      return;
    }
    const h = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(t);
    if (h) {
      s.old = +h[1];
      s.nw = +h[2];
      s.active = true;
      return;
    }
    const diffLike = l.kind === 'blank' || /^[-+ \t]/.test(t);
    if (!diffLike) {
      s.active = false;
      if (l.kind === 'text' && /^[-+]/.test(t)) out[i] = { file: s.file, side: t[0] === '-' ? 'old' : 'new', line: null };
      return;
    }
    if (!s.active) {
      if (l.kind === 'text' && /^[-+]/.test(t)) out[i] = { file: s.file, side: t[0] === '-' ? 'old' : 'new', line: null };
      return;
    }
    if (t.startsWith('-')) {
      out[i] = { file: s.file, side: 'old', line: s.old };
      s.old = (s.old ?? 0) + 1;
    } else if (t.startsWith('+')) {
      out[i] = { file: s.file, side: 'new', line: s.nw };
      s.nw = (s.nw ?? 0) + 1;
    } else {
      if (l.kind !== 'blank') out[i] = { file: s.file, side: 'new', line: s.nw };
      s.old = (s.old ?? 0) + 1;
      s.nw = (s.nw ?? 0) + 1;
    }
  });
  return out;
}

