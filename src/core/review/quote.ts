/**
 * Splits a reply body into quote levels and classifies every line.
 *
 * The parser is a small explicit state machine over the lines of the body:
 *
 *   BODY       ordinary text. A `>`-prefixed line has the depth given by its
 *              markers; a run of `|`-prefixed lines is one level deeper than
 *              the text around it. `-- ` enters SIGNATURE; an Outlook
 *              `-----Original Message-----` line enters OUTLOOK_HEAD.
 *   SIGNATURE  after a `-- ` line: lines at the same depth are signature,
 *              until a line at another depth appears (back to BODY).
 *   OUTLOOK_HEAD  the `From:/Sent:/To:/Cc:/Subject:/Date:` lines of an Outlook
 *              original-message block (attribution); the first other
 *              non-blank line goes back to BODY, and from there to the end
 *              every line is one level deeper than the block header (the
 *              answered mail, quoted without markers).
 *
 * Attributions ("On …, X wrote:", "X <a@b> writes:", "* X <a@b> [250114 13:14]:",
 * "Am … schrieb X:", "Quoting X (date):", also wrapped over two lines) are
 * recognised by shape, and weak shapes only when a deeper quote follows.
 * Snip markers (`[...]`, `<snip>`, `[ ... ]`) are their own class.
 */

export type LineKind = 'text' | 'blank' | 'attribution' | 'snip' | 'signature';

export interface QuoteLine {
  /** Number of quote levels (0 = written by the sender of this mail). */
  depth: number;
  /** The line without its quote markers. */
  text: string;
  kind: LineKind;
  /** For attribution lines: the name/address found in it. */
  who?: string;
  /** Quoted with `|` rather than `>`. */
  pipe?: boolean;
}

type State = 'BODY' | 'SIGNATURE' | 'OUTLOOK_HEAD';

const QUOTE_PREFIX = /^(?:[ \t]?>)+ ?/;
const SNIP =
  /^\s*(?:\[\s*(?:\.{2,}|…|snip(?:ped)?\s*\.*|trimmed|cut)\s*\]|<\s*(?:snip(?:ped)?|\.{3,})\s*>|\.{3,}|-+\s*snip\s*-+|\[\s*\.\.\.\s*snip\s*\.\.\.\s*\])\s*$/i;
const OUTLOOK = /^\s*-{3,}\s*Original Message\s*-{3,}\s*$/i;
const OUTLOOK_FIELD = /^\s*(?:From|Sent|To|Cc|Subject|Date):/i;
const STRONG_ATTRIB = [
  /^On\b.{3,}\b(?:wrote|writes|said)\s*:\s*$/i,
  /^.{1,120}<[^<>\s]+@[^<>\s]+>\s+(?:wrote|writes|said)\s*:\s*$/i,
  /^\*\s+.{1,120}\s+(?:wrote|writes)\s*:\s*$/i,
  /^\*\s+.{1,120}\[\d{6}\s+\d{1,2}:\d{2}\]\s*:\s*$/,
  /^Am\b.{3,}\bschrieb\b.{1,120}:\s*$/,
  /^Le\b.{3,}\ba écrit\s*:\s*$/i,
  /^El\b.{3,}\bescribió\s*:\s*$/i,
];
const WEAK_ATTRIB = [
  /\b(?:wrote|writes|said|a écrit|schrieb|escribió|ha scritto|skrev|napisał)\s*:\s*$/i,
  /^Quoting\b.{1,160}(?::|\(\d{4}-\d\d-\d\d[ \d:]*\))\s*$/,
];

/** Depth and text of one raw line: `> > foo` is (2, `foo`). */
export function stripMarkers(line: string): { depth: number; text: string } {
  const m = QUOTE_PREFIX.exec(line);
  if (!m) return { depth: 0, text: line };
  let depth = 0;
  for (const ch of m[0]) if (ch === '>') depth++;
  return { depth, text: line.slice(m[0].length) };
}

/** `...` alone is a snip only next to quoted text; inside one's own text it is text (code, logs). */
const BARE_ELLIPSIS = /^\s*(?:\.{3,}|…)\s*$/;

function nextToQuote(raw: { depth: number; text: string }[], i: number): boolean {
  const d = raw[i].depth;
  for (const step of [-1, 1]) {
    let j = i + step;
    while (j >= 0 && j < raw.length && raw[j].text.trim() === '' && raw[j].depth === d) j += step;
    if (j >= 0 && j < raw.length && raw[j].depth > d) return true;
  }
  return false;
}

