/**
 * Message-ID references and public-inbox URLs.
 *
 * A reference is what a user pastes: a bare Message-ID, `<id>`, `id:<id>` / `mid:<id>`,
 * a public-inbox URL (`https://lore.kernel.org/io-uring/<id>/`, `…/T/#u`, `…/raw`,
 * `…/t.mbox.gz`, a self-hosted instance under any path), or a redirector URL
 * (`https://patch.msgid.link/<id>`, `https://lore.kernel.org/r/<id>`).
 */

export const DEFAULT_PUBLIC_INBOX = 'https://lore.kernel.org/all/';

/** A Message-ID (without angle brackets) and, for inbox URLs, the inbox it came from. */
export interface MessageRef {
  /** The Message-ID without angle brackets. */
  id: string;
  /** The inbox base URL (ending in `/`) named by the input, or null when the input names none. */
  base: string | null;
}

/** Hosts that only redirect a Message-ID to lore; their URLs name no inbox. */
const REDIRECTORS = new Set(['patch.msgid.link', 'msgid.link']);

/** What public-inbox may put after the Message-ID segment of a URL. */
const SUFFIX = /^(?:|T|t|raw|t\.mbox|t\.mbox\.gz|t\.atom|f|R|\d[\d.]*-[^/]*)$/;

/** Thrown when an input is neither a Message-ID nor a usable URL. */
export class MessageRefError extends Error {
  override name = 'MessageRefError';
}

/** True for text that can stand for a Message-ID on its own: `local@domain`, no spaces or brackets. */
function bareId(s: string): boolean {
  return /^[^\s<>"]+@[^\s<>"]+$/.test(s) && !/^[a-z][a-z0-9+.-]*:\/\//i.test(s);
}

function decodeSegment(seg: string): string {
  try {
    return decodeURIComponent(seg);
  } catch {
    return seg;
  }
}

function fromUrl(input: string, url: URL): MessageRef {
  const host = url.hostname.toLowerCase();
  const segs = url.pathname.split('/');
  // The Message-ID is the last segment holding an `@` that is followed only by a public-inbox suffix.
  let at = -1;
  for (let i = segs.length - 1; i >= 0; i--) {
    const rest = segs.slice(i + 1).filter((s) => s !== '');
    if (decodeSegment(segs[i]).includes('@') && rest.length <= 1 && SUFFIX.test(rest[0] ?? '')) {
      at = i;
      break;
    }
  }
  if (at < 0) throw new MessageRefError(`${input} does not name a message (no Message-ID in its path)`);
  const id = decodeSegment(segs[at]).replace(/^<(.*)>$/, '$1');
  if (REDIRECTORS.has(host)) return { id, base: null };
  let prefix = segs.slice(0, at).join('/');
  // lore's /r/ is a redirector to /all/.
  if (host === 'lore.kernel.org' && (prefix === '/r' || prefix === '')) prefix = '/all';
  return { id, base: `${url.protocol}//${url.host}${prefix}/` };
}

/**
 * Parses what a user pasted into a Message-ID reference; null when it does not look like one
 * (so callers can treat it as a file name instead).
 */
export function parseMessageRef(input: string): MessageRef | null {
  let s = input.trim();
  if (/^https?:\/\//i.test(s)) {
    let url: URL;
    try {
      url = new URL(s);
    } catch {
      return null;
    }
    return fromUrl(input.trim(), url);
  }
  const scheme = /^(id|mid):/i.exec(s);
  if (scheme) s = scheme[1].toLowerCase() === 'mid' ? decodeSegment(s.slice(4)) : s.slice(3);
  s = s.trim();
  const bracketed = /^<([^<>]+)>$/.exec(s);
  if (bracketed) {
    const id = bracketed[1].trim();
    return id && !/\s/.test(id) ? { id, base: null } : null;
  }
  if (scheme && s && !/[\s<>]/.test(s)) return { id: s, base: null };
  return bareId(s) ? { id: s, base: null } : null;
}

/** Like parseMessageRef, but throws a one-sentence error for input that is not a reference. */
export function requireMessageRef(input: string): MessageRef {
  const ref = parseMessageRef(input);
  if (!ref) {
    throw new MessageRefError(
      `'${input}' is neither a Message-ID (local@domain or <local@domain>) nor a public-inbox URL`,
    );
  }
  return ref;
}

/** Escapes a Message-ID for a public-inbox URL path the way public-inbox does (RFC 3986 pchar). */
export function midEscape(id: string): string {
  let out = '';
  for (const byte of Buffer.from(id, 'utf8')) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-._~!$&'()*+,;=:@]/.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** Checks and normalises an inbox base URL: http(s), no query or fragment, trailing `/`. */
export function normalizeBase(base: string): string {
  let url: URL;
  try {
    url = new URL(base.trim());
  } catch {
    throw new MessageRefError(`public-inbox URL '${base}' is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new MessageRefError(`public-inbox URL '${base}' must start with http:// or https://`);
  }
  url.search = '';
  url.hash = '';
  return url.href.endsWith('/') ? url.href : `${url.href}/`;
}

/** `<base><escaped id>/t.mbox.gz`: the whole thread as a gzipped mboxrd. */
export function threadUrl(base: string, id: string): string {
  return `${normalizeBase(base)}${midEscape(id)}/t.mbox.gz`;
}

/** `<base><escaped id>/raw`: one message as stored. */
export function rawUrl(base: string, id: string): string {
  return `${normalizeBase(base)}${midEscape(id)}/raw`;
}

/** `<base><escaped id>/`: the thread page for people. */
export function pageUrl(base: string, id: string): string {
  return `${normalizeBase(base)}${midEscape(id)}/`;
}

/** `<base>?q=<query>&x=m`: search results as a gzipped mbox (fetched with POST). */
export function searchUrl(base: string, query: string, threads = false): string {
  const q = encodeURIComponent(query).replace(/%20/g, '+');
  return `${normalizeBase(base)}?q=${q}&x=m${threads ? '&t=1' : ''}`;
}

/** The host (with port) of a base URL, for messages. */
export function hostOf(base: string): string {
  return new URL(base).host;
}

/** The inbox to use for a reference: the one its URL names, else the explicit one, else lore's `all`. */
export function baseFor(ref: MessageRef, explicit?: string): string {
  return normalizeBase(ref.base ?? explicit ?? DEFAULT_PUBLIC_INBOX);
}

/**
 * For a mail that cannot be read (its line breaks were lost): how to get the intact thread.
 * `messageId` may carry angle brackets.
 */
export function fetchHint(messageId: string, base: string = DEFAULT_PUBLIC_INBOX): {
  command: string;
  url: string;
  sentence: string;
} {
  const id = messageId.trim().replace(/^<(.*)>$/, '$1');
  const b = normalizeBase(base);
  const url = pageUrl(b, id);
  const opt = b === DEFAULT_PUBLIC_INBOX ? '' : ` --public-inbox ${b}`;
  const command = `kernel-review fetch '<${id.replace(/'/g, `'\\''`)}>'${opt} -o thread.mbox`;
  return { command, url, sentence: `fetch the intact thread with ${command} (or open ${url})` };
}

/**
 * A reference found in pasted or clipboard text (one line, a Message-ID or message URL),
 * or null; never throws, so a UI can offer it only when it looks like one.
 */
export function refFromText(text: string): MessageRef | null {
  const t = text.trim();
  if (!t || /[\r\n]/.test(t) || t.length > 2000) return null;
  try {
    return parseMessageRef(t);
  } catch {
    return null;
  }
}
