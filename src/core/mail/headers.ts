/**
 * Fast header parsing: enough to thread and index a list archive without
 * decoding bodies. RFC 2047 encoded words are decoded here with the platform's
 * TextDecoder; libmime (the decoder mailparser uses) is loaded only for
 * charsets TextDecoder does not know.
 */
import { Address } from '../model';

export type HeaderMap = Map<string, string[]>;

const utf8 = new TextDecoder('utf-8', { fatal: true });
const latin1 = new TextDecoder('windows-1252');

/** Decodes header or body bytes: UTF-8 when valid, else Windows-1252 (which every byte decodes under). */
export function decodeBytes(bytes: Buffer): string {
  try {
    return utf8.decode(bytes);
  } catch {
    return latin1.decode(bytes);
  }
}

/** Offset of the blank line that ends the header block, or -1 when the headers never end. */
export function headerEnd(bytes: Buffer): number {
  if (bytes.length && bytes[0] === 0x0a) return 0;
  const i = bytes.indexOf('\n\n');
  return i < 0 ? -1 : i + 1;
}

/**
 * Splits the header block into unfolded fields; names are lower-cased, values
 * raw (not RFC 2047 decoded). With `wanted`, other fields (Received, DKIM, …,
 * most of a list mail's header bytes) are skipped without being copied.
 */
export function parseHeaderBlock(block: string, wanted?: ReadonlySet<string>): HeaderMap {
  const map: HeaderMap = new Map();
  let name = '';
  let value = '';
  let keep = false;
  const push = () => {
    if (!name || !keep) return;
    const list = map.get(name);
    if (list) list.push(value);
    else map.set(name, [value]);
  };
  let pos = 0;
  const n = block.length;
  while (pos < n) {
    let nl = block.indexOf('\n', pos);
    if (nl < 0) nl = n;
    const c = block.charCodeAt(pos);
    if (nl === pos) {
      pos = nl + 1;
      continue;
    }
    if ((c === 32 || c === 9) && name) {
      if (keep) value += ' ' + block.slice(pos, nl).trim();
      pos = nl + 1;
      continue;
    }
    const colon = block.indexOf(':', pos);
    const fieldName = colon > pos && colon < nl ? block.slice(pos, colon) : '';
    if (!fieldName || /\s/.test(fieldName)) {
      // Not a header line (garbage, or a broken continuation): keep it with the previous field.
      if (name && keep) value += ' ' + block.slice(pos, nl).trim();
      pos = nl + 1;
      continue;
    }
    push();
    name = fieldName.toLowerCase();
    keep = !wanted || wanted.has(name);
    value = keep ? block.slice(colon + 1, nl).trim() : '';
    pos = nl + 1;
  }
  push();
  return map;
}

export function first(h: HeaderMap, name: string): string | undefined {
  return h.get(name)?.[0];
}

const ENCODED_WORD = /=\?([^?\s*]+)(?:\*[^?\s]*)?\?([BbQq])\?([^?\s]*)\?=/g;

