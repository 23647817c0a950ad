/**
 * Commit messages and commit objects for applied patches: the message from
 * the mail, plus a `Link:` to the patch on lore and the acknowledgements
 * reviewers gave in replies, each optional.
 */
import type { Address, Patch, Series, Trailer } from '../model';

export interface TrailerOptions {
  /** Add `Link: https://lore.kernel.org/r/<msgid>` (default true). */
  link?: boolean;
  /** Add Reviewed-by / Acked-by / Tested-by given in replies (default true). */
  replyTrailers?: boolean;
  /** Base of the Link URL (default `https://lore.kernel.org/r/`). */
  linkBase?: string;
}

const FROM_REPLIES = new Set(['Reviewed-by', 'Acked-by', 'Tested-by']);

/** The lore URL of a message: its Message-ID without angle brackets, URL-escaped where needed. */
export function loreLink(messageId: string, base = 'https://lore.kernel.org/r/'): string {
  const id = messageId.trim().replace(/^<|>$/g, '');
  return base + id.replace(/[^A-Za-z0-9._~!$&'()*+,;=:@\-]/g, (c) => encodeURIComponent(c));
}

function oneLine(s: string): string {
  return s.replace(/[\r\n\0]+/g, ' ').trim();
}

/** Trailers to append to one patch's message, without duplicates of what it already carries. */
export function extraTrailers(series: Series, patch: Patch, opts: TrailerOptions = {}): string[] {
  const out: string[] = [];
  const have = new Set(patch.trailers.map((t) => `${t.name.toLowerCase()}:${t.value.toLowerCase()}`));
  const add = (t: Pick<Trailer, 'name' | 'value'>): void => {
    const key = `${t.name.toLowerCase()}:${t.value.toLowerCase()}`;
    if (have.has(key)) return;
    have.add(key);
    out.push(`${oneLine(t.name)}: ${oneLine(t.value)}`);
  };
  if (opts.replyTrailers !== false) {
    const given = [...series.coverTrailers, ...(series.replyTrailers[patch.messageId] ?? [])];
    for (const t of given) if (FROM_REPLIES.has(t.name)) add(t);
  }
  // A Message-ID made up for a mail that had none has no page on lore.
  if (opts.link !== false && !/@(?:local|kernel-review\.invalid)>$/.test(patch.messageId)) {
    add({ name: 'Link', value: loreLink(patch.messageId, opts.linkBase) });
  }
  return out;
}

/** Does the last paragraph of the text look like a trailer block? */
function endsWithTrailers(text: string): boolean {
  const paras = text.trimEnd().split(/\n\s*\n/);
  const last = paras[paras.length - 1].split('\n');
  return paras.length > 1 && last.every((l) => /^[A-Za-z0-9][A-Za-z0-9-]*: \S/.test(l) || /^\s/.test(l));
}

/** The full commit message: title, body, extra trailers; LF line ends, one final newline. */
export function commitMessage(patch: Patch, extra: string[]): string {
  const title = oneLine(patch.commitTitle) || '(no subject)';
  let text = title;
  const body = patch.commitBody.replace(/\r\n?/g, '\n').replace(/\0/g, '').replace(/^\s*\n/, '').trimEnd();
  if (body) text += `\n\n${body}`;
  if (extra.length) text += (endsWithTrailers(text) ? '\n' : '\n\n') + extra.join('\n');
  return `${text}\n`;
}

/** git's ident rules: no `<`, `>` or newline inside, no surrounding crud. */
function identPart(s: string): string {
  return s.replace(/[<>\r\n\0]/g, '').replace(/^[\s.,:;"'\\]+|[\s.,:;"'\\]+$/g, '');
}

/** `Name <addr> <unix time> <+hhmm>` for an author line. */
export function authorIdent(author: Address, date: Date | null, now: Date, zone?: string): string {
  const email = identPart(author.address) || 'unknown';
  const name = identPart(author.name) || email;
  const dated = !!date && !Number.isNaN(date.getTime());
  const when = dated ? date : now;
  // The sender's zone, as git am keeps it; the instant is the same either way.
  const tz = dated && zone && /^[+-]\d{4}$/.test(zone) ? zone : '+0000';
  return `${name} <${email}> ${Math.floor(when.getTime() / 1000)} ${tz}`;
}

/** The body of a commit object. */
export function commitBody(tree: string, parent: string, author: string, committer: string, message: string): Buffer {
  return Buffer.from(`tree ${tree}\nparent ${parent}\nauthor ${author}\ncommitter ${committer}\n\n${message}`, 'utf8');
}
