/**
 * Mailbox lists as a person writes them in a draft: `Name <addr>`,
 * `"Doe, Jane" <addr>`, bare `addr`, separated by commas. Parsing is lenient
 * (a draft is hand-edited); formatting quotes display names that need it.
 */
import { Address } from '../model';

/** Characters that force a display name into a quoted string (RFC 5322 specials). */
const SPECIALS = /[()<>\[\]:;@\\,."]/;

/** `Name <addr>` for a header value in a draft (UTF-8, not yet RFC 2047 encoded). */
export function formatAddress(a: Address): string {
  if (!a.name) return a.address;
  return `${quoteName(a.name)} <${a.address}>`;
}

/** `Name <addr>` for people to read (a confirmation dialog): no quoting. */
export function displayAddress(a: Address): string {
  return a.name ? `${a.name} <${a.address}>` : a.address;
}

export function quoteName(name: string): string {
  return SPECIALS.test(name) ? `"${name.replace(/(["\\])/g, '\\$1')}"` : name;
}

/** Splits a header value at top-level commas (not inside quotes, angle brackets or comments). */
function splitList(value: string): string[] {
  const parts: string[] = [];
  let cur = '';
  let quoted = false;
  let angle = 0;
  let paren = 0;
  for (let i = 0; i < value.length; i++) {
    const c = value[i];
    if (quoted) {
      cur += c;
      if (c === '\\' && i + 1 < value.length) cur += value[++i];
      else if (c === '"') quoted = false;
      continue;
    }
    if (c === '"') quoted = true;
    else if (c === '<') angle++;
    else if (c === '>') angle = Math.max(0, angle - 1);
    else if (c === '(') paren++;
    else if (c === ')') paren = Math.max(0, paren - 1);
    else if ((c === ',' || c === ';') && angle === 0 && paren === 0) {
      parts.push(cur);
      cur = '';
      continue;
    }
    cur += c;
  }
  parts.push(cur);
  return parts.map((p) => p.trim()).filter((p) => p.length > 0);
}

function unquote(s: string): string {
  const t = s.trim();
  if (t.length >= 2 && t.startsWith('"') && t.endsWith('"')) return t.slice(1, -1).replace(/\\(.)/g, '$1');
  return t;
}

/** Parses one mailbox; null when there is no address in it. */
export function parseAddress(text: string): Address | null {
  const t = text.trim();
  // Group syntax `undisclosed-recipients:` with nothing after it.
  if (/^[^<"@]*:\s*$/.test(t)) return null;
  const m = /^(.*)<([^<>]*)>\s*(\(.*\))?$/.exec(t);
  if (m) {
    const address = m[2].trim();
    if (!address) return null;
    return { name: unquote(m[1]), address };
  }
  const c = /^([^\s()]+)\s*\((.*)\)$/.exec(t);
  if (c) return { name: c[2].trim(), address: c[1] };
  if (/\s/.test(t) || !t.includes('@')) return null;
  return { name: '', address: t };
}

/** Parses a To/Cc value; throws nothing: returns the entries it understood and the ones it did not. */
export function parseAddressList(value: string): { addresses: Address[]; invalid: string[] } {
  const addresses: Address[] = [];
  const invalid: string[] = [];
  for (const part of splitList(value.replace(/^[^<"@,]*:\s*(?=\S)/, ''))) {
    const a = parseAddress(part.replace(/;$/, ''));
    if (a) addresses.push(a);
    else if (!/^[^<"@]*:\s*;?$/.test(part)) invalid.push(part);
  }
  return { addresses, invalid };
}

export function sameAddress(a: Address, b: Address): boolean {
  return a.address.toLowerCase() === b.address.toLowerCase();
}
