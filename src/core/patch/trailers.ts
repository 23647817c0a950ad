/**
 * Trailers: the `Token: value` lines at the end of a commit message, and the
 * ones reviewers write in replies (collected the way b4 collects follow-up
 * trailers: own lines only, nothing quoted, nothing below the signature).
 */
import type { Address, Trailer } from '../model';

const CANONICAL = [
  'Signed-off-by', 'Reviewed-by', 'Acked-by', 'Tested-by', 'Reported-by', 'Suggested-by',
  'Co-developed-by', 'Nacked-by', 'Requested-by', 'Reported-and-tested-by', 'Debugged-by',
  'Originally-by', 'Helped-by', 'Cc', 'Fixes', 'Link', 'Closes', 'BugLink', 'Message-ID',
  'Obsoleted-by', 'Based-on-patch-by', 'Analyzed-by', 'Bisected-by', 'Regression-found-by',
];
const CANON = new Map(CANONICAL.map((n) => [n.toLowerCase(), n]));

/** `reviewed-by` → `Reviewed-by`, `Message-Id` → `Message-ID`; unknown tokens kept as written. */
export function canonicalTrailerName(name: string): string {
  return CANON.get(name.toLowerCase()) ?? name;
}

const TRAILER_LINE = /^([A-Za-z0-9][A-Za-z0-9-]*[A-Za-z0-9])\s*:\s*(\S.*)$/;

/** Removes `<mailto:…>` junk left by HTML mailers and trims. */
function cleanValue(v: string): string {
  return v.replace(/<mailto:[^>]*>/gi, '').replace(/\s+/g, ' ').trim();
}

/**
 * Trailers of a commit message: the lines of its last paragraph that look like
 * `Token: value` (continuation lines indented), when that paragraph is a trailer
 * block — at least one line and a quarter of its lines are trailers, as git decides.
 */
export function parseTrailers(text: string, messageId: string): Trailer[] {
  const lines = text.replace(/\r\n/g, '\n').replace(/\s+$/, '').split('\n');
  let start = lines.length;
  while (start > 0 && lines[start - 1].trim() !== '') start--;
  const block = lines.slice(start);
  const out: Trailer[] = [];
  let nonTrailer = 0;
  for (const line of block) {
    const m = TRAILER_LINE.exec(line);
    if (m && !/^https?$/i.test(m[1])) {
      out.push({ name: canonicalTrailerName(m[1]), value: cleanValue(m[2]), messageId });
    } else if (/^\s/.test(line) && out.length) {
      out[out.length - 1].value = cleanValue(`${out[out.length - 1].value} ${line}`);
    } else {
      nonTrailer++;
    }
  }
  if (out.length === 0 || out.length * 3 < nonTrailer) return [];
  return out;
}

/** Trailer names b4 drops from replies: they are mail or patch metadata, not acknowledgements. */
const REPLY_BAD = new Set(['from', 'author', 'cc', 'to', 'date', 'subject', 'subscribe', 'unsubscribe', 'base-commit', 'change-id', 'phone', 'email']);
/** Trailers accepted from a reply without an e-mail address in their value. */
const NON_PERSON = new Set(['fixes', 'link', 'buglink', 'obsoleted-by']);

export interface ReplyTrailerOptions {
  /** The reply's sender: when given (and not sloppy), a person trailer must name this sender. */
  from?: Address;
  /** Accept person trailers for someone other than the sender (b4 --sloppy-trailers). */
  sloppy?: boolean;
}

function trailerAddress(value: string): { name: string; address: string } {
  const m = /^(.*?)\s*<([^<>\s]+@[^<>\s]+)>/.exec(value);
  if (m) return { name: m[1].trim(), address: m[2] };
  const bare = /(\S+@\S+\.[^\s>]+)/.exec(value);
  return { name: '', address: bare ? bare[1] : '' };
}

function normaliseAddress(a: string): string {
  return a.toLowerCase().replace(/\+[^@]*@/, '@');
}

/** b4's identity check: same address (ignoring `+tag`), else the same display name. */
function sameSender(value: string, from: Address): boolean {
  const t = trailerAddress(value);
  if (t.address && normaliseAddress(t.address) === normaliseAddress(from.address)) return true;
  return t.name !== '' && t.name.toLowerCase() === from.name.toLowerCase();
}

/**
 * Trailers a replier wrote at their own level: quoted (`>`) lines, the quoted
 * patch and everything under a `-- ` signature are ignored. Person trailers
 * (value with an address) and Fixes are taken; lines whose value is a URL are
 * not, as b4 does.
 */
export function findReplyTrailers(body: string, messageId: string, opts: ReplyTrailerOptions = {}): Trailer[] {
  let text = body.replace(/\r\n/g, '\n').split(/\n-- \n/)[0];
  // Undo two common wrappings: `Fixes: abc (title\ncontinued)` and `Name\n<addr>`.
  text = text.replace(/^(\S+:\s+[\da-f]+\s+\([^)\n]+)\n([^\n]+\))/gm, '$1 $2');
  text = text.replace(/^(\S+:\s+[^<\n]+)\n(<[^>\n]+>)$/gm, '$1 $2');
  const out: Trailer[] = [];
  for (const raw of text.split('\n')) {
    // A patch the replier included inline carries its own trailers, not theirs.
    if (/^diff -|^Index: |^--- \S/.test(raw)) break;
    const m = /^\s*([A-Za-z0-9][\w-]*)\s*:\s+(\S.*)$/.exec(raw);
    if (!m) continue;
    const lname = m[1].toLowerCase();
    const value = cleanValue(m[2]);
    if (REPLY_BAD.has(lname)) continue;
    const person = /\S+@\S+\.\S+/.test(value);
    if (!person && !NON_PERSON.has(lname)) continue;
    if (/https?:\/\//.test(value)) continue;
    if (person && opts.from && !opts.sloppy && !sameSender(value, opts.from)) continue;
    out.push({ name: canonicalTrailerName(m[1]), value, messageId });
  }
  return out;
}
