/**
 * Comment blocks: maximal runs of lines written at one quote level, between
 * quoted regions, with greetings, sign-offs and trailers taken off the edges.
 */
import { QuoteLine } from './quote';

export interface Block {
  /** Quote depth the block was written at (0 = the sender of the mail). */
  depth: number;
  /** Index of the first and last line (inclusive) of the block in the parsed body. */
  start: number;
  end: number;
  /** First line of the run before greetings were taken off (where the quoted region above ends). */
  rawStart: number;
  /** The comment text, quote markers removed. */
  body: string;
}

const GREETING = /^(?:hi|hello|hey|dear|hallo|hola|greetings|morning|good (?:morning|afternoon|evening))[,!]?(?:\s+[\p{L}.'-]+){0,3}\s*[,.!:]?\s*$/iu;
const SIGNOFF =
  /^(?:thanks?(?: you)?(?: again)?(?: a lot)?|many thanks|thx|cheers|regards|best(?: regards| wishes)?|kind regards|br|sincerely|greetings|ciao)\b[^.?]{0,30}[,.!]?\s*$/i;
const TRAILER = /^\s*(?:[A-Z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)*-by|Fixes|Link|Closes|Cc|CC|Reported|Suggested|Signed-off-by):\s+\S/;
/** A short line that can only be a name under a sign-off ("Jens", "-Sedat-", "	Ingo"). */
const NAME = /^\s*[-~]?\s*[\p{L}][\p{L}.'-]*(?:\s+[\p{L}][\p{L}.'-]*){0,3}\s*[-~]?\s*$/u;

const SALUTATION = /^\s*\p{Lu}[\p{L}.'-]*(?:\s+\p{Lu}[\p{L}.'-]*)?\s*,\s*$/u;
const DASH_NAME = /^\s*[-~]\s*\p{L}[\p{L}.' ]{0,25}-?\s*$/u;

function isTrailerLine(t: string): boolean {
  return TRAILER.test(t) || /^\s*Acked-by|^\s*Reviewed-by|^\s*Tested-by/i.test(t);
}

/** Blocks written at `depth`: runs of text/blank lines at exactly that depth. */
export function blocksAt(lines: QuoteLine[], depth: number): Block[] {
  const out: Block[] = [];
  let i = 0;
  while (i < lines.length) {
    if (!(lines[i].depth === depth && lines[i].kind === 'text')) {
      i++;
      continue;
    }
    let j = i;
    let last = i;
    while (j < lines.length && lines[j].depth === depth && (lines[j].kind === 'text' || lines[j].kind === 'blank')) {
      if (lines[j].kind === 'text') last = j;
      j++;
    }
    // A blank line at another depth (e.g. `>` alone) still separates nothing:
    // runs are cut only by quoted text, attributions, snips and signatures.
    const block = trimBlock(lines, depth, i, last);
    if (block) out.push(block);
    i = j;
  }
  return out;
}

function trimBlock(lines: QuoteLine[], depth: number, start: number, end: number): Block | null {
  let s = start;
  let e = end;
  const text = (k: number) => lines[k].text;
  const blank = (k: number) => text(k).trim() === '';
  const skipBlankFwd = () => {
    while (s <= e && blank(s)) s++;
  };
  const skipBlankBack = () => {
    while (e >= s && blank(e)) e--;
  };
  // Leading greeting lines ("Hi,", "Hello Jens,").
  skipBlankFwd();
  while (s <= e && GREETING.test(text(s).trim()) && text(s).trim().length < 40) {
    s++;
    skipBlankFwd();
  }
  // Trailing trailers, sign-offs and the name under them.
  for (let changed = true; changed && e >= s; ) {
    changed = false;
    skipBlankBack();
    if (e < s) break;
    if (isTrailerLine(text(e))) {
      e--;
      changed = true;
      continue;
    }
    // "Thanks,\nJens" / "Regards,\n  Ingo"
    let k = e;
    let names = 0;
    while (k >= s && names < 2 && text(k).trim().length < 30 && NAME.test(text(k)) && !SIGNOFF.test(text(k).trim())) {
      k--;
      names++;
    }
    while (k >= s && blank(k)) k--;
    if (k >= s && SIGNOFF.test(text(k).trim()) && text(k).trim().length < 40) {
      e = k - 1;
      changed = true;
    }
  }
  skipBlankBack();
  if (e < s) return null;
  // A lone "-ritesh" / "-Dave." / "~Sedat" is a signature, a lone "Dylan," a salutation: not comments.
  if (s === e && (DASH_NAME.test(text(s)) || SALUTATION.test(text(s)))) return null;
  const body = lines
    .slice(s, e + 1)
    .map((l) => l.text)
    .join('\n')
    .replace(/[ \t]+$/gm, '');
  if (body.trim() === '') return null;
  return { depth, start: s, end: e, rawStart: start, body };
}