/** Own text at this line's depth both above and below (blank lines skipped): e.g. `<...>` inside a code sample. */
function insideOwnText(raw: { depth: number; text: string }[], i: number): boolean {
  const d = raw[i].depth;
  for (const step of [-1, 1]) {
    let j = i + step;
    while (j >= 0 && j < raw.length && raw[j].depth === d && (raw[j].text.trim() === '' || SNIP.test(raw[j].text))) j += step;
    if (j < 0 || j >= raw.length || raw[j].depth !== d) return false;
  }
  return true;
}

export function isSnip(text: string): boolean {
  return SNIP.test(text);
}

function isStrongAttribution(text: string): boolean {
  return text.length < 250 && STRONG_ATTRIB.some((r) => r.test(text.trim()));
}

function isWeakAttribution(text: string): boolean {
  return text.length < 250 && WEAK_ATTRIB.some((r) => r.test(text.trim()));
}

/** The person named by an attribution line, as "Name <addr>", "Name" or "addr". */
export function attributionAuthor(text: string): string {
  let t = text.trim().replace(/^\*\s+/, '');
  t = t.replace(/\s*\[\d{6}\s+\d{1,2}:\d{2}\]\s*:\s*$/, '');
  t = t.replace(/\s*(?:wrote|writes|said|a écrit|escribió|ha scritto|skrev|napisał)\s*:\s*$/i, '');
  const am = /^Am\b.*?\bschrieb\s+(.+?)\s*:?\s*$/.exec(t);
  if (am) t = am[1];
  const quoting = /^Quoting\s+(.+?)(?:\s*\([^()]*\))?\s*:?\s*$/.exec(t);
  if (quoting) t = quoting[1];
  if (/^On\b/i.test(t)) {
    const time = /\d{1,2}:\d{2}(?::\d{2})?\s*(?:[AaPp]\.?[Mm]\.?)?(?:\s*[+-]\d{4})?(?:\s*\([A-Za-z ]+\))?\s*,?\s*/g;
    let last = -1;
    for (let m = time.exec(t); m; m = time.exec(t)) last = m.index + m[0].length;
    if (last >= 0) t = t.slice(last);
    else if (t.includes(',')) t = t.slice(t.lastIndexOf(',') + 1);
    else t = t.replace(/^On\s+/i, '');
  }
  // Outlook: "Name [mailto:addr]".
  t = t.replace(/\s*\[mailto:([^\]\s]+)\]/, ' <$1>');
  return t.replace(/^[,\s]+|[,\s]+$/g, '').replace(/^"(.*)"(\s|$)/, '$1$2');
}

/** Index of the next non-blank line after i, or -1. */
function nextNonBlank(raw: { depth: number; text: string }[], i: number): number {
  for (let j = i + 1; j < raw.length && j <= i + 3; j++) if (raw[j].text.trim() !== '' || raw[j].depth > raw[i].depth) return j;
  return -1;
}

/** Splits a body into classified lines (see the state machine above). */
export function parseQuotes(body: string): QuoteLine[] {
  const lines: string[] = [];
  for (const l of body.replace(/\r\n?/g, '\n').split('\n')) {
    // "...> quoted" (a snip glued to the next quoted line by some clients).
    const glued = /^\s*(?:\.{3,}|\[\.\.\.\])\s*(>.*)$/.exec(l);
    if (glued) lines.push('[...]', glued[1]);
    else lines.push(l);
  }
  while (lines.length && lines[lines.length - 1].trim() === '') lines.pop();
  const raw: { depth: number; text: string; pipe?: boolean }[] = lines.map(stripMarkers);
  pipeQuoting(raw);
  const out: QuoteLine[] = [];
  let state: State = 'BODY';
  let sigDepth = 0;
  let outlookBase = 0;
  /** Levels added to every line below an Outlook block header. */
  let shift = 0;
  for (let i = 0; i < raw.length; i++) {
    let { depth, text } = raw[i];
    depth += shift;
    const blank = text.trim() === '';
    if (state === 'SIGNATURE' && depth !== sigDepth && !blank) state = 'BODY';
    if (state === 'OUTLOOK_HEAD') {
      if (OUTLOOK_FIELD.test(text) || blank) {
        const from = /^\s*From:\s*(.+)$/i.exec(text);
        out.push({ depth, text, kind: blank ? 'blank' : 'attribution', ...(from ? { who: attributionAuthor(from[1]) } : {}) });
        continue;
      }
      state = 'BODY';
      shift = outlookBase + 1;
      depth += shift;
    }
    if (state === 'SIGNATURE') {
      out.push({ depth, text, kind: blank ? 'blank' : 'signature' });
      continue;
    }
    if (blank) {
      out.push({ depth, text, kind: 'blank' });
      continue;
    }
    if (state === 'BODY' && shift === 0 && OUTLOOK.test(text)) {
      state = 'OUTLOOK_HEAD';
      outlookBase = depth;
      out.push({ depth, text, kind: 'attribution' });
      continue;
    }
    if (text === '-- ' || (text === '--' && signatureTail(raw, i))) {
      state = 'SIGNATURE';
      sigDepth = depth;
      out.push({ depth, text, kind: 'signature' });
      continue;
    }
    if (isSnip(text) && (BARE_ELLIPSIS.test(text) ? nextToQuote(raw, i) : !insideOwnText(raw, i))) {
      out.push({ depth, text, kind: 'snip' });
      continue;
    }
    const next = nextNonBlank(raw, i);
    const quoteFollows = next >= 0 && raw[next].depth > raw[i].depth;
    if (isStrongAttribution(text) || (quoteFollows && isWeakAttribution(text))) {
      // "On Tue, … Name <addr>" wrapped before "wrote:".
      const prev = out[out.length - 1];
      if (prev && prev.kind === 'text' && prev.depth === depth && /^On\b/.test(prev.text) && !/^On\b/.test(text)) {
        prev.kind = 'attribution';
        text = `${prev.text} ${text}`;
      }
      out.push({ depth, text: raw[i].text, kind: 'attribution', who: attributionAuthor(text) });
      continue;
    }
    out.push({ depth, text, kind: 'text', ...(raw[i].pipe ? { pipe: true } : {}) });
  }
  return out;
}