function wordBytes(enc: string, text: string): Buffer {
  if (enc === 'B' || enc === 'b') return Buffer.from(text, 'base64');
  const q = text.replace(/_/g, ' ').replace(/=([0-9A-Fa-f]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
  return Buffer.from(q, 'latin1');
}

function libmimeDecode(value: string): string {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return (require('libmime') as { decodeWords(s: string): string }).decodeWords(value);
  } catch {
    return value;
  }
}

/**
 * Decodes RFC 2047 words; never throws (a broken word stays as written).
 * Adjacent words are joined before decoding, so a character split across two
 * words survives, and the white space between them is dropped (RFC 2047 6.2).
 */
export function decodeWords(value: string): string {
  if (!value.includes('=?')) return value;
  let out = '';
  let last = 0;
  let run: { charset: string; bytes: Buffer[] } | null = null;
  const flushRun = (): boolean => {
    if (!run) return true;
    const label = run.charset.toLowerCase();
    let text: string;
    try {
      text = new TextDecoder(label === 'utf8' ? 'utf-8' : label, { fatal: label !== 'utf-8' && label !== 'utf8' }).decode(Buffer.concat(run.bytes));
    } catch {
      return false;
    }
    out += text;
    run = null;
    return true;
  };
  for (const m of value.matchAll(ENCODED_WORD)) {
    const between = value.slice(last, m.index);
    const adjacent = run !== null && /^\s*$/.test(between);
    if (!adjacent) {
      if (!flushRun()) return libmimeDecode(value);
      out += between;
    }
    const charset = m[1];
    if (run && run.charset.toLowerCase() !== charset.toLowerCase() && !flushRun()) return libmimeDecode(value);
    if (!run) run = { charset, bytes: [] };
    run.bytes.push(wordBytes(m[2], m[3]));
    last = m.index + m[0].length;
  }
  if (!flushRun()) return libmimeDecode(value);
  return out + value.slice(last);
}

/** Every `<…>` token in a header, in order. */
export function messageIds(value: string | undefined): string[] {
  if (!value) return [];
  const out = value.match(/<[^<>\s]+>/g);
  if (out) return out.filter((id) => id.length <= 998);
  // A bare id without brackets (seen in broken mailers): bracket it.
  const bare = value.trim().split(/\s+/)[0];
  return bare && /^[^<>\s]+@[^<>\s]+$/.test(bare) && bare.length <= 998 ? [`<${bare}>`] : [];
}

/** The Message-ID as in the header: the first `<…>` token, bracketed when the sender forgot. */
export function messageIdOf(value: string | undefined): string | null {
  return messageIds(value)[0] ?? null;
}

/** Splits an address list on commas outside quotes, comments and angle brackets. */
function splitAddresses(value: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quote = false;
  let depth = 0;
  let angle = false;
  for (let i = 0; i < value.length; i++) {
    const c = value[i];
    if (c === '\\' && quote) {
      cur += c + (value[++i] ?? '');
      continue;
    }
    if (c === '"' && depth === 0) quote = !quote;
    else if (!quote && c === '(') depth++;
    else if (!quote && c === ')' && depth > 0) depth--;
    else if (!quote && depth === 0 && c === '<') angle = true;
    else if (!quote && depth === 0 && c === '>') angle = false;
    if (c === ',' && !quote && depth === 0 && !angle) {
      out.push(cur);
      cur = '';
    } else cur += c;
  }
  out.push(cur);
  return out.map((s) => s.trim()).filter(Boolean);
}

/** A display name: quotes and quoted-pairs undone, RFC 5322 (comments) dropped, encoded words decoded. */
function cleanName(name: string): string {
  let out = '';
  let quote = false;
  let depth = 0;
  for (let i = 0; i < name.length; i++) {
    const c = name[i];
    if (c === '\\') {
      if (depth === 0) out += name[i + 1] ?? '';
      i++;
    } else if (c === '"' && depth === 0) quote = !quote;
    else if (c === '(' && !quote) depth++;
    else if (c === ')' && !quote && depth > 0) depth--;
    else if (depth === 0) out += c;
  }
  // A name that was nothing but a comment (`addr (Name)` style) keeps the comment's text.
  if (!out.trim() && name.includes('(')) out = name.replace(/^[\s(]+|[\s)]+$/g, '');
  return decodeWords(out).replace(/\s+/g, ' ').trim();
}

/** Parses one mailbox: `Name <addr>`, `"Name" <addr>`, `addr (Name)`, or a bare address. */
export function parseAddress(value: string): Address {
  const v = value.trim();
  const angle = /^(.*?)<([^<>]*)>\s*(?:\(.*\))?\s*$/.exec(v);
  if (angle) return { name: cleanName(angle[1]), address: angle[2].trim() };
  const comment = /^([^\s()]+@[^\s()]+)\s*\((.*)\)\s*$/.exec(v);
  if (comment) return { name: cleanName(comment[2]), address: comment[1] };
  if (/^[^\s@]+@[^\s@]+$/.test(v)) return { name: '', address: v };
  return { name: cleanName(v), address: '' };
}

export function parseAddressList(value: string | undefined): Address[] {
  if (!value) return [];
  // Group syntax (`undisclosed-recipients:;`) carries no address.
  return splitAddresses(value.replace(/^[^,"<>@]*:;?\s*$/, ''))
    .map(parseAddress)
    .filter((a) => a.address || a.name);
}

/** Parses an RFC 2822 date (and the sloppier forms mailers write); null when unusable. */
export function parseDate(value: string | undefined): Date | null {
  if (!value) return null;
  const v = value.replace(/\([^)]*\)/g, ' ').replace(/\s+/g, ' ').trim();
  if (v.length > 200) return null;
  let t = Date.parse(v);
  if (Number.isNaN(t)) {
    // "Mon, 3 Jun 2024 10:00:00 +0200 CEST" and friends: drop trailing zone names.
    const m = /^(.*?[+-]\d{4})\b/.exec(v);
    if (m) t = Date.parse(m[1]);
  }
  if (Number.isNaN(t)) return null;
  const d = new Date(t);
  const y = d.getUTCFullYear();
  return y < 1970 || y > 9999 ? null : d;
}

/** The numeric zone of an RFC 2822 date (`+0200`; `GMT`/`UT`/`Z` are `+0000`), or undefined. */
export function parseDateZone(value: string | undefined): string | undefined {
  if (!value) return undefined;
  const v = value.replace(/\([^)]*\)/g, ' ').trim();
  const m = /\d{1,2}:\d{2}(?::\d{2})?\s+([+-]\d{4}|GMT|UTC?|Z)\b/i.exec(v);
  if (!m) return undefined;
  return /^[+-]/.test(m[1]) ? m[1] : '+0000';
}

export function formatAddress(a: Address): string {
  if (!a.address) return a.name;
  return a.name ? `${a.name} <${a.address}>` : a.address;
}