/** `--` without its trailing space still starts a signature when only a few short lines follow at its depth. */
function signatureTail(raw: { depth: number; text: string }[], i: number): boolean {
  let n = 0;
  for (let j = i + 1; j < raw.length; j++) {
    if (raw[j].depth !== raw[i].depth) return n > 0;
    if (raw[j].text.trim() !== '') n++;
    if (n > 4) return false;
  }
  return n > 0;
}

/**
 * `|`-quoting: a run of at least two lines starting with `|` (at the same `>`
 * depth) is one level deeper than its surroundings.
 */
function pipeQuoting(raw: { depth: number; text: string; pipe?: boolean }[]): void {
  for (let i = 0; i < raw.length; ) {
    if (!/^\|(?: |$)/.test(raw[i].text)) {
      i++;
      continue;
    }
    let j = i;
    while (j < raw.length && raw[j].depth === raw[i].depth && /^\|(?: |$)/.test(raw[j].text)) j++;
    if (j - i >= 2) {
      for (let k = i; k < j; k++) raw[k] = { depth: raw[k].depth + 1, text: raw[k].text.replace(/^\| ?/, ''), pipe: true };
    }
    i = j;
  }
}

/** Whitespace-insensitive form used to compare quoted text with its original. */
export function norm(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

/**
 * A reply whose `>` markers were stripped: lines that also occur in the
 * answered mail are marked as quoted (one level deeper than they were there).
 * Only applied when the reply has no quoted line at all.
 */
export function restoreStrippedQuotes(lines: QuoteLine[], answered: QuoteLine[]): QuoteLine[] {
  // Only a reply that introduces the answered mail ("On …, X wrote:") and then has no quoted line.
  if (lines.some((l) => l.depth > 0) || !lines.some((l) => l.kind === 'attribution')) return lines;
  const depthOf = new Map<string, number>();
  for (const l of answered) {
    const n = norm(l.text);
    if (n.length >= 8 && l.kind !== 'blank' && !depthOf.has(n)) depthOf.set(n, l.depth + 1);
  }
  let changed = 0;
  const out: QuoteLine[] = lines.map((l) => {
    const n = norm(l.text);
    const d = n.length >= 8 && l.kind !== 'attribution' ? depthOf.get(n) : undefined;
    if (d === undefined) return l;
    changed++;
    return { ...l, depth: d, kind: l.kind === 'attribution' ? l.kind : ('text' as LineKind) };
  });
  if (!changed) return lines;
  // Short lines ("}", "---", "+") between restored lines were quoted too.
  const prevText = (i: number) => {
    for (let j = i - 1; j >= 0; j--) if (out[j].kind !== 'blank') return j;
    return -1;
  };
  const nextText = (i: number) => {
    for (let j = i + 1; j < out.length; j++) if (out[j].kind !== 'blank') return j;
    return -1;
  };
  for (let i = 0; i < out.length; i++) {
    const l = out[i];
    if (l.depth > 0 || l.kind !== 'text' || norm(l.text).length >= 8) continue;
    const p = prevText(i);
    const n = nextText(i);
    if (p >= 0 && n >= 0 && out[p].depth > 0 && out[n].depth > 0) out[i] = { ...l, depth: out[p].depth };
  }
  return out;
}
